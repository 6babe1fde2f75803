"""The cold path of `summarizer score` prints what the click command prints, or steps aside."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from summarizer.cli import main
from summarizer.launcher import try_cold_score

JWT = ["--text", "Added JWT auth endpoint with refresh token rotation",
       "--files", "backend/routers/auth.py,backend/services/auth_service.py", "--from", "hermes",
       "--to", "aphrodite"]  # fmt: skip
ENTRY = {"summary": "Migrated users table: new column expires_at", "files_changed": ["m/0012_x.py"],
         "from": "Demeter", "to": ["hermes", "themis"], "status": "partial (index pending)",
         "phase": 2}  # fmt: skip
SECRET = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def click_output(args: list[str], stdin: bytes | None = None) -> str:
    result = CliRunner().invoke(main, ["score", *args], input=stdin)
    assert result.exit_code == 0, result.output
    return result.stdout


def no_stdin() -> bytes:
    raise AssertionError("stdin must not be read for this command line")


@pytest.mark.parametrize(
    "args",
    [
        JWT,
        [*JWT, "--json"],
        ["--json", "--text=Fixed typo in README", "--files=README.md"],
        ["--text", "blocked by the DB migration, now unblocked", "--status", "In Progress", "--phase", "3"],
        ["--text", f"rotate the leaked token {SECRET} in auth", "--from", "HERMES", "--to", "zeus,themis"],
        ["--text", "café naïve résumé: ünïcode summary", "--files", ""],
    ],
)
def test_flag_entries_print_what_click_prints(args: list[str]) -> None:
    cold = try_cold_score(args, no_stdin)
    assert cold is not None
    assert cold == click_output(args)


def test_file_and_stdin_entries_print_what_click_prints(tmp_path: Path) -> None:
    path = tmp_path / "entry.json"
    path.write_text(json.dumps(ENTRY, ensure_ascii=False), encoding="utf-8")
    data = path.read_bytes()
    for as_json in ([], ["--json"]):
        from_file = try_cold_score([str(path), *as_json], no_stdin)
        from_stdin = try_cold_score(["-", *as_json], lambda: data)
        assert from_file is not None and from_file == from_stdin == click_output(["-", *as_json], data)
    assert click_output([str(path)]).splitlines()[0].endswith("⚠️")  # partial: the warning shows


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["-h"],
        ["--bogus"],
        [],  # no entry
        ["--text", "  "],
        ["--text", "x", "--text", "y"],  # repeated option
        ["--text", "-leading dash"],  # a value click might read as an option
        ["--json=yes", "--text", "x"],
        ["--text", "x", "--status", "shipped-ish"],  # only the model words this error
        ["missing.json"],
        ["a.json", "b.json"],
        ["--text", "x", "--from", "\udcff"],  # undecodable argv bytes
        ["--text", "x", "--from", "\x1b[31mred"],  # click strips ANSI from non-terminal output
    ],
)
def test_anything_doubtful_is_left_to_click(args: list[str]) -> None:
    assert try_cold_score(args, no_stdin) is None


@pytest.mark.parametrize(
    "content",
    [b'{"summary": ', b'[{"summary": "x"}]', b'{"summary": "x"}\n{"summary": "y"}', b"\xff{}",
     b'{"summary": "x", "files_chaged": []}', b""],
)  # fmt: skip
def test_bad_or_unusual_files_are_left_to_click(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "entry.json"
    path.write_bytes(content)
    assert try_cold_score([str(path)], no_stdin) is None
    assert try_cold_score(["-"], lambda: content) is None


def test_a_file_with_overriding_flags_is_left_to_click(tmp_path: Path) -> None:
    path = tmp_path / "entry.json"
    path.write_text(json.dumps(ENTRY))
    assert try_cold_score([str(path), "--to", "mnemosyne"], no_stdin) is None


PROBE = """
import sys
from summarizer.launcher import main
sys.argv = ["summarizer", *sys.argv[1:]]
try:
    main()
finally:
    heavy = sorted({m.split(".")[0] for m in sys.modules} & {"click", "pydantic", "pydantic_core"})
    sys.stderr.write("loaded=" + ",".join(heavy) + "\\n")
"""


def run_entry_point(args: list[str], stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-c", PROBE, *args], input=stdin, capture_output=True, timeout=60, check=False
    )


def test_the_console_entry_scores_without_click_or_pydantic() -> None:
    proc = run_entry_point(["score", *JWT, "--json"])
    assert proc.returncode == 0, proc.stderr
    assert (json.loads(proc.stdout)["score"], json.loads(proc.stdout)["priority"]) == (0.74, "HIGH")
    assert proc.stderr.decode().splitlines()[-1] == "loaded="


def test_when_the_cold_path_steps_aside_click_reads_the_same_stdin() -> None:
    """stdin is read once by the cold path; the click command must still see every byte of it."""
    proc = run_entry_point(["score", "-"], stdin=b'{"summary": "x", "files_chaged": ["a.py"]}')
    assert proc.returncode == 2
    error, loaded = proc.stderr.decode().splitlines()
    assert "unknown key 'files_chaged' in stdin" in error and loaded == "loaded=click,pydantic,pydantic_core"
    assert proc.stdout == b""


def test_other_commands_go_straight_to_click() -> None:
    proc = run_entry_point(["stats", "--help"])
    assert proc.returncode == 0 and b"Usage: " in proc.stdout


def test_a_closed_stdout_is_not_a_traceback() -> None:
    """`summarizer score ... >&-`: Python has no sys.stdout at all; click's path answers."""
    proc = subprocess.run(
        ["sh", "-c", 'exec "$0" -c "$1" score --text x >&-', sys.executable, PROBE],
        capture_output=False, stderr=subprocess.PIPE, timeout=60, check=False,
    )  # fmt: skip
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr
