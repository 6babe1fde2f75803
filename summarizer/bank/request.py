"""The gate's request (one phase batch with its date, feature and budget) and its prepared entries.

Its own module so the planning modules (:mod:`summarizer.bank.phase_plan`) can name it without
importing :mod:`summarizer.bank.gate`, which imports them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from summarizer.errors import InputError
from summarizer.phasegate.models import SubtaskSummary
from summarizer.phasegate.scoring import Score

__all__ = ["GateRequest", "Prepared"]


@dataclass(frozen=True, slots=True)
class GateRequest:
    """One gate: the batch, its default phase and date, and the feature's budget parameters."""

    phase: str
    entries: tuple[SubtaskSummary, ...]
    date: str
    estimated_phases: int = 8
    feature: str = "default"
    final: bool = False
    learnings: Path | None = None
    # entry number (1-based) -> semantic lines (unlabelled) for CRITICAL/HIGH entries; see run_gate
    semantic: Mapping[int, tuple[str, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.estimated_phases < 1:
            raise InputError(f"--estimated-phases must be at least 1, not {self.estimated_phases!r}")
        if not self.feature.strip() or "\n" in self.feature or "<!--" in self.feature:
            raise InputError(f"--feature {self.feature!r} must be a one-line name, like auth-jwt")


@dataclass(frozen=True, slots=True)
class Prepared:
    """One entry after preflight: key, content hash, score and the scrubbed entry it may promote."""

    index: int
    phase: str
    date: str
    digest: str
    score: Score
    clean: SubtaskSummary  # every free-text field and path scrubbed (Layer 2)
    title: str
    redactions: int

    @property
    def agent(self) -> str:
        """The producing agent."""
        return self.clean.agent

    @property
    def key(self) -> tuple[str, str, str]:
        """(date, phase, agent)."""
        return (self.date, self.phase, self.agent)
