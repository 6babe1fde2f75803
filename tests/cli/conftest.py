"""Run the real installed ``summarizer`` entry point in a subprocess, isolated in tmp dirs.

The shared ``tests/conftest.py`` already points SUMMARIZER_CACHE_DIR, ENGRAM_DATA_DIR and
SUMMARIZER_BANK into tmp_path (autouse); the subprocess inherits that environment.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

__all__ = ["Run", "assert_clean_error", "assert_no_traceback", "cli", "entry_point"]


def entry_point() -> list[str]:
    """The installed console script next to the interpreter, else the one on PATH, else main()."""
    beside = Path(sys.executable).parent / "summarizer"
    if beside.exists():
        return [str(beside)]
    found = shutil.which("summarizer")
    if found:
        return [found]
    return [sys.executable, "-c", "from summarizer.cli import main; main()"]


@dataclass(frozen=True)
class Run:
    """One finished CLI process."""

    args: tuple[str, ...]
    code: int
    stdout: bytes
    stderr: str

    @property
    def err_lines(self) -> list[str]:
        return self.stderr.splitlines()

    def describe(self) -> str:
        """What a failing assertion shows: the command, the exit code and both streams (short)."""
        return (
            f"summarizer {' '.join(self.args)[:200]} -> exit {self.code}\n"
            f"stderr: {self.stderr[-1500:]!r}\nstdout: {self.stdout[:300]!r}"
        )


def cli(
    *args: str,
    stdin: bytes | None = None,
    cwd: Path | None = None,
    timeout: float = 90,
    env: dict[str, str] | None = None,
) -> Run:
    """Run ``summarizer ARGS`` with the test's (isolated) environment."""
    run_env = dict(os.environ if env is None else env)
    run_env.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    # The lock-wait tests hold engram.db locked on purpose: 2 s shows the same behaviour as 30 s.
    run_env.setdefault("SUMMARIZER_ENGRAM_LOCK_WAIT", "2")
    run_env["PYTHONUNBUFFERED"] = "1"
    done = subprocess.run(
        [*entry_point(), *args],
        input=stdin if stdin is not None else b"",
        capture_output=True,
        cwd=cwd,
        env=run_env,
        timeout=timeout,
        check=False,
    )
    return Run(tuple(args), done.returncode, done.stdout, done.stderr.decode("utf-8", "replace"))


def assert_no_traceback(run: Run) -> None:
    """No Python traceback on either stream."""
    assert "Traceback (most recent call last)" not in run.stderr, run.describe()
    assert b"Traceback (most recent call last)" not in run.stdout, run.describe()


def assert_clean_error(run: Run, codes: int | set[int], *, stdout_ok: bool = False) -> None:
    """Exit in ``codes``, one non-empty ``summarizer:`` line on stderr, nothing on stdout.

    Usage errors too: click's four-line usage block is replaced by one line (``summarizer.cli``).
    """
    allowed = {codes} if isinstance(codes, int) else codes
    assert_no_traceback(run)
    assert run.code in allowed, run.describe()
    lines = run.err_lines
    assert len(lines) == 1 and lines[0].strip(), "stderr is not exactly one line\n" + run.describe()
    assert lines[0].startswith("summarizer: "), run.describe()
    if not stdout_ok:
        assert run.stdout == b"", "stdout not empty on error\n" + run.describe()


@pytest.fixture
def home(isolated_env: Path) -> Path:
    """The isolated per-test home holding cache/, engram/ and bank/."""
    return isolated_env
