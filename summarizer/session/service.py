"""Mid-session compression and recovery: decide, extract, merge into the day's document, save.

:func:`compress_session` runs the protocol of docs/session.md:

1. **Decide** with the trigger rules, counted since the last compression (:mod:`.triggers`).
2. **Extract** decisions, discoveries, failures, progress, files and open questions: with the
   model through the ``session`` prompt when one is configured (answer validated; the keyword
   document is the template fallback), otherwise with the offline keyword rules (:mod:`.extract`).
3. **Dedupe against memory**: read the day's document (topic ``session/{project}/compressed/{date}``)
   and reconcile with it (:mod:`.reconcile`); this run's items carry its session tag. When the merged
   text equals what is stored, nothing is written, so a re-run leaves engram exactly as it was (the
   idempotency rule: not even a revision bump).
4. **Save** with a topic-key upsert, type ``session``, capped under 2,000 tokens, titled with the
   goal (so ``engram search`` finds it by the goal's words). The read-merge-save is atomic per
   topic: it runs under an exclusive lock (:class:`TopicLock`, a lock file beside the engram
   database) and is then verified: when the stored document is not the one just written (a writer
   that does not take the lock, such as engram itself, saved in between), the run merges again
   into what is there and saves again, up to :data:`SAVE_ATTEMPTS` times. N concurrent runs keep
   the union of their items.
5. **Report** in the words docs/session.md shows. Engram unreachable: the document is returned
   for stdout and the report says it was not saved.

:func:`recover` returns the newest ``session/{project}/compressed/*`` document by update time, not
by search rank (a search would favour whichever day mentions the query most).

The memory is a Protocol satisfied by ``summarizer_engram``'s Store and Client; this module never
imports the component (only ``summarizer.app`` does). The model arrives as an optional :class:`Summarizer`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import threading
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict

from summarizer.core.errors import NotFound, StorageError
from summarizer.core.tokens import count_tokens
from summarizer.session import parts
from summarizer.session.document import (
    MAX_TOKENS,
    SessionDocument,
    cap,
    current_first,
    parse,
    render,
    short_session,
    split_tag,
)
from summarizer.session.extract import Extraction, extract
from summarizer.session.marks import FileMarks, TopicLock, no_lock
from summarizer.session.model import answer_tokens, model_document
from summarizer.session.parts import StoredMemory
from summarizer.session.reconcile import merge
from summarizer.session.transcript import Transcript
from summarizer.session.triggers import decide, start_of_count

if TYPE_CHECKING:
    from summarizer.semantic.service import Summarizer

__all__ = [
    "Action",
    "CompressionMarks",
    "FileMarks",
    "Recovery",
    "SessionMemory",
    "SessionReport",
    "StoredMemory",
    "TopicLock",
    "Unavailable",
    "answer_tokens",
    "compress_session",
    "model_budget",
    "recover",
    "render_report",
    "topic_key",
    "topic_prefix",
]

Action = Literal["saved", "updated", "unchanged", "not_due", "unavailable"]
SAVE_ATTEMPTS = 8
# Kept back from a deadline for reading, merging and saving the document after the model.
SAVE_RESERVE_S = 8.0
Lock = Callable[[str], contextlib.AbstractContextManager[object]]


class SessionMemory(Protocol):
    """What this module needs from engram (``summarizer_engram.MemoryBackend`` provides it)."""

    def start_session(self, id: str, project: str, directory: str = "") -> None:
        """Create the session the document hangs off (fill-blanks upsert)."""
        ...

    def save(
        self,
        session_id: str,
        title: str,
        content: str,
        *,
        type: str = "manual",
        project: str = "",
        scope: str = "project",
        topic_key: str = "",
        tool_name: str = "",
    ) -> object:
        """Save with engram's topic-key upsert."""
        ...

    def latest_by_topic(self, prefix: str, *, project: str = "", scope: str = "") -> StoredMemory | None:
        """The newest-updated live observation whose topic key starts with ``prefix``."""
        ...


@dataclass(frozen=True, slots=True)
class Unavailable:
    """Engram could not be opened, and why: the document is still returned, marked not saved."""

    reason: str


class CompressionMarks(Protocol):
    """Where a session's last compression happened (tool calls counted at that point)."""

    def get(self, key: str) -> int | None:
        """The recorded tool-call count, or ``None``."""
        ...

    def set(self, key: str, tool_calls: int) -> None:
        """Record a compression at ``tool_calls``."""
        ...


class SessionReport(BaseModel):
    """The outcome of one ``summarizer session`` run (the CLI's ``--json`` and the MCP reply)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    project: str
    date: str
    topic_key: str
    due: bool
    action: Action
    reasons: tuple[str, ...] = ()
    held: str | None = None
    source: str = "keywords"
    decisions: int = 0
    discoveries: int = 0
    failures: int = 0
    progress: int = 0
    files: int = 0
    questions: int = 0
    new_items: int = 0
    dropped: int = 0
    redactions: int = 0
    tokens: int = 0
    document: str = ""
    title: str = ""
    fallback_reason: str | None = None
    save_attempts: int = 0
    error: str | None = None
    torn_line: int | None = None
    project_note: str | None = None


class Recovery(BaseModel):
    """The newest compressed document of a project."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    project: str
    topic_key: str
    updated_at: str
    document: str
    note: str | None = None


def topic_key(project: str, date: str) -> str:
    """``session/{project}/compressed/{date}``: one document per project and day."""
    return f"session/{_topic_project(project)}/compressed/{date}"


# engram caps a topic key at 120 bytes; "session/" + "/compressed/YYYY-MM-DD" take 30 of them. A
# longer project name would lose its date to the cap and merge different days into one document,
# so it is cut to fit and a short hash of the whole name keeps two long names apart.
_PROJECT_BYTES = 120 - len("session/") - len("/compressed/2026-01-01")


def _topic_project(project: str) -> str:
    normal = "-".join(project.strip().lower().split())  # what engram's normaliser does to the key
    if len(normal.encode("utf-8")) <= _PROJECT_BYTES:
        return project
    digest = hashlib.sha256(normal.encode("utf-8")).hexdigest()[:8]
    head = normal.encode("utf-8")[: _PROJECT_BYTES - 9].decode("utf-8", "ignore")
    return f"{head}-{digest}"


async def compress_session(
    transcript: Transcript,
    *,
    project: str,
    date: str,
    memory: SessionMemory | Unavailable,
    marks: CompressionMarks,
    session_key: str,
    force: bool = False,
    summarizer: Summarizer | None = None,
    lock: Lock | None = None,
    max_tokens: int | None = None,
    extra_instructions: tuple[str, ...] = (),
    deadline_at: float | None = None,
) -> SessionReport:
    """Compress ``transcript`` into the project's document for ``date`` (see the module docstring).

    Args:
        memory: the engram backend, or :class:`Unavailable` when it could not be opened.
        marks: where the last compression of each session is recorded.
        session_key: identifies the session for ``marks`` (its session id, or the transcript path).
        force: an explicit request: bypasses the trigger rules and the hold-offs.
        summarizer: the LLM service; ``None`` means the offline keyword rules only.
        lock: serialises the read-merge-save of one topic across processes (:class:`TopicLock`).
        max_tokens: the model's answer limit; default: the document's own limit with headroom.
        extra_instructions: the user's instructions given with the request (a hook's
            ``custom_instructions``), kept as instructions.
        deadline_at: ``time.monotonic()`` by which the document must be saved: the model gets what
            is left of it less :data:`SAVE_RESERVE_S`, and the keyword document stands in when it
            has not answered by then.
    """
    topic = topic_key(project, date)
    start = start_of_count(transcript, marks.get(session_key))
    decision = decide(transcript, start=start, force=force)
    base: dict[str, object] = {
        "project": project,
        "date": date,
        "topic_key": topic,
        "reasons": decision.reasons,
        "held": decision.held,
    }
    if not decision.due:
        return SessionReport(due=False, action="not_due", **base)
    found = extract(transcript, extra_instructions=extra_instructions)
    fresh, source, reason = SessionDocument.from_extraction(date, found), "keywords", None
    if summarizer is not None:
        fresh, source, reason = await _within_deadline(
            model_document(summarizer, transcript, found, date=date, project=project, max_tokens=max_tokens),
            fresh,
            deadline_at,
        )
    fresh = fresh.tagged(short_session(transcript.session_id))
    base |= {
        "source": source,
        "fallback_reason": reason,
        "title": _title(fresh, topic),
        "torn_line": transcript.torn_line,
    }
    if isinstance(memory, Unavailable):
        doc, dropped = cap(fresh)
        return _report(doc, SessionDocument(date), base, "unavailable", dropped, found, memory.reason)
    try:
        with (lock or no_lock)(topic):
            return _save(
                memory,
                transcript,
                fresh,
                base,
                found,
                topic=topic,
                project=project,
                date=date,
                marks=marks,
                session_key=session_key,
                calls=decision.counts.tool_calls_total,
            )
    except StorageError as exc:
        doc, dropped = cap(fresh)
        return _report(doc, SessionDocument(date), base, "unavailable", dropped, found, str(exc))


async def _within_deadline(
    work: Coroutine[Any, Any, tuple[SessionDocument, str, str | None]],
    keywords: SessionDocument,
    deadline_at: float | None,
) -> tuple[SessionDocument, str, str | None]:
    """The model's document if it comes in time, else the keyword document and why.

    With a deadline the model runs on a daemon thread with its own event loop: the first call
    imports litellm, which holds whatever loop it runs on for seconds and cannot be cancelled, so
    only a thread the process may leave behind keeps the deadline whatever the model does.
    """
    if deadline_at is None:
        return await work
    budget = model_budget(deadline_at)
    box: dict[str, Any] = {}
    loop = asyncio.new_event_loop()  # the thread's own loop: the edge's stays the one the caller runs
    task = loop.create_task(work)

    def run() -> None:
        try:
            box["value"] = loop.run_until_complete(task)
        except BaseException as exc:  # handed back to the waiting side
            box["error"] = exc
        finally:
            loop.close()

    thread = threading.Thread(target=run, name="session-model", daemon=True)
    thread.start()
    await asyncio.get_running_loop().run_in_executor(None, thread.join, budget)
    if thread.is_alive() or not box:
        # Stop the model's request at once (it holds the GIL and the process's exit otherwise); an
        # import still under way ends first, and the daemon thread is left to the process's end.
        with contextlib.suppress(RuntimeError):  # the loop closed in between
            loop.call_soon_threadsafe(task.cancel)
        return (
            keywords,
            "keywords",
            f"the model did not answer within the deadline ({budget:.0f} s left for it)",
        )
    if "error" in box:
        raise box["error"]
    value: tuple[SessionDocument, str, str | None] = box["value"]
    return value


def model_budget(deadline_at: float) -> float:
    """Seconds the model may take: what is left before ``deadline_at`` less the save's reserve."""
    return max(0.0, deadline_at - time.monotonic() - SAVE_RESERVE_S)


def _save(
    memory: SessionMemory,
    transcript: Transcript,
    fresh: SessionDocument,
    base: dict[str, object],
    found: Extraction,
    *,
    topic: str,
    project: str,
    date: str,
    marks: CompressionMarks,
    session_key: str,
    calls: int,
) -> SessionReport:
    """Read, merge, save and verify; merge again when another writer got in between.

    A server that cuts the document (:mod:`.parts`) is not another writer: the document is saved
    again in parts once, and refused in one line if that is cut too.
    """
    session_id = transcript.session_id or f"manual-save-{project}"
    first: SessionDocument | None = None
    limit: int | None = None
    for attempt in range(1, SAVE_ATTEMPTS + 1):
        existing = parts.read(memory, topic, project=project)
        old = parse(existing.content, date=date) if existing is not None else SessionDocument(date)
        first = first or old
        limit = limit or (existing.limit if existing is not None else None)
        doc, dropped = cap(merge(old, fresh))
        text = render(doc)
        if existing is not None and existing.content.strip() == text.strip():  # engram trims content
            action: Action = (
                "unchanged" if attempt == 1 else ("updated" if existing.revision_count > 1 else "saved")
            )
            break
        memory.start_session(session_id, project, transcript.cwd or "")
        title = str(base["title"])
        parts.write(memory, session_id, title, text, project=project, topic=topic, limit=limit)
        action = "updated" if existing is not None else "saved"
        if _verified(memory, text, topic, project):
            break
        raw = memory.latest_by_topic(topic, project=project)
        cut = parts.cut_at(text, raw.content) if raw is not None and limit is None else None
        if cut is not None:
            limit = cut
            with contextlib.suppress(StorageError):  # a line longer than the limit: refused below
                parts.write(memory, session_id, title, text, project=project, topic=topic, limit=limit)
                if _verified(memory, text, topic, project):
                    break
            _restore(memory, session_id, existing, topic=topic, project=project, date=date, limit=cut)
            raise StorageError(
                f"the engram server cuts saved content at {cut} bytes (engram serve before 1.8.1 does) and "
                "the document did not fit in parts; upgrade engram to 1.8.1 or later, or unset "
                "SUMMARIZER_ENGRAM_URL to use the embedded store"
            )
    else:
        raise StorageError(f"{topic!r} kept changing under {SAVE_ATTEMPTS} saves; run the command again")
    marks.set(session_key, calls)
    return _report(doc, first, base | {"save_attempts": attempt}, action, dropped, found, None)


def _verified(memory: SessionMemory, text: str, topic: str, project: str) -> bool:
    try:
        stored = parts.read(memory, topic, project=project)
    except StorageError:
        return False
    return stored is not None and stored.content.strip() == text.strip()


def _restore(
    memory: SessionMemory,
    session_id: str,
    existing: parts.Stored | None,
    *,
    topic: str,
    project: str,
    date: str,
    limit: int,
) -> None:
    """Put back what was stored before a cut save (or an empty document), so no cut one is newest."""
    before = existing.content if existing is not None and existing.limit is None else ""
    empty = f"## Session Compression — {date}\n"
    note = before if before and len(before.encode("utf-8")) < limit else empty
    memory.save(session_id, topic, note, type="session", project=project, topic_key=topic)


def _title(doc: SessionDocument, topic: str) -> str:
    """The document's searchable title: this run's goal, else the topic key."""
    goals = doc.section("goal")
    if not goals:
        return topic
    text = split_tag(goals[0])[0]
    return text if len(text) <= 120 else text[:119].rsplit(" ", 1)[0] + "…"


def topic_prefix(project: str) -> str:
    """``session/{project}/compressed/``: where every day's document of ``project`` lives."""
    return f"session/{_topic_project(project)}/compressed/"


def recover(memory: SessionMemory, project: str, *, session_id: str | None = None) -> Recovery:
    """The newest compressed document of ``project`` by update time; :class:`NotFound` if none.

    Each section lists the current session's items first: ``session_id``'s when given (a resumed
    session), else those of the session that saved last (the newest goal's tag).
    """
    prefix = topic_prefix(project)
    found = parts.read(memory, prefix, project=project)
    if found is None:
        raise NotFound(
            f"no compressed session for project {project!r}; run 'summarizer session TRANSCRIPT "
            f"--project {project}' first, or pass --project"
        )
    doc = parse(found.content)
    current = short_session(session_id)
    if not current or not any(current in split_tag(i)[1] for v in doc.items.values() for i in v):
        goals = doc.section("goal")
        current = next(iter(split_tag(goals[-1])[1]), "") if goals else ""
    text = render(current_first(doc, current)) if current and doc.date else found.content
    return Recovery(
        project=project, topic_key=found.topic_key or prefix, updated_at=found.updated_at, document=text
    )


def render_report(report: SessionReport) -> str:
    """The report (docs/session.md), or why nothing was compressed or saved."""
    if report.action == "not_due":
        why = report.held or "no trigger fired since the last compression"
        fired = f" (triggers: {'; '.join(report.reasons)})" if report.reasons else ""
        return f"No compression due: {why}{fired}. Use --force to compress anyway.\n"
    counts = [
        f"- {report.decisions} decisions saved",
        f"- {report.discoveries} discoveries saved",
        f"- {report.files} files tracked",
        f"- Topic: {report.topic_key}",
    ]
    if report.action == "unavailable":
        return (
            f"Engram unavailable ({report.error}); the compression summary was NOT saved. "
            "It follows; keep it in context:\n\n" + report.document
        )
    notes = []
    if report.action == "unchanged":
        notes.append("- Already in memory: the document did not change")
    if report.dropped:
        notes.append(f"- {report.dropped} low-value items dropped to stay under {MAX_TOKENS} tokens")
    if report.fallback_reason and report.source == "keywords":
        notes.append(f"- The model's document was not used ({report.fallback_reason}); keyword rules saved")
    return (
        "\n".join(
            [
                "Context compressed to engram:",
                *counts,
                *notes,
                "Older conversation context can now be safely forgotten.",
            ]
        )
        + "\n"
    )


def _report(
    doc: SessionDocument,
    old: SessionDocument,
    base: dict[str, object],
    action: Action,
    dropped: int,
    found: Extraction,
    error: str | None,
) -> SessionReport:
    text = render(doc)
    new_items = sum(max(0, doc.count(k) - old.count(k)) for k in doc.items)
    counts = {
        key: doc.count(key)
        for key in ("decisions", "discoveries", "failures", "progress", "files", "questions")
    }
    return SessionReport.model_validate(
        {
            **base,
            **counts,
            "due": True,
            "action": action,
            "new_items": new_items,
            "dropped": dropped,
            "redactions": found.redactions,
            "tokens": count_tokens(text),
            "document": text,
            "error": error,
        }
    )
