"""Error records of one template fold into their first when they alone would blow the target."""

from __future__ import annotations

import hashlib
import json
import re

from summarizer.output.grouping import merge_records
from summarizer.output.kept import Kept
from tests.output.conftest import Run, fixture_bytes


def _records(count: int) -> list[Kept]:
    out = []
    for i in range(count):
        text = (
            f'{{"ts":"2026-04-01T00:{i // 60:02d}:{i % 60:02d}.007Z","level":"error",'
            f'"trace_id":"{hashlib.md5(bytes([i])).hexdigest()}",'
            f'"msg":"upstream call failed","stack":"at call (orbit.js:{100 + i}:{i % 50 + 1})"}}'
        )
        out.append(Kept(kind="error", line=8 + 500 * i, text=text, timestamp="2026-04-01"))
    return out


def test_records_past_the_limit_fold_with_every_line_and_location() -> None:
    """One failure met by 40 requests: the first record whole, every line and location in its note."""
    records = _records(40)
    listed, notes = merge_records(records, limit=3000)
    assert [c.line for c in listed] == [8]
    note = notes[8]
    assert "×40 like this, lines 8…19508 (every 500)" in note
    for i in range(40):
        assert f"{100 + i}:{i % 50 + 1}" in note  # every failure's location is still there


def test_records_that_fit_stay_whole_and_tool_output_never_folds() -> None:
    """Records within the limit, records told apart by a name (no request id), and tool output stay."""
    records = _records(40)
    assert merge_records(records, limit=10**6) == (records, {})
    volumes = [
        Kept(kind="error", line=n, text=f"2024-05-01 11:00:01 ERROR write failed on vol{n}", timestamp="x")
        for n in range(40)
    ]
    assert merge_records(volumes, limit=10) == (volumes, {})
    tool = [Kept(kind="error", line=n, text=f"src/a_{n}.c:3:1: error: boom {n}") for n in range(40)]
    assert merge_records(tool, limit=10) == (tool, {})


def _listed_lines(row: str) -> list[int]:
    """The record lines a fold note names: ``lines 7, 12, 30`` or ``lines 7…91 (every 7)``."""
    step = re.search(r"like this, lines (\d+)…(\d+) \(every (\d+)\)", row)
    if step is not None:
        first, last, every = map(int, step.groups())
        return list(range(first, last + 1, every))
    listed = re.search(r"like this, lines ([\d, ]+)", row)
    assert listed is not None
    return [int(n) for n in listed.group(1).split(", ")]


def test_nginx_records_that_differ_only_in_ids_fold_per_message(run: Run) -> None:
    """A real nginx error.log: each missing file is one message, met by many connections (``*N``);
    the dead upstream's records differ only in the connection and the order id. Each distinct
    message stays a row of its own, with the planted count and every record's line."""
    data = fixture_bytes("real_nginx_error_ids.log")
    truth = json.loads(fixture_bytes("real_nginx_error_ids.json"))
    result = run(data, target=3000)
    original = data.decode().split("\n")
    rows = [row for row in result.text.split("\n") if "[error]" in row and row[:1].isdigit()]
    assert len(rows) == len(truth["missing"]) + 1  # one row per message
    for path, count in [*truth["missing"].items(), ("/api/orders/", len(truth["upstream"]))]:
        (row,) = [r for r in rows if f"GET {path}" in r]
        assert f"[×{count} like this, lines " in row
        numbers = _listed_lines(row)
        assert len(numbers) == count
        assert all(f"GET {path}" in original[n - 1] for n in numbers)  # each record restorable by its line
    assert result.compressed_tokens * 3 < result.original_tokens


def test_records_told_apart_by_a_glued_number_never_fold() -> None:
    """``missing9.css`` and ``missing19.css`` are different files: only ids fold, not names."""
    records = [
        Kept(
            kind="error",
            line=n,
            text=f'2026/12/02 04:25:38 [error] 27#27: *{n} open() "/www/missing{n % 2 + 9}.css" failed',
            timestamp="2026/12/02 04:25:38",
        )
        for n in range(1, 41)
    ]
    listed, notes = merge_records(records, limit=10)
    assert [c.line for c in listed] == [1, 2]
    assert "×20 like this" in notes[1] and "×20 like this" in notes[2]
