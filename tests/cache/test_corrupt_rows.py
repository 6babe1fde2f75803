"""Rows that are not ours, in either backend: skipped, never a traceback, never the live namespace lost."""

from __future__ import annotations

import pickle
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import diskcache
import pytest
from summarizer_cache import DiskCache, RedisCache

from summarizer.semantic.ports import CachedAnswer, CacheKey, Namespace

LIVE = "live" * 8


def _key(ns: str = "a" * 32, digest: str = LIVE, item: str = "b" * 32) -> CacheKey:
    namespace = Namespace(id=ns, prompt="high", version="1", prompt_digest=digest, model="m")
    return CacheKey(namespace=namespace, input_hash=item)


def test_a_pickled_counter_row_is_reset_not_a_traceback(tmp_path: Path) -> None:
    """`misses:<ns>` holding a pickle (or text): the lookup is a miss and the counter starts again."""
    directory = tmp_path / "summaries"
    with diskcache.Cache(str(directory)) as raw:
        raw.set(f"misses:{'a' * 32}", [1, 2, 3])  # pickled by plain diskcache
        raw.set(f"hits:{'a' * 32}", "not a number")
    cache = DiskCache(directory)
    assert cache.get(_key()) is None
    cache.put(_key(), CachedAnswer(text="t", model="m"))
    assert cache.get(_key()) == CachedAnswer(text="t", model="m")
    [stat] = cache.stats()
    assert (stat.hits, stat.misses) == (1, 1)
    cache.close()


@pytest.mark.parametrize("planted", [b"\x80\x04K\x01.", "{not json"], ids=["pickle", "garbage"])
def test_an_unreadable_namespace_row_does_not_make_a_live_namespace_stale(
    tmp_path: Path, planted: bytes | str
) -> None:
    """`prune --stale` keeps a namespace whose metadata it cannot read; the next use repairs the row."""
    directory = tmp_path / "summaries"
    cache = DiskCache(directory)
    cache.put(_key(), CachedAnswer(text="t", model="m"))
    cache.close()
    with closing(sqlite3.connect(directory / "cache.db")) as db, db:
        mode = diskcache.core.MODE_PICKLE if isinstance(planted, bytes) else diskcache.core.MODE_RAW
        db.execute("UPDATE Cache SET value = ?, mode = ? WHERE key = ?", (planted, mode, f"ns:{'a' * 32}"))
    cache = DiskCache(directory)
    [stat] = cache.stats({LIVE})
    assert stat.stale is None and stat.entries == 1
    assert cache.prune_stale({LIVE}) == []
    assert cache.get(_key()) == CachedAnswer(text="t", model="m")
    cache.close()
    cache = DiskCache(directory)
    cache.get(_key(item="c" * 32))  # a miss re-remembers the namespace: the row is repaired
    [stat] = cache.stats({LIVE})
    assert stat.stale is False and stat.prompt == "high"
    cache.close()


def test_a_stale_namespace_is_still_pruned(tmp_path: Path) -> None:
    """The fix above must not keep namespaces whose readable metadata names an old prompt."""
    cache = DiskCache(tmp_path / "summaries")
    cache.put(_key(), CachedAnswer(text="t", model="m"))
    cache.put(_key(ns="e" * 32, digest="old" * 8), CachedAnswer(text="t", model="m"))
    assert [s.namespace for s in cache.prune_stale({LIVE})] == ["e" * 32]
    assert [s.namespace for s in cache.stats({LIVE})] == ["a" * 32]
    cache.close()


# ---- Redis --------------------------------------------------------------------------------------


@pytest.fixture
def redis_pair(redis_url: str) -> tuple[RedisCache, Any]:
    import redis

    cache = RedisCache(redis_url)
    cache.clear()
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    return cache, client


def test_wrong_typed_redis_keys_do_not_survive_prune_all(redis_pair: tuple[RedisCache, Any]) -> None:
    """Our prefix holding a list, a string and a hash where sets and strings belong: `clear` removes all."""
    cache, client = redis_pair
    r = client
    cache.put(_key(), CachedAnswer(text="t", model="m"))
    r.delete("summarizer:namespaces")
    r.rpush("summarizer:namespaces", "x")  # a list where a set belongs
    r.set(f"summarizer:ns:{'a' * 32}:keys", "a string where a set belongs")
    r.hset(f"summarizer:{_key(item='c' * 32)}", "field", "a hash where a string belongs")
    r.set("other-app:key", "not ours")
    cache.stats({LIVE})  # no traceback on the wrong types
    assert cache.clear() == 2
    assert r.keys("summarizer:*") == []
    assert r.get("other-app:key") == b"not ours"
    cache.close()


def test_wrong_typed_redis_keys_are_a_miss_then_repaired(redis_pair: tuple[RedisCache, Any]) -> None:
    """A lookup or a store that meets a wrong-typed key replaces it instead of failing."""
    cache, client = redis_pair
    r = client
    r.hset(f"summarizer:{_key()}", "field", "a hash")
    r.set(f"summarizer:ns:{'a' * 32}", "a string where a hash belongs")
    assert cache.get(_key()) is None
    r.delete("summarizer:namespaces")
    r.rpush("summarizer:namespaces", "x")
    cache.put(_key(), CachedAnswer(text="t", model="m"))
    assert cache.get(_key()) == CachedAnswer(text="t", model="m")
    [stat] = cache.stats({LIVE})
    assert stat.entries == 1 and stat.stale is False
    cache.close()


def test_an_unreadable_redis_namespace_is_not_pruned(redis_pair: tuple[RedisCache, Any]) -> None:
    """Same rule as the disk: unknown metadata is not stale."""
    cache, client = redis_pair
    cache.put(_key(), CachedAnswer(text="t", model="m"))
    client.hset(f"summarizer:ns:{'a' * 32}", "meta", pickle.dumps({"x": 1}))
    assert RedisCache(cache.location).prune_stale({LIVE}) == []
    assert cache.get(_key()) == CachedAnswer(text="t", model="m")
    cache.close()
