"""Where measured cells are kept between runs: SQLite under the cache directory, or Redis.

The store follows the configured cache backend (:func:`summarizer.app.build_results_cache`): with
``SUMMARIZER_CACHE_URL=redis://...`` every machine pointing at that Redis shares cells, so a second
CI runner makes no provider call for a cell the first one computed. Without it, one SQLite file.

Both hold :class:`~summarizer.evaluation.cells.CellResult` as JSON text, never pickles; a row that no
longer validates is a miss (recomputed). A failed read is a miss and a failed write is counted, never
raised: the store saves money, it must not cost a run.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

from pydantic import ValidationError

from summarizer.core.errors import StorageError
from summarizer.evaluation.cells import CellResult

__all__ = ["CellStore", "RedisResultsCache", "ResultsCache"]


class CellStore(Protocol):
    """Cell results by key."""

    location: str
    write_errors: int
    last_error: str | None

    def get(self, key: str) -> CellResult | None:
        """The stored cell, or ``None``."""
        ...

    def put(self, key: str, result: CellResult) -> None:
        """Store a successful cell."""
        ...

    def get_text(self, key: str) -> str | None:
        """A stored plain value (judge ratings), or ``None``."""
        ...

    def put_text(self, key: str, value: str) -> None:
        """Store a plain value."""
        ...

    def close(self) -> None:
        """Release the connection."""
        ...


def _parse(raw: str | bytes) -> CellResult | None:
    try:
        return CellResult.model_validate_json(raw)
    except ValidationError:
        return None  # written by an older layout: recompute rather than trust it


class _Cells:
    """Cells as JSON text: ``get``/``put`` over a backend's ``get_text``/``put_text``.

    A backend that cannot be read answers ``None`` (recompute) and a failed write is counted, never
    raised: a broken cell store costs reuse, never the run.
    """

    def get_text(self, key: str) -> str | None:
        raise NotImplementedError

    def put_text(self, key: str, value: str) -> None:
        raise NotImplementedError

    def get(self, key: str) -> CellResult | None:
        """The stored cell, or ``None``."""
        raw = self.get_text(key)
        return None if raw is None else _parse(raw)

    def put(self, key: str, result: CellResult) -> None:
        """Store a successful cell."""
        from summarizer.core.scrub import scrub_model

        self.put_text(key, scrub_model(result).model_dump_json())


class ResultsCache(_Cells):
    """Cell results by key in one SQLite file (JSON text only; an unreadable row is a miss)."""

    def __init__(self, path: Path) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, check_same_thread=False, timeout=30)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("CREATE TABLE IF NOT EXISTS cells (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            self._db.commit()
        except (OSError, sqlite3.Error) as exc:
            raise StorageError(
                f"cannot open the eval results cache {str(path)!r}: {exc}; "
                "check SUMMARIZER_CACHE_DIR or pass --no-reuse"
            ) from exc
        self._lock = threading.Lock()
        self.path = path
        self.location = str(path)
        self.write_errors = 0
        self.last_error: str | None = None

    def get_text(self, key: str) -> str | None:
        """The stored text under ``key``, or ``None`` (also when the database cannot be read)."""
        try:
            with self._lock:
                row = self._db.execute("SELECT value FROM cells WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error:
            return None
        return None if row is None else str(row[0])

    def put_text(self, key: str, value: str) -> None:
        """Store ``value``; a failed write is counted, never raised."""
        try:
            with self._lock:
                self._db.execute("INSERT OR REPLACE INTO cells (key, value) VALUES (?, ?)", (key, value))
                self._db.commit()
        except sqlite3.Error as exc:
            self.write_errors += 1
            self.last_error = str(exc)

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM cells").fetchone()[0])

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()


class RedisResultsCache(_Cells):
    """Cell results on Redis, under ``<prefix>eval:cell:<key>``, shared by every runner.

    Args:
        url: ``redis://[:password@]host:port/db``.
        prefix: the key prefix the summary cache uses too, so ``cache clear`` empties both.
        timeout_s: socket timeout; a slow Redis is a miss, not a hang.
    """

    def __init__(self, url: str, *, prefix: str = "summarizer:", timeout_s: float = 2.0) -> None:
        import redis

        parts = urlsplit(url)
        # `cache stats` and our messages show the location: never the password.
        self.location = url.replace(f":{parts.password}@", ":***@", 1) if parts.password else url
        self._prefix = prefix + "eval:cell:"
        self._errors: tuple[type[Exception], ...] = (redis.RedisError,)
        try:
            self._redis: Any = redis.Redis.from_url(
                url, socket_timeout=timeout_s, socket_connect_timeout=timeout_s
            )
        except ValueError as exc:
            raise StorageError(
                f"SUMMARIZER_CACHE_URL {url!r} is not a Redis URL: {exc}; use redis://host:port/db"
            ) from exc
        self.write_errors = 0
        self.last_error: str | None = None

    def get_text(self, key: str) -> str | None:
        """The stored text under ``key``, or ``None``."""
        try:
            raw = self._redis.get(self._prefix + key)
        except self._errors:
            return None
        return None if raw is None else bytes(raw).decode("utf-8", "replace")

    def put_text(self, key: str, value: str) -> None:
        """Store ``value``; an unreachable Redis is counted, not raised."""
        try:
            self._redis.set(self._prefix + key, value)
        except self._errors as exc:
            self.write_errors += 1
            self.last_error = str(exc)

    def close(self) -> None:
        """Close the connection pool."""
        self._redis.close()
