"""The compressed-session document: one per project and day, merged, capped, rendered.

The format is the seed's (§4 "Compressed Summary Format") with SPEC's ruling on the header: the
date only (``## Session Compression — 2026-11-29``), so re-running a compression produces the same
text. Sections are rendered in the seed's order and omitted when empty; every item is one line.

Rulings this module owns:

* **Merge** keeps the stored document's items first, in their order, and appends new items whose
  normalised text (case, spacing, punctuation and backticks ignored) is not there yet. Nothing is
  ever reordered, so merging the same extraction twice is a no-op. A ``Completed: X`` progress
  item retires an ``In progress: X`` one.
* **Cap**: the rendered document stays under :data:`MAX_TOKENS` (o200k tokens). Whole items are
  dropped, never cut: open questions first, then progress, unknown sections, context, files,
  discoveries, failures, and decisions last. Within a section the newest item goes first; that is
  what makes capping idempotent (the dropped items are exactly the ones a re-run appends again).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from summarizer.session.extract import Extraction, normalise_item
from summarizer.tokens import count_tokens

__all__ = ["DROP_ORDER", "MAX_TOKENS", "SECTIONS", "SessionDocument", "cap", "merge", "parse", "render"]

MAX_TOKENS = 2000
SECTIONS: tuple[tuple[str, str], ...] = (
    ("context", "Context"),
    ("decisions", "Decisions"),
    ("discoveries", "Discoveries"),
    ("progress", "Progress"),
    ("files", "Files Modified"),
    ("failures", "Failed Approaches (avoid repeating)"),
    ("questions", "Open Questions"),
)
# "extra" stands for sections we did not write (an agent's own mem_save of the same topic).
DROP_ORDER = ("questions", "progress", "extra", "context", "files", "discoveries", "failures", "decisions")

_EXACT_MARGIN = 64
_TITLE_TO_KEY = {title.lower(): key for key, title in SECTIONS}
_HEADER = re.compile(r"^##\s+Session Compression\s+[—–-]\s+(\S+)")
_SECTION = re.compile(r"^###\s+(.+?)\s*$")
_ITEM = re.compile(r"^\s*[-*]\s+(.*)$")


@dataclass(frozen=True, slots=True)
class SessionDocument:
    """A day's compressed session: the seed's sections plus any sections we did not write."""

    date: str
    items: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    extra: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @classmethod
    def from_extraction(cls, date: str, found: Extraction) -> SessionDocument:
        """The document for one extraction."""
        return cls(date, {key: getattr(found, key) for key, _ in SECTIONS})

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
    """Read a stored document back (ours, or one an agent wrote in the seed's format)."""
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
            key = _TITLE_TO_KEY.get(title.lower()) or _TITLE_TO_KEY.get(title.lower().split(" (")[0])
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


def merge(old: SessionDocument, new: SessionDocument) -> SessionDocument:
    """``old`` with ``new``'s unseen items appended section by section (see module docstring)."""
    items: dict[str, tuple[str, ...]] = {}
    for key, _ in SECTIONS:
        items[key] = _union(old.section(key), new.section(key))
    items["progress"] = _retire_in_progress(items["progress"])
    extra = dict(old.extra)
    for title, values in new.extra:
        extra[title] = _union(extra.get(title, ()), values)
    return SessionDocument(new.date or old.date, items, tuple(extra.items()))


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
        elif items := doc.section(key):
            return replace(doc, items={**doc.items, key: items[:-1]}), items[-1]
    return None


def _union(first: tuple[str, ...], second: tuple[str, ...]) -> tuple[str, ...]:
    seen: set[str] = set()
    out: list[str] = []
    for item in (*first, *second):
        key = normalise_item(item)
        if key and key not in seen:
            seen.add(key)
            out.append(item)
    return tuple(out)


def _retire_in_progress(progress: tuple[str, ...]) -> tuple[str, ...]:
    done = {normalise_item(p.split(":", 1)[1]) for p in progress if p.startswith("Completed:")}
    return tuple(
        p for p in progress
        if not (p.startswith("In progress:") and normalise_item(p.split(":", 1)[1]) in done)
    )
