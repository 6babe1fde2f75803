"""`summarizer envelope`: one JSON line out, one error line and exit 2 for bad input."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from summarizer.cli import main

from .conftest import FIXTURES


def test_the_command_prints_the_reduced_envelope_as_one_json_line() -> None:
    """The default output is the compact JSON whose size --cap bounds."""
    result = CliRunner().invoke(main, ["envelope", str(FIXTURES / "command_job.json"), "--cap", "900"])
    assert result.exit_code == 0, result.output
    assert result.output.count("\n") == 1
    out = json.loads(result.output)
    assert out["data"]["job"]["jobId"] == "job_8f3a2b1c9d4e"
    assert len(result.output.strip().encode()) <= 900


def test_the_json_report_says_what_was_done() -> None:
    """--json adds mode, sizes, omitted and pruned paths and the recovery list."""
    source = (FIXTURES / "many_jobs.json").read_text(encoding="utf-8")
    result = CliRunner().invoke(main, ["envelope", "-", "--json"], input=source)
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["mode"] == "compact"
    assert report["cap"] == 4096
    assert report["original_bytes"] > report["cap"]
    assert len(report["recovery"]) == 180


def test_bad_input_is_one_line_on_stderr_and_exit_2(tmp_path: Path) -> None:
    """Invalid JSON, a non-object, an empty file, invalid UTF-8 and a missing file."""
    cases = {
        "bad.json": b'{"protocol": ',
        "list.json": b"[1, 2]",
        "empty.json": b"  \n",
        "latin1.json": b'{"summary": "caf\xe9"}',
    }
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
    runner = CliRunner()
    for name in [*cases, "missing.json"]:
        result = runner.invoke(main, ["envelope", str(tmp_path / name)])
        assert result.exit_code == 2, (name, result.output)
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("summarizer: "), name
        assert result.stdout == ""


def test_a_zero_cap_is_a_usage_error() -> None:
    """--cap must be a positive number of bytes."""
    result = CliRunner().invoke(main, ["envelope", str(FIXTURES / "edit_commit.json"), "--cap", "0"])
    assert result.exit_code == 2


def _strict(text: str) -> object:
    """Parse as real JSON: NaN and Infinity are not JSON, so meeting one fails the test."""

    def refuse(constant: str) -> object:
        raise AssertionError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


def test_nan_and_infinity_come_out_as_valid_json() -> None:
    """Python's reader accepts NaN/Infinity; what we print is JSON, the values kept as strings."""
    source = '{"protocol": "agentic-workspace/v1", "ok": true, "score": NaN, "range": [Infinity, -Infinity]}'
    for extra in ([], ["--json"]):
        result = CliRunner().invoke(main, ["envelope", "-", *extra], input=source)
        assert result.exit_code == 0, result.output
        out = _strict(result.output)
        envelope = out["envelope"] if extra else out  # type: ignore[index]
        assert envelope["score"] == "NaN" and envelope["range"] == ["Infinity", "-Infinity"]  # type: ignore[index]
