"""The memory port: what the session compressor and the MCP tools need from engram, and how to get it.

Two adapters implement :class:`MemoryBackend`: :class:`~summarizer_engram.store.Store`, the embedded
SQLite file (the default), and :class:`~summarizer_engram.client.Client`, a running ``engram serve``.
``open_backend`` picks one from configuration (``SUMMARIZER_ENGRAM_URL`` set → client). Callers depend
on the Protocol only, so tests hand them a ``Store`` in ``tmp_path``.

Conventions shared by both adapters: string filters use ``""`` for "no filter"; ids are positive ints;
errors are ``summarizer.core.errors`` types (``InputError`` for bad arguments, ``NotFound`` for missing ids
or sessions, ``StorageError`` when the database or server cannot be used).
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol, runtime_checkable

from summarizer_engram.models import (
    ExportData,
    ImportResult,
    Observation,
    PassiveCaptureResult,
    Prompt,
    SaveResult,
    SearchResult,
    SessionSummary,
    Stats,
    TimelineResult,
)

__all__ = ["MemoryBackend", "default_db_path", "open_backend"]


@runtime_checkable
class MemoryBackend(Protocol):
    """engram's store operations (sessions, observations, search, context, prompts, transfer)."""

    def close(self) -> None:
        """Release the database or the HTTP connection pool."""
        ...

    def start_session(self, id: str, project: str, directory: str = "") -> None:
        """Create a session or fill its blank project/directory (never overwrites)."""
        ...

    def end_session(self, id: str, summary: str = "") -> None:
        """Mark a session ended with an optional summary (unknown id: no-op)."""
        ...

    def recent_sessions(self, project: str = "", limit: int = 5) -> list[SessionSummary]:
        """Sessions by latest activity, with live observation counts."""
        ...

    def save(
        self,
        session_id: str,
        title: str,
        content: str,
        *,
        type: str = "manual",
        project: str = "",
        scope: str = "project",
        topic_key: str = "",
        tool_name: str = "",
    ) -> SaveResult:
        """Insert, topic-upsert or dedupe an observation (engram's ``AddObservation``)."""
        ...

    def get(self, id: int) -> Observation:
        """A live observation with its full content; ``NotFound`` otherwise."""
        ...

    def update(self, id: int, **fields: str | None) -> Observation:
        """Apply the given fields (type, title, content, project, scope, topic_key); bump the revision."""
        ...

    def delete(self, id: int, *, hard: bool = False) -> None:
        """Soft-delete, or with ``hard`` remove, an observation."""
        ...

    def search(
        self, query: str, *, type: str = "", project: str = "", scope: str = "", limit: int = 10
    ) -> list[SearchResult]:
        """BM25-ranked full-text search, OR-joined terms, limit 10 by default and 20 at most."""
        ...

    def recent_observations(self, project: str = "", scope: str = "", limit: int = 20) -> list[Observation]:
        """Live observations, newest created first."""
        ...

    def latest_by_topic(self, prefix: str, *, project: str = "", scope: str = "") -> Observation | None:
        """The most recently updated live observation whose topic_key starts with ``prefix``."""
        ...

    def timeline(self, observation_id: int, before: int = 5, after: int = 5) -> TimelineResult:
        """An observation with its neighbours in the same session."""
        ...

    def add_prompt(self, session_id: str, content: str, project: str = "") -> int:
        """Record a user prompt; returns its id."""
        ...

    def recent_prompts(self, project: str = "", limit: int = 20) -> list[Prompt]:
        """Prompts newest first."""
        ...

    def search_prompts(self, query: str, project: str = "", limit: int = 10) -> list[Prompt]:
        """Full-text search over prompts."""
        ...

    def context(self, project: str = "", scope: str = "") -> str:
        """engram's "Memory from Previous Sessions" markdown, ``""`` when there is nothing."""
        ...

    def stats(self) -> Stats:
        """Whole-store counts and projects."""
        ...

    def passive_capture(
        self, session_id: str, content: str, project: str = "", source: str = ""
    ) -> PassiveCaptureResult:
        """Save the "Key Learnings" items found in ``content``."""
        ...

    def export(self) -> ExportData:
        """Everything, for backup or transfer."""
        ...

    def import_data(self, data: ExportData) -> ImportResult:
        """Import an export; rows already present are skipped."""
        ...


def default_db_path(data_dir: Path | None = None) -> Path:
    """``<data_dir>/engram.db``; without a directory, ``$ENGRAM_DATA_DIR`` else ``~/.engram``."""
    if data_dir is None:
        import os

        data_dir = Path(os.environ.get("ENGRAM_DATA_DIR") or Path.home() / ".engram")
    return data_dir / "engram.db"


def open_backend(
    db_path: Path | str | None = None, url: str | None = None, *, lock_wait_s: float = 30.0
) -> MemoryBackend:
    """The configured backend: a :class:`Client` when ``url`` is given, else the embedded :class:`Store`.

    Typical use: ``open_backend(settings.engram_db, settings.engram_url)``. The client import is lazy so
    the embedded path never loads httpx. ``lock_wait_s`` bounds how long the store waits for a
    database another process holds locked before it raises ``StorageError``.
    """
    if url:
        from summarizer_engram.client import Client

        return Client(url)
    from summarizer_engram.store import Store

    return Store(Path(db_path) if db_path is not None else default_db_path(), lock_wait_s=lock_wait_s)
