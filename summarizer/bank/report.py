"""What a gate (or a sprint close) reports: the confirmation line, flags, budgets, and ``--json``."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from summarizer.bank.entry import format_cost

__all__ = ["CloseReport", "GateReport", "PhaseBudget", "PlanNote"]


class PhaseBudget(BaseModel):
    """One phase's budget figures after the gate (budget-lines)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    feature: str
    phase: str
    per_phase: int
    carry_in: int
    allocated: int
    used: float
    carryover: int


class PlanNote(BaseModel):
    """The phase plan a gate used: recorded by it, reused from the bank, or explicitly changed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    feature: str
    phase: str
    estimated_phases: int
    per_phase: int
    source: Literal["recorded", "bank", "changed"]
    previous_phases: int | None = None
    previous_per_phase: int | None = None

    def line(self) -> str:
        """One plain sentence."""
        if self.source == "changed":
            return (
                f"Phase plan ({self.feature}) CHANGED at phase {self.phase}: {self.previous_phases} → "
                f"{self.estimated_phases} estimated phases, per-phase budget {self.previous_per_phase} → "
                f"{self.per_phase} lines"
            )
        origin = "recorded in the bank" if self.source == "recorded" else "from the bank"
        return (
            f"Phase plan ({self.feature}): {self.estimated_phases} estimated phases, "
            f"{self.per_phase} lines per phase ({origin})"
        )


class GateReport(BaseModel):
    """The outcome of one gate. ``compressed`` counts entries written (new or replaced)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    phase: str
    feature: str
    compressed: int
    critical: int
    high: int
    new: int
    replaced: int
    unchanged: int
    skipped: int
    cross_refs_added: int
    removed: tuple[str, ...] = ()  # rows a re-run no longer lists (archived)
    unfinished: int = 0  # entries of the batch that are not complete (listed under Unfinished)
    plans: tuple[PlanNote, ...] = ()
    flags: tuple[str, ...] = ()
    trim: str | None = None
    budgets: tuple[PhaseBudget, ...] = ()
    zz_files: tuple[str, ...] = ()
    written: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    cleaned: tuple[str, ...] = ()
    redactions: int = 0
    learnings_pending: bool = False
    inject_commands: tuple[str, ...] = ()  # pasteable `summarizer gate --inject ...` per phase

    def confirmation(self) -> str:
        """The confirmation line: N compressed, M CRITICAL, P HIGH, K cross-refs.

        ``Compression complete: N entries compressed (M CRITICAL, P HIGH), K cross-refs added``
        """
        return (
            f"Compression complete: {self.compressed} entries compressed ({self.critical} CRITICAL, "
            f"{self.high} HIGH), {self.cross_refs_added} cross-refs added"
        )

    def lines(self) -> list[str]:
        """Human output: the confirmation line, then what else happened."""
        out = [self.confirmation()]
        if not self.compressed and not self.removed:
            out.append(self.nothing_to_compress())
        elif self.unchanged:
            out.append(f"{self.unchanged} entries unchanged (same key and content hash): skipped")
        out.extend(f"Removed (no longer in the batch, archived): {row}" for row in self.removed)
        out.extend(note.line() for note in self.plans)
        for budget in self.budgets:
            out.append(
                f"Phase {budget.phase} ({budget.feature}) budget: allocated {budget.allocated} lines "
                f"(per-phase {budget.per_phase} + carry-in {budget.carry_in}), "
                f"used {format_cost(budget.used)}, carried {budget.carryover}"
            )
        if self.trim:
            out.append(self.trim)
        out.extend(f"FLAG: {flag}" for flag in self.flags)
        out.extend(f"ZZ: {name}" for name in self.zz_files)
        for command in self.inject_commands:
            if self.learnings_pending:
                out.append(f"Learnings pending for {self.feature!r}; the next agent's block: {command}")
            else:
                out.append(f"The next agent's block: {command}")
        return out

    def nothing_to_compress(self) -> str:
        """The plain sentence for a gate that compressed nothing, saying why."""
        reasons = []
        if self.unchanged:
            reasons.append(f"{self.unchanged} already in the bank unchanged")
        if self.unfinished:
            reasons.append(f"{self.unfinished} not complete (listed under Unfinished)")
        if not reasons:
            reasons.append("the batch holds no compressible entry")
        return "Nothing to compress: " + "; ".join(reasons) + "; no entry of Completed Phases changed."


class CloseReport(BaseModel):
    """The outcome of ``--close-sprint``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    zz_removed: tuple[str, ...] = ()
    learnings_archived: tuple[str, ...] = ()
    xref_archived: bool = False
    unresolved: tuple[str, ...] = ()
    cleaned: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        """Human output."""
        out = [
            f"Sprint closed: {len(self.zz_removed)} ZZ files removed, "
            f"{len(self.learnings_archived)} learnings "
            f"archived, cross-refs {'archived' if self.xref_archived else 'unchanged'}, "
            f"{len(self.unresolved)} unresolved"
        ]
        out.extend(f"UNRESOLVED: {item}" for item in self.unresolved)
        return out
