"""Helpers for the agent-integration tests: the installed console script, run as agents run it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# The console script of this checkout's environment (what `summarizer init` would install).
SUMMARIZER = Path(sys.executable).with_name("summarizer")


@pytest.fixture
def summarizer() -> str:
    """Path of the ``summarizer`` console script; skip where the package is not installed."""
    if not SUMMARIZER.exists():
        found = shutil.which("summarizer")
        if found is None:
            pytest.skip("the summarizer console script is not installed (pip install -e .)")
        return found
    return str(SUMMARIZER)


def run_cli(
    exe: str, *args: str, stdin: bytes | None = b"", timeout: float = 60, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """Run the console script with stdin from bytes (never a terminal), capturing both streams."""
    return subprocess.run(
        [exe, *args], input=stdin, capture_output=True, timeout=timeout, env={**os.environ, **(env or {})}
    )
