"""summarizer_engram: an engram-compatible memory store (SQLite) and a client for `engram serve`.

``open_backend(db_path, url)`` returns the configured :class:`MemoryBackend`: the embedded
:class:`Store` on engram's own database file by default, or a :class:`Client` for a running
``engram serve`` when a URL is configured (``SUMMARIZER_ENGRAM_URL``). The MCP memory tools
(``mem_save``, ``mem_search``, ...) are plain functions in :mod:`summarizer_engram.tools`.
Importing this package loads neither httpx nor litellm.
"""

from summarizer_engram.backend import MemoryBackend, default_db_path, open_backend
from summarizer_engram.models import (
    ExportData,
    ImportResult,
    Observation,
    PassiveCaptureResult,
    Prompt,
    SaveResult,
    SearchResult,
    Session,
    SessionSummary,
    Stats,
    TimelineEntry,
    TimelineResult,
)
from summarizer_engram.store import Store

__all__ = [
    "ExportData",
    "ImportResult",
    "MemoryBackend",
    "Observation",
    "PassiveCaptureResult",
    "Prompt",
    "SaveResult",
    "SearchResult",
    "Session",
    "SessionSummary",
    "Stats",
    "Store",
    "TimelineEntry",
    "TimelineResult",
    "default_db_path",
    "open_backend",
]
