"""A JSON-lines access log fails by its records' status field, as the text access log does.

Truth is each record's own ``status`` field, read with ``json.loads``.
"""

from __future__ import annotations

import json

from tests.output.conftest import Run, fixture_bytes


def _records() -> list[tuple[int, dict[str, object]]]:
    data = fixture_bytes("nginx_access_json.log").decode()
    return [(n, json.loads(line)) for n, line in enumerate(data.splitlines(), 1)]


def _status(record: dict[str, object]) -> int:
    return int(str(record["status"]))


def test_json_access_records_keep_their_5xx_and_4xx(run: Run) -> None:
    records = _records()
    result = run(fixture_bytes("nginx_access_json.log"), target=400)
    server = [(n, rec) for n, rec in records if _status(rec) >= 500]
    client = [(n, rec) for n, rec in records if 400 <= _status(rec) < 500]
    assert server and client
    for n, rec in server + client:
        assert f"{n}:" in result.text or str(rec["req_id"]) in result.text, n
    assert result.first_error is not None
    assert (result.first_error.kind, result.first_error.line) == ("http_5xx", server[0][0])


def test_a_json_record_whose_level_says_error_stays_an_error_whatever_its_status(run: Run) -> None:
    ok = '{"time":"2026-12-02T04:25:38Z","level":"info","status":200,"msg":"request completed"}\n'
    bad = '{"time":"2026-12-02T04:25:39Z","level":"error","status":200,"msg":"upstream reset"}\n'
    result = run((ok * 300 + bad + ok * 300).encode(), target=200)
    assert result.first_error is not None and result.first_error.line == 301
