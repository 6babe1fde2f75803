"""``RedisCache``: the same keys and JSON values on a Redis server, for teams sharing one cache.

Chosen with ``SUMMARIZER_CACHE_URL=redis://host:6379/0``. Layout, under a key prefix (default
``summarizer:``):

* ``<prefix>s1:<namespace>:<input hash>`` → ``CachedAnswer`` JSON (a plain string);
* ``<prefix>ns:<namespace>`` → hash: ``meta`` (the ``Namespace`` JSON), ``hits``, ``misses``;
* ``<prefix>ns:<namespace>:keys`` → set of the namespace's entry keys (stats and pruning);
* ``<prefix>namespaces`` → set of namespace ids.

Values are only ever parsed as JSON; nothing is unpickled. A key of the wrong type or with an
unreadable value (someone else's data under our prefix, a hand edit) is corrupt: skipped, deleted
and reported once; ``clear`` removes every key under the prefix whatever its type. A Redis outage
raises :class:`~summarizer.core.errors.StorageError`, which :class:`~summarizer_cache.FailSafeCache`
turns into "no cache" with one warning line; the admin commands report it, because there the user
asked about the cache itself. The URL's password is never printed, even when the URL is malformed.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from typing import Any

import redis
from pydantic import ValidationError

from summarizer.core.errors import StorageError
from summarizer.core.scrub import scrub
from summarizer.semantic.ports import KEY_VERSION, CachedAnswer, CacheKey, Namespace
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
        self.corrupt_rows = 0
        self._known: set[str] = set()
        try:
            self._redis: Any = redis.Redis.from_url(
                url, socket_timeout=timeout_s, socket_connect_timeout=timeout_s, decode_responses=False
            )
        except (ValueError, TypeError) as exc:
            # redis-py's message quotes pieces of the URL it could not parse (a password with a `/`
            # becomes the "port"), so with user info in the URL only our redacted form is shown.
            detail = "" if "@" in url else f": {exc}"
            raise StorageError(
                f"SUMMARIZER_CACHE_URL {self.location!r} is not a Redis URL{detail}; "
                "use redis://[:password@]host:port/db"
            ) from exc

    # -- SummaryCache -----------------------------------------------------------------------------

    def get(self, key: CacheKey, /) -> CachedAnswer | None:
        """The stored answer or ``None``; counts a hit or a miss on the namespace."""
        ns = key.namespace
        try:
            answer = None
            try:
                raw = self._redis.get(self._key(str(key)))
                if raw is not None:
                    answer = CachedAnswer.model_validate_json(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValidationError, redis.ResponseError):
                # pickles, other strangers and keys of another type: a miss, and the key goes
                self._corrupt(self._key(str(key)))
            try:
                with self._redis.pipeline() as pipe:
                    if answer is None:
                        self._remember(pipe, ns)
                    pipe.hincrby(self._ns(ns.id), "hits" if answer else "misses", 1)
                    pipe.execute()
            except redis.ResponseError:  # the namespace hash is of another type: replace it
                self._corrupt(self._ns(ns.id))
            return answer
        except redis.RedisError as exc:
            raise self._unavailable(exc) from exc

    def put(self, key: CacheKey, answer: CachedAnswer, /) -> None:
        """Store a validated answer and index it under its namespace."""
        ns = key.namespace
        try:
            try:
                self._write(key, answer)
            except redis.ResponseError:  # a set or hash of ours holds another type: replace it
                self._corrupt(self._key("namespaces"), self._ns(ns.id), self._ns(ns.id) + ":keys")
                self._write(key, answer)
        except redis.RedisError as exc:
            raise self._unavailable(exc) from exc

    def _write(self, key: CacheKey, answer: CachedAnswer) -> None:
        with self._redis.pipeline() as pipe:
            self._remember(pipe, key.namespace)
            pipe.set(self._key(str(key)), answer.model_dump_json())
            pipe.sadd(self._ns(key.namespace.id) + ":keys", str(key))
            pipe.execute()

    # -- CacheAdmin -------------------------------------------------------------------------------

    def stats(self, current_digests: Collection[str] | None = None) -> list[NamespaceStats]:
        """Entries, bytes, hits and misses per namespace."""
        try:
            out = []
            for ns in sorted(_texts(self._members(self._key("namespaces")))):
                info = {_text(k): _text(v) for k, v in self._hash(self._ns(ns)).items()}
                members = _texts(self._members(self._ns(ns) + ":keys"))
                sizes = []
                if members:
                    with self._redis.pipeline() as pipe:
                        for member in members:
                            pipe.strlen(self._key(member))
                        replies = pipe.execute(raise_on_error=False)
                        sizes = [0 if isinstance(n, Exception) else n for n in replies]
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
                        hits=_int(info.get("hits")),
                        misses=_int(info.get("misses")),
                        # unknown metadata: maybe live, so `prune --stale` keeps it (its next use repairs it)
                        stale=None
                        if current_digests is None or meta is None
                        else meta.prompt_digest not in current_digests,
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
                members = _texts(self._members(self._ns(stat.namespace) + ":keys"))
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
            # Counted from the keys themselves: a namespace index of the wrong type must not stop the clear.
            entries = sum(1 for _ in self._redis.scan_iter(match=self._key(KEY_VERSION + ":*"), count=500))
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
        if ns.id not in self._known:  # once per process: repair metadata that is missing or unreadable
            self._known.add(ns.id)
            pipe.hset(self._ns(ns.id), "meta", ns.model_dump_json())
        else:
            pipe.hsetnx(self._ns(ns.id), "meta", ns.model_dump_json())

    def _members(self, name: str) -> set[bytes]:
        try:
            return set(self._redis.smembers(name))
        except redis.ResponseError:  # not a set: someone else's key under our prefix
            self._report(name)
            return set()

    def _hash(self, name: str) -> dict[bytes, bytes]:
        try:
            return dict(self._redis.hgetall(name))
        except redis.ResponseError:
            self._report(name)
            return {}

    def _report(self, name: str) -> None:
        self.corrupt_rows += 1
        if self.corrupt_rows == 1:
            message = f"summary cache: skipped a corrupt Redis key {name!r}; later ones are skipped silently"
            log.warning(scrub(message)[0])

    def _corrupt(self, *names: str) -> None:
        self._report(names[0])
        self._redis.delete(*names)

    def _unavailable(self, exc: Exception) -> StorageError:
        detail = str(exc)
        return StorageError(f"the Redis cache at {self.location!r} is unavailable: {detail}; is it running?")


def _without_password(url: str) -> str:
    """``url`` with the user-info password shown as ``***``; works on malformed URLs too.

    No URL parser is trusted here: a malformed URL (a bad port, an ``@`` or ``/`` in the password) is
    exactly what reaches the error message. Everything between ``://`` and the last ``@`` of the
    authority is user info; only the user name before its first ``:`` is kept.
    """
    scheme, sep, rest = url.partition("://")
    if not sep:
        return scrub(url)[0]
    userinfo, at, host = rest.rpartition("@")
    if not at:
        return url
    user, colon, _ = userinfo.partition(":")
    return f"{scheme}://{user}:***@{host}" if colon else f"{scheme}://***@{host}"


def _int(raw: str | None) -> int:
    try:
        return int(raw or 0)
    except ValueError:
        return 0


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
