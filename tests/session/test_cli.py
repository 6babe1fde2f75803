"""`summarizer session` and `summarizer recover` end to end through click, on the fixture transcripts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from summarizer.cli import main

DAY = "2026-11-29"


@pytest.fixture
def runner() -> CliRunner:
    """A click runner (stderr kept apart from stdout)."""
    return CliRunner()


def test_session_then_recover_prints_the_saved_document(runner: CliRunner, fixture_dir: Path) -> None:
    """The report goes to stdout; recover prints the document for the project from the transcript's cwd."""
    result = runner.invoke(main, ["session", str(fixture_dir / "claude_code.jsonl"), "--date", DAY])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Context compressed to engram:\n- 3 decisions saved")
    assert f"- Topic: session/shopapi/compressed/{DAY}" in result.stdout
    recovered = runner.invoke(main, ["recover", "--project", "shopapi"])
    assert recovered.exit_code == 0
    assert recovered.stdout.startswith(f"## Session Compression — {DAY}\n### Goal\n")


def test_json_report_and_project_defaulting_to_the_current_directory(
    runner: CliRunner, fixture_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Plain messages carry no cwd: the project is the current directory's name."""
    work = tmp_path / "billing-svc"
    work.mkdir()
    monkeypatch.chdir(work)
    result = runner.invoke(main, ["session", str(fixture_dir / "messages.jsonl"), "--date", DAY, "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["topic_key"] == f"session/billing-svc/compressed/{DAY}"
    assert report["action"] == "saved" and report["decisions"] == 3 and report["tokens"] < 2000


def test_hook_mode_reads_claude_codes_precompact_json_and_always_compresses(
    runner: CliRunner, fixture_dir: Path, upto_path: Path
) -> None:
    """The PreCompact payload names the transcript; a short session is compressed anyway."""
    payload = {
        "session_id": "abc",
        "transcript_path": str(upto_path),
        "cwd": "/home/dev/shopapi",
        "hook_event_name": "PreCompact",
        "trigger": "auto",
        "custom_instructions": "",
    }
    result = runner.invoke(main, ["session", "--hook", "--date", DAY], input=json.dumps(payload))
    assert result.exit_code == 0, result.output
    assert "- Topic: session/shopapi/compressed/2026-11-29" in result.stdout


@pytest.fixture
def upto_path(fixture_dir: Path, tmp_path: Path) -> Path:
    """The first 12 lines of the Claude Code fixture: a session with 5 tool calls."""
    lines = (fixture_dir / "claude_code.jsonl").read_text().splitlines(keepends=True)[:12]
    path = tmp_path / "short.jsonl"
    path.write_text("".join(lines))
    return path


def test_a_short_session_is_not_due_without_force(runner: CliRunner, upto_path: Path) -> None:
    """The trigger rules hold: exit 0 and say why, with the way to force it."""
    result = runner.invoke(main, ["session", str(upto_path), "--date", DAY])
    assert result.exit_code == 0
    assert result.stdout.startswith("No compression due: only 5 tool calls in the session")
    assert "--force" in result.stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"role": "user", "content": "hi"}\n{not json}\n', "line 2 is not valid JSON"),
        (b"\xff\xfe binary", "not valid UTF-8"),
        (b"", "is empty"),
    ],
)
def test_bad_transcripts_exit_2_with_one_line(
    runner: CliRunner, tmp_path: Path, content: bytes, message: str
) -> None:
    """Malformed JSON, invalid UTF-8 and empty files are bad input: exit 2, one line on stderr."""
    path = tmp_path / "t.jsonl"
    path.write_bytes(content)
    result = runner.invoke(main, ["session", str(path)])
    assert result.exit_code == 2
    assert message in result.stderr and result.stderr.count("\n") == 1


def test_a_hook_never_exits_2(runner: CliRunner) -> None:
    """Bad hook input is reported with exit 1, which never blocks the agent's compaction."""
    result = runner.invoke(main, ["session", "--hook"], input="not json")
    assert result.exit_code == 1 and "--hook expects" in result.stderr


def test_engram_unavailable_prints_the_summary_on_stdout_and_says_so(
    runner: CliRunner, fixture_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unusable database: exit 1, the notice on stderr, the document on stdout (nothing lost)."""
    blocked = tmp_path / "not-a-dir"
    blocked.write_text("a file where the engram directory should be")
    monkeypatch.setenv("ENGRAM_DATA_DIR", str(blocked))
    result = runner.invoke(main, ["session", str(fixture_dir / "claude_code.jsonl"), "--date", DAY])
    assert result.exit_code == 1, result.output
    assert "engram unavailable" in result.stderr and "NOT saved" in result.stderr
    assert result.stdout.startswith(f"## Session Compression — {DAY}\n")


def test_recover_with_nothing_saved_is_a_one_line_error(runner: CliRunner) -> None:
    """No document for the project: NotFound, exit 2, the command to run."""
    result = runner.invoke(main, ["recover", "--project", "nothing-here"])
    assert result.exit_code == 2
    assert "no compressed session for project 'nothing-here'" in result.stderr


def test_an_unreachable_engram_server_prints_the_summary(
    runner: CliRunner, fixture_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With SUMMARIZER_ENGRAM_URL set and `engram serve` down, the summary goes to stdout, exit 1."""
    import httpx
    import respx

    monkeypatch.setenv("SUMMARIZER_ENGRAM_URL", "http://127.0.0.1:7437")
    with respx.mock(assert_all_called=False) as mock:
        mock.route(host="127.0.0.1").mock(side_effect=httpx.ConnectError("Connection refused"))
        result = runner.invoke(main, ["session", str(fixture_dir / "claude_code.jsonl"), "--date", DAY])
        recovered = runner.invoke(main, ["recover", "--project", "shopapi"])
    assert result.exit_code == 1, result.output
    assert "engram unavailable" in result.stderr and "unreachable" in result.stderr
    assert result.stdout.startswith(f"## Session Compression — {DAY}\n")
    assert recovered.exit_code == 1 and "unreachable" in recovered.stderr


def test_without_a_transcript_the_newest_claude_code_session_of_the_directory_is_used(
    runner: CliRunner, fixture_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """~/.claude/projects/<cwd, each non-alphanumeric character a ->/<session>.jsonl, newest first."""
    import os

    from summarizer.session.locate import claude_project_dir

    work = tmp_path / "my.app"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("HOME", str(tmp_path))
    folder = claude_project_dir(work, {"HOME": str(tmp_path)})
    assert folder.name == "".join(c if c.isalnum() and c.isascii() else "-" for c in str(work))
    folder.mkdir(parents=True)
    older, newer = folder / "old.jsonl", folder / "new.jsonl"
    older.write_text('{"role": "user", "content": "an old session"}\n')
    newer.write_text((fixture_dir / "messages.jsonl").read_text())
    os.utime(older, (1, 1))
    result = runner.invoke(main, ["session", "--date", DAY, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["decisions"] == 3
    monkeypatch.setenv("HOME", str(tmp_path / "nobody"))
    missing = runner.invoke(main, ["session"])
    assert missing.exit_code == 2 and "no Claude Code session found" in missing.stderr


def test_recover_hook_reads_session_start_json_and_prints_additional_context(
    runner: CliRunner, fixture_dir: Path, tmp_path: Path
) -> None:
    """SessionStart JSON in (cwd, source, session_id); hookSpecificOutput.additionalContext out."""
    saved = runner.invoke(main, ["session", str(fixture_dir / "claude_code.jsonl"), "--date", DAY])
    assert saved.exit_code == 0, saved.output
    work = tmp_path / "shopapi"  # the hook's cwd names the project, not the process's directory
    work.mkdir()
    hook = {
        "session_id": "5b1f0c8e-2d7a-4c1e-9a53-7f0e6b2c9d41",
        "transcript_path": "/x.jsonl",
        "cwd": str(work),
        "hook_event_name": "SessionStart",
        "source": "compact",
    }
    result = runner.invoke(main, ["recover", "--hook"], input=json.dumps(hook))
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)["hookSpecificOutput"]
    assert answer["hookEventName"] == "SessionStart"
    assert answer["additionalContext"].startswith("Memory saved before the last compaction")
    assert f"## Session Compression — {DAY}\n### Goal\n" in answer["additionalContext"]


def test_recover_hook_with_nothing_saved_adds_no_context(runner: CliRunner, tmp_path: Path) -> None:
    """A project with no memory yet: exit 0 and no additionalContext (Claude Code adds nothing)."""
    hook = {"session_id": "s", "cwd": str(tmp_path), "hook_event_name": "SessionStart", "source": "startup"}
    result = runner.invoke(main, ["recover", "--hook"], input=json.dumps(hook))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"hookSpecificOutput": {"hookEventName": "SessionStart"}}


def test_recover_hook_never_exits_2_on_bad_input(runner: CliRunner) -> None:
    """Bad hook JSON is one line on stderr and exit 1."""
    result = runner.invoke(main, ["recover", "--hook"], input="[1, 2]")
    assert result.exit_code == 1 and "JSON object" in result.stderr


def test_a_bad_max_tokens_is_a_usage_error(
    runner: CliRunner, fixture_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bad --max-tokens is a usage error; SUMMARIZER_MAX_TOKENS must be a number too."""
    bad = runner.invoke(main, ["session", str(fixture_dir / "claude_code.jsonl"), "--max-tokens", "0"])
    assert bad.exit_code == 2
    monkeypatch.setenv("SUMMARIZER_MAX_TOKENS", "lots")
    env = runner.invoke(main, ["session", str(fixture_dir / "claude_code.jsonl"), "--date", DAY])
    assert env.exit_code == 2 and "SUMMARIZER_MAX_TOKENS" in env.stderr


def test_hook_skips_a_torn_last_line_says_so_and_honours_custom_instructions(
    runner: CliRunner, upto_path: Path
) -> None:
    """A line still being written is skipped (stderr says so); '/compact keep X' becomes an instruction."""
    with upto_path.open("a") as out:
        out.write('{"type": "assistant", "message": {"role": "assis')
    payload = {
        "session_id": "abc",
        "transcript_path": str(upto_path),
        "cwd": "/home/dev/shopapi",
        "hook_event_name": "PreCompact",
        "trigger": "manual",
        "custom_instructions": "keep the postgres decision",
    }
    result = runner.invoke(main, ["session", "--hook", "--date", DAY, "--json"], input=json.dumps(payload))
    assert result.exit_code == 0, result.output
    assert "line 13 of the transcript is incomplete" in result.stderr
    assert "- keep the postgres decision" in json.loads(result.stdout)["document"]
    plain = runner.invoke(main, ["session", str(upto_path), "--force", "--date", DAY])
    assert plain.exit_code == 2 and "line 13" in plain.stderr  # only a hook reads a live file
