"""What a gate is asked to do: :class:`GateRequest`, and the semantic-summary seam :data:`Summarize`.

A module of its own so that every other bank module can name the request without importing the
gate's flow (``gate`` imports them; nothing imports ``gate`` back).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from summarizer.core.errors import InputError
from summarizer.phasegate.models import SubtaskSummary
from summarizer.phasegate.scoring import Band

__all__ = ["DEFAULT_ESTIMATED_PHASES", "GateRequest", "Summarize"]

DEFAULT_ESTIMATED_PHASES = 8  # SPEC.md "Budget": used when a feature has no recorded plan

Summarize = Callable[[Sequence[tuple[SubtaskSummary, Band, tuple[str, ...]]]], list[tuple[str, ...]]]
"""``[(scrubbed entry, band, template lines)] -> [lines]``: the semantic-summary seam (an LLM)."""


@dataclass(frozen=True, slots=True)
class GateRequest:
    """One gate: the batch, its default phase and date, and the feature's budget parameters.

    ``estimated_phases=None`` means "the feature's recorded plan" (the ledger), else 8 for a new
    feature; a number that differs from the recorded plan changes it, and the report says so.
    """

    phase: str
    entries: tuple[SubtaskSummary, ...]
    date: str
    estimated_phases: int | None = None
    feature: str = "default"
    final: bool = False
    learnings: Path | None = None
    # entry number (1-based) -> semantic lines (unlabelled) for CRITICAL/HIGH entries; see run_gate
    semantic: Mapping[int, tuple[str, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.estimated_phases is not None and self.estimated_phases < 1:
            raise InputError(f"--estimated-phases must be at least 1, not {self.estimated_phases!r}")
        if not self.feature.strip() or "\n" in self.feature or "<!--" in self.feature or "|" in self.feature:
            raise InputError(f"--feature {self.feature!r} must be a one-line name, like auth-jwt")
