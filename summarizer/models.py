"""Boundary values of the phase-gate engine: what agents hand us, validated once.

``SubtaskSummary`` accepts the seed's ``subtask_summary`` shape as JSON. Unknown keys are an error
that names the key, because a misspelt ``files_chaged`` would otherwise silently score as 0 files.
Status strings such as ``"partial (waiting on API)"`` or ``"In Progress"`` are normalised to one of
:data:`Status`; the reason in parentheses is kept in ``status_note``.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

__all__ = ["STATUSES", "Status", "SubtaskSummary", "normalise_status"]

Status = Literal["complete", "partial", "in_progress", "blocked", "escalated", "needs_revision", "failed"]
STATUSES: tuple[Status, ...] = (
    "complete",
    "partial",
    "in_progress",
    "blocked",
    "escalated",
    "needs_revision",
    "failed",
)

_STATUS_SYNONYMS: dict[str, Status] = {
    "complete": "complete",
    "completed": "complete",
    "done": "complete",
    "finished": "complete",
    "success": "complete",
    "approved": "complete",
    "partial": "partial",
    "partially_complete": "partial",
    "in_progress": "in_progress",
    "inprogress": "in_progress",
    "wip": "in_progress",
    "ongoing": "in_progress",
    "blocked": "blocked",
    "escalated": "escalated",
    "needs_revision": "needs_revision",
    "failed": "failed",
    "fail": "failed",
}

# Keys agents commonly use for the same field (the seed's batch example writes from/to/agent).
_ALIASES = {"from": "from_agent", "to": "to_agent", "agent": "from_agent", "files": "files_changed"}


def normalise_status(raw: str) -> tuple[Status, str | None]:
    """Map a free-form status to a :data:`Status` and the note in parentheses, if any.

    >>> normalise_status("partial (waiting on API)")
    ('partial', 'waiting on API')
    """
    text = raw.strip()
    note: str | None = None
    # The whole string first, so "in-progress" is a status and not "in" with the note "progress".
    if re.sub(r"[\s\-]+", "_", text.lower()) not in _STATUS_SYNONYMS and (
        match := re.match(r"^(.+?)\s*(?:\((.*?)\)?|:\s*(.*)|\s[-–—]\s*(.*)|[–—]\s*(.*))$", text)
    ):
        text = match.group(1)
        note = next((g.strip() for g in match.groups()[1:] if g and g.strip()), None)
    key = re.sub(r"[\s\-]+", "_", text.strip().lower())
    if key not in _STATUS_SYNONYMS:
        raise ValueError(f"unknown status {raw!r}; use one of {', '.join(STATUSES)}")
    return _STATUS_SYNONYMS[key], note


class SubtaskSummary(BaseModel):
    """One agent's ``subtask_summary`` (seed 000, section 3)."""

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

    @model_validator(mode="before")
    @classmethod
    def _accept_aliases(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        out = dict(data)
        for alias, field in _ALIASES.items():
            if alias in out:
                value = out.pop(alias)
                if alias == "to" or field not in out:
                    out.setdefault(field, value)
        if isinstance(out.get("status"), str):
            out["status"], note = normalise_status(out["status"])
            if note and not out.get("status_note"):
                out["status_note"] = note
        return out

    @field_validator("files_changed", mode="before")
    @classmethod
    def _split_files(cls, value: Any) -> Any:
        if isinstance(value, str):
            return tuple(part.strip() for part in value.split(",") if part.strip())
        return value

    @field_validator("to_agent", mode="before")
    @classmethod
    def _one_or_many_agents(cls, value: Any) -> Any:
        if value is None:
            return ()
        if isinstance(value, str):
            return tuple(part.strip().lower() for part in value.split(",") if part.strip())
        return tuple(str(v).strip().lower() for v in value)

    @field_validator("from_agent", mode="before")
    @classmethod
    def _lower_agent(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("phase", "tests", "coverage", "blockers", "unblocks", mode="before")
    @classmethod
    def _scalar_to_text(cls, value: Any) -> Any:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
        if isinstance(value, list):
            return "; ".join(str(v) for v in value)
        return value

    @property
    def agent(self) -> str:
        """The producing agent, ``unknown`` when not given."""
        return self.from_agent or "unknown"
