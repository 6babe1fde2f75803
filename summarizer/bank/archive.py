"""Archives under ``_notes/archive/``: trimmed entries, sprint-close snapshots and learnings.

* ``YYYY-MM-compressed-entries.md``: every entry the C7 trim removes or cuts, in its full form,
  written *before* the trim touches ``01-active-context.md`` (archive first: a crash
  between the two loses nothing).
* ``YYYY-MM-xref-index.md``: the cross-reference index as it stood at sprint close.
* ``YYYY-MM-learnings.md``: learnings files archived at sprint close before they are removed.

Archives are append-only and idempotent: an entry whose marker line is already in the file, or a
block whose ``<!-- archive:<hash> -->`` marker is, is not appended again. ADR notes and anything
else under ``_notes/`` outside ``archive/`` are never opened for writing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

from summarizer.bank.entry import BankEntry

__all__ = ["append_block", "append_entries", "archive_file", "month_of"]

_ENTRIES_INTRO = (
    "Entries removed (LOW) or cut to filename-only (MEDIUM) by the C7 size trim of "
    "`01-active-context.md`, kept here in full."
)


def month_of(date: str) -> str:
    """``YYYY-MM`` of a ``YYYY-MM-DD`` date."""
    return date[:7]


def archive_file(root: Path, date: str, kind: str) -> Path:
    """``<root>/_notes/archive/<YYYY-MM>-<kind>.md``."""
    return root / "_notes" / "archive" / f"{month_of(date)}-{kind}.md"


def _start(text: str | None, title: str, intro: str) -> list[str]:
    if text is None or not text.strip():
        return [title, "", intro] if intro else [title]
    return text.rstrip("\n").split("\n")


def append_entries(text: str | None, date: str, trimmed: Iterable[tuple[BankEntry, str]]) -> str | None:
    """Append ``(entry, reason)`` pairs (full original form) not archived yet; None if nothing new."""
    lines = _start(text, f"# Compressed Entries Archive — {month_of(date)}", _ENTRIES_INTRO)
    present = set(lines)
    changed = False
    heading: str | None = None
    for entry, reason in trimmed:
        rendered = entry.render()
        if rendered[0] in present:
            continue
        block_heading = f"### {date} — C7 trim ({reason}) — Phase {entry.phase} — {entry.feature}"
        if block_heading != heading and block_heading not in present:
            lines.extend(["", block_heading])
        heading = block_heading
        present.add(block_heading)
        lines.extend(rendered)
        present.update(rendered)
        changed = True
    return "\n".join(lines) + "\n" if changed else None


def append_block(text: str | None, title: str, heading: str, body: list[str]) -> str | None:
    """Append ``## heading`` + ``body`` once (keyed by a hash of heading and body); None if present."""
    digest = hashlib.sha256("\n".join([heading, *body]).encode("utf-8")).hexdigest()[:16]
    marker = f"<!-- archive:{digest} -->"
    lines = _start(text, title, "")
    if marker in lines:
        return None
    lines.extend(["", f"## {heading}", marker, *body])
    return "\n".join(lines).rstrip("\n") + "\n"
