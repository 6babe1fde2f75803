"""``summarizer session`` and ``summarizer recover``: mid-session memory from the command line.

Both are thin: read input, open engram, call :mod:`summarizer.session.service`, print. ``--hook``
reads the JSON that Claude Code hands a hook on stdin (``transcript_path``, ``cwd``,
``session_id``, ``trigger``), so ``summarizer session --hook`` can run as the PreCompact hook:
the agent is about to compact, so the trigger rules are bypassed and memory is saved first. A hook
never exits 2 (which some agents read as "block the action"): failures exit 1.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from datetime import date as _date
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from summarizer.cli._common import emit_json, fail, handle_errors, read_text
from summarizer.errors import InputError, StorageError, SummarizerError
from summarizer.jsonio import loads
from summarizer.settings import Settings

if TYPE_CHECKING:
    from summarizer_engram import MemoryBackend

    from summarizer.semantic.service import Summarizer

__all__ = ["build_summarizer", "check_date", "open_memory", "recover", "session", "today"]


def today() -> str:
    """The local calendar date, ``YYYY-MM-DD`` (the day a user would call "today")."""
    return datetime.now().astimezone().date().isoformat()


def open_memory(settings: Settings) -> tuple[MemoryBackend | None, str | None]:
    """The configured engram backend, or ``None`` and the reason it cannot be used."""
    from summarizer_engram import open_backend

    try:
        return open_backend(settings.engram_db, settings.engram_url), None
    except StorageError as exc:
        return None, str(exc)


def build_summarizer(settings: Settings) -> Summarizer | None:
    """The LLM service when a model is configured (and not offline), else ``None``."""
    if not settings.model or settings.offline:
        return None  # the keyword rules need neither jinja2 nor litellm
    from summarizer.app import build

    return build(settings)


def check_date(value: str | None) -> str:
    """``value`` as an ISO date (today when ``None``); anything else is an :class:`InputError`."""
    if value is None:
        return today()
    try:
        return _date.fromisoformat(value).isoformat()
    except ValueError as exc:
        raise InputError(f"--date {value!r} is not a date; use YYYY-MM-DD") from exc


def _read_hook() -> dict[str, Any]:
    raw = sys.stdin.read()
    try:
        payload = loads(raw, source="the --hook JSON on stdin")
    except json.JSONDecodeError as exc:
        raise InputError(f"--hook expects the hook's JSON on stdin ({exc.msg}, column {exc.colno})") from exc
    if not isinstance(payload, dict) or not isinstance(payload.get("transcript_path"), str):
        raise InputError("--hook expects a JSON object with 'transcript_path' on stdin")
    return payload


@click.command()
@click.argument("transcript", required=False)
@click.option("--project", help="engram project (default: the name of the session's directory).")
@click.option("--force", is_flag=True, help="Compress now: an explicit request bypasses the trigger rules.")
@click.option("--date", "day", metavar="YYYY-MM-DD", help="The document's date (default: today).")
@click.option("--hook", is_flag=True, help="Read a hook's JSON on stdin (PreCompact); implies --force.")
@click.option("--offline", is_flag=True, default=None, help="Keyword rules only, even with a model set.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def session(transcript: str | None, project: str | None, force: bool, day: str | None, hook: bool,
            offline: bool | None, as_json: bool) -> None:
    """Compress a session TRANSCRIPT (JSONL; '-' for stdin) into engram memory.

    Without TRANSCRIPT, the newest Claude Code session of the current directory is used.
    """
    if not hook:
        handle_errors(_session)(transcript, project, force, day, hook, offline, as_json)
        return
    try:
        _session(transcript, project, force, day, hook, offline, as_json)
    except (SummarizerError, OSError) as exc:  # a hook never blocks the agent's compaction
        fail((str(exc).splitlines() or [type(exc).__name__])[0], 1)


def _session(transcript: str | None, project: str | None, force: bool, day: str | None, hook: bool,
             offline: bool | None, as_json: bool) -> None:
    from summarizer.session.service import FileMarks, compress_session, render_report
    from summarizer.session.transcript import parse_transcript

    cwd = os.getcwd()
    if hook:
        payload = _read_hook()
        transcript, force = payload["transcript_path"], True
        hook_cwd = payload.get("cwd")
        cwd = hook_cwd if isinstance(hook_cwd, str) and hook_cwd else cwd
    if not transcript:
        from summarizer.session.locate import find_claude_transcript

        found = find_claude_transcript(Path(cwd), os.environ)
        if found is None:
            raise InputError("give a TRANSCRIPT path, '-' for stdin, or --hook (no Claude Code session "
                             f"found for {cwd!r})")
        transcript = str(found)
    settings = Settings.load(os.environ, offline=offline)
    text = read_text(transcript, what="transcript")
    parsed = parse_transcript(text, source=transcript)
    project = project or Path(parsed.cwd or cwd).name or "default"
    key = parsed.session_id or (
        str(Path(transcript).resolve()) if transcript != "-"
        else "stdin:" + hashlib.sha256(text[:4096].encode()).hexdigest()
    )
    memory, error = open_memory(settings)
    try:
        report = compress_session(
            parsed, project=project, date=check_date(day), memory=memory,
            marks=FileMarks(settings.cache_dir / "sessions"), session_key=key, force=force,
            summarizer=build_summarizer(settings), memory_error=error,
        )
    finally:
        if memory is not None:
            memory.close()
    if as_json:
        emit_json(report.model_dump(mode="json"))
    elif report.action == "unavailable":
        click.echo(f"summarizer: engram unavailable ({report.error}); the summary below was NOT saved",
                   err=True)
        click.echo(report.document, nl=False)
    else:
        click.echo(render_report(report), nl=False)
    if report.action == "unavailable":
        # The summary is on stdout so nothing is lost, but it was not saved: that is a failure for
        # scripts and hooks to see (1, never 2, which a hook would read as "block the compaction").
        sys.exit(1)


@click.command()
@click.option("--project", help="engram project (default: the current directory's name).")
@click.option("--json", "as_json", is_flag=True, help="Print topic, update time and document as JSON.")
@handle_errors
def recover(project: str | None, as_json: bool) -> None:
    """Print the newest compressed session document for a project, ready to paste into a prompt."""
    from summarizer.session.service import recover as recover_document

    settings = Settings.load(os.environ)
    memory, error = open_memory(settings)
    if memory is None:
        raise StorageError(f"engram unavailable: {error}")
    try:
        found = recover_document(memory, project or Path.cwd().name)
    finally:
        memory.close()
    if as_json:
        emit_json(found.model_dump(mode="json"))
    else:
        click.echo(found.document, nl=not found.document.endswith("\n"))
