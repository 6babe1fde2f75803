"""The summary cache, on the real diskcache and a real Redis: the same behaviour on both."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

import diskcache
import pytest
from summarizer_cache import DiskCache, FailSafeCache, RedisCache

from summarizer.core.errors import ProviderUnavailable
from summarizer.phasegate.models import SubtaskSummary
from summarizer.phasegate.summaries import EntryJob, summarize_entries
from summarizer.semantic.ports import CachedAnswer, CacheKey, Namespace
from summarizer.semantic.prompts import PromptLibrary
from summarizer.semantic.service import Summarizer
from summarizer.testing import FakeCompleter

REPO_PROMPTS = Path(__file__).resolve().parents[2] / "prompts"
ANSWER = "Added POST /api/items returning 201.\nAphrodite can now create items."
ENTRY = SubtaskSummary.model_validate(
    {"summary": "Added POST /api/items returning 201.", "from": "hermes", "to": "aphrodite"}
)
Backend = DiskCache | RedisCache | FailSafeCache


def _service(prompts: Path, cache: Backend, fake: FakeCompleter) -> Summarizer:
    return Summarizer(PromptLibrary(prompts), completer=fake, cache=cache, model="openai/gpt-4o-mini")


def _run(svc: Summarizer) -> str:
    return asyncio.run(summarize_entries(svc, [EntryJob(ENTRY, "HIGH", "TEMPLATE a\nTEMPLATE b")]))[0].source


@pytest.fixture
def prompt_dir(tmp_path: Path) -> Path:
    target = tmp_path / "prompts"
    shutil.copytree(REPO_PROMPTS, target)
    return target


def _key(ns: str = "a" * 32, digest: str = "d" * 32, item: str = "b" * 32) -> CacheKey:
    namespace = Namespace(id=ns, prompt="high", version="1", prompt_digest=digest, model="m")
    return CacheKey(namespace=namespace, input_hash=item)


def test_same_request_twice_reaches_the_provider_once(prompt_dir: Path, backend: Backend) -> None:
    """Second run is served from the cache; stats count one entry, one hit, one miss."""
    fake = FakeCompleter([ANSWER])
    svc = _service(prompt_dir, backend, fake)
    assert (_run(svc), _run(svc)) == ("llm", "cache")
    assert len(fake.calls) == 1
    [stat] = backend.stats()
    assert (stat.entries, stat.hits, stat.misses, stat.prompt) == (1, 1, 1, "high")
    assert stat.size_bytes > len(ANSWER)


def test_editing_one_character_of_a_template_changes_the_namespace(
    prompt_dir: Path, backend: Backend
) -> None:
    """A one-character prompt edit sends the next call to the provider; prune --stale drops the old one."""
    fake = FakeCompleter([ANSWER, ANSWER])
    assert _run(_service(prompt_dir, backend, fake)) == "llm"
    template = prompt_dir / "high.md.j2"
    template.write_text(template.read_text().replace("Write exactly", "Write  exactly"))
    edited = PromptLibrary(prompt_dir)
    assert _run(_service(prompt_dir, backend, fake)) == "llm"
    assert len(fake.calls) == 2
    stats = backend.stats(set(edited.digests().values()))
    assert len(stats) == 2 and sorted(s.stale for s in stats) == [False, True]
    removed = backend.prune_stale(set(edited.digests().values()))
    assert len(removed) == 1 and removed[0].stale
    assert [s.prompt_digest for s in backend.stats()] == [edited.digest("high")]
    assert _run(_service(prompt_dir, backend, fake)) == "cache"  # the current namespace survived


def test_a_fallback_is_never_cached(prompt_dir: Path, backend: Backend) -> None:
    """Provider down: the template answers, nothing is stored, the next run asks again."""
    fake = FakeCompleter([ProviderUnavailable("down"), ANSWER])
    svc = _service(prompt_dir, backend, fake)
    assert _run(svc) == "template"
    assert sum(s.entries for s in backend.stats()) == 0
    assert _run(svc) == "llm" and len(fake.calls) == 2


def test_an_invalid_answer_is_never_cached(prompt_dir: Path, backend: Backend) -> None:
    """A validation failure is a fallback too."""
    svc = _service(prompt_dir, backend, FakeCompleter(["one line only"]))
    assert _run(svc) == "template"
    assert sum(s.entries for s in backend.stats()) == 0


def test_put_then_get_round_trips_json(backend: Backend) -> None:
    """Values come back as the validated model; an unknown key is a miss."""
    answer = CachedAnswer(text="a\nb", model="m", cost_usd=0.001)
    backend.put(_key(), answer)
    assert backend.get(_key()) == answer
    assert backend.get(_key(item="c" * 32)) is None


def test_prune_all_clears_everything(backend: Backend) -> None:
    """clear() removes every entry and namespace and reports how many answers went."""
    backend.put(_key(), CachedAnswer(text="x", model="m"))
    backend.put(_key(ns="e" * 32), CachedAnswer(text="y", model="m"))
    assert backend.clear() == 2
    assert backend.stats() == [] and backend.get(_key()) is None


def _plant_pickle(marker: Path) -> object:
    class Boom:
        def __reduce__(self) -> tuple[object, tuple[str, str]]:
            return (open, (str(marker), "w"))  # unpickling would create the marker file

    return Boom()


def test_a_planted_pickle_value_is_refused_not_executed(tmp_path: Path) -> None:
    """A row written by plain diskcache (pickled) is a miss; the payload never runs."""
    directory, marker = tmp_path / "summaries", tmp_path / "PWNED"
    with diskcache.Cache(str(directory)) as attacker:
        attacker.set(str(_key()), _plant_pickle(marker))
        attacker.set(_plant_pickle(marker), "pickled key")  # a pickled KEY, too
    cache = DiskCache(directory)
    assert cache.get(_key()) is None
    cache.stats()
    cache.put(_key(), CachedAnswer(text="fresh", model="m"))
    assert cache.get(_key()) == CachedAnswer(text="fresh", model="m")
    assert cache.clear() == 1
    assert not marker.exists()
    cache.close()


def test_a_planted_pickle_in_redis_is_refused_not_executed(redis_url: str, tmp_path: Path) -> None:
    """Redis values are only ever parsed as JSON: pickle bytes are a miss and are dropped."""
    import pickle

    import redis

    marker = tmp_path / "PWNED"
    cache = RedisCache(redis_url)
    cache.clear()
    client = redis.Redis.from_url(redis_url)
    client.set("summarizer:" + str(_key()), pickle.dumps(_plant_pickle(marker)))
    assert cache.get(_key()) is None
    assert client.get("summarizer:" + str(_key())) is None  # the bad row was removed
    assert not marker.exists()
    cache.close()


def test_a_row_that_no_longer_validates_is_a_miss(tmp_path: Path) -> None:
    """JSON of the wrong shape (an older layout, a hand edit) counts as a miss."""
    directory = tmp_path / "summaries"
    with diskcache.Cache(str(directory)) as raw:
        raw.set(str(_key()), '{"unexpected": true}')
    cache = DiskCache(directory)
    assert cache.get(_key()) is None
    cache.close()


def test_the_text_only_disk_refuses_to_pickle_on_write(tmp_path: Path) -> None:
    """Nothing that would need a pickle can be stored by mistake."""
    cache = DiskCache(tmp_path / "summaries")
    with pytest.raises(TypeError, match="JSON text only"):
        cache._cache.set("k", {"a": 1})
    cache.close()


def test_redis_outage_degrades_to_a_miss(prompt_dir: Path) -> None:
    """An unreachable Redis never fails a summary: the backend reports it, FailSafeCache turns it off."""
    warnings: list[str] = []
    cache = FailSafeCache(lambda: RedisCache("redis://127.0.0.1:1/0", timeout_s=0.2), warn=warnings.append)
    svc = _service(prompt_dir, cache, FakeCompleter([ANSWER, ANSWER]))
    assert (_run(svc), _run(svc)) == ("llm", "llm")
    assert len(warnings) == 1 and "127.0.0.1:1" in warnings[0]
    cache.close()


def test_disk_cache_lives_where_settings_say(tmp_path: Path) -> None:
    """build_cache puts diskcache under SUMMARIZER_CACHE_DIR and picks Redis for redis:// URLs."""
    from summarizer.app import build_cache
    from summarizer.core.settings import Settings

    disk = build_cache(Settings.load({"SUMMARIZER_CACHE_DIR": str(tmp_path / "c"), "HOME": str(tmp_path)}))
    assert isinstance(disk, DiskCache) and disk.location == str(tmp_path / "c" / "summaries")
    assert os.path.exists(tmp_path / "c" / "summaries" / "cache.db")
    disk.close()
    env = {"SUMMARIZER_CACHE_URL": "redis://127.0.0.1:1/0", "HOME": str(tmp_path)}
    assert isinstance(build_cache(Settings.load(env)), RedisCache)


def test_redis_location_never_shows_the_password() -> None:
    """`cache stats` prints the location; a password in SUMMARIZER_CACHE_URL stays hidden."""
    cache = RedisCache("redis://:s3cret-pass@127.0.0.1:1/0")
    assert "s3cret" not in cache.location and cache.location == "redis://:***@127.0.0.1:1/0"
    cache.close()
