"""Error records of one template fold into their first when they alone would blow the target."""

from __future__ import annotations

import hashlib

from summarizer.output.grouping import merge_records
from summarizer.output.kept import Kept


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
