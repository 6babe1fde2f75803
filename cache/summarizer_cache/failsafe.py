"""``FailSafeCache``: the summary cache as the summarizing commands see it, one that cannot fail them.

The backends raise :class:`~summarizer.core.errors.StorageError` when the store itself is at fault (a
corrupt or truncated ``cache.db``, a read-only directory, a full disk, ``SUMMARIZER_CACHE_DIR``
naming a file, a lock held past the timeout, a malformed or unreachable ``SUMMARIZER_CACHE_URL``).
This wrapper opens the backend lazily, on the first lookup, and on the first fault of any kind
switches itself off for the rest of the process: every later ``get`` is a miss and every ``put`` a
no-op, and exactly one warning line says so. The summary is produced as if ``--no-cache`` had been
given. Switching off (rather than retrying each call) is deliberate: a held lock would otherwise
cost its full timeout on every entry of a batch. A long-lived process (the MCP server) tries the
store again after ``retry_after_s`` (5 minutes), so a Redis restart does not cost the cache for the
server's lifetime; a CLI run never lives that long, so it warns once.

The ``cache`` admin commands use the backends directly: there the user asked about the cache
itself, so its errors are reported, not hidden.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable
from typing import Protocol

from summarizer.core.scrub import scrub
from summarizer.semantic.ports import CachedAnswer, CacheKey, SummaryCache

__all__ = ["FailSafeCache"]


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class _Backend(SummaryCache, Protocol):
    def close(self) -> None: ...


class FailSafeCache:
    """A :class:`summarizer.ports.SummaryCache` that degrades to no cache on the first fault.

    Args:
        opener: builds the backend (``DiskCache``/``RedisCache``); called once, on first use.
        warn: where the one warning line goes (default: stderr, like every CLI message; the MCP
            server's stdout carries the protocol, so stderr is right there too).
    """

    def __init__(
        self,
        opener: Callable[[], _Backend],
        *,
        warn: Callable[[str], None] | None = None,
        retry_after_s: float = 300.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._opener = opener
        self._warn = warn or _stderr
        self._retry_after_s = retry_after_s
        self._clock = clock
        self._backend: _Backend | None = None
        self._lock = threading.Lock()
        self._off_since = 0.0
        self.fault: str | None = None  # why the cache is off, while it is

    @property
    def backend(self) -> _Backend | None:
        """The opened backend, or ``None`` before first use or after a fault."""
        return self._backend

    def get(self, key: CacheKey, /) -> CachedAnswer | None:
        """The cached answer, or ``None`` (a miss, or the cache is off)."""
        backend = self._open()
        if backend is None:
            return None
        try:
            return backend.get(key)
        except Exception as exc:
            self._off(exc)
            return None

    def put(self, key: CacheKey, answer: CachedAnswer, /) -> None:
        """Store the answer; a fault switches the cache off instead of failing the caller."""
        backend = self._open()
        if backend is None:
            return
        try:
            backend.put(key, answer)
        except Exception as exc:
            self._off(exc)

    def close(self) -> None:
        """Close the backend if it was opened."""
        with self._lock:
            backend, self._backend = self._backend, None
        if backend is not None:
            with contextlib.suppress(Exception):
                backend.close()

    def _open(self) -> _Backend | None:
        with self._lock:
            if self.fault is not None and self._clock() - self._off_since >= self._retry_after_s:
                self.fault = None  # long-lived process: try the store again
            if self._backend is None and self.fault is None:
                try:
                    self._backend = self._opener()
                except Exception as exc:
                    self._off_locked(exc)
            return self._backend

    def _off(self, exc: Exception) -> None:
        with self._lock:
            self._off_locked(exc)

    def _off_locked(self, exc: Exception) -> None:
        if self.fault is not None:
            return
        detail = " ".join(str(exc).split()) or type(exc).__name__
        self.fault = scrub(detail)[0]
        self._off_since = self._clock()
        backend, self._backend = self._backend, None
        if backend is not None:
            with contextlib.suppress(Exception):
                backend.close()
        self._warn(
            f"summarizer: warning: the summary cache is off for this run ({self.fault}); "
            "the summary is made without it (fix the cache or pass --no-cache)"
        )
