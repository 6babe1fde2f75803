"""Cache backends for the tests: a real diskcache in tmp_path and a real redis-server on 127.0.0.1."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from summarizer_cache import DiskCache, RedisCache


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A throwaway redis-server on a free local port, stopped at the end of the session."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not on PATH (apt-get install -y redis-server); Redis tests skipped")
    port = _free_port()
    workdir = tmp_path_factory.mktemp("redis")
    proc = subprocess.Popen(
        [
            binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(workdir),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                time.sleep(0.05)
        else:
            pytest.fail("redis-server did not start within 10 s")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(params=["disk", "redis"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[DiskCache | RedisCache]:
    """Each backend in turn, empty."""
    cache: DiskCache | RedisCache
    if request.param == "disk":
        cache = DiskCache(tmp_path / "summaries")
    else:
        cache = RedisCache(request.getfixturevalue("redis_url"))
        cache.clear()
    yield cache
    cache.close()
