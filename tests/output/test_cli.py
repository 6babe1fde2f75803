"""The CLI adapters: output, --json, restore, and one-line errors with exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from summarizer.cli import main


def _big_log(path: Path) -> bytes:
    lines = [
        f"2024-05-01 10:00:{i % 60:02d},001 INFO [main] svc.Worker: handled request {i} ok"
        for i in range(3000)
    ]
    lines[1500] = "2024-05-01 10:25:00,001 ERROR [main] svc.Worker: request 1500 failed: timeout"
    data = ("\n".join(lines) + "\n").encode()
    path.write_bytes(data)
    return data


def test_output_compresses_and_restore_brings_it_back(tmp_path: Path) -> None:
    """output prints the rendering with its restore hint; restore prints the original back."""
    data = _big_log(tmp_path / "app.log")
    runner = CliRunner()
    result = runner.invoke(main, ["output", str(tmp_path / "app.log"), "--exit-code", "1"])
    assert result.exit_code == 0, result.output
    assert "1501: 2024-05-01 10:25:00,001 ERROR" in result.output
    hint = result.output.rstrip().splitlines()[-1]
    restore_id = hint.split("restore ", 1)[1].split()[0]
    back = runner.invoke(main, ["restore", restore_id])
    assert back.exit_code == 0 and back.stdout_bytes == data
    part = runner.invoke(main, ["restore", restore_id, "--lines", "1501:1501"])
    assert part.stdout_bytes == data.splitlines(keepends=True)[1500]


def test_output_json_is_the_envelope(tmp_path: Path) -> None:
    """--json prints the envelope with coordinates and the restore id."""
    _big_log(tmp_path / "app.log")
    result = CliRunner().invoke(main, ["output", str(tmp_path / "app.log"), "--json"])
    envelope = json.loads(result.output)
    assert envelope["coordinates"][0]["line"] == 1501
    assert envelope["reduction"] > 0.9 and envelope["restore_id"]


def test_small_stdin_passes_through_byte_identical() -> None:
    """Under the floor, stdin comes back exactly, CRLF and all."""
    data = b"error: tiny\r\nsecond line\r\n"
    result = CliRunner().invoke(main, ["output", "-"], input=data)
    assert result.exit_code == 0 and result.stdout_bytes == data


def test_missing_and_empty_inputs_exit_2_with_one_line(tmp_path: Path) -> None:
    """A missing file, an empty input and an unknown id are bad input: exit 2, one line on stderr."""
    runner = CliRunner()
    missing = runner.invoke(main, ["output", str(tmp_path / "nope.log")])
    assert missing.exit_code == 2 and "file not found" in missing.stderr and missing.stderr.count("\n") == 1
    (tmp_path / "empty.log").write_bytes(b"")
    empty = runner.invoke(main, ["output", str(tmp_path / "empty.log")])
    assert empty.exit_code == 2 and "empty" in empty.stderr
    unknown = runner.invoke(main, ["restore", "abcdef0123456789"])
    assert unknown.exit_code == 2 and "no stored original" in unknown.stderr
