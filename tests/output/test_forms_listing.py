"""A listing too big for its compact form spends its budget on names: as many as fit, in listing
order under their directory, then counts. Truth: ``os.listdir`` (``fixtures/forms_truth.json``)
and the rows of ``find`` themselves for the bare-path listing."""

from __future__ import annotations

import io
import json
import re

import pytest

from summarizer.output import OriginalStore, OutputOptions, OutputResult, compress
from tests.output.conftest import FIXTURES, fixture_bytes

TRUTH = json.loads((FIXTURES / "forms_truth.json").read_text())


def _expanded(word: str) -> list[str]:
    """``libz.so{@,.1}`` as a shell expands it: ``libz.so@ libz.so.1``."""
    found = re.fullmatch(r"([^{]*)\{([^}]*)\}", word)
    return [found.group(1) + part for part in found.group(2).split(",")] if found else [word]


def _names(text: str) -> tuple[str, list[str]]:
    """The names section's heading and its names (``/`` and ``@`` marks cut), in order."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("names ("))
    names: list[str] = []
    for line in lines[start + 1 :]:
        if line.startswith(("[", "lines that are not listing rows")):
            break
        if not line.startswith("@ "):
            names += [name.rstrip("/@") for word in line.split() for name in _expanded(word)]
    return lines[start], names


def _compress(data: bytes, store: OriginalStore, target: int | None) -> OutputResult:
    return compress(io.BytesIO(data), store, OutputOptions(target_tokens=target, floor_tokens=0))


@pytest.mark.parametrize("target", [250, 500])
def test_ls_la_summary_names_as_many_entries_as_its_budget_holds(store: OriginalStore, target: int) -> None:
    """A budget too small for every entry: the first names in ``ls`` order fill it; the counts
    say how many more there are. Every name shown is an entry of the folder."""
    entries = TRUTH["ls_la_lib"]
    result = _compress(fixture_bytes("forms_ls_la_lib.txt"), store, target)
    assert result.first_error is None and result.compressed_tokens <= target
    assert result.compressed_tokens >= target * 0.75  # the budget is used, not a fraction of it
    heading, names = _names(result.text)
    assert heading.startswith(f"names (the first {len(names)} of {len(entries) + 2}")  # with . and ..
    rows = fixture_bytes("forms_ls_la_lib.txt").decode().splitlines()
    in_order = [name for row in rows if (name := row.split(" -> ")[0].split()[-1]) in entries]
    assert names == in_order[: len(names)]
    # Each name costs 10 tokens and more: the shared prefixes are written once.
    assert len(names) >= target // 30
    assert "libabsl_failure_signal_handler{.a,.so.0@,.so.0.0.0," in result.text


def test_more_budget_names_more_entries(store: OriginalStore) -> None:
    small = _names(_compress(fixture_bytes("forms_ls_la_lib.txt"), store, 250).text)[1]
    large = _names(_compress(fixture_bytes("forms_ls_la_lib.txt"), store, 500).text)[1]
    assert len(large) > len(small) * 1.5 and large[: len(small)] == small


def test_a_big_find_listing_names_entries_under_their_directory(store: OriginalStore) -> None:
    """Over the pass-through size, default budget (3,000 tokens): a bare-path ``find`` listing
    keeps its counts and names hundreds of its paths, each under its own directory."""
    paths = fixture_bytes("noise_find_listing.txt").decode().splitlines()
    result = _compress(("\n".join(paths) + "\n").encode(), store, None)
    assert 2_400 <= result.compressed_tokens <= 3_000
    heading, names = _names(result.text)
    assert len(names) >= 300
    shown: set[str] = set()
    folder = ""
    for line in result.text.split(heading, 1)[1].splitlines()[1:]:
        if line.startswith("["):
            break
        if line.startswith("@ "):
            folder = line[2:]
            continue
        shown |= {f"{folder}/{name.rstrip('/@')}" for word in line.split() for name in _expanded(word)}
    assert shown <= {p.rstrip("/") for p in paths}
    assert {p.rstrip("/") for p in paths[: len(shown) // 2]} - {paths[0]} <= shown | {"/usr/share/doc"}
