"""Fixtures for the engram store tests: a real SQLite file in tmp_path, as engram's newTestStore."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from summarizer_engram.store import Store


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """Where the test database lives."""
    return tmp_path / "engram" / "engram.db"


@pytest.fixture
def store(db_path: Path) -> Iterator[Store]:
    """A fresh store with session ``s1`` (project engram) and engram's test duplicate window (1 h)."""
    s = Store(db_path, dedupe_window=timedelta(hours=1))
    s.start_session("s1", "engram", "/tmp/engram")
    yield s
    s.close()
