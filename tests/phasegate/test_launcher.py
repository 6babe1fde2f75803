"""`summarizer score` through click: plain entries skip pydantic and score as the model reads them.

The hand-written cold parser for `score` was removed after `evals/bench_score.py` measured click
with the light entry reader within the start-up goal; these tests pin what it must keep doing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from summarizer.cli import main
from summarizer.phasegate.service import entry_from_flags, entry_from_mapping, score_one

JWT = [
    "--text",
    "Added JWT auth endpoint with refresh token rotation",
    "--files",
    "backend/routers/auth.py,backend/services/auth_service.py",
    "--from",
    "hermes",
    "--to",
    "aphrodite",
]
ENTRY = {
    "summary": "Migrated users table: new column expires_at",
    "files_changed": ["m/0012_x.py"],
    "from": "Demeter",
    "to": ["hermes", "themis"],
    "status": "partial (index pending)",
    "phase": 2,
}
SECRET = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
FLAG_CASES: list[dict[str, str]] = [
    {
        "text": "Added JWT auth endpoint with refresh token rotation",
        "files": "backend/routers/auth.py,backend/services/auth_service.py",
        "from_agent": "hermes",
        "to_agent": "aphrodite",
    },
    {"text": "Fixed typo in README", "files": "README.md"},
    {"text": "blocked by the DB migration, now unblocked", "status": "In Progress", "phase": "3"},
    {"text": f"rotate the leaked token {SECRET} in auth", "from_agent": "HERMES", "to_agent": "zeus,themis"},
    {"text": "café naïve résumé: ünïcode summary", "files": ""},
]
OPTION = {
    "text": "--text",
    "files": "--files",
    "status": "--status",
    "from_agent": "--from",
    "to_agent": "--to",
    "phase": "--phase",
}

PROBE = """
import sys
from summarizer.launcher import main
sys.argv = ["summarizer", *sys.argv[1:]]
try:
    main()
finally:
    heavy = sorted({m.split(".")[0] for m in sys.modules} & {"pydantic", "pydantic_core", "litellm"})
    sys.stderr.write("loaded=" + ",".join(heavy) + "\\n")
"""


def run_entry_point(args: list[str], stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-c", PROBE, *args], input=stdin, capture_output=True, timeout=60, check=False
    )


def _json_score(args: list[str], stdin: bytes | None = None) -> dict[str, Any]:
    result = CliRunner().invoke(main, ["score", *args, "--json"], input=stdin)
    assert result.exit_code == 0, result.output
    value: dict[str, Any] = json.loads(result.stdout)
    return value


@pytest.mark.parametrize("case", FLAG_CASES)
def test_flag_entries_score_as_the_model_reads_them(case: dict[str, str]) -> None:
    """The light reader's score equals the score of the pydantic model built from the same flags."""
    args = [part for name, value in case.items() for part in (OPTION[name], value)]
    flags = {k: v for k, v in case.items() if k != "text"}
    assert _json_score(args) == score_one(entry_from_flags(case["text"], **flags)).as_dict()


def test_file_and_stdin_entries_score_as_the_model_reads_them(tmp_path: Path) -> None:
    """One JSON object from a file or from stdin: the same score as the model's."""
    path = tmp_path / "entry.json"
    path.write_text(json.dumps(ENTRY))
    expected = score_one(entry_from_mapping(ENTRY, "entry")).as_dict()
    assert _json_score([str(path)]) == expected
    assert _json_score(["-"], stdin=json.dumps(ENTRY).encode()) == expected


@pytest.mark.parametrize("args", [[*JWT, "--json"], [*JWT]])
def test_a_plain_score_call_never_loads_pydantic_or_litellm(args: list[str]) -> None:
    """The console entry answers a plain call with click and the light reader only."""
    proc = run_entry_point(["score", *args])
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.decode().splitlines()[-1] == "loaded="


def test_a_plain_entry_on_stdin_never_loads_pydantic() -> None:
    """One JSON object on stdin is plain too."""
    proc = run_entry_point(["score", "-", "--json"], stdin=json.dumps(ENTRY).encode())
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["priority"] == score_one(entry_from_mapping(ENTRY, "e")).priority
    assert proc.stderr.decode().splitlines()[-1] == "loaded="


def test_a_doubtful_entry_is_judged_by_the_model_with_its_error() -> None:
    """An unknown key: the model's reader answers (exit 2, one line naming the key)."""
    proc = run_entry_point(["score", "-"], stdin=b'{"summary": "x", "files_chaged": ["a.py"]}')
    assert proc.returncode == 2
    error, loaded = proc.stderr.decode().splitlines()
    assert "unknown key 'files_chaged' in stdin" in error and "pydantic" in loaded
    assert proc.stdout == b""


def test_a_file_with_overriding_flags_takes_the_flags(tmp_path: Path) -> None:
    """Flags given with a file override its fields (through the model)."""
    path = tmp_path / "entry.json"
    path.write_text(json.dumps(ENTRY))
    assert _json_score([str(path)])["to_agents"] == ["hermes", "themis"]
    assert _json_score([str(path), "--to", "mnemosyne"])["to_agents"] == ["mnemosyne"]


def test_other_commands_go_straight_to_click() -> None:
    proc = run_entry_point(["stats", "--help"])
    assert proc.returncode == 0 and b"Usage: " in proc.stdout


def test_a_closed_stdout_is_not_a_traceback() -> None:
    """`summarizer score ... >&-`: Python has no sys.stdout at all; the command still ends cleanly."""
    proc = subprocess.run(
        ["sh", "-c", 'exec "$0" -c "$1" score --text x >&-', sys.executable, PROBE],
        capture_output=False,
        stderr=subprocess.PIPE,
        timeout=60,
        check=False,
    )
    assert b"Traceback" not in proc.stderr, proc.stderr
