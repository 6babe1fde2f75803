"""``TextOnlyDisk``: a diskcache ``Disk`` that never unpickles and never pickles.

diskcache unpickles stored values (and non-raw keys) by default, so anyone who can write to the
cache directory can run code in every process that reads it (CVE-2025-69872, unfixed upstream). Our
cache only ever stores ``str`` keys and JSON text values (plus ``int`` counters), which diskcache
keeps raw or as UTF-8 text files. This subclass refuses any pickled row on read, and any value that
would need a pickle on write.
"""

from __future__ import annotations

from typing import Any

import diskcache
import diskcache.core

__all__ = ["RefusedPickle", "TextOnlyDisk"]


class RefusedPickle(Exception):
    """A pickled key or value was found in the text-only cache and was not loaded."""


class TextOnlyDisk(diskcache.Disk):  # type: ignore[misc]  # diskcache ships no type information
    """A ``Disk`` for ``str``/``int`` keys and ``str``/``int``/``float`` values only."""

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

    def fetch(self, mode: int, filename: str | None, value: Any, read: bool) -> Any:
        """Load a stored value; a pickled row is refused, never loaded."""
        if mode == diskcache.core.MODE_PICKLE:
            raise RefusedPickle("a pickled value is stored in the text-only summary cache")
        return super().fetch(mode, filename, value, read)
