"""What a gate (or a sprint close) reports: the confirmation line, flags, budgets, and ``--json``."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from summarizer.bank.entry import format_cost

__all__ = ["CloseReport", "GateReport", "PhaseBudget"]


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
    flags: tuple[str, ...] = ()
    trim: str | None = None
    budgets: tuple[PhaseBudget, ...] = ()
    zz_files: tuple[str, ...] = ()
    written: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    cleaned: tuple[str, ...] = ()
    redactions: int = 0
    learnings_pending: bool = False

    def confirmation(self) -> str:
        """The seed's confirmation line.

        ``Compression complete: N entries compressed (M CRITICAL, P HIGH), K cross-refs added``
        """
        return (
            f"Compression complete: {self.compressed} entries compressed ({self.critical} CRITICAL, "
            f"{self.high} HIGH), {self.cross_refs_added} cross-refs added"
        )

    def lines(self) -> list[str]:
        """Human output: the confirmation line, then what else happened."""
        out = [self.confirmation()]
        if self.unchanged:
            out.append(f"{self.unchanged} entries unchanged (same key and content hash): skipped")
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
        if self.learnings_pending:
            out.append(
                f"Learnings pending for {self.feature!r}: `summarizer gate --inject {self.phase}` "
                "prints the injection block"
            )
        return out


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
