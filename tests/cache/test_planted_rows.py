"""Hostile rows in the diskcache: a value file outside the cache dir is never read or deleted.

The attacker can write the cache directory (the threat the JSON-only disk already answers for
pickles). diskcache keeps big values in files named by the row's ``filename`` column; a row
rewritten to name ``/abs/victim`` or ``../victim`` must count as corrupt: skipped, reported once,
and the file it names is neither read nor removed, on lookup, ``prune --stale`` or ``prune --all``.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path

import diskcache
import pytest
from click.testing import CliRunner
from summarizer_cache import DiskCache

from summarizer.cli import main
from summarizer.semantic.ports import CachedAnswer, CacheKey, Namespace

VICTIM_TEXT = '{"text": "victim content, not a cache value", "model": "m"}'


def _key(ns: str = "a" * 32, digest: str = "d" * 32, item: str = "b" * 32) -> CacheKey:
    namespace = Namespace(id=ns, prompt="high", version="1", prompt_digest=digest, model="m")
    return CacheKey(namespace=namespace, input_hash=item)


def _plant(directory: Path, key: str, filename: str, *, tag: str | None = None) -> None:
    """Write a real file-backed row with diskcache, then point its filename at ``filename``."""
    with diskcache.Cache(str(directory)) as raw:
        raw.set(key, "x" * 40_000, tag=tag)  # over min_file_size: stored as a value file
    with closing(sqlite3.connect(directory / "cache.db")) as db, db:
        db.execute("UPDATE Cache SET filename = ? WHERE key = ?", (filename, key))


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    """A file outside the cache, in a folder that would be empty once it is gone."""
    path = tmp_path / "outside" / "deep" / "victim.json"
    path.parent.mkdir(parents=True)
    path.write_text(VICTIM_TEXT)
    return path


def _names(victim: Path, directory: Path) -> list[str]:
    return [str(victim), os.path.relpath(victim, directory)]  # absolute, and climbing out with ..


@pytest.mark.parametrize("form", ["absolute", "dotdot"])
def test_a_lookup_neither_reads_nor_deletes_a_file_outside_the_cache(
    tmp_path: Path, victim: Path, form: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The planted row is a miss, reported once without its content; the victim file survives."""
    directory = tmp_path / "summaries"
    directory.mkdir()
    filename = _names(victim, directory)[form == "dotdot"]
    assert form == "absolute" or filename.startswith("..")
    _plant(directory, str(_key()), filename)
    _plant(directory, str(_key(item="c" * 32)), filename)
    cache = DiskCache(directory)
    assert cache.get(_key()) is None
    assert cache.get(_key(item="c" * 32)) is None
    assert victim.read_text() == VICTIM_TEXT
    warnings = [r.getMessage() for r in caplog.records if "corrupt" in r.getMessage()]
    assert len(warnings) == 1 and "victim content" not in caplog.text
    assert cache.corrupt_rows == 2
    cache.put(_key(), CachedAnswer(text="fresh", model="m"))  # the key works again afterwards
    assert cache.get(_key()) == CachedAnswer(text="fresh", model="m")
    cache.close()
    assert victim.read_text() == VICTIM_TEXT


def test_prune_all_does_not_delete_outside_the_cache(tmp_path: Path, victim: Path) -> None:
    """`cache prune --all --yes` clears the rows; the files they name outside stay, folders too."""
    directory = Path(os.environ["SUMMARIZER_CACHE_DIR"]) / "summaries"
    directory.mkdir(parents=True)
    for i, name in enumerate(_names(victim, directory)):
        _plant(directory, str(_key(item=str(i) * 32)), name)
    result = CliRunner().invoke(main, ["cache", "prune", "--all", "--yes"])
    assert result.exit_code == 0, result.output
    assert victim.read_text() == VICTIM_TEXT
    with closing(sqlite3.connect(directory / "cache.db")) as db:
        assert db.execute("SELECT COUNT(*) FROM Cache").fetchone() == (0,)


def test_prune_stale_does_not_delete_outside_the_cache(tmp_path: Path, victim: Path) -> None:
    """Evicting a stale namespace whose row names an outside file leaves that file alone."""
    directory = tmp_path / "summaries"
    directory.mkdir()
    key = _key(digest="old" * 8)
    cache = DiskCache(directory)
    cache.put(_key(ns="e" * 32, digest="old" * 8), CachedAnswer(text="a", model="m"))
    cache.close()
    _plant(directory, f"s1:{'e' * 32}:{'f' * 32}", str(victim), tag="e" * 32)
    cache = DiskCache(directory)
    removed = cache.prune_stale({"current"})
    assert [r.namespace for r in removed] == ["e" * 32] and key.namespace.id != "e" * 32
    assert victim.read_text() == VICTIM_TEXT
    cache.close()


def test_a_symlinked_subfolder_is_not_followed(tmp_path: Path, victim: Path) -> None:
    """A value path that resolves outside through a link inside the cache is refused too."""
    directory = tmp_path / "summaries"
    directory.mkdir()
    (directory / "ab").symlink_to(victim.parent, target_is_directory=True)
    _plant(directory, str(_key()), "ab/victim.json")
    cache = DiskCache(directory)
    assert cache.get(_key()) is None
    _plant(directory, str(_key(item="c" * 32)), "ab/victim.json")
    assert cache.clear() == 1
    cache.close()
    assert victim.read_text() == VICTIM_TEXT


def test_legitimate_value_files_are_still_read_and_removed(tmp_path: Path) -> None:
    """The path check does not break big answers: stored as files, read back, removed by clear."""
    directory = tmp_path / "summaries"
    cache = DiskCache(directory)
    big = CachedAnswer(text="y" * 50_000, model="m")
    cache.put(_key(), big)
    files = [p for p in directory.rglob("*.val")]
    assert len(files) == 1 and cache.get(_key()) == big
    assert cache.clear() == 1
    assert not files[0].exists() and not files[0].parent.exists() and directory.exists()
    cache.close()
