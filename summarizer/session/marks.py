"""The small files a session run keeps beside the memory: compression marks and the topic lock.

Both are effects at the edge, built by :mod:`summarizer.app` and handed to :mod:`.service`:

* :class:`FileMarks` remembers where each session was last compressed (the trigger rules count
  from there); a mark that cannot be read or written only means the next automatic run is not held
  off, so it never fails a save.
* :class:`TopicLock` serialises the read-merge-save of a topic across processes (``fcntl.flock`` on
  one lock file), which is what lets concurrent runs keep the union of their items.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

__all__ = ["FileMarks", "TopicLock", "no_lock"]


class TopicLock:
    """An exclusive lock file (``fcntl.flock``) held across one topic's read-merge-save.

    One file for all topics: a save takes milliseconds, so finer locks would buy nothing. Where
    ``fcntl`` does not exist (Windows) the lock is a no-op and the verify-and-retry loop alone keeps
    concurrent runs' items.
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    @contextlib.contextmanager
    def __call__(self, topic: str) -> Iterator[object]:
        """Hold the lock while the block runs (``topic`` is for the log of a future finer lock)."""
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows
            yield None
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle = open(self.path, "a+b")  # noqa: SIM115 - held across the yield
        except OSError:
            yield None  # an unwritable lock directory must not stop the save; verification remains
            return
        with handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield None
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)


@contextlib.contextmanager
def no_lock(topic: str) -> Iterator[object]:
    """No lock (tests, one-shot runs): the save is still verified and retried."""
    yield None


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
