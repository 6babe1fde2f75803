"""The repo speaks for itself: code, tests and docs never point at a document its reader lacks.

A rule is stated where it applies (one line), or linked into ``docs/``. Words that name an outside
document (the requirements, the style guide, an issue tracker's numbers) fail here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("summarizer", "cache", "engram", "tests", "docs", "evals", "prompts")
SUFFIXES = {".py", ".md", ".j2", ".toml", ".json"}

# The words are assembled so this file does not name them itself (the repo-wide grep stays empty).
REQUIREMENTS, STYLE_GUIDE, ISSUE = "S" + "PEC", "S" + "TYLE", "i" + "ssue"

# "seed" as a document ("the seed's table", "seed 000", "seed §7"), not a random seed or a seed
# script in a test fixture's story, nor a test runner's --seed flag.
FORBIDDEN = re.compile(
    rf"\b{REQUIREMENTS}\b|\b{STYLE_GUIDE}(?:\.md| R\d*)\b|\b[Ii]{ISSUE[1:]} #?\d+"
    r"|\b[Tt]he seeds?\b(?! script)|(?<!--)\b[Ss]eed(?=[- ]?(?:\d{3}|§))|\b[Ss]eed's\b|\bseeds'"
)


def _files() -> Iterator[Path]:
    yield ROOT / "README.md"
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in SUFFIXES and ".venv" not in path.parts and path != Path(__file__):
                yield path


def _hits(text: str) -> list[tuple[int, str]]:
    return [(n, m.group(0)) for n, line in enumerate(text.splitlines(), 1) for m in FORBIDDEN.finditer(line)]


def test_no_reference_to_an_outside_document() -> None:
    """Every file the repo ships or tests with names its rules itself."""
    found = [
        f"{path.relative_to(ROOT)}:{n}: {word!r}"
        for path in _files()
        for n, word in _hits(path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert not found, "state the rule or link into docs/:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "line",
    [
        f"Budget rules ({REQUIREMENTS}.md):",
        f"as {REQUIREMENTS} rules",
        f"thin adapters ({STYLE_GUIDE} R4)",
        "the seed's report",
        "The seed says so",
        "(seed 004)",
        "Seed §18 escalation",
        "seed-001 document",
        f"found in {ISSUE} 13",
        f"{ISSUE.title()} 17 item 8",
        f"engram {ISSUE} #41",
    ],
)
def test_the_check_sees_each_kind_of_reference(line: str) -> None:
    assert _hits(line)


@pytest.mark.parametrize(
    "line",
    [
        "rng = random.Random(seed)",
        "bootstrap_mean(values, seed=1)",
        "ruby test/test_numbers.rb -v --seed 1234",
        "Seeded random bytes",
        "The seed script gained a --dry-run flag",
        "backend/scripts/seed.py",
        f"TOOL_{REQUIREMENTS}S = {{}}",
        f"_{REQUIREMENTS}IAL = '<>()'",
        "a separate ticket",
        "STYLE = {'summary': 'Tweaked CSS'}",
    ],
)
def test_the_check_leaves_ordinary_words_alone(line: str) -> None:
    assert not _hits(line)
