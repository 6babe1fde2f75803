"""Two runners, one Redis: the second computes nothing the first computed.

Real processes (the installed ``summarizer`` command), a real redis-server and the local fake
OpenAI server from ``evals/``; each runner has its own cache directory, as two CI machines would.
Skipped when redis-server is not installed (``apt-get install -y redis-server``).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A throwaway redis-server on a free local port."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not on PATH (apt-get install -y redis-server)")
    port = _free_port()
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
            str(tmp_path),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("redis-server did not start within 10 s")
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _requests(api_base: str) -> int:
    with urllib.request.urlopen(api_base.removesuffix("/v1") + "/stats", timeout=5) as r:
        return int(json.load(r)["requests"])


def test_a_second_runner_with_its_own_cache_dir_reuses_every_cell_from_redis(
    tmp_path: Path, small_dataset: Path, redis_url: str, fake_server: str
) -> None:
    """Runner A computes and pays; runner B, another process and cache dir, makes no provider call."""
    command = Path(sys.executable).parent / "summarizer"
    args = [
        str(command),
        "eval",
        str(small_dataset),
        "--model",
        "openai/fake-model",
        "--api-base",
        fake_server,
    ]

    def runner(name: str) -> subprocess.CompletedProcess[str]:
        env = {
            **os.environ,
            "SUMMARIZER_CACHE_URL": redis_url,
            "HOME": str(tmp_path / name),
            "SUMMARIZER_CACHE_DIR": str(tmp_path / name / "cache"),
        }
        env.pop("OPENAI_API_KEY", None)
        return subprocess.run(
            [*args, "--out", str(tmp_path / name / "out")],
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=240,
            check=False,
        )

    first = runner("a")
    assert first.returncode == 0, first.stderr + first.stdout
    paid = _requests(fake_server)
    assert paid > 0 and "0 reused" in first.stdout
    second = runner("b")
    assert second.returncode == 0, second.stderr + second.stdout
    assert _requests(fake_server) == paid
    assert "0 computed, 32 reused" in second.stdout and "provider calls: 0" in second.stdout
    assert not (tmp_path / "b" / "cache" / "eval" / "results.sqlite3").exists()
