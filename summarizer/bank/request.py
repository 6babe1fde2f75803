"""What a gate is asked to do: :class:`GateRequest`, and the semantic-summary seam :data:`Summarize`.

A module of its own so that every other bank module can name the request without importing the
gate's flow (``gate`` imports them; nothing imports ``gate`` back).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from summarizer.core.errors import InputError
from summarizer.phasegate.models import SubtaskSummary
from summarizer.phasegate.scoring import Band

__all__ = ["DEFAULT_ESTIMATED_PHASES", "MAX_SUMMARY_BYTES", "GateRequest", "Summarize", "check_agent"]

DEFAULT_ESTIMATED_PHASES = 8  # docs/memory-bank.md "Budget": used when a feature has no recorded plan
MAX_SUMMARY_BYTES = 256 * 1024  # a longer summary is scrubbed, cut and its full text archived

Summarize = Callable[[Sequence[tuple[SubtaskSummary, Band, tuple[str, ...]]]], list[tuple[str, ...]]]
"""``[(scrubbed entry, band, template lines)] -> [lines]``: the semantic-summary seam (an LLM)."""

# An agent name is a heading's last word group: '#', '[', '→', '·', '|' and line breaks would let
# two different agents (or an agent and a subtask label) render the same heading.
_AGENT_RE = re.compile(r"[^\W_][\w.-]*(?: [\w.-]+)*")
_AGENT_MAX = 64


def check_agent(name: str, *, number: int, field: str) -> None:
    """Raise a one-line :class:`InputError` unless ``name`` can key a bank heading."""
    if len(name) <= _AGENT_MAX and _AGENT_RE.fullmatch(name):
        return
    hint = "; give the subtask as its own 'id' field" if "#" in name or "[" in name else ""
    raise InputError(
        f"entry {number}: {field} {name!r} must be up to {_AGENT_MAX} letters, digits, '.', '_', '-' "
        f"or single spaces, on one line{hint}"
    )


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
    max_summary_bytes: int = MAX_SUMMARY_BYTES

    def __post_init__(self) -> None:
        if self.max_summary_bytes < 1024:
            raise InputError(
                f"the summary size limit must be at least 1 KB, not {self.max_summary_bytes} bytes"
            )
        if self.estimated_phases is not None and self.estimated_phases < 1:
            raise InputError(f"--estimated-phases must be at least 1, not {self.estimated_phases!r}")
        if not self.feature.strip() or "\n" in self.feature or "<!--" in self.feature or "|" in self.feature:
            raise InputError(f"--feature {self.feature!r} must be a one-line name, like auth-jwt")
        for number, entry in enumerate(self.entries, start=1):
            check_agent(entry.agent, number=number, field="from_agent")
            for target in entry.to_agent:
                check_agent(target, number=number, field="to_agent")
