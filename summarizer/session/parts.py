"""Saving a document whole to an engram that cuts long content (``engram serve`` before 1.8.1).

engram 1.7's HTTP server keeps the first 2,000 bytes of a saved observation and appends
``... [truncated]``; the embedded store and newer servers keep everything. Every save is read back:

* **Whole**: nothing more to do. A document under the limit is always one observation, unmarked.
* **Cut**: the server's limit is the length of what it kept. The document is saved again in parts
  under one topic: part 1 at the day's topic key, parts 2..N at ``session/p/parts/{date}/02``...
  (apart, so a prefix read of the documents never meets them), each under the limit and opened by
  a marker line ``<!-- summarizer part 1/3 of 5f2c9a1e, server limit 2000 bytes -->`` (the hash of
  the whole document, so parts of two saves never mix). Part 1 is written last; :func:`read` joins
  the parts in order. The next run reads the limit from the marker and saves in parts at once.
* **Cut again** (the parts did not fit either) or **a line longer than the limit**: refused with
  one line naming the limit and the fix, and the cut document is replaced by what was there
  before (or a one-line note), never left as the newest.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Protocol

from summarizer.core.errors import StorageError


class StoredMemory(Protocol):
    """The parts of an engram observation that compression and recovery read."""

    @property
    def content(self) -> str: ...
    @property
    def updated_at(self) -> str: ...
    @property
    def topic_key(self) -> str | None: ...
    @property
    def revision_count(self) -> int: ...


class SessionMemory(Protocol):
    """The two engram calls parts need (``summarizer_engram``'s Store and Client have them)."""

    def save(
        self,
        session_id: str,
        title: str,
        content: str,
        *,
        type: str = ...,
        project: str = ...,
        topic_key: str = ...,
    ) -> object:
        """Save with engram's topic-key upsert."""
        ...

    def latest_by_topic(self, prefix: str, *, project: str = ...) -> StoredMemory | None:
        """The newest live observation whose topic key starts with ``prefix``."""
        ...


__all__ = ["CUT_SUFFIX", "Stored", "StoredMemory", "cut_at", "part_key", "read", "split", "write"]

CUT_SUFFIX = "... [truncated]"
_MARK = re.compile(r"^<!-- summarizer part (\d+)/(\d+) of (\w+), server limit (\d+) bytes -->\n?")
_MARGIN = 8  # bytes kept back from the limit (the server's own trimming of whitespace)


@dataclass(frozen=True, slots=True)
class Stored:
    """A document as stored: joined from its parts when it was saved in parts."""

    content: str
    updated_at: str
    topic_key: str | None
    revision_count: int
    limit: int | None = None  # the server's cut, when the document is in parts


def part_key(topic: str, number: int) -> str:
    """The topic key of part ``number``: part 1 is the topic itself, the others live apart
    (``session/p/parts/2026-12-01/02``), so no prefix read of the documents ever meets them."""
    if number == 1:
        return topic
    head, found, tail = topic.partition("/compressed/")
    return f"{head}/parts/{tail}/{number:02d}" if found else f"{topic}/part-{number:02d}"


def cut_at(sent: str, stored: str) -> int | None:
    """The server's limit in bytes when ``stored`` is ``sent`` cut short, else ``None``."""
    sent, stored = sent.strip(), stored.strip()
    if stored == sent:
        return None
    kept = stored.removesuffix(CUT_SUFFIX)
    if kept != stored or (len(kept) < len(sent) and sent.startswith(kept)):
        return len(kept.encode("utf-8"))
    return None


def split(text: str, limit: int) -> list[str]:
    """``text`` in parts of at most ``limit`` bytes each, marker included, cut at line ends."""
    ident = hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]
    room = limit - len(_marker(99, 99, ident, limit).encode("utf-8")) - _MARGIN
    chunks: list[list[str]] = [[]]
    size = 0
    for line in text.splitlines(keepends=True):
        length = len(line.encode("utf-8"))
        if length > room:
            raise StorageError(
                f"the engram server cuts saved content at {limit} bytes (engram serve before 1.8.1 does) and "
                "one line of the document is longer than that; upgrade engram to 1.8.1 or later, or unset "
                "SUMMARIZER_ENGRAM_URL to use the embedded store"
            )
        if size + length > room and chunks[-1]:
            chunks.append([])
            size = 0
        chunks[-1].append(line)
        size += length
    total = len(chunks)
    return [_marker(i, total, ident, limit) + "".join(lines) for i, lines in enumerate(chunks, 1)]


def _marker(number: int, total: int, ident: str, limit: int) -> str:
    return f"<!-- summarizer part {number}/{total} of {ident}, server limit {limit} bytes -->\n"


def write(
    memory: SessionMemory,
    session_id: str,
    title: str,
    text: str,
    *,
    project: str,
    topic: str,
    limit: int | None,
) -> None:
    """Save ``text`` at ``topic``: whole when it fits ``limit`` (or there is none), else in parts."""
    if limit is None or len(text.encode("utf-8")) <= limit - _MARGIN:
        memory.save(session_id, title, text, type="session", project=project, topic_key=topic)
        return
    pieces = split(text, limit)
    # Parts 2..N first: part 1 is written last, so it is the topic's newest observation.
    for number in range(len(pieces), 0, -1):
        memory.save(
            session_id,
            title if number == 1 else f"{title} (part {number} of {len(pieces)})",
            pieces[number - 1],
            type="session",
            project=project,
            topic_key=part_key(topic, number),
        )


def read(memory: SessionMemory, topic: str, *, project: str) -> Stored | None:
    """The document at ``topic`` (a day's key, or a prefix), joined from its parts when it has any.

    Parts that do not belong together (another save under way) make :class:`StorageError`; the
    caller runs the read-merge-save again.
    """
    first = memory.latest_by_topic(topic, project=project)
    if first is None:
        return None
    mark = _MARK.match(first.content)
    if mark is None:
        return Stored(first.content, first.updated_at, first.topic_key, first.revision_count)
    total, ident, limit = int(mark[2]), mark[3], int(mark[4])
    base = first.topic_key or topic
    pieces = [first.content[mark.end() :]]
    for index in range(2, total + 1):
        part = memory.latest_by_topic(part_key(base, index), project=project)
        found = _MARK.match(part.content) if part is not None else None
        if part is None or found is None or (int(found[1]), found[3]) != (index, ident):
            raise StorageError(
                f"the parts of {base!r} do not belong together (a save is under way); run again"
            )
        pieces.append(part.content[found.end() :])
    text = "".join(p if p.endswith("\n") else p + "\n" for p in pieces)
    return Stored(text, first.updated_at, base, first.revision_count, limit)
