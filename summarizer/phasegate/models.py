"""Boundary values of the phase-gate engine: what agents hand us, validated once.

``SubtaskSummary`` accepts the ``subtask_summary`` shape as JSON. Unknown keys are an error
that names the key, because a misspelt ``files_chaged`` would otherwise silently score as 0 files.
Status strings such as ``"partial (waiting on API)"`` or ``"In Progress"`` are normalised to one of
:data:`Status`; the reason in parentheses is kept in ``status_note``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from summarizer.phasegate.entry_rules import (
    STATUSES,
    TEXT_FROM_SCALARS,
    Status,
    agents_from,
    canonical_mapping,
    files_from,
    lower_agent,
    normalise_status,
    scalar_to_text,
)

__all__ = ["STATUSES", "Status", "SubtaskSummary", "normalise_status"]


class SubtaskSummary(BaseModel):
    """One agent's ``subtask_summary`` (docs/phase-gate.md)."""

    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=True)

    summary: str = Field(min_length=1)
    files_changed: tuple[str, ...] = ()
    status: Status = "complete"
    status_note: str | None = None
    from_agent: str | None = None
    to_agent: tuple[str, ...] = ()
    phase: str | None = None
    date: str | None = Field(default=None, pattern=r"^\d{4}-\d{2}-\d{2}$")
    tests: str | None = None
    coverage: str | None = None
    verdict: str | None = None
    critical_issues: int | None = Field(default=None, ge=0)
    blockers: str | None = None
    unblocks: str | None = None
    title: str | None = None
    type: Literal["subtask"] | None = None
    subtask: str | None = None  # the subtask's own id (alias ``id``); the gate keys entries by it

    @model_validator(mode="before")
    @classmethod
    def _accept_aliases(cls, data: Any) -> Any:
        return canonical_mapping(data) if isinstance(data, dict) else data

    @field_validator("files_changed", mode="before")
    @classmethod
    def _split_files(cls, value: Any) -> Any:
        return files_from(value)

    @field_validator("to_agent", mode="before")
    @classmethod
    def _one_or_many_agents(cls, value: Any) -> Any:
        return agents_from(value)

    @field_validator("from_agent", mode="before")
    @classmethod
    def _lower_agent(cls, value: Any) -> Any:
        return lower_agent(value)

    @field_validator(*TEXT_FROM_SCALARS, mode="before")
    @classmethod
    def _scalar_to_text(cls, value: Any) -> Any:
        return scalar_to_text(value)

    @property
    def agent(self) -> str:
        """The producing agent, ``unknown`` when not given."""
        return self.from_agent or "unknown"

    def replaced(self, **update: Any) -> SubtaskSummary:
        """A copy with ``update`` applied (values already valid: this is not a reader)."""
        return self.model_copy(update=update)
