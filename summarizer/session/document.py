"""The compressed-session document: one per project and day, tagged, capped, rendered, parsed.

The format is the one docs/session.md shows: the header carries the
date only (``## Session Compression — 2026-11-29``), so re-running a compression produces the same
text, and besides the summary's sections the document keeps what an agent needs to resume: ``Goal``,
``Instructions``, ``Next Steps`` and ``Tests and Build`` (the latest test/build runs). Sections are
rendered in :data:`SECTIONS` order and omitted when empty; every item is one line.

**Session tags.** Two sessions of one project on one day share the document; each item ends with the
session it came from, `` (session 5b1f0c8e)`` (the first 8 characters of the agent's session id), or
``(sessions 5b1f0c8e: 3, 9a7e21d0: 2)`` on a file line edited in several sessions (edits per session).
A transcript without a session id gives untagged items. :func:`current_first` reorders each section
so one session's items come first (``recover`` uses it).

**Cap**: the rendered document stays under :data:`MAX_TOKENS` (o200k tokens). Whole items are
dropped, never cut, in :data:`DROP_ORDER`: open questions first, then progress, sections we did not
write, context, files, discoveries, failed approaches, decisions, status, the goal, next steps, the
user's unanswered last message, and the user's instructions last. Within a section the newest
item goes first; that is what makes capping idempotent (the dropped items are exactly the ones a
re-run appends again).

Merging a later compression into the stored document is :mod:`.reconcile`'s job.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from summarizer.core.tokens import count_tokens
from summarizer.session.extract import UNANSWERED, Extraction, normalise_item

__all__ = [
    "DROP_ORDER",
    "MAX_TOKENS",
    "SECTIONS",
    "SessionDocument",
    "cap",
    "current_first",
    "item_key",
    "parse",
    "render",
    "sessions_of",
    "short_session",
    "split_tag",
    "tag",
]

MAX_TOKENS = 2000
SECTIONS: tuple[tuple[str, str], ...] = (
    ("goal", "Goal"),
    ("instructions", "Instructions"),
    ("context", "Context"),
    ("decisions", "Decisions"),
    ("discoveries", "Discoveries"),
    ("progress", "Progress"),
    ("next_steps", "Next Steps"),
    ("status", "Tests and Build"),
    ("files", "Files Modified"),
    ("failures", "Failed Approaches (avoid repeating)"),
    ("questions", "Open Questions"),
)
# "extra" stands for sections we did not write (an agent's own mem_save of the same topic).
DROP_ORDER = (
    "questions",
    "progress",
    "extra",
    "context",
    "files",
    "discoveries",
    "failures",
    "decisions",
    "status",
    "goal",
    "next_steps",
    "unanswered",
    "instructions",
)

_EXACT_MARGIN = 64
_TITLE_TO_KEY = {title.lower(): key for key, title in SECTIONS} | {
    "next steps": "next_steps",
    "test/build status": "status",
    "tests and build": "status",
    "status": "status",
    "accomplished": "progress",
    "relevant files": "files",
    "files modified": "files",
    "failed approaches": "failures",
}
_HEADER = re.compile(r"^##\s+Session Compression\s+[—–-]\s+(\S+)")
_SECTION = re.compile(r"^###\s+(.+?)\s*$")
_ITEM = re.compile(r"^\s*[-*]\s+(.*)$")
_TAG = re.compile(r"\s+\(sessions? ((?:[\w-]{1,16}(?:: \d+)?)(?:, [\w-]{1,16}(?:: \d+)?)*)\)$")


def short_session(session_id: str | None) -> str:
    """The tag form of a session id: its first 8 word characters ("" without an id)."""
    return re.sub(r"[^\w-]", "", session_id or "")[:8]


def split_tag(item: str) -> tuple[str, dict[str, int | None]]:
    """An item's text without its session tag, and the tag's sessions (with edit counts on files)."""
    found = _TAG.search(item)
    if found is None:
        return item, {}
    sessions: dict[str, int | None] = {}
    for part in found.group(1).split(", "):
        name, _, count = part.partition(": ")
        sessions[name] = int(count) if count else None
    return item[: found.start()], sessions


def tag(text: str, sessions: Mapping[str, int | None]) -> str:
    """``text`` with its session tag (see the module docstring)."""
    if not sessions:
        return text
    if len(sessions) == 1:
        return f"{text} (session {next(iter(sessions))})"
    parts = [f"{s}: {n}" if n is not None else s for s, n in sessions.items()]
    return f"{text} (sessions {', '.join(parts)})"


def sessions_of(item: str) -> tuple[str, ...]:
    """The sessions an item is tagged with."""
    return tuple(split_tag(item)[1])


def item_key(item: str) -> str:
    """The comparison form of an item: no session tag; case, punctuation, spacing ignored."""
    return normalise_item(split_tag(item)[0])


@dataclass(frozen=True, slots=True)
class SessionDocument:
    """A day's compressed session: the standard sections plus any sections we did not write."""

    date: str
    items: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    extra: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @classmethod
    def from_extraction(cls, date: str, found: Extraction) -> SessionDocument:
        """The document for one extraction."""
        return cls(date, {key: getattr(found, key) for key, _ in SECTIONS})

    def tagged(self, session: str) -> SessionDocument:
        """Every item tagged with ``session`` (a no-op for an empty session)."""
        if not session:
            return self
        items = {k: tuple(tag(split_tag(i)[0], {session: None}) for i in v) for k, v in self.items.items()}
        return replace(self, items=items)

    def section(self, key: str) -> tuple[str, ...]:
        """The items of one section (empty when absent)."""
        return tuple(self.items.get(key, ()))

    def count(self, key: str) -> int:
        """How many items a section holds."""
        return len(self.section(key))


def render(doc: SessionDocument) -> str:
    """The markdown text stored in engram."""
    lines = [f"## Session Compression — {doc.date}"]
    blocks = [(title, doc.section(key)) for key, title in SECTIONS] + list(doc.extra)
    for title, items in blocks:
        if items:
            lines.append(f"### {title}")
            lines.extend(f"- {item}" for item in items)
    return "\n".join(lines) + "\n"


def parse(text: str, *, date: str = "") -> SessionDocument:
    """Read a stored document back (ours, or one an agent wrote in the same format)."""
    found_date = date
    items: dict[str, list[str]] = {}
    extra: list[tuple[str, list[str]]] = []
    current: list[str] | None = None
    for raw in text.splitlines():
        line = raw.rstrip()
        if not line.strip():
            continue
        if header := _HEADER.match(line):
            found_date = found_date or header.group(1)
            continue
        if section := _SECTION.match(line):
            title = section.group(1)
            lowered = title.lower()
            key = _TITLE_TO_KEY.get(lowered) or _TITLE_TO_KEY.get(lowered.split(" (")[0])
            if key:
                current = items.setdefault(key, [])
            else:
                extra.append((title, []))
                current = extra[-1][1]
            continue
        if current is None:  # prose before any section: keep it rather than lose it
            extra.append(("Notes", []))
            current = extra[-1][1]
        item = _ITEM.match(line)
        current.append((item.group(1) if item else line).strip())
    return SessionDocument(
        found_date,
        {k: tuple(v) for k, v in items.items()},
        tuple((t, tuple(v)) for t, v in extra),
    )


def cap(doc: SessionDocument, max_tokens: int = MAX_TOKENS) -> tuple[SessionDocument, int]:
    """Drop whole items (see :data:`DROP_ORDER`) until the rendering is under ``max_tokens``.

    Returns the capped document and how many items were dropped.
    """
    tokens = count_tokens(render(doc))
    dropped = 0
    while tokens >= max_tokens:
        smaller = _drop_one(doc)
        if smaller is None:
            break
        (doc, item), dropped = smaller, dropped + 1
        # Subtract the item's own tokens instead of re-tokenising the whole document each time;
        # near the cap, count exactly, so the estimate never decides where we stop.
        tokens -= count_tokens(f"- {item}\n")
        if tokens < max_tokens + _EXACT_MARGIN:
            tokens = count_tokens(render(doc))
    return doc, dropped


def _drop_one(doc: SessionDocument) -> tuple[SessionDocument, str] | None:
    for key in DROP_ORDER:
        if key == "extra":
            for index in range(len(doc.extra) - 1, -1, -1):
                title, values = doc.extra[index]
                if values:
                    extra = list(doc.extra)
                    extra[index] = (title, values[:-1])
                    return replace(doc, extra=tuple(e for e in extra if e[1])), values[-1]
        elif key in {"questions", "unanswered"}:
            # The user's unanswered last message goes only just before their instructions.
            questions = doc.section("questions")
            keep = [i for i, q in enumerate(questions) if (key == "unanswered") == q.startswith(UNANSWERED)]
            if keep:
                index = keep[-1]
                rest = questions[:index] + questions[index + 1 :]
                return replace(doc, items={**doc.items, "questions": rest}), questions[index]
        elif items := doc.section(key):
            return replace(doc, items={**doc.items, key: items[:-1]}), items[-1]
    return None


def current_first(doc: SessionDocument, session: str) -> SessionDocument:
    """Each section with ``session``'s items first, the others after, each group in stored order."""
    if not session:
        return doc
    items = {
        key: tuple(sorted(values, key=lambda item: session not in sessions_of(item)))
        for key, values in doc.items.items()
    }
    return replace(doc, items=items)
