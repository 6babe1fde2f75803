"""Mid-session compression and recovery: decide, extract, merge into the day's document, save.

:func:`compress_session` runs the seed's protocol (§4) with SPEC's rulings:

1. **Decide** with the trigger rules, counted since the last compression (:mod:`.triggers`).
2. **Extract** decisions, discoveries, failures, progress, files and open questions: with the
   model through the ``session`` prompt when one is configured (answer validated; the keyword
   document is the template fallback), otherwise with the offline keyword rules (:mod:`.extract`).
3. **Dedupe against memory**: read the day's document (topic ``session/{project}/compressed/{date}``)
   and merge into it by normalised text. When the merged text equals what is stored, nothing is
   written, so a re-run leaves engram exactly as it was (the seed's idempotency rule: not even a
   revision bump).
4. **Save** with a topic-key upsert, type ``session``, capped under 2,000 tokens.
5. **Report** in the seed's words. Engram unreachable: the document is returned for stdout and the
   report says it was not saved.

:func:`recover` returns the newest ``session/{project}/compressed/*`` document by update time, not
by search rank (a search would favour whichever day mentions the query most).

The memory is a Protocol satisfied by ``summarizer_engram``'s Store and Client; this module never
imports the component (STYLE R3). The model arrives as an optional :class:`Summarizer`.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

from pydantic import BaseModel, ConfigDict

from summarizer.errors import InvalidAnswer, NotFound, StorageError
from summarizer.scrub import scrub
from summarizer.session.document import MAX_TOKENS, SessionDocument, cap, merge, parse, render
from summarizer.session.extract import Extraction, extract
from summarizer.session.transcript import Transcript, conversation_text
from summarizer.session.triggers import decide, start_of_count
from summarizer.tokens import count_tokens

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
    "compress_session",
    "recover",
    "render_report",
    "topic_key",
]

Action = Literal["saved", "updated", "unchanged", "not_due", "unavailable"]
PROMPT = "session"


class StoredMemory(Protocol):
    """The parts of an engram observation that compression and recovery read."""

    @property
    def content(self) -> str: ...
    @property
    def updated_at(self) -> str: ...
    @property
    def topic_key(self) -> str | None: ...


class SessionMemory(Protocol):
    """What this module needs from engram (``summarizer_engram.MemoryBackend`` provides it)."""

    def start_session(self, id: str, project: str, directory: str = "") -> None:
        """Create the session the document hangs off (fill-blanks upsert)."""
        ...

    def save(self, session_id: str, title: str, content: str, *, type: str = "manual", project: str = "",
             scope: str = "project", topic_key: str = "", tool_name: str = "") -> object:
        """Save with engram's topic-key upsert."""
        ...

    def latest_by_topic(self, prefix: str, *, project: str = "", scope: str = "") -> StoredMemory | None:
        """The newest-updated live observation whose topic key starts with ``prefix``."""
        ...


class CompressionMarks(Protocol):
    """Where a session's last compression happened (tool calls counted at that point)."""

    def get(self, key: str) -> int | None:
        """The recorded tool-call count, or ``None``."""
        ...

    def set(self, key: str, tool_calls: int) -> None:
        """Record a compression at ``tool_calls``."""
        ...


class FileMarks:
    """Compression marks as small JSON files under a directory (the cache directory by default)."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def _path(self, key: str) -> Path:
        return self.root / f"{hashlib.sha256(key.encode()).hexdigest()[:32]}.json"

    def get(self, key: str) -> int | None:
        """The recorded count; an unreadable mark is treated as none (it only spaces runs out)."""
        try:
            value = json.loads(self._path(key).read_text(encoding="utf-8")).get("tool_calls")
        except (OSError, ValueError, AttributeError):
            return None
        return value if isinstance(value, int) else None

    def set(self, key: str, tool_calls: int) -> None:
        """Write the mark atomically (temp file, then rename).

        A mark that cannot be written (read-only cache directory) is skipped: the memory is already
        saved, and a missing mark only means the next automatic run is not held off.
        """
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.root, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump({"key": key, "tool_calls": tool_calls}, handle)
            os.replace(tmp, self._path(key))
        except OSError:
            return


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
    error: str | None = None


class Recovery(BaseModel):
    """The newest compressed document of a project."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    project: str
    topic_key: str
    updated_at: str
    document: str


def topic_key(project: str, date: str) -> str:
    """``session/{project}/compressed/{date}``: one document per project and day."""
    return f"session/{project}/compressed/{date}"


async def compress_session(
    transcript: Transcript,
    *,
    project: str,
    date: str,
    memory: SessionMemory | None,
    marks: CompressionMarks,
    session_key: str,
    force: bool = False,
    summarizer: Summarizer | None = None,
    memory_error: str | None = None,
) -> SessionReport:
    """Compress ``transcript`` into the project's document for ``date`` (see the module docstring).

    Args:
        memory: the engram backend; ``None`` when it could not be opened (``memory_error`` says why).
        marks: where the last compression of each session is recorded.
        session_key: identifies the session for ``marks`` (its session id, or the transcript path).
        force: an explicit request: bypasses the trigger rules and the hold-offs.
        summarizer: the LLM service; ``None`` means the offline keyword rules only.
    """
    topic = topic_key(project, date)
    start = start_of_count(transcript, marks.get(session_key))
    decision = decide(transcript, start=start, force=force)
    base: dict[str, object] = {"project": project, "date": date, "topic_key": topic,
                               "reasons": decision.reasons, "held": decision.held}
    if not decision.due:
        return SessionReport(due=False, action="not_due", **base)
    found = extract(transcript)
    fresh, source = SessionDocument.from_extraction(date, found), "keywords"
    if summarizer is not None:
        fresh, source = await _model_document(summarizer, transcript, found, date=date, project=project)

    existing: StoredMemory | None = None
    error = memory_error
    if memory is not None:
        try:
            existing = memory.latest_by_topic(topic, project=project)
        except StorageError as exc:
            error = str(exc)
    if memory is None or error is not None:
        doc, dropped = cap(fresh)
        return _report(doc, SessionDocument(date), base, "unavailable", source, dropped, found, error)
    old = parse(existing.content, date=date) if existing is not None else SessionDocument(date)
    doc, dropped = cap(merge(old, fresh))
    text = render(doc)
    if existing is not None and existing.content.strip() == text.strip():  # engram trims content
        action: Action = "unchanged"
    else:
        session_id = transcript.session_id or f"manual-save-{project}"
        try:
            memory.start_session(session_id, project, transcript.cwd or "")
            memory.save(session_id, topic, text, type="session", project=project, topic_key=topic)
        except StorageError as exc:
            return _report(doc, old, base, "unavailable", source, dropped, found, str(exc))
        action = "updated" if existing is not None else "saved"
    marks.set(session_key, decision.counts.tool_calls_total)
    return _report(doc, old, base, action, source, dropped, found, None)


def recover(memory: SessionMemory, project: str) -> Recovery:
    """The newest compressed document of ``project`` by update time; :class:`NotFound` if none."""
    prefix = f"session/{project}/compressed/"
    found = memory.latest_by_topic(prefix, project=project)
    if found is None:
        raise NotFound(
            f"no compressed session for project {project!r}; run 'summarizer session TRANSCRIPT "
            f"--project {project}' first, or pass --project"
        )
    return Recovery(project=project, topic_key=found.topic_key or prefix, updated_at=found.updated_at,
                    document=found.content)


def render_report(report: SessionReport) -> str:
    """The seed's report (§4 step 4), or why nothing was compressed or saved."""
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
        return (f"Engram unavailable ({report.error}); the compression summary was NOT saved. "
                "It follows; keep it in context:\n\n" + report.document)
    notes = []
    if report.action == "unchanged":
        notes.append("- Already in memory: the document did not change")
    if report.dropped:
        notes.append(f"- {report.dropped} low-value items dropped to stay under {MAX_TOKENS} tokens")
    return "\n".join(["Context compressed to engram:", *counts, *notes,
                      "Older conversation context can now be safely forgotten."]) + "\n"


def _report(doc: SessionDocument, old: SessionDocument, base: dict[str, object], action: Action,
            source: str, dropped: int, found: Extraction, error: str | None) -> SessionReport:
    text = render(doc)
    new_items = sum(max(0, doc.count(k) - old.count(k)) for k in doc.items)
    return SessionReport.model_validate({
        **base, "due": True, "action": action, "source": source,
        "decisions": doc.count("decisions"), "discoveries": doc.count("discoveries"),
        "failures": doc.count("failures"), "progress": doc.count("progress"),
        "files": doc.count("files"), "questions": doc.count("questions"),
        "new_items": new_items, "dropped": dropped, "redactions": found.redactions,
        "tokens": count_tokens(text), "document": text, "error": error,
    })


async def _model_document(summarizer: Summarizer, transcript: Transcript, found: Extraction, *, date: str,
                    project: str) -> tuple[SessionDocument, str]:
    """The model's document (validated), with the keyword document as the template fallback."""
    from summarizer.semantic.untrusted import Untrusted
    from summarizer.semantic.validate import AnswerRules

    offline = SessionDocument.from_extraction(date, found)
    rules = AnswerRules(max_lines=300, max_line_chars=600, max_chars=16_000)

    def validate(answer: str, source: str) -> str:
        doc = parse(answer, date=date)
        if not any(doc.items.values()):
            raise InvalidAnswer("the answer has none of the session document's sections")
        body = render(replace(doc, date=date)).split("\n", 1)[1]  # the header date is ours, not novel
        rules(body, source)
        return render(replace(doc, date=date))

    generation = await summarizer.generate(
        PROMPT,
        {"date": date, "project": project, "max_tokens": MAX_TOKENS,
         "transcript": Untrusted(conversation_text(transcript), label="transcript")},
        validate=validate,
        fallback=lambda: render(offline),
    )
    if generation.source == "template":
        return offline, "keywords"
    doc = parse(generation.text, date=date)
    # Scrub again: the model saw scrubbed input, but its answer is persisted and must be clean too.
    items = {k: tuple(scrub(item)[0] for item in v) for k, v in doc.items.items()}
    # Files come from tool calls, which are facts: add any file the model's answer left out.
    named = " ".join(items.get("files", ()))
    missing = tuple(line for line in found.files if line.split("`")[1] not in named) if found.files else ()
    items["files"] = items.get("files", ()) + missing
    return SessionDocument(date, items, doc.extra), generation.source
