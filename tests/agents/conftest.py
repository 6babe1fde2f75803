"""Helpers for the agent-integration tests: the installed console script, run as agents run it."""

from __future__ import annotations

import os
import subprocess


def run_cli(
    exe: str, *args: str, stdin: bytes | None = b"", timeout: float = 60, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """Run the console script with stdin from bytes (never a terminal), capturing both streams."""
    return subprocess.run(
        [exe, *args], input=stdin, capture_output=True, timeout=timeout, env={**os.environ, **(env or {})}
    )
