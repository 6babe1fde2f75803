"""``DiskCache``: the default summary cache, diskcache (SQLite + files) under the cache directory.

Rows (all keys are ``str``, all values JSON text or ``int``):

* ``s1:<namespace>:<input hash>`` → ``CachedAnswer`` JSON, tagged with the namespace id;
* ``ns:<namespace>`` → the ``Namespace`` JSON (prompt, version, prompt digest, model);
* ``hits:<namespace>`` / ``misses:<namespace>`` → counters.

A row that is not ours (a pickle, JSON that no longer validates, a counter that is not an integer,
a value file outside the cache directory) is *corrupt*: it is skipped as a miss, its row deleted
(never the file it names), and reported once per process. A fault of the store itself (SQLite
cannot open or write, the disk is full, the lock is held past ``timeout_s``) raises
:class:`~summarizer.core.errors.StorageError`; :class:`~summarizer_cache.FailSafeCache` turns that into
"no cache" with one warning, so the cache can make a summary faster, never make it fail.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Collection
from contextlib import closing
from pathlib import Path
from typing import Any, TypeVar

import diskcache
from pydantic import ValidationError

from summarizer.core.errors import StorageError
from summarizer.core.scrub import scrub
from summarizer.semantic.ports import KEY_VERSION, CachedAnswer, CacheKey, Namespace
from summarizer_cache._disk import CorruptRow, TextOnlyDisk
from summarizer_cache.stats import NamespaceStats

__all__ = ["DiskCache"]

log = logging.getLogger(__name__)
_FAULTS = (diskcache.Timeout, sqlite3.Error, OSError)
T = TypeVar("T")


class DiskCache:
    """A :class:`summarizer.semantic.ports.SummaryCache` (and ``CacheAdmin``) on diskcache.

    Args:
        directory: where the SQLite file and value files live (``Settings.cache_dir / "summaries"``).
        timeout_s: how long to wait for SQLite's lock before giving up (``StorageError``). A
            legitimate writer holds it for milliseconds; a lock held longer is a fault.
    """

    def __init__(self, directory: Path, *, timeout_s: float = 2.0) -> None:
        self.location = str(directory)
        self.corrupt_rows = 0  # rows skipped this process (reported once, on the first)
        self._known: set[str] = set()  # namespaces whose metadata row was checked this process
        if Path(directory).is_symlink():
            # Never followed: a linked folder would have clear/prune remove files wherever it points.
            raise StorageError(
                f"cannot open the summary cache at {self.location!r}: it is a symbolic link, which the "
                "cache never follows; remove the link or set SUMMARIZER_CACHE_DIR to a real directory"
            )
        try:
            _probe_lock(Path(directory) / "cache.db", timeout_s)
            self._cache = diskcache.Cache(str(directory), disk=TextOnlyDisk, timeout=timeout_s)
        except (*_FAULTS, CorruptRow) as exc:
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
            raw = self._io(self._cache.get, skey)
            if raw is not None:
                answer = CachedAnswer.model_validate_json(raw) if isinstance(raw, str) else None
                if answer is None:
                    raise CorruptRow(f"a {type(raw).__name__} where an answer should be")
        except (ValidationError, CorruptRow) as exc:
            self._corrupt(skey, exc)
        if answer is None:
            self._remember(key.namespace)
        self._count(f"{'hits' if answer else 'misses'}:{key.namespace.id}")
        return answer

    def put(self, key: CacheKey, answer: CachedAnswer, /) -> None:
        """Store a validated answer (JSON text) tagged with its namespace."""
        self._remember(key.namespace)
        self._io(self._cache.set, str(key), answer.model_dump_json(), tag=key.namespace.id)

    # -- CacheAdmin -------------------------------------------------------------------------------

    def stats(self, current_digests: Collection[str] | None = None) -> list[NamespaceStats]:
        """Entries, bytes, hits and misses per namespace, read straight from SQLite (no unpickling).

        A namespace whose metadata row is missing or unreadable has ``stale=None`` (unknown): it
        may be live, so ``prune_stale`` keeps it (``prune --all`` clears it; its next use repairs it).
        """
        rows: dict[str, list[int]] = {}  # namespace -> [entries, bytes]
        metas: dict[str, Namespace] = {}
        counters: dict[tuple[str, str], int] = {}
        try:
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
        except sqlite3.Error as exc:
            raise StorageError(f"cannot read the summary cache at {self.location!r}: {exc}") from exc
        ids = sorted(set(rows) | set(metas) | {ns for _, ns in counters})
        out = []
        for ns in ids:
            meta, (entries, size_bytes) = metas.get(ns), rows.get(ns, [0, 0])
            stale = None
            if current_digests is not None and meta is not None:
                stale = meta.prompt_digest not in current_digests
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
                    stale=stale,
                )
            )
        return out

    def prune_stale(self, current_digests: Collection[str]) -> list[NamespaceStats]:
        """Evict every namespace no current prompt uses (entries, metadata and counters)."""
        removed = [s for s in self.stats(current_digests) if s.stale]
        for stat in removed:
            self._io(self._cache.evict, stat.namespace)
            for prefix in ("ns", "hits", "misses"):
                self._io(self._cache.delete, f"{prefix}:{stat.namespace}")
        return removed

    def clear(self) -> int:
        """Remove every row (pickled and planted rows included, without loading them).

        Value files are removed only inside the cache directory (``TextOnlyDisk.remove``).
        """
        entries = sum(s.entries for s in self.stats())
        self._io(self._cache.clear)
        return entries

    def close(self) -> None:
        """Close the SQLite connections."""
        self._cache.close()

    # -- internals --------------------------------------------------------------------------------

    def _io(self, action: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run one diskcache call; a fault of the store itself becomes a :class:`StorageError`."""
        try:
            return action(*args, **kwargs)
        except _FAULTS as exc:
            what = getattr(action, "__name__", "access")
            raise StorageError(f"the summary cache at {self.location!r} failed ({what}): {exc}") from exc

    def _corrupt(self, key: str, exc: Exception) -> None:
        """Skip a corrupt row: delete the row (never a file outside the cache), report only the first."""
        self.corrupt_rows += 1
        if self.corrupt_rows == 1:
            # The row's content stays out of the message: it is whatever an attacker planted.
            reason = str(exc) if isinstance(exc, CorruptRow) else "not a cached answer"
            message = f"summary cache: skipped a corrupt entry ({reason}); later ones are skipped silently"
            log.warning(scrub(message)[0])
        self._io(self._cache.delete, key)

    def _count(self, name: str) -> None:
        try:
            self._io(self._cache.incr, name)
        except TypeError:  # a counter row holding a pickle, text or a file: corrupt, start again
            self._corrupt(name, CorruptRow(f"counter {name.partition(':')[0]} is not an integer"))
            self._io(self._cache.incr, name)

    def _remember(self, namespace: Namespace) -> None:
        """Write the namespace's metadata row, repairing an unreadable one (once per process)."""
        name = f"ns:{namespace.id}"
        if namespace.id in self._known:
            return
        try:
            current = self._io(self._cache.get, name)
            if isinstance(current, str):
                Namespace.model_validate_json(current)
                self._known.add(namespace.id)
                return
        except (ValidationError, CorruptRow) as exc:
            self._corrupt(name, exc)
        self._io(self._cache.set, name, namespace.model_dump_json())
        self._known.add(namespace.id)


def _probe_lock(db: Path, timeout_s: float) -> None:
    """Fail within ``timeout_s`` when another process holds the write lock.

    diskcache's constructor retries a locked database for a hard-coded 60 seconds before it gives
    up, so a stuck writer would stall every summary for a minute. One short write transaction on
    our own connection finds that out first; an absent file is created by diskcache as usual.
    """
    if not db.is_file():
        return
    with closing(sqlite3.connect(db, timeout=timeout_s, isolation_level=None)) as con:
        con.execute("BEGIN IMMEDIATE")
        con.execute("ROLLBACK")
