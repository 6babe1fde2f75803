"""Error records of one template fold into their first when they alone would blow the target."""

from __future__ import annotations

import hashlib
import json
import random
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


def _service_log(lines: int, seed: int = 3) -> bytes:
    """JSON lines of a service: a trace id per request, an error every 50 requests, its route's id
    of 1 to 6 digits, its stack at a random place of the route's file."""
    rng = random.Random(seed)
    words = ["orbit", "delta", "shard", "queue", "kappa"]
    out = []
    for n in range(lines):
        word = words[n // 50 % 5]
        rec: dict[str, object] = {
            "ts": f"2026-04-01T00:{n // 600 % 60:02d}:{n // 10 % 60:02d}.{n % 1000:03d}Z",
            "level": "error" if n % 50 == 7 else "info",
            "trace_id": f"{rng.getrandbits(128):032x}",
            "route": f"/v1/{word}/{rng.randrange(1, 10 ** rng.randrange(2, 7))}",
            "msg": "request completed",
        }
        if rec["level"] == "error":
            rec["msg"] = "upstream call failed"
            rec["stack"] = f"at call ({word}.js:{rng.randrange(1, 500)}:{rng.randrange(1, 80)})"
        out.append(json.dumps(rec, separators=(",", ":")))
    return ("\n".join(out) + "\n").encode()


def test_a_service_log_past_the_target_folds_per_failure_with_its_lines_and_places(run: Run) -> None:
    """Error records of one route fold into one row whatever digits their ids have; each row names
    its count and its lines (a range once the list overflows), every stack place stays; the context
    of a folded record (its own line not shown) goes with it."""
    data = _service_log(6000)
    records = [json.loads(line) for line in data.decode().splitlines()]
    errors = [(n, r) for n, r in enumerate(records, 1) if r["level"] == "error"]
    result = run(data, target=1500)
    text = result.text
    rows = [row for row in text.split("\n") if '"level":"error"' in row and row[:1].isdigit()]
    assert len(rows) == 5  # one per route: the distinct failures
    for row in rows:
        word = re.search(r'"route":"/v1/(\w+)/', row).group(1)  # type: ignore[union-attr]
        mine = [(n, r) for n, r in errors if f"/{word}/" in r["route"]]
        assert f"[×{len(mine)} like this, lines {mine[0][0]}…{mine[-1][0]}" in row
        for _, rec in mine:
            place = str(rec["stack"]).split(":", 1)[1].rstrip(")")
            assert place in row  # every failure's stack place
    shown = {int(row.split(":", 1)[0]) for row in rows}
    folded = {n for n, _ in errors} - shown
    context = [int(row.split("|", 1)[0]) for row in text.split("\n") if re.match(r"^\d+\|", row)]
    assert context and all(n + 1 not in folded and n - 1 not in folded for n in context)
    assert result.compressed_tokens < 3000
