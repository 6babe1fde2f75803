"""``DiskCache``: the default summary cache, diskcache (SQLite + files) under the cache directory.

Rows (all keys are ``str``, all values JSON text or ``int``):

* ``s1:<namespace>:<input hash>`` → ``CachedAnswer`` JSON, tagged with the namespace id;
* ``ns:<namespace>`` → the ``Namespace`` JSON (prompt, version, prompt digest, model);
* ``hits:<namespace>`` / ``misses:<namespace>`` → counters.

Reads that meet anything else (a pickled row, JSON that no longer validates) count as a miss, and
the row is deleted. Lock timeouts and disk errors also degrade to a miss or a skipped write: the
cache can make a summary faster, never make it fail.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Collection
from contextlib import closing
from pathlib import Path
from typing import Any

import diskcache
from pydantic import ValidationError

from summarizer.errors import StorageError
from summarizer.semantic.ports import KEY_VERSION, CachedAnswer, CacheKey, Namespace
from summarizer_cache._disk import RefusedPickle, TextOnlyDisk
from summarizer_cache.stats import NamespaceStats

__all__ = ["DiskCache"]

log = logging.getLogger(__name__)
_SOFT_ERRORS = (RefusedPickle, diskcache.Timeout, sqlite3.Error, OSError)


class DiskCache:
    """A :class:`summarizer.semantic.ports.SummaryCache` (and ``CacheAdmin``) on diskcache.

    Args:
        directory: where the SQLite file and value files live (``Settings.cache_dir / "summaries"``).
        timeout_s: how long to wait for SQLite's lock before degrading to a miss.
    """

    def __init__(self, directory: Path, *, timeout_s: float = 10.0) -> None:
        self.location = str(directory)
        try:
            self._cache = diskcache.Cache(str(directory), disk=TextOnlyDisk, timeout=timeout_s)
        except (sqlite3.Error, OSError) as exc:
            raise StorageError(
                f"cannot open the summary cache at {self.location!r}: {exc}; check permissions "
                "or set SUMMARIZER_CACHE_DIR"
            ) from exc

    # -- SummaryCache -----------------------------------------------------------------------------

    def get(self, key: CacheKey, /) -> CachedAnswer | None:
        """The stored answer or ``None``; every lookup counts a hit or a miss."""
        skey = str(key)
        answer: CachedAnswer | None = None
        try:
            raw = self._cache.get(skey)
            if isinstance(raw, str):
                answer = CachedAnswer.model_validate_json(raw)
        except (ValidationError, *_SOFT_ERRORS) as exc:
            log.warning("summary cache: dropping unreadable entry %s (%s)", skey, exc)
            self._quietly(self._cache.delete, skey)
        if answer is None:
            self._remember(key.namespace)
        self._quietly(self._cache.incr, f"{'hits' if answer else 'misses'}:{key.namespace.id}")
        return answer

    def put(self, key: CacheKey, answer: CachedAnswer, /) -> None:
        """Store a validated answer (JSON text) tagged with its namespace."""
        self._remember(key.namespace)
        self._quietly(self._cache.set, str(key), answer.model_dump_json(), tag=key.namespace.id)

    # -- CacheAdmin -------------------------------------------------------------------------------

    def stats(self, current_digests: Collection[str] | None = None) -> list[NamespaceStats]:
        """Entries, bytes, hits and misses per namespace, read straight from SQLite (no unpickling)."""
        rows: dict[str, list[int]] = {}  # namespace -> [entries, bytes]
        metas: dict[str, Namespace] = {}
        counters: dict[tuple[str, str], int] = {}
        with closing(sqlite3.connect(Path(self.location) / "cache.db")) as db:
            query = "SELECT key, raw, size, LENGTH(value), value FROM Cache"
            for key, raw, size, length, value in db.execute(query):
                if not raw or not isinstance(key, str):
                    continue  # a pickled key: never ours, never loaded; `cache prune --all` clears it
                kind, _, rest = key.partition(":")
                if kind == KEY_VERSION:
                    ns = rest.partition(":")[0]
                    row = rows.setdefault(ns, [0, 0])
                    row[0] += 1
                    row[1] += int(size or 0) + int(length or 0)
                elif kind == "ns" and isinstance(value, str):
                    try:
                        metas[rest] = Namespace.model_validate_json(value)
                    except ValidationError:
                        continue
                elif kind in ("hits", "misses") and isinstance(value, int):
                    counters[(kind, rest)] = value
        ids = sorted(set(rows) | set(metas) | {ns for _, ns in counters})
        out = []
        for ns in ids:
            meta, (entries, size_bytes) = metas.get(ns), rows.get(ns, [0, 0])
            out.append(
                NamespaceStats(
                    namespace=ns,
                    prompt=meta.prompt if meta else None,
                    version=meta.version if meta else None,
                    prompt_digest=meta.prompt_digest if meta else None,
                    model=meta.model if meta else None,
                    entries=entries,
                    size_bytes=size_bytes,
                    hits=counters.get(("hits", ns), 0),
                    misses=counters.get(("misses", ns), 0),
                    stale=None
                    if current_digests is None
                    else (meta is None or meta.prompt_digest not in current_digests),
                )
            )
        return out

    def prune_stale(self, current_digests: Collection[str]) -> list[NamespaceStats]:
        """Evict every namespace no current prompt uses (entries, metadata and counters)."""
        removed = [s for s in self.stats(current_digests) if s.stale]
        for stat in removed:
            self._cache.evict(stat.namespace)
            for prefix in ("ns", "hits", "misses"):
                self._cache.delete(f"{prefix}:{stat.namespace}")
        return removed

    def clear(self) -> int:
        """Remove every row (pickled rows included, without loading them)."""
        entries = sum(s.entries for s in self.stats())
        self._cache.clear()
        return entries

    def close(self) -> None:
        """Close the SQLite connections."""
        self._cache.close()

    # -- internals --------------------------------------------------------------------------------

    def _remember(self, namespace: Namespace) -> None:
        self._quietly(self._cache.add, f"ns:{namespace.id}", namespace.model_dump_json())

    @staticmethod
    def _quietly(action: Callable[..., Any], *args: object, **kwargs: object) -> None:
        try:
            action(*args, **kwargs)
        except _SOFT_ERRORS as exc:
            log.warning("summary cache: %s skipped (%s)", getattr(action, "__name__", action), exc)
