"""The session use cases both edges call: compress a transcript into engram, recover the newest document.

The CLI (``summarizer session`` / ``recover``) and the MCP server (``session_compress`` /
``session_recover``) differ only in how they receive input and print the result; everything between
(locating the transcript, the session key, the project, the date, the memory and the model) is here,
once, so the two cannot drift. Adapters (the engram backend, the marks, the LLM service, the lock)
are built by :func:`summarizer.app.session_adapters` and handed in as one :class:`SessionAdapters`.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from summarizer.core.errors import InputError, StorageError
from summarizer.session.service import (
    CompressionMarks,
    Lock,
    Recovery,
    SessionMemory,
    SessionReport,
    Unavailable,
    compress_session,
    recover,
    topic_key,
)
from summarizer.session.transcript import Transcript, parse_transcript

if TYPE_CHECKING:
    from summarizer.semantic.service import Summarizer

__all__ = [
    "SessionAdapters",
    "SessionRequest",
    "detect_project",
    "hook_context",
    "locate_transcript",
    "recover_project",
    "run_session",
    "session_key",
]


@dataclass(frozen=True, slots=True)
class SessionRequest:
    """One compression request, whatever edge it came from.

    Args:
        text: the transcript (JSONL, or a JSON array of records).
        source: the transcript's path, ``-`` for stdin, or ``""`` when the text came inline.
        cwd: the directory the agent works in (the hook's ``cwd``, else the process's).
        project: an explicit project (``--project``); ``None`` means detect it.
        force: an explicit request: the trigger rules are bypassed.
        date: the document's day (``YYYY-MM-DD``), already validated.
        max_tokens: the model's answer limit (``--max-tokens``); ``None``: sized from the prompt.
        tolerate_torn_tail: skip a last line still being written (a hook reads a live transcript).
        extra_instructions: the user's instructions given with the request (PreCompact's
            ``custom_instructions``).
        deadline_at: ``time.monotonic()`` by which the document must be saved; ``None``: no deadline.
    """

    text: str
    source: str
    cwd: str
    project: str | None
    force: bool
    date: str
    max_tokens: int | None = None
    tolerate_torn_tail: bool = False
    extra_instructions: tuple[str, ...] = ()
    deadline_at: float | None = None


@dataclass(frozen=True, slots=True)
class SessionAdapters:
    """What a compression is handed by the composition root, for the CLI and MCP alike.

    Args:
        memory: the engram backend, or :class:`Unavailable` (the document is returned, not saved).
        marks: where each session's last compression is remembered (the trigger rules count from it).
        summarizer: the model service; ``None`` means the offline keyword rules.
        lock: serialises one topic's read-merge-save across processes.
    """

    memory: SessionMemory | Unavailable
    marks: CompressionMarks
    summarizer: Summarizer | None
    lock: Lock | None = None


def locate_transcript(cwd: str, env: Mapping[str, str] = os.environ) -> str:
    """The newest Claude Code transcript of ``cwd``; :class:`InputError` when there is none."""
    from summarizer.session.locate import find_claude_transcript

    found = find_claude_transcript(Path(cwd), env)
    if found is None:
        raise InputError(
            f"no transcript given and no Claude Code session found for {cwd!r}; "
            "pass a TRANSCRIPT path, '-' for stdin, or the transcript text"
        )
    return str(found)


def session_key(parsed: Transcript, source: str, text: str) -> str:
    """What identifies the session for the trigger marks: its id, else its file, else its text."""
    if parsed.session_id:
        return parsed.session_id
    if source and source != "-":
        return str(Path(source).resolve())
    return "text:" + hashlib.sha256(text[:4096].encode()).hexdigest()


def detect_project(explicit: str | None, parsed: Transcript, cwd: str) -> str:
    """``--project``, else engram's detection (:mod:`.project`) from the session's directory.

    The session's directory is the transcript's ``cwd`` when it recorded one and it exists here,
    else ``cwd`` (the hook's, else the process's).
    """
    from summarizer.session.project import detect_project_name, scrubbed_project

    if explicit and explicit.strip():
        return scrubbed_project(explicit.strip())
    if parsed.cwd and not Path(parsed.cwd).is_dir():
        # recorded elsewhere: its folder name is all we know
        return scrubbed_project(Path(parsed.cwd).name) or "default"
    return detect_project_name(parsed.cwd or cwd)[0]


async def run_session(request: SessionRequest, adapters: SessionAdapters) -> SessionReport:
    """Parse, name and compress one transcript into the project's document for ``request.date``.

    Today's document may already live under engram 1.7's name for the folder (its basename): the
    upsert goes where it is, and the report says so (``project_note``).
    """
    parsed = parse_transcript(
        request.text, source=request.source or "transcript", tolerate_torn_tail=request.tolerate_torn_tail
    )
    project = detect_project(request.project, parsed, request.cwd)
    note = None
    if not request.project and not isinstance(adapters.memory, Unavailable):
        names = (project, *_aliases(parsed, request.cwd, project))
        have = [n for n in names if _has(adapters.memory, topic_key(n, request.date), n)]
        if have and have[0] != project:
            note = _found_under(have[0], project)
            project = have[0]
    report = await compress_session(
        parsed,
        project=project,
        date=request.date,
        memory=adapters.memory,
        marks=adapters.marks,
        session_key=session_key(parsed, request.source, request.text),
        force=request.force,
        summarizer=adapters.summarizer,
        lock=adapters.lock,
        max_tokens=request.max_tokens,
        extra_instructions=request.extra_instructions,
        deadline_at=request.deadline_at,
    )
    return report.model_copy(update={"project_note": note}) if note else report


def _aliases(parsed: Transcript, cwd: str, project: str) -> tuple[str, ...]:
    from summarizer.session.project import engram17_aliases

    directory = parsed.cwd if parsed.cwd and Path(parsed.cwd).is_dir() else cwd
    return engram17_aliases(directory, project)


def _has(memory: SessionMemory, topic: str, project: str) -> bool:
    from summarizer.session import parts

    try:
        return parts.read(memory, topic, project=project) is not None
    except StorageError:
        return True  # parts mid-save: a document is there


def _found_under(alias: str, detected: str) -> str:
    return (
        f"found under project {alias!r} (engram 1.7's name for this folder), not {detected!r} "
        "(the git remote's name, which newer engram uses)"
    )


def recover_project(
    memory: SessionMemory, project: str | None, cwd: str, *, session_id: str | None = None
) -> Recovery:
    """The newest compressed document of ``project`` (default: detected from ``cwd``), with
    ``session_id``'s items first when given (a resumed session).

    Detected, the name is looked up under engram 1.7's name for the folder too; the newest
    document wins and :attr:`Recovery.note` says when it was found under the other name.
    """
    from summarizer.core.errors import NotFound
    from summarizer.session.project import detect_project_name, engram17_aliases, scrubbed_project

    if project and project.strip():
        return recover(memory, scrubbed_project(project.strip()), session_id=session_id)
    name = detect_project_name(cwd)[0]
    found: list[Recovery] = []
    for candidate in (name, *engram17_aliases(cwd, name)):
        try:
            found.append(recover(memory, candidate, session_id=session_id))
        except NotFound:
            continue
    if not found:
        return recover(memory, name, session_id=session_id)  # raises NotFound naming the project
    best = max(found, key=lambda r: r.updated_at)
    return (
        best if best.project == name else best.model_copy(update={"note": _found_under(best.project, name)})
    )


def hook_context(
    payload: Mapping[str, object], memory: SessionMemory, project: str | None
) -> dict[str, object]:
    """Claude Code's ``SessionStart`` hook answer: the recovered document as ``additionalContext``.

    ``payload`` is the hook's JSON (``cwd``, ``source``, ``session_id``). Nothing to recover gives
    an answer without ``additionalContext`` (Claude Code then adds nothing).
    """
    from summarizer.core.errors import NotFound

    cwd = payload.get("cwd")
    session_id = payload.get("session_id")
    answer: dict[str, object] = {"hookEventName": "SessionStart"}
    try:
        found = recover_project(
            memory,
            project,
            cwd if isinstance(cwd, str) and cwd else os.getcwd(),
            session_id=session_id if isinstance(session_id, str) else None,
        )
    except NotFound:
        return {"hookSpecificOutput": answer}
    source = payload.get("source")
    intro = (
        "Memory saved before the last compaction"
        if source == "compact"
        else "Memory of this project's latest session"
    )
    answer["additionalContext"] = (
        f"{intro} (engram topic {found.topic_key}, updated {found.updated_at} UTC):\n\n{found.document}"
    )
    return {"hookSpecificOutput": answer}
