"""Originals retention: size cap, age limit, LRU, live writers kept, evictions reported, per-input cap."""

from __future__ import annotations

import hashlib
import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from summarizer.core.errors import InputError, NotFound
from summarizer.output import OriginalStore, OutputOptions, compress
from summarizer.output.originals_retention import RetentionPolicy, parse_age, parse_size, policy_from_env

NOW = time.time()


def _original(store: OriginalStore, data: bytes, age_s: float) -> str:
    """An original last used ``age_s`` ago (written directly: a writer would maintain the store)."""
    rid = hashlib.sha256(data).hexdigest()
    store.directory.mkdir(parents=True, exist_ok=True)
    (store.directory / rid).write_bytes(data)
    os.utime(store.directory / rid, (NOW - age_s, NOW - age_s))
    return rid


def test_over_the_cap_the_least_recently_used_go_first(tmp_path: Path) -> None:
    """Ten 1 KiB originals under a 4 KiB cap: the six oldest are evicted, the newest four stay."""
    store = OriginalStore(tmp_path / "originals", RetentionPolicy(max_bytes=4096, grace_s=60, every_s=1e9))
    ids = [_original(store, bytes([65 + i]) * 1024, age_s=3600 - i * 60) for i in range(10)]
    assert store.maintain().evicted == 6
    kept = {p.name for p in store.directory.iterdir() if not p.name.startswith(".")}
    assert kept == set(ids[6:])
    assert store.usage().bytes <= 4096


def test_a_restore_refreshes_an_original_so_it_is_kept(tmp_path: Path) -> None:
    """Least recently *used*: restoring the oldest makes it the newest."""
    store = OriginalStore(tmp_path / "originals", RetentionPolicy(max_bytes=2048, grace_s=0, every_s=1e9))
    old, mid, new = (_original(store, bytes([65 + i]) * 1024, age_s=300 - i * 100) for i in range(3))
    b"".join(store.iter_bytes(old))
    store.maintain()
    assert (store.directory / old).exists() and (store.directory / new).exists()
    assert not (store.directory / mid).exists()


def test_originals_past_the_age_limit_are_evicted(tmp_path: Path) -> None:
    """Unused for longer than max_age: evicted even far under the size cap."""
    store = OriginalStore(tmp_path / "originals", RetentionPolicy(max_age_s=86400, grace_s=60, every_s=1e9))
    stale = _original(store, b"old\n", age_s=2 * 86400)
    fresh = _original(store, b"new\n", age_s=3600)
    store.maintain()
    assert not (store.directory / stale).exists() and (store.directory / fresh).exists()


def test_restoring_an_evicted_id_says_it_was_evicted_and_when(tmp_path: Path) -> None:
    """The eviction log turns "no such id" into "evicted on <date> (why)"."""
    store = OriginalStore(tmp_path / "originals", RetentionPolicy(max_bytes=10, grace_s=0, every_s=1e9))
    rid = _original(store, b"x" * 100, age_s=120)
    store.maintain()
    with pytest.raises(
        NotFound, match=r"was evicted \(the store was over its 10 bytes cap\) on \d{4}-\d\d-\d\d"
    ):
        store.path(rid[:16])


def test_a_live_writers_partial_file_survives_while_a_killed_ones_is_cleaned(tmp_path: Path) -> None:
    """A partial held (locked) by a running writer is never removed, however old; an orphan older
    than the grace period is removed on the next start."""
    store = OriginalStore(tmp_path / "originals", RetentionPolicy(grace_s=60, every_s=1e9))
    live = store.writer()
    live.write(b"still streaming\n" * 100)
    partial = next(p for p in store.directory.iterdir() if p.name.startswith(".incoming-"))
    os.utime(partial, (NOW - 3600, NOW - 3600))
    orphan = store.directory / ".incoming-99999-deadbeef"
    orphan.write_bytes(b"killed half-way\n")
    os.utime(orphan, (NOW - 3600, NOW - 3600))
    young = store.directory / ".incoming-99998-cafebabe"
    young.write_bytes(b"just started\n")
    done = store.maintain()
    assert partial.exists() and not orphan.exists() and young.exists()
    assert done.partials == 1
    live.write(b"and done\n")
    assert (store.directory / live.commit()).exists()


def test_a_killed_output_run_leaves_a_partial_that_the_next_start_removes(tmp_path: Path) -> None:
    """SIGKILL mid-write leaves .incoming-*; the next writer (past the grace period) cleans it."""
    directory = tmp_path / "originals"
    code = (
        "import sys, time\nfrom pathlib import Path\nfrom summarizer.output import OriginalStore\n"
        f"w = OriginalStore(Path({str(directory)!r})).writer()\nw.write(b'x' * 100000)\n"
        "print('ready', flush=True)\ntime.sleep(60)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
    proc.kill()
    proc.wait()
    partials = [p for p in directory.iterdir() if p.name.startswith(".incoming-")]
    assert len(partials) == 1
    os.utime(partials[0], (NOW - 3600, NOW - 3600))
    OriginalStore(directory, RetentionPolicy(grace_s=60, every_s=0)).writer().abort()
    assert not partials[0].exists()


def test_an_input_over_the_per_input_cap_is_compressed_but_not_stored(tmp_path: Path) -> None:
    """Past SUMMARIZER_ORIGINALS_MAX_BYTES the compression completes; the store holds nothing of
    it, and restore says it was not stored."""
    store = OriginalStore(tmp_path / "originals", RetentionPolicy(max_bytes=50_000, every_s=1e9))
    data = b"".join(b"2026-11-29 INFO worker synced batch %d\n" % i for i in range(20_000))
    data += b"src/app.py:12: ERROR boom\n"
    result = compress(io.BytesIO(data), store, OutputOptions())
    assert "src/app.py:12" in result.text and not result.passthrough
    assert store.dropped == (result.restore_id, len(data))
    assert store.usage().bytes == 0 and store.usage().partials == 0
    with pytest.raises(NotFound, match=r"not stored: .* over the per-input limit"):
        store.path(result.restore_id)


def test_output_of_dev_zero_does_not_write_unbounded_data(tmp_path: Path) -> None:
    """`summarizer output /dev/zero` with a 1 MiB cap never holds more than the cap on disk."""
    cache = tmp_path / "cache"
    env = {**os.environ, "SUMMARIZER_CACHE_DIR": str(cache), "SUMMARIZER_ORIGINALS_MAX_BYTES": "1M"}
    exe = Path(sys.executable).with_name("summarizer")
    if not exe.exists():
        pytest.skip("the summarizer console script is not installed")
    proc = subprocess.Popen(
        [str(exe), "output", "/dev/zero"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        peak = 0
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            sizes = [p.stat().st_size for p in (cache / "originals").glob(".incoming-*") if p.exists()]
            peak = max(peak, sum(sizes))
            time.sleep(0.05)
    finally:
        proc.kill()
        proc.wait()
    assert peak <= 1 << 20


@pytest.mark.parametrize(
    ("text", "value"), [("1073741824", 1 << 30), ("512M", 512 << 20), ("1GiB", 1 << 30), ("1.5k", 1536)]
)
def test_sizes_parse(text: str, value: int) -> None:
    """Bytes or a number with a unit."""
    assert parse_size(text) == value


def test_ages_parse_and_bad_settings_name_the_variable() -> None:
    """14d, 12h, seconds; a malformed value is an InputError naming the variable."""
    assert parse_age("14d") == 14 * 86400 and parse_age("90m") == 5400 and parse_age("30") == 30
    assert policy_from_env({}).max_bytes == 1 << 30 and policy_from_env({}).max_age_s == 14 * 86400
    with pytest.raises(InputError, match="SUMMARIZER_ORIGINALS_MAX_AGE"):
        OriginalStore.configured(Path("/tmp/x"), {"SUMMARIZER_ORIGINALS_MAX_AGE": "soon"})
