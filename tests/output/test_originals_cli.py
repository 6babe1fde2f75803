"""The originals store on the command line: `cache stats`, `cache prune`, and the per-input cap."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXE = Path(sys.executable).with_name("summarizer")
pytestmark = pytest.mark.skipif(not EXE.exists(), reason="the summarizer console script is not installed")


def _cli(*args: str, stdin: bytes = b"", **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [str(EXE), *args], input=stdin, capture_output=True, timeout=120, env={**os.environ, **env}
    )


def _log(lines: int) -> bytes:
    return b"".join(
        b"2026-12-01 INFO worker synced batch %d of the nightly import\n" % i for i in range(lines)
    )


def test_cache_stats_counts_the_originals_and_prune_all_removes_them() -> None:
    """Before: "empty" and originals left behind by `prune --all`; now both cover them."""
    assert _cli("output", stdin=_log(3000) + b"src/app.py:3: ERROR boom\n").returncode == 0
    assert _cli("output", stdin=_log(4000)).returncode == 0
    stats = _cli("cache", "stats").stdout.decode()
    assert "originals: 2 stored" in stats and "cap 1.0 GiB" in stats
    pruned = _cli("cache", "prune", "--all", "--yes").stdout.decode()
    assert "removed 2 originals" in pruned
    assert "originals: 0 stored" in _cli("cache", "stats").stdout.decode()


def test_cache_stats_json_has_the_originals_figures() -> None:
    """--json carries count, bytes, partial files and the limits from the environment."""
    import json

    _cli("output", stdin=_log(3000))
    figures = json.loads(_cli("cache", "stats", "--json", SUMMARIZER_ORIGINALS_MAX_AGE="7d").stdout)[
        "originals"
    ]
    assert figures["count"] == 1 and figures["bytes"] > 100_000 and figures["max_age_seconds"] == 7 * 86400


def test_output_over_the_per_input_cap_compresses_and_says_it_did_not_store() -> None:
    """The compression completes; one stderr line says the original was not stored."""
    done = _cli(
        "output", stdin=_log(40_000) + b"src/app.py:3: ERROR boom\n", SUMMARIZER_ORIGINALS_MAX_BYTES="1M"
    )
    assert done.returncode == 0
    assert b"src/app.py:3" in done.stdout
    assert b"SUMMARIZER_ORIGINALS_MAX_BYTES" in done.stderr and done.stderr.count(b"\n") == 1
    rid = done.stdout.decode().rsplit("summarizer restore ", 1)[1].split()[0]
    restored = _cli("restore", rid)
    assert restored.returncode == 2 and b"not stored" in restored.stderr  # NotFound: exit 2


def test_a_malformed_retention_setting_is_one_line_exit_2() -> None:
    """A bad SUMMARIZER_ORIGINALS_MAX_BYTES names the variable; no traceback."""
    done = _cli("output", stdin=_log(3000), SUMMARIZER_ORIGINALS_MAX_BYTES="lots")
    assert done.returncode == 2 and b"SUMMARIZER_ORIGINALS_MAX_BYTES" in done.stderr
    assert b"Traceback" not in done.stderr
