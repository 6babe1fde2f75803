"""`summarizer score | compress | stats | batch` through click's CliRunner, plus real processes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from summarizer.cli import main

ACCEPTANCE = [
    "--text",
    "Added JWT auth endpoint with refresh token rotation",
    "--files",
    "backend/routers/auth.py,backend/services/auth_service.py",
    "--from",
    "hermes",
    "--to",
    "aphrodite",
]
SECRET = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def run(*args: str, stdin: str | bytes | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin)


def test_acceptance_command_prints_074_high() -> None:
    """The issue's acceptance check."""
    result = run("score", *ACCEPTANCE, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["score"], data["priority"]) == (0.74, "HIGH")
    assert data["dimensions"]["impact"] == 1.0 and data["keywords"] == ["auth", "JWT", "token", "endpoint"]


def test_score_text_shows_the_breakdown() -> None:
    """Each dimension, the keywords, the score and the band."""
    out = run("score", *ACCEPTANCE).stdout
    assert out.splitlines()[0] == "score 0.74  HIGH"
    assert "downstream  0.90 x 0.10 = 0.090   (hermes -> aphrodite)" in out
    assert "keywords    auth, JWT, token, endpoint" in out


def test_score_reads_a_file_and_stdin_and_flags_override(tmp_path: Path) -> None:
    """ENTRY file, '-' for stdin; --to overrides the file's next agent."""
    path = tmp_path / "entry.json"
    path.write_text(json.dumps({"summary": "Added JWT auth endpoint", "from": "hermes", "to": "aphrodite"}))
    from_file = json.loads(run("score", str(path), "--json").stdout)
    from_stdin = json.loads(run("score", "-", "--json", stdin=path.read_text()).stdout)
    assert from_file == from_stdin and from_file["dimensions"]["downstream"] == 0.9
    overridden = json.loads(run("score", str(path), "--to", "mnemosyne", "--json").stdout)
    assert overridden["dimensions"]["downstream"] == 0.3


def test_compress_json_has_priority_score_lines_redactions() -> None:
    """compress --json: priority, score, lines, redactions (count and types), never the secret."""
    text = f"Added POST /auth/login returning 401 on bad passwords; token {SECRET}. Must rotate tokens."
    result = run("compress", "--text", text, "--from", "hermes", "--to", "aphrodite", "--json")
    assert result.exit_code == 0, result.output
    assert SECRET not in result.stdout
    data = json.loads(result.stdout)
    assert data["priority"] in ("CRITICAL", "HIGH") and isinstance(data["score"], float)
    assert data["redactions"] == {"count": 1, "types": ["github_token"]}
    assert data["source"] == "template"
    assert len(data["lines"]) == {"CRITICAL": 3, "HIGH": 2}[data["priority"]]


def test_compress_accepts_the_llm_options_and_uses_the_template() -> None:
    """--model/--api-base/--offline/--no-cache/--concurrency are accepted; the template answers."""
    result = run(
        "compress",
        *ACCEPTANCE,
        "--model",
        "openai/gpt-4o-mini",
        "--api-base",
        "http://127.0.0.1:9",
        "--offline",
        "--no-cache",
        "--concurrency",
        "2",
        "--json",
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["source"] == "template"


def test_compress_text_prints_the_lines_and_flags_on_stderr() -> None:
    """Plain output is the rendered lines; a protected entry is printed as given, flagged on stderr."""
    assert (
        run("compress", "--text", "Fixed a typo", "--files", "README.md").stdout == "[unknown] — README.md\n"
    )
    held = run("compress", "--text", "Working on it", "--status", "in_progress")
    assert held.exit_code == 0 and held.stdout == "Working on it\n" and "in_progress" in held.stderr


def write_jsonl(path: Path, *entries: dict[str, object]) -> Path:
    path.write_text("\n".join(json.dumps(e) for e in entries) + "\n")
    return path


def test_batch_prints_the_plan(tmp_path: Path) -> None:
    """The documented two phases: modes, carryover, total."""
    path = write_jsonl(
        tmp_path / "b.jsonl",
        {"summary": "New table orders with foreign key", "phase": "1", "from": "demeter", "to": "hermes"},
        {"summary": "Fixed a typo", "phase": "1"},
        {"summary": "Added the login endpoint", "phase": "2", "from": "hermes", "to": "aphrodite"},
    )
    result = run("batch", str(path))
    assert result.exit_code == 0, result.output
    assert "phase 1: budget 12 + carry 0 = 12; used 3.5; carryover 1" in result.stdout
    assert "phase 2: budget 12 + carry 1 = 13;" in result.stdout
    data = json.loads(run("batch", str(path), "--phases", "4", "--json").stdout)
    assert data["phase_budget"] == 25
    assert [row["mode"] for row in data["phases"][0]["entries"]] == ["expanded", "aggressive"]


def test_batch_escalation_prints_the_plan_and_exits_1(tmp_path: Path) -> None:
    """CRITICAL alone over 100 lines: the plan is printed, then one line on stderr, exit 1."""
    critical = {"summary": "New schema migration for auth tokens", "from": "demeter", "to": "hermes"}
    path = write_jsonl(tmp_path / "big.jsonl", *[critical] * 34)
    result = run("batch", str(path))
    assert result.exit_code == 1
    assert "per-phase budget" in result.stdout
    assert result.stderr.count("\n") == 1 and "(3) split phase" in result.stderr


def test_stats_over_several_files(tmp_path: Path) -> None:
    """Counts per band, lines, redactions, over a JSON file and a JSONL file."""
    one = tmp_path / "one.json"
    one.write_text(json.dumps({"summary": f"Fixed a typo {SECRET}"}))
    two = write_jsonl(
        tmp_path / "two.jsonl", {"summary": "Changed the schema", "from": "hermes", "to": "demeter"}
    )
    result = run("stats", str(one), str(two), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["entries"] == 2 and data["bands"]["CRITICAL"] == 1 and data["bands"]["LOW"] == 1
    assert data["redactions"]["count"] == 1 and SECRET not in result.stdout
    assert "budget lines used 3.5" in run("stats", str(one), str(two)).stdout


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b'{"summary": ', "invalid JSON"),
        (b'{"files": ["a.py"]}', "has no 'summary'"),
        (b'{"summary": "x", "files_chaged": []}', "unknown key 'files_chaged'"),
        (b'{"summary": "caf\xe9"}', "not valid UTF-8"),
        (b"", "is empty"),
        (b"\x00\x01\x02binary", "looks binary"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, content: bytes, expected: str) -> None:
    """Every command: a one-line error on stderr naming the problem, exit code 2."""
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    for command in ("score", "compress", "stats", "batch"):
        result = run(command, str(path))
        assert result.exit_code == 2, (command, result.output)
        assert expected in result.stderr and result.stderr.count("\n") == 1, (command, result.stderr)
        assert result.stdout == ""


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["score"], "no entry"),
        (["score", "missing.json"], "file not found"),
        (["score", "--text", "  "], "--text is empty"),
        (["score", "e.json", "--text", "x"], "not both"),
        (["score", "--text", "x", "--status", "shipped-ish"], "unknown status"),
        (["batch", "missing.jsonl"], "file not found"),
    ],
)
def test_usage_errors_exit_2(args: list[str], expected: str) -> None:
    """Missing or conflicting input is a usage error."""
    result = run(*args)
    assert result.exit_code == 2 and expected in result.stderr


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["batch", "x.jsonl", "--phases", "0"], "Invalid value for '--phases'"),
        (["score", "--bogus"], "No such option '--bogus'"),
        (["compress", "--text", "x", "--concurrency", "0"], "Invalid value for '--concurrency'"),
        (["output", "--target", "0"], "Invalid value for '--target'"),
        (["cache", "prune"], "choose --stale (safe) or --all"),
        (["session", "--nope"], "No such option '--nope'"),
        (["no-such-command"], "No such command 'no-such-command'"),
        (["--nope"], "No such option '--nope'"),
    ],
)
def test_click_usage_errors_are_one_line_too(args: list[str], expected: str) -> None:
    """Every command: click's usage block becomes one line naming the problem and the help."""
    result = run(*args)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and expected in result.stderr and "--help" in result.stderr
    assert result.stderr.startswith("summarizer: ")


RUNNER = """
import json, sys
from summarizer.cli import main
try:
    main(sys.argv[1:])
except SystemExit as exit:
    code = exit.code
banned = ["litellm", "jinja2", "tiktoken", "mcp", "sqlite3", "diskcache", "httpx", "redis"]
sys.stderr.write(json.dumps({"code": code, "loaded": [m for m in banned if m in sys.modules]}))
"""


@pytest.mark.parametrize("command", ["score", "compress"])
def test_score_and_compress_never_import_litellm(command: str) -> None:
    """A fresh interpreter runs the command; litellm, jinja2, tiktoken, mcp, SQLite stay unloaded."""
    proc = subprocess.run(
        [sys.executable, "-c", RUNNER, command, *ACCEPTANCE, "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    report = json.loads(proc.stderr.strip().splitlines()[-1])
    assert report == {"code": 0, "loaded": []}
    assert json.loads(proc.stdout)["priority"] == "HIGH"


def test_installed_console_script_runs_the_acceptance_check() -> None:
    """The real `summarizer` executable (pip install -e .) prints 0.74 HIGH."""
    exe = Path(sys.executable).with_name("summarizer")
    if not exe.exists():
        pytest.skip("console script not installed next to this interpreter")
    proc = subprocess.run(
        [str(exe), "score", *ACCEPTANCE, "--json"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert (data["score"], data["priority"]) == (0.74, "HIGH")
