"""Whole chunks of listing rows skip the per-line key table, and that changes no verdict."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from summarizer.output import OriginalStore, OutputOptions, compress
from summarizer.output import coordinates as co
from summarizer.output import engine as engine_module
from summarizer.output.engine import DIGITS, LISTING_KEY, Engine
from summarizer.output.lines import Chunk, decode_line, is_binary
from summarizer.output.listing_chunk import MIN_LINES, listing_lines
from tests.output.conftest import fixture_bytes

ROOT = Path(__file__).resolve().parents[2]
_LISTINGS = [
    "forms_find_ls.txt",
    "forms_ls_la.txt",
    "forms_tar_tv.txt",
    "forms_du.txt",
    "noise_find_listing.txt",
]


def _every_fixture_line() -> list[bytes]:
    """Every distinct line of the repo's fixtures and zoo outputs."""
    paths = [p for p in (ROOT / "tests").rglob("*") if p.suffix in (".txt", ".log") and p.is_file()]
    paths += sorted((ROOT / "evals" / "zoo" / "cases").glob("*/output.txt"))
    lines: dict[bytes, None] = {}
    for path in paths:
        for raw in path.read_bytes().replace(b"\r\n", b"\n").split(b"\n"):
            lines.setdefault(raw[:4096], None)
    return list(lines)


def _big_find_ls(copies: int) -> list[str]:
    """The real ``find -ls`` fixture under ``copies`` distinct roots: no row repeats."""
    rows = fixture_bytes("forms_find_ls.txt").decode().splitlines()
    return [row.replace(" tree", f" /srv/m{i}/tree", 1) for i in range(copies) for row in rows]


@pytest.mark.parametrize("name", _LISTINGS)
def test_every_line_of_a_real_listing_is_a_row(name: str) -> None:
    data = fixture_bytes(name).rstrip(b"\n")
    assert listing_lines(data, min_lines=1) == data.split(b"\n")


def test_a_row_is_a_line_the_classifier_calls_ordinary() -> None:
    """Over every fixture and zoo line: a line taken as a row would have been an ordinary line,
    never a failure, a warning, a frame, a passing test, a record or a commit row."""
    rows = [line for line in _every_fixture_line() if listing_lines(line, min_lines=1) is not None]
    assert len(rows) > 4000
    for raw in rows:
        template = raw.translate(DIGITS)
        text = decode_line(template)
        assert not is_binary(template)
        lc = co.classify_template(text)
        assert (lc.cls, lc.record, co.plain_record(text)) == (co.PLAIN, False, False), raw
        assert not engine_module._KEY_ROW.match(raw)


@pytest.mark.parametrize(
    "line",
    [
        b"find: '/root': Permission denied",
        b"ERROR: disk full",
        b"/src/app.c:12:5: error: expected ';'",
        b"Traceback (most recent call last):",
        b'  File "/x/y.py", line 3, in f',
        b"-rw-r--r--1 root root 0 Dec  2 04:23 no-space-after-links",
        b"0rw-r--r-- 1 root root 0 Dec  2 04:23 not-a-mode",
        b"./build.sh: line 3: make: command not found",
        b"\t/src/app.c",
    ],
)
def test_a_chunk_with_one_line_that_is_not_a_row_is_not_a_listing(line: bytes) -> None:
    rows = "\n".join(_big_find_ls(120)).encode()
    cut = rows.find(b"\n", len(rows) // 2)
    assert listing_lines(rows) is not None
    assert listing_lines(rows[:cut] + b"\n" + line + rows[cut:]) is None


def test_a_bare_path_is_a_row_whatever_its_name_says() -> None:
    rows = fixture_bytes("noise_find_listing.txt").rstrip(b"\n")
    assert b"/python 2 sunset.rst\n" in rows
    assert listing_lines(rows + b"\n/srv/logs/fatal error report.txt") is not None


def test_a_small_chunk_is_left_to_the_table() -> None:
    rows = "\n".join(_big_find_ls(1)).encode()
    assert listing_lines(rows) is None and listing_lines(rows, min_lines=1) is not None


def test_a_big_listing_is_one_key_and_no_row_is_a_failure() -> None:
    """Rows named libgpg-error0, error_codes.txt, check_errors.sh: counted as rows, never coordinates."""
    rows = _big_find_ls(MIN_LINES // 20 + 1)
    engine = Engine()
    engine.feed(Chunk("\n".join(rows).encode()))
    engine.finish()
    assert engine.counts[LISTING_KEY] == len(rows) == engine.line_no
    assert engine.templates[LISTING_KEY].first == 1 and engine.last[LISTING_KEY] == len(rows)
    assert not engine.coords and engine.shape().name == "listing"


def _compress(store: OriginalStore, data: bytes) -> str:
    return compress(io.BytesIO(data), store, OutputOptions()).text


@pytest.mark.parametrize("planted", [None, "find: '/root/.cache': Permission denied"])
def test_the_rendering_is_the_one_the_key_table_gives(
    store: OriginalStore, monkeypatch: pytest.MonkeyPatch, planted: str | None
) -> None:
    """The same text with and without the whole-chunk path; a real error line is kept and is the
    first error (its chunk goes through the table)."""
    rows = _big_find_ls(400)
    if planted is not None:
        rows.insert(5000, planted)
    data = ("\n".join(rows) + "\n").encode()
    fast = _compress(store, data)
    monkeypatch.setattr(engine_module, "listing_lines", lambda data: None)
    assert _compress(store, data) == fast
    assert fast.startswith("[summarizer output") and "listing:" in fast
    if planted is not None:
        assert f"5001: {planted}" in fast
        assert planted in fast.split("first error", 1)[1].split("\n", 1)[0]
    else:
        assert "first error" not in fast
