"""Every input is read with a limit: endless or huge inputs give one line, fast.

``/dev/zero`` and a 2 GB (sparse) file reach ``score``, ``compress``, ``stats``, ``batch``, ``gate``
and ``session --hook`` through the real entry point. Most cases lower the limit with
``SUMMARIZER_MAX_INPUT_BYTES`` to stay quick; one runs at the default 256 MiB and measures the
child's peak memory.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import assert_clean_error, cli, entry_point

PHASE = {"score": [], "compress": [], "stats": [], "batch": [], "gate": ["--phase", "1"]}
ZERO = "/dev/zero"

pytestmark = pytest.mark.skipif(not os.path.exists(ZERO), reason="needs /dev/zero")


def _env(**extra: str) -> dict[str, str]:
    return {**os.environ, **extra}


@pytest.mark.parametrize("command", list(PHASE))
def test_an_endless_file_is_one_line_and_exit_2(command: str) -> None:
    """/dev/zero is read up to the limit and no further."""
    run = cli(command, *PHASE[command], ZERO, env=_env(SUMMARIZER_MAX_INPUT_BYTES="1M"), timeout=60)
    assert_clean_error(run, 2)
    assert "larger than 1 MiB" in run.stderr and "SUMMARIZER_MAX_INPUT_BYTES" in run.stderr


@pytest.mark.parametrize("command", list(PHASE))
def test_a_2_gb_file_is_refused_by_its_size_before_reading(command: str, tmp_path: Path) -> None:
    """The default limit (256 MiB) and a sparse 2 GB file: refused at once, nothing read."""
    big = tmp_path / "big.jsonl"
    with big.open("wb") as handle:
        handle.truncate(2 << 30)
    run = cli(command, *PHASE[command], str(big), timeout=30)
    assert_clean_error(run, 2)
    assert "larger than 256 MiB" in run.stderr


@pytest.mark.parametrize("command", ["score", "compress", "gate"])
def test_an_oversized_stdin_is_one_line(command: str) -> None:
    """Stdin past the limit, on the cold path of `score` as on the click path."""
    env = _env(SUMMARIZER_MAX_INPUT_BYTES="1M")
    run = cli(command, *PHASE[command], "-", stdin=b" " * (3 << 20), env=env)
    assert_clean_error(run, 2)
    assert "'-' is larger than 1 MiB" in run.stderr


def test_an_input_under_the_limit_is_read() -> None:
    """The limit is a ceiling, not a tax: a small entry under a 1 KiB limit is scored."""
    entry = json.dumps({"summary": "Fixed a typo in README.", "files_changed": ["README.md"]}).encode()
    run = cli("score", "-", stdin=entry, env=_env(SUMMARIZER_MAX_INPUT_BYTES="1K"))
    assert run.code == 0, run.describe()


def test_a_malformed_limit_is_one_line() -> None:
    """A typo in the variable names the variable and the accepted forms."""
    run = cli("compress", ZERO, env=_env(SUMMARIZER_MAX_INPUT_BYTES="lots"))
    assert_clean_error(run, 2)
    assert "SUMMARIZER_MAX_INPUT_BYTES='lots' is not a size" in run.stderr


def _hook(stdin_path: str | None, payload: bytes, env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    args = [*entry_point(), "session", "--hook"]
    if stdin_path is not None:
        with open(stdin_path, "rb") as stdin:
            return subprocess.run(args, stdin=stdin, capture_output=True, env=env, timeout=60, check=False)
    return subprocess.run(args, input=payload, capture_output=True, env=env, timeout=60, check=False)


@pytest.mark.parametrize("where", ["hook stdin", "transcript_path"])
def test_session_hook_reads_with_a_limit_and_exits_1(where: str) -> None:
    """An endless hook payload, or a transcript_path of /dev/zero: one line, exit 1 (a hook never exits 2)."""
    env = _env(SUMMARIZER_MAX_INPUT_BYTES="1M")
    if where == "hook stdin":
        done = _hook(ZERO, b"", env)
    else:
        done = _hook(None, json.dumps({"transcript_path": ZERO, "cwd": "/tmp"}).encode(), env)
    lines = done.stderr.decode().splitlines()
    assert done.returncode == 1 and len(lines) == 1, done.stderr
    assert lines[0].startswith("summarizer: ") and "larger than 1 MiB" in lines[0]
    assert b"Traceback" not in done.stderr


def test_dev_zero_at_the_default_limit_stays_within_bounded_memory() -> None:
    """At 256 MiB the child's peak memory stays under 600 MiB (about the limit plus the interpreter)."""
    probe = (
        "import resource, subprocess, sys\n"
        "done = subprocess.run(sys.argv[1:], capture_output=True)\n"
        "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        "sys.stderr.write(done.stderr.decode())\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "SUMMARIZER_MAX_INPUT_BYTES"}
    done = subprocess.run(
        [sys.executable, "-c", probe, *entry_point(), "compress", ZERO],
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    code, peak_kib = (int(x) for x in done.stdout.split())
    assert code == 2 and "larger than 256 MiB" in done.stderr.decode()
    assert peak_kib < 600 * 1024, f"peak {peak_kib // 1024} MiB"


def _limited(limit_bytes: int) -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))


def test_recover_hook_on_an_endless_stdin_is_one_line_in_bounded_memory() -> None:
    """`recover --hook < /dev/zero` stops at the hook limit (1 MiB): one line, exit 1, and it
    runs inside a 1 GiB address space (it used to grow until the machine ran out)."""
    with open(ZERO, "rb") as stdin:
        done = subprocess.run(
            [*entry_point(), "recover", "--hook"],
            stdin=stdin,
            capture_output=True,
            env=_env(),
            timeout=300,  # a hang guard only; the answer comes after reading 1 MiB
            check=False,
            preexec_fn=lambda: _limited(1 << 30),
        )
    lines = done.stderr.decode().splitlines()
    assert done.returncode == 1 and len(lines) == 1, done.stderr[-2000:]
    assert "larger than 1 MiB" in lines[0] and b"Traceback" not in done.stderr


@pytest.mark.parametrize("command", ["score", "compress", "output", "envelope"])
def test_a_named_pipe_with_no_writer_is_one_line_after_a_bounded_wait(command: str, tmp_path: Path) -> None:
    """A FIFO nobody writes to: the command waits SUMMARIZER_FIFO_WAIT seconds, then one line, exit 2."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    run = cli(command, str(fifo), env=_env(SUMMARIZER_FIFO_WAIT="0.2"), timeout=300)  # hang guard only
    assert_clean_error(run, 2)
    assert "named pipe with no writer" in run.stderr and "SUMMARIZER_FIFO_WAIT" in run.stderr


def test_a_named_pipe_with_a_writer_is_read(tmp_path: Path) -> None:
    """The wait ends as soon as the writer writes: the entry is scored."""
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    entry = json.dumps({"summary": "Added the auth endpoint.", "files_changed": ["a.py"]})
    writer = threading.Thread(target=lambda: fifo.write_text(entry))
    writer.start()
    run = cli("score", str(fifo), env=_env(SUMMARIZER_FIFO_WAIT="300"), timeout=300)
    writer.join()
    assert run.code == 0 and b"score" in run.stdout, run.describe()
