"""engram's records as frozen pydantic models, named and shaped like engram's Go JSON tags.

``model_dump(mode="json", exclude_none=True)`` reproduces engram's wire format: Go's ``omitempty``
pointers (``tool_name``, ``project``, ``topic_key``, ``ended_at``, ...) are ``None`` here and omitted
there. One deliberate difference, ours (docs/engram.md): collections are ``[]``, never ``null``
(engram's baseline encoded empty slices as ``null``; its later versions switched to ``[]`` too).

``SaveResult`` is ours: engram returns only the id of a save, so a caller cannot tell an insert from a
topic upsert or a deduplicated repeat, nor learn that the content was truncated.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "ExportData",
    "ImportResult",
    "Observation",
    "PassiveCaptureResult",
    "Prompt",
    "SaveAction",
    "SaveResult",
    "SearchResult",
    "Session",
    "SessionSummary",
    "Stats",
    "TimelineEntry",
    "TimelineResult",
]

_FROZEN = ConfigDict(frozen=True, extra="ignore")


class Session(BaseModel):
    """A coding session: observations and prompts hang off it."""

    model_config = _FROZEN
    id: str
    project: str
    directory: str
    started_at: str
    ended_at: str | None = None
    summary: str | None = None


class Observation(BaseModel):
    """One memory. Timestamps are UTC ``YYYY-MM-DD HH:MM:SS`` text, exactly as engram writes them."""

    model_config = _FROZEN
    id: int
    session_id: str
    type: str
    title: str
    content: str
    tool_name: str | None = None
    project: str | None = None
    scope: str = "project"
    topic_key: str | None = None
    revision_count: int = 1
    duplicate_count: int = 1
    last_seen_at: str | None = None
    created_at: str
    updated_at: str
    deleted_at: str | None = None


class SearchResult(Observation):
    """A search hit: the observation plus its FTS5 BM25 rank (negative; lower is better)."""

    rank: float


class SessionSummary(BaseModel):
    """A session with the number of its live observations (``RecentSessions``)."""

    model_config = _FROZEN
    id: str
    project: str
    started_at: str
    ended_at: str | None = None
    summary: str | None = None
    observation_count: int = 0


class Stats(BaseModel):
    """Counts over the whole store; ``projects`` newest first, from live observations only."""

    model_config = _FROZEN
    total_sessions: int = 0
    total_observations: int = 0
    total_prompts: int = 0
    projects: list[str] = Field(default_factory=list)


class TimelineEntry(Observation):
    """An observation around a timeline focus."""

    is_focus: bool = False


class TimelineResult(BaseModel):
    """Chronological neighbours of one observation inside its session."""

    model_config = _FROZEN
    focus: Observation
    before: list[TimelineEntry] = Field(default_factory=list)
    after: list[TimelineEntry] = Field(default_factory=list)
    session_info: Session | None = None
    total_in_range: int = 0


class Prompt(BaseModel):
    """A user prompt recorded for a session (``project`` is ``""`` when unknown)."""

    model_config = _FROZEN
    id: int
    session_id: str
    content: str
    project: str = ""
    created_at: str


class PassiveCaptureResult(BaseModel):
    """What passive capture found in a text and what it stored."""

    model_config = _FROZEN
    extracted: int = 0
    saved: int = 0
    duplicates: int = 0


class ExportData(BaseModel):
    """A full dump, the body of ``GET /export`` and ``POST /import``."""

    model_config = _FROZEN
    version: str = "0.1.0"
    exported_at: str = ""
    sessions: list[Session] = Field(default_factory=list)
    observations: list[Observation] = Field(default_factory=list)
    prompts: list[Prompt] = Field(default_factory=list)


class ImportResult(BaseModel):
    """How many rows an import added (rows already present are skipped, not counted)."""

    model_config = _FROZEN
    sessions_imported: int = 0
    observations_imported: int = 0
    prompts_imported: int = 0


SaveAction = Literal["inserted", "upserted", "deduplicated", "saved"]


class SaveResult(BaseModel):
    """The outcome of a save. ``action`` is ``"saved"`` when the backend cannot tell (engram HTTP)."""

    model_config = _FROZEN
    id: int
    action: SaveAction
    truncated: bool = False
