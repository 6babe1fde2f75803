"""``TextOnlyDisk``: a diskcache ``Disk`` that never unpickles, never pickles, never leaves its folder.

diskcache unpickles stored values (and non-raw keys) by default, so anyone who can write to the
cache directory can run code in every process that reads it (CVE-2025-69872, unfixed upstream). Our
cache only ever stores ``str`` keys and JSON text values (plus ``int`` counters), which diskcache
keeps raw or as UTF-8 text files. This subclass refuses any pickled row on read, and any value that
would need a pickle on write.

The same attacker can plant a row whose ``filename`` column is absolute (``/home/u/.ssh/id_rsa``)
or climbs out with ``..``: stock diskcache opens ``join(directory, filename)`` on read and removes
it (and its emptied parent folders) on delete, evict, cull and clear. Every value path is therefore
resolved (symlinks included) and must stay strictly inside the cache directory, on read, write and
delete; a row that points elsewhere is a :class:`CorruptRow`, and its file is never opened or removed.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import diskcache
import diskcache.core

__all__ = ["CorruptRow", "RefusedPath", "RefusedPickle", "TextOnlyDisk"]


class CorruptRow(Exception):
    """A stored row that the text-only cache will not load (it is skipped and reported)."""


class RefusedPickle(CorruptRow):
    """A pickled key or value was found in the text-only cache and was not loaded."""


class RefusedPath(CorruptRow):
    """A row names a value file outside the cache directory; the file was not touched."""


class TextOnlyDisk(diskcache.Disk):  # type: ignore[misc]  # diskcache ships no type information
    """A ``Disk`` for ``str``/``int`` keys and ``str``/``int``/``float`` values only."""

    def __init__(self, directory: str, *args: Any, **kwargs: Any) -> None:
        """Remember the resolved cache directory every value path is checked against."""
        super().__init__(directory, *args, **kwargs)
        self._root = Path(directory).resolve()

    def inside(self, filename: str) -> Path | None:
        """The resolved path of ``filename`` when it lies strictly inside the cache dir, else None."""
        if not filename or os.path.isabs(filename) or "\x00" in filename:
            return None
        full = (self._root / filename).resolve()
        return full if full != self._root and full.is_relative_to(self._root) else None

    def get(self, key: Any, raw: bool) -> Any:
        """Convert a stored key back; a pickled (non-raw) key is refused."""
        if not raw:
            raise RefusedPickle("a pickled key is stored in the text-only summary cache")
        return super().get(key, raw)

    def store(self, value: Any, read: bool, key: Any = diskcache.core.UNKNOWN) -> Any:
        """Store text, numbers or bytes; anything that would be pickled is a programming error."""
        if read or not isinstance(value, str | int | float | bytes):
            raise TypeError(f"the summary cache stores JSON text only, not {type(value).__name__}")
        return super().store(value, read, key)

    def filename(self, key: Any = diskcache.core.UNKNOWN, value: Any = diskcache.core.UNKNOWN) -> Any:
        """A new value file; refused if the cache dir's subfolders are links that lead elsewhere."""
        filename, _ = super().filename(key, value)
        full = self.inside(filename)
        if full is None:
            raise RefusedPath(f"a value file of the summary cache would land outside {str(self._root)!r}")
        return filename, str(full)

    def fetch(self, mode: int, filename: str | None, value: Any, read: bool) -> Any:
        """Load a stored value; a pickled row or a value file outside the cache is refused, never read."""
        if mode == diskcache.core.MODE_PICKLE:
            raise RefusedPickle("a pickled value is stored in the text-only summary cache")
        if filename is not None and self.inside(filename) is None:
            raise RefusedPath("a row names a value file outside the summary cache; it was not read")
        return super().fetch(mode, filename, value, read)

    def remove(self, file_path: str) -> None:
        """Remove a value file inside the cache and its emptied subfolders; never anything outside."""
        full = self.inside(file_path)
        if full is None:
            return  # a planted path: the row goes, the file it names stays where it is
        try:
            os.remove(full)
        except OSError:
            return  # another process removed it first (diskcache's own behaviour)
        parent = full.parent
        # Stock diskcache calls os.removedirs, which climbs as long as folders are empty; stop at the root.
        while parent != self._root and parent.is_relative_to(self._root):
            try:
                parent.rmdir()
            except OSError:
                break
            parent = parent.parent
