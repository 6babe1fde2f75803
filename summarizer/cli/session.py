"""``summarizer session`` and ``summarizer recover``: mid-session memory from the command line.

Thin: read input, let :mod:`summarizer.app` build the memory, marks and model, call
:mod:`summarizer.session.usecase`, print. ``--hook`` reads the JSON that Claude Code hands a hook
on stdin (``transcript_path``, ``cwd``, ``session_id``), so ``summarizer session --hook`` can run as
the PreCompact hook: the agent is about to compact, so the trigger rules are bypassed. A hook never
exits 2 (which some agents read as "block the action"): failures exit 1.
"""

from __future__ import annotations

import os
import sys
import time
from typing import TYPE_CHECKING, Any

import click

from summarizer.cli._common import emit_json, fail, handle_errors, read_json_object, read_text, run_async
from summarizer.core.errors import InputError, SummarizerError
from summarizer.core.inputs import HOOK_INPUT_LIMIT

if TYPE_CHECKING:
    from summarizer.session.service import SessionReport
    from summarizer.session.usecase import SessionRequest

__all__ = ["recover", "session"]


# Claude Code kills a hook after 120 s: the document is saved well before that.
HOOK_DEADLINE_S = 45.0


def _custom_instructions(payload: dict[str, Any]) -> tuple[str, ...]:
    """PreCompact's ``custom_instructions`` (what the user typed after ``/compact``)."""
    text = payload.get("custom_instructions")
    return (text.strip(),) if isinstance(text, str) and text.strip() else ()


def _read_hook() -> dict[str, Any]:
    try:
        payload = read_json_object(read_text("-", what="hook JSON", limit=HOOK_INPUT_LIMIT), source="stdin")
    except InputError as exc:
        raise InputError(f"--hook expects the hook's JSON object on stdin ({exc})") from exc
    if not isinstance(payload.get("transcript_path"), str):
        raise InputError("--hook expects a JSON object with 'transcript_path' on stdin")
    return payload


@click.command()
@click.argument("transcript", required=False)
@click.option("--project", help="engram project (default: the name of the session's directory).")
@click.option("--force", is_flag=True, help="Compress now: an explicit request bypasses the trigger rules.")
@click.option("--date", "day", metavar="YYYY-MM-DD", help="The document's date (default: today).")
@click.option("--hook", is_flag=True, help="Read a hook's JSON on stdin (PreCompact); implies --force.")
@click.option("--offline", is_flag=True, default=None, help="Keyword rules only, even with a model set.")
@click.option(
    "--max-tokens",
    type=click.IntRange(1, 200_000),
    default=None,
    help="The model's answer limit (default: SUMMARIZER_MAX_TOKENS, else sized from the prompt).",
)
@click.option("--model", help="litellm model that writes the document (default: $SUMMARIZER_MODEL).")
@click.option(
    "--timeout",
    type=click.FloatRange(min=1),
    default=None,
    help="Seconds one model call may take (default: $SUMMARIZER_TIMEOUT_S, else 60).",
)
@click.option(
    "--deadline",
    type=click.FloatRange(min=1),
    default=None,
    help=f"Seconds by which the document is saved, model calls fitted in [--hook: {HOOK_DEADLINE_S:.0f}].",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def session(transcript: str | None, hook: bool, **options: Any) -> None:
    """Compress a session TRANSCRIPT (JSONL; '-' for stdin) into engram memory.

    Without TRANSCRIPT, the newest Claude Code session of the current directory is used.
    """
    started = time.monotonic()
    if not hook:
        handle_errors(_session)(transcript, hook, started, **options)
        return
    try:
        _session(transcript, hook, started, **options)
    except (SummarizerError, OSError) as exc:  # a hook never blocks the agent's compaction
        fail((str(exc).splitlines() or [type(exc).__name__])[0], 1)


def _session(transcript: str | None, hook: bool, started: float, **o: Any) -> None:
    from summarizer import app
    from summarizer.session.service import model_budget
    from summarizer.session.usecase import run_session

    settings = app.load_settings(
        offline=o["offline"], max_tokens=o["max_tokens"], model=o["model"], timeout_s=o["timeout"]
    )
    request = _request(transcript, hook, started, settings.max_tokens, o)
    budget = model_budget(request.deadline_at) if request.deadline_at else None
    with app.session_adapters(settings, model_budget_s=budget) as adapters:
        report = run_async(run_session(request, adapters))
    _print_report(report, bool(settings.model and not settings.offline), o["as_json"])


def _request(
    transcript: str | None, hook: bool, started: float, max_tokens: int | None, o: dict[str, Any]
) -> SessionRequest:
    """The compression request: a hook's JSON (forced, its cwd and instructions) or the arguments."""
    from summarizer.core.dates import check_date
    from summarizer.session.usecase import SessionRequest, locate_transcript

    cwd, force, extra = os.getcwd(), o["force"], tuple[str, ...]()
    if hook:
        payload = _read_hook()
        transcript, force, cwd = payload["transcript_path"], True, payload.get("cwd") or cwd
        extra = _custom_instructions(payload)
    source = transcript or locate_transcript(cwd)
    deadline = o["deadline"] or (HOOK_DEADLINE_S if hook else None)
    return SessionRequest(
        read_text(source, what="transcript"),
        source,
        cwd,
        o["project"],
        force,
        check_date(o["day"]),
        max_tokens,
        tolerate_torn_tail=hook,
        extra_instructions=extra,
        deadline_at=started + deadline if deadline else None,
    )


def _print_report(report: SessionReport, with_model: bool, as_json: bool) -> None:
    """The report (or, engram unavailable, the unsaved document) on stdout; notices on stderr."""
    from summarizer.session.service import render_report

    if report.project_note:
        click.echo(f"summarizer: {report.project_note}", err=True)
    if report.torn_line is not None:
        click.echo(
            f"summarizer: line {report.torn_line} of the transcript is incomplete (still being written); "
            "it was skipped",
            err=True,
        )
    if report.fallback_reason and with_model:
        click.echo(
            f"summarizer: the model's document was not used ({report.fallback_reason}); "
            "the keyword document was saved instead",
            err=True,
        )
    if as_json:
        emit_json(report.model_dump(mode="json"))
    elif report.action == "unavailable":
        click.echo(
            f"summarizer: engram unavailable ({report.error}); the summary below was NOT saved", err=True
        )
        click.echo(report.document, nl=False)
    else:
        click.echo(render_report(report), nl=False)
    if report.action == "unavailable":
        # The summary is on stdout so nothing is lost, but it was not saved: that is a failure for
        # scripts and hooks to see (1, never 2, which a hook would read as "block the compaction").
        sys.exit(1)


@click.command()
@click.option("--project", help="engram project (default: detected from the directory, as engram does).")
@click.option(
    "--hook",
    is_flag=True,
    help="Read Claude Code's SessionStart JSON on stdin; print hookSpecificOutput JSON.",
)
@click.option("--json", "as_json", is_flag=True, help="Print topic, update time and document as JSON.")
def recover(project: str | None, hook: bool, as_json: bool) -> None:
    """Print the newest compressed session document for a project, ready to paste into a prompt."""
    if not hook:
        handle_errors(_recover)(project, as_json)
        return
    try:  # a hook never exits 2 and never prints a traceback into the agent's context
        _recover_hook(project)
    except (SummarizerError, OSError) as exc:
        fail((str(exc).splitlines() or [type(exc).__name__])[0], 1)


def _recover(project: str | None, as_json: bool) -> None:
    from summarizer import app
    from summarizer.session.usecase import recover_project

    with app.memory(app.load_settings()) as memory:
        found = recover_project(memory, project, os.getcwd())
    if found.note:
        click.echo(f"summarizer: {found.note}", err=True)
    if as_json:
        emit_json(found.model_dump(mode="json"))
    else:
        click.echo(found.document, nl=not found.document.endswith("\n"))


def _recover_hook(project: str | None) -> None:
    from summarizer import app
    from summarizer.session.usecase import hook_context

    try:
        payload = read_json_object(read_text("-", what="hook JSON", limit=HOOK_INPUT_LIMIT), source="stdin")
    except InputError as exc:
        raise InputError(f"--hook expects Claude Code's SessionStart JSON object on stdin ({exc})") from exc
    with app.memory(app.load_settings()) as memory:
        answer = hook_context(payload, memory, project)
    emit_json(answer)
