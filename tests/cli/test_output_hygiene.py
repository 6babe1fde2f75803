"""Through the real entry point: what we print is safe to print, odd settings are one line.

* terminal escape sequences, controls and bidi overrides in an entry or a transcript never reach stdout;
* a malformed ``SUMMARIZER_ENGRAM_URL`` is one line (exit 1), and ``session`` still prints its summary;
* a project name longer than engram's topic-key cap keeps one document per day.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from .conftest import assert_clean_error, cli

HOSTILE = "Fixed the \x1b]0;pwned\x07login \x1b[2J\x1b[Hflow \u202eand\u202c the \x9b31mtoken\x08 refresh."
ESCAPES = ("\x1b", "\x07", "\x08", "\x9b", "\u202e")


def _clean(text: str) -> None:
    for ch in ESCAPES:
        assert ch not in text, f"{ch!r} reached stdout: {text!r}"


def _env(**extra: str) -> dict[str, str]:
    return {**os.environ, **extra}


@pytest.mark.parametrize("command", ["score", "compress", "stats", "batch"])
def test_escape_sequences_in_an_entry_never_reach_the_terminal(command: str) -> None:
    """The cold path of `score` and the click path of every phase command print neutralised text."""
    entry = json.dumps({"summary": HOSTILE, "files_changed": ["a.py"], "from": "hermes"}).encode()
    run = cli(command, "-", stdin=entry)
    assert run.code == 0, run.describe()
    out = run.stdout.decode()
    _clean(out)
    if command == "compress":
        assert "login" in out and "flow" in out  # the words survive; only the escapes go


def _transcript(tmp_path: Path) -> Path:
    path = tmp_path / "t.jsonl"
    lines = [
        {"role": "user", "content": f"We decided to keep the refresh flow. {HOSTILE}"},
        {"role": "assistant", "content": "Decision: keep the refresh flow as it is."},
    ]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def test_escape_sequences_in_a_transcript_never_reach_the_terminal(tmp_path: Path) -> None:
    """The session document and `recover` print without them."""
    transcript = _transcript(tmp_path)
    saved = cli("session", str(transcript), "--project", "p", "--force", "--date", "2026-11-29")
    assert saved.code == 0, saved.describe()
    _clean(saved.stdout.decode())
    recovered = cli("recover", "--project", "p")
    assert recovered.code == 0, recovered.describe()
    _clean(recovered.stdout.decode())


@pytest.mark.parametrize("url", ["http://[::1", "http://localhost:abc", "http://user:hunter2@localhost:abc"])
def test_a_malformed_engram_url_is_one_line_in_recover(url: str) -> None:
    """No traceback; the message names the variable and never echoes a password."""
    run = cli("recover", "--project", "p", env=_env(SUMMARIZER_ENGRAM_URL=url))
    assert_clean_error(run, 1)
    assert "SUMMARIZER_ENGRAM_URL" in run.stderr and "hunter2" not in run.stderr


def test_a_malformed_engram_url_still_prints_the_session_summary(tmp_path: Path) -> None:
    """The summary is not lost: printed on stdout, with one line saying it was not saved."""
    run = cli(
        "session",
        str(_transcript(tmp_path)),
        "--project",
        "p",
        "--force",
        env=_env(SUMMARIZER_ENGRAM_URL="http://localhost:abc"),
    )
    assert run.code == 1 and "Traceback" not in run.stderr, run.describe()
    assert "NOT saved" in run.stderr and run.stdout.decode().startswith("## Session Compression")


def test_a_long_project_name_keeps_one_document_per_day(tmp_path: Path) -> None:
    """120 characters of project name: two days are two documents, and recover finds the newest."""
    project = "p" * 120
    transcript = str(_transcript(tmp_path))
    reports = []
    for day in ("2026-11-28", "2026-11-29"):
        run = cli("session", transcript, "--project", project, "--force", "--date", day, "--json")
        assert run.code == 0, run.describe()
        reports.append(json.loads(run.stdout))
    assert [r["action"] for r in reports] == ["saved", "saved"]
    keys = [r["topic_key"] for r in reports]
    assert keys[0] != keys[1]
    assert keys[0].endswith("2026-11-28") and keys[1].endswith("2026-11-29")
    assert all(len(k.encode()) <= 120 for k in keys)
    recovered = cli("recover", "--project", project)
    assert recovered.code == 0 and b"2026-11-29" in recovered.stdout.split(b"\n")[0], recovered.describe()
