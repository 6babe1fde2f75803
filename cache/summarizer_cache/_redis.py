"""``RedisCache``: the same keys and JSON values on a Redis server, for teams sharing one cache.

Chosen with ``SUMMARIZER_CACHE_URL=redis://host:6379/0``. Layout, under a key prefix (default
``summarizer:``):

* ``<prefix>s1:<namespace>:<input hash>`` → ``CachedAnswer`` JSON (a plain string);
* ``<prefix>ns:<namespace>`` → hash: ``meta`` (the ``Namespace`` JSON), ``hits``, ``misses``;
* ``<prefix>ns:<namespace>:keys`` → set of the namespace's entry keys (stats and pruning);
* ``<prefix>namespaces`` → set of namespace ids.

Values are only ever parsed as JSON; nothing is unpickled. A Redis outage degrades ``get`` to a
miss and ``put`` to a no-op (logged); the admin commands raise ``StorageError`` instead, because
there the user asked about the cache itself.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import redis
from pydantic import ValidationError

from summarizer.errors import StorageError
from summarizer.semantic.ports import CachedAnswer, CacheKey, Namespace
from summarizer_cache.stats import NamespaceStats

__all__ = ["RedisCache"]

log = logging.getLogger(__name__)


class RedisCache:
    """A :class:`summarizer.semantic.ports.SummaryCache` (and ``CacheAdmin``) on Redis.

    Args:
        url: ``redis://[:password@]host:port/db`` (or ``rediss://`` for TLS).
        prefix: key prefix, so one Redis database can hold other data too.
        timeout_s: socket timeout; a slow Redis is treated as a miss, not waited on forever.
    """

    def __init__(self, url: str, *, prefix: str = "summarizer:", timeout_s: float = 2.0) -> None:
        self.location = _without_password(url)  # shown by `cache stats`: never print a secret
        self._prefix = prefix
        try:
            self._redis: Any = redis.Redis.from_url(
                url, socket_timeout=timeout_s, socket_connect_timeout=timeout_s, decode_responses=False
            )
        except ValueError as exc:
            raise StorageError(
                f"SUMMARIZER_CACHE_URL {url!r} is not a Redis URL: {exc}; use redis://host:port/db"
            ) from exc

    # -- SummaryCache -----------------------------------------------------------------------------

    def get(self, key: CacheKey, /) -> CachedAnswer | None:
        """The stored answer or ``None``; counts a hit or a miss on the namespace."""
        ns = key.namespace
        try:
            raw = self._redis.get(self._key(str(key)))
            answer = None
            if raw is not None:
                try:
                    answer = CachedAnswer.model_validate_json(raw.decode("utf-8"))
                except (UnicodeDecodeError, ValidationError):  # pickles and other strangers: a miss
                    log.warning("summary cache: dropping unreadable entry %s", key)
                    self._redis.delete(self._key(str(key)))
            with self._redis.pipeline() as pipe:
                if answer is None:
                    self._remember(pipe, ns)
                pipe.hincrby(self._ns(ns.id), "hits" if answer else "misses", 1)
                pipe.execute()
            return answer
        except redis.RedisError as exc:
            log.warning("summary cache: Redis unavailable, treating as a miss (%s)", exc)
            return None

    def put(self, key: CacheKey, answer: CachedAnswer, /) -> None:
        """Store a validated answer and index it under its namespace."""
        ns = key.namespace
        try:
            with self._redis.pipeline() as pipe:
                self._remember(pipe, ns)
                pipe.set(self._key(str(key)), answer.model_dump_json())
                pipe.sadd(self._ns(ns.id) + ":keys", str(key))
                pipe.execute()
        except redis.RedisError as exc:
            log.warning("summary cache: Redis unavailable, answer not stored (%s)", exc)

    # -- CacheAdmin -------------------------------------------------------------------------------

    def stats(self, current_digests: Collection[str] | None = None) -> list[NamespaceStats]:
        """Entries, bytes, hits and misses per namespace."""
        try:
            out = []
            for ns in sorted(_texts(self._redis.smembers(self._key("namespaces")))):
                info = {_text(k): _text(v) for k, v in self._redis.hgetall(self._ns(ns)).items()}
                members = _texts(self._redis.smembers(self._ns(ns) + ":keys"))
                sizes = []
                if members:
                    with self._redis.pipeline() as pipe:
                        for member in members:
                            pipe.strlen(self._key(member))
                        sizes = pipe.execute()
                meta = _meta(info.get("meta"))
                out.append(
                    NamespaceStats(
                        namespace=ns,
                        prompt=meta.prompt if meta else None,
                        version=meta.version if meta else None,
                        prompt_digest=meta.prompt_digest if meta else None,
                        model=meta.model if meta else None,
                        entries=sum(1 for size in sizes if size),
                        size_bytes=sum(int(size) for size in sizes),
                        hits=int(info.get("hits") or 0),
                        misses=int(info.get("misses") or 0),
                        stale=None
                        if current_digests is None
                        else (meta is None or meta.prompt_digest not in current_digests),
                    )
                )
            return out
        except redis.RedisError as exc:
            raise self._unavailable(exc) from exc

    def prune_stale(self, current_digests: Collection[str]) -> list[NamespaceStats]:
        """Delete every namespace no current prompt uses."""
        removed = [s for s in self.stats(current_digests) if s.stale]
        try:
            for stat in removed:
                members = _texts(self._redis.smembers(self._ns(stat.namespace) + ":keys"))
                with self._redis.pipeline() as pipe:
                    for member in members:
                        pipe.delete(self._key(member))
                    pipe.delete(self._ns(stat.namespace), self._ns(stat.namespace) + ":keys")
                    pipe.srem(self._key("namespaces"), stat.namespace)
                    pipe.execute()
        except redis.RedisError as exc:
            raise self._unavailable(exc) from exc
        return removed

    def clear(self) -> int:
        """Delete every key under the prefix; return the number of stored answers removed."""
        try:
            entries = sum(s.entries for s in self.stats())
            batch: list[bytes] = []
            for name in self._redis.scan_iter(match=self._prefix + "*", count=500):
                batch.append(name)
                if len(batch) >= 500:
                    self._redis.delete(*batch)
                    batch.clear()
            if batch:
                self._redis.delete(*batch)
            return entries
        except redis.RedisError as exc:
            raise self._unavailable(exc) from exc

    def close(self) -> None:
        """Close the connection pool."""
        self._redis.close()

    # -- internals --------------------------------------------------------------------------------

    def _key(self, name: str) -> str:
        return self._prefix + name

    def _ns(self, namespace_id: str) -> str:
        return self._key(f"ns:{namespace_id}")

    def _remember(self, pipe: Any, ns: Namespace) -> None:
        pipe.sadd(self._key("namespaces"), ns.id)
        pipe.hsetnx(self._ns(ns.id), "meta", ns.model_dump_json())

    def _unavailable(self, exc: Exception) -> StorageError:
        return StorageError(f"the Redis cache at {self.location!r} is unavailable: {exc}; is it running?")


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def _text(raw: bytes | str) -> str:
    return raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw


def _texts(raws: set[bytes] | list[bytes]) -> list[str]:
    return [_text(raw) for raw in raws]


def _meta(raw: str | None) -> Namespace | None:
    if not raw:
        return None
    try:
        return Namespace.model_validate_json(raw)
    except ValidationError:
        return None
