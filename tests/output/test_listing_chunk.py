"""Whole chunks of listing rows skip the per-line key table, and that changes no verdict."""

from __future__ import annotations

import io

import pytest

from summarizer.output import OriginalStore, OutputOptions, compress
from summarizer.output import coordinates as co
from summarizer.output import engine as engine_module
from summarizer.output.engine import DIGITS, LISTING_KEY, Engine
from summarizer.output.lines import Chunk, decode_line, is_binary
from summarizer.output.listing_chunk import _ROW_LINE, _ROWS, MIN_LINES, listing_chunk, listing_lines
from tests.output.conftest import every_fixture_line, fixture_bytes

_LISTINGS = [
    "forms_find_ls.txt",
    "forms_ls_la.txt",
    "forms_tar_tv.txt",
    "forms_du.txt",
    "noise_find_listing.txt",
]


def _big_find_ls(copies: int) -> list[str]:
    """The real ``find -ls`` fixture under ``copies`` distinct roots: no row repeats."""
    rows = fixture_bytes("forms_find_ls.txt").decode().splitlines()
    return [row.replace(" tree", f" /srv/m{i}/tree", 1) for i in range(copies) for row in rows]


@pytest.mark.parametrize("name", _LISTINGS)
def test_every_line_of_a_real_listing_is_a_row(name: str) -> None:
    """All rows; in the find listing, one path holds spaces ("python 2 sunset.rst"): a name with a
    space is left to the classifier, as the engine leaves it."""
    data = fixture_bytes(name).rstrip(b"\n")
    chunk = listing_chunk(data, min_lines=1)
    assert chunk is not None and chunk.lines == data.split(b"\n")
    others = [line for line, row in zip(chunk.lines, chunk.rows or [], strict=False) if not row]
    spaced = [b"/usr/share/doc/python3-setuptools/python 2 sunset.rst"]
    assert others == (spaced if name == "noise_find_listing.txt" else [])


def test_a_row_is_a_line_the_classifier_calls_ordinary() -> None:
    """Over every fixture and zoo line: a line taken as a row would have been an ordinary line,
    never a failure, a warning, a frame, a passing test, a record or a commit row; the whole-chunk
    and the one-line tests agree on every line."""
    lines = every_fixture_line()
    rows = [line for line in lines if _ROW_LINE.match(line)]
    assert len(rows) > 4000
    for raw in rows:
        template = raw.translate(DIGITS)
        text = decode_line(template)
        assert not is_binary(template)
        lc = co.classify_template(text)
        assert (lc.cls, lc.record, co.plain_record(text)) == (co.PLAIN, False, False), raw
        assert not engine_module._KEY_ROW.match(raw)
    assert [bool(_ROW_LINE.match(line)) for line in lines] == [
        len(_ROWS.findall(b"\n" + line + b"\n")) == 1 for line in lines
    ]


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
        b"/srv/logs/fatal error report.txt",
    ],
)
def test_a_line_that_is_not_a_row_keeps_its_own_key(line: bytes) -> None:
    rows = "\n".join(_big_find_ls(120)).encode()
    cut = rows.find(b"\n", len(rows) // 2)
    assert listing_lines(rows) is not None
    mixed = listing_chunk(rows[:cut] + b"\n" + line + rows[cut:])
    assert mixed is not None and mixed.rows is not None
    assert [mixed.lines[i] for i, row in enumerate(mixed.rows) if not row] == [line]
    assert listing_lines(rows[:cut] + b"\n" + line + rows[cut:]) is None


def test_a_chunk_of_mostly_other_lines_is_no_listing() -> None:
    log = fixture_bytes("gcc_make.txt").rstrip(b"\n").split(b"\n")
    rows = [row.encode() for row in _big_find_ls(60)]
    lines = [*rows[:5], *(log * (3 * len(rows) // len(log)))]
    assert len(lines) >= MIN_LINES and listing_chunk(b"\n".join(lines)) is None


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
    """The same text with and without the listing paths; a real error line is kept and is the
    first error (its chunk keys the rows as one and the error line as itself)."""
    rows = _big_find_ls(400)
    if planted is not None:
        rows.insert(5000, planted)
    data = ("\n".join(rows) + "\n").encode()
    fast = _compress(store, data)
    monkeypatch.setattr(engine_module, "listing_chunk", lambda data: None)
    assert _compress(store, data) == fast
    assert fast.startswith("[summarizer output") and "listing:" in fast
    if planted is not None:
        assert f"5001: {planted}" in fast
        assert planted in fast.split("first error", 1)[1].split("\n", 1)[0]
    else:
        assert "first error" not in fast


def test_in_a_chunk_of_mostly_rows_only_the_other_lines_are_classified() -> None:
    rows = _big_find_ls(MIN_LINES // 20 + 1)
    lines = [*rows[:100], "find: '/root/.cache': Permission denied", *rows[100:]]
    engine = Engine()
    engine.feed(Chunk("\n".join(lines).encode()))
    engine.finish()
    assert engine.counts[LISTING_KEY] == len(rows) and engine.line_no == len(lines)
    assert [(c.line, c.raw) for c in engine.coords.values()] == [(101, lines[100].encode())]
