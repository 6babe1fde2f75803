"""Fixtures for the MCP tests: a build log to compress and a session transcript."""

from __future__ import annotations

from pathlib import Path

import pytest

SESSION_FIXTURE = Path(__file__).parents[1] / "session" / "fixtures" / "claude_code.jsonl"


@pytest.fixture
def build_log() -> str:
    """A 2,400-line CI log: repetitive progress, two real errors with coordinates, an exit code."""
    lines = [
        f"2026-11-29T10:{i // 60 % 60:02d}:{i % 60:02d}Z INFO worker-{i % 7} synced batch {i} "
        f"(482 rows, 0.{i % 97:02d}s)"
        for i in range(2400)
    ]
    lines[1200] = "2026-11-29T10:20:00Z ERROR src/billing/invoices.py:212: KeyError: 'currency'"
    lines[2100] = "2026-11-29T10:35:00Z FATAL worker-3 exited with code 137 (OOMKilled)"
    return "\n".join(lines) + "\nProcess exited with code 1\n"


@pytest.fixture
def session_transcript() -> Path:
    """The Claude Code fixture session from the session tests."""
    return SESSION_FIXTURE
