"""Budget allocation for ``## Completed Phases``: pure functions that return plans, never write.

Rules (docs/phase-gate.md, "Budget"; the arithmetic of the original examples corrected):

* TOTAL 100 budget-lines; per phase ``max(5, floor(100 / estimated_phases))``, 8 phases by default
  (so 12). Costs are budget-lines, not physical lines: CRITICAL 3, HIGH 2 (expanded) or 1
  (standard), MEDIUM 1, LOW 0.5.
* In a phase every entry first gets its minimum cost; what is left of the phase budget (plus the
  carry-in) upgrades HIGH entries to 2 lines in descending score order (input order on ties).
* CRITICAL is never reduced, even past the phase budget; the plan then says so (``over_budget``).
* Carryover to the next phase is ``floor(0.2 x unused)``: 12 budgeted, 4 used -> 1 line carried.
  The original example's "8 lines carried" and "20 remaining" are wrong by its own formula.
* More than 5 CRITICAL entries in a phase raise an overflow flag.
* CRITICAL lines alone above the 100-line total: the plan carries an escalation with
  three options and nothing may be written. The plan *returns* it (``plan.escalation``);
  :meth:`PhasePlan.check` / :meth:`BatchPlan.check` raise :class:`~summarizer.core.errors.EscalationRequired`
  for callers that write.
* Over the 100-line cap, :func:`trim_plan` (C7) removes LOW entries (lowest score first, oldest
  first on ties), then cuts MEDIUM entries to filename-only (0.5), never touches CRITICAL or HIGH,
  and lists every trimmed entry for ``_notes/archive/YYYY-MM-compressed-entries.md``. If CRITICAL
  and HIGH alone exceed the cap it reports that and drops nothing of them.

Arithmetic is exact: costs are multiples of 0.5, which binary floats represent exactly, and the
20% carryover is computed in integer halves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from summarizer.core.errors import EscalationRequired, InputError
from summarizer.phasegate.scoring import Band

__all__ = [
    "DEFAULT_PHASES",
    "MIN_COST",
    "OVERFLOW_CRITICAL",
    "TOTAL_BUDGET",
    "Allocation",
    "BatchPlan",
    "BudgetItem",
    "Mode",
    "PhasePlan",
    "TrimItem",
    "TrimPlan",
    "allocate_phase",
    "archive_path",
    "carryover",
    "escalation_message",
    "per_phase_budget",
    "place_entries",
    "plan_batch",
    "trim_plan",
]

TOTAL_BUDGET = 100
DEFAULT_PHASES = 8
MIN_PHASE_BUDGET = 5
OVERFLOW_CRITICAL = 5
CARRY_PERCENT = 20

Mode = Literal["expanded", "standard", "aggressive", "filename"]
MIN_COST: dict[Band, float] = {"CRITICAL": 3.0, "HIGH": 1.0, "MEDIUM": 1.0, "LOW": 0.5}
_MIN_MODE: dict[Band, Mode] = {
    "CRITICAL": "expanded",
    "HIGH": "standard",
    "MEDIUM": "standard",
    "LOW": "aggressive",
}


def per_phase_budget(estimated_phases: int | None = None, total: int = TOTAL_BUDGET) -> int:
    """``max(5, floor(total / estimated_phases))``; ``None`` means the default 8 phases (-> 12)."""
    phases = DEFAULT_PHASES if estimated_phases is None else estimated_phases
    if phases < 1:
        raise InputError(f"estimated phases must be at least 1, not {phases!r}; pass --phases N with N >= 1")
    return max(MIN_PHASE_BUDGET, total // phases)


def carryover(budget: float, used: float) -> int:
    """``floor(0.2 x unused)`` budget-lines; nothing carries when the phase used it all or more.

    >>> carryover(12, 4)   # the example's phase 1: 8 unused -> 1, not 8
    1
    """
    unused_halves = round((budget - used) * 2)  # costs are multiples of 0.5: exact in halves
    if unused_halves <= 0:
        return 0
    return (unused_halves * CARRY_PERCENT) // (2 * 100)


def escalation_message(critical_lines: float, total: int = TOTAL_BUDGET) -> str:
    """The escalation text with its three options."""
    return (
        f"CRITICAL entries require {critical_lines:g} lines but budget is {total}. Options: "
        f"(1) increase budget, (2) increase TOTAL_BUDGET permanently, (3) split phase. Nothing was written."
    )


@dataclass(frozen=True, slots=True)
class BudgetItem:
    """An entry to allocate: an id the caller understands, its score and its priority band."""

    id: str
    score: float
    priority: Band


@dataclass(frozen=True, slots=True)
class Allocation:
    """What one entry gets: its rendering mode and budget-line cost."""

    id: str
    score: float
    priority: Band
    mode: Mode
    cost: float


@dataclass(frozen=True, slots=True)
class PhasePlan:
    """The allocation of one phase."""

    phase: str | None
    budget: int  # the per-phase budget
    carry_in: int  # carried from the previous phase
    allocations: tuple[Allocation, ...]  # descending score
    used: float
    carryover: int  # to the next phase
    over_budget: bool  # CRITICAL (or the minimum costs) went past the available budget
    flags: tuple[str, ...] = ()
    escalation: str | None = None

    @property
    def available(self) -> int:
        """Budget plus carry-in."""
        return self.budget + self.carry_in

    @property
    def unused(self) -> float:
        """Available minus used, never below zero."""
        return max(0.0, self.available - self.used)

    def check(self) -> PhasePlan:
        """Raise :class:`EscalationRequired` if the plan escalates; else return the plan."""
        if self.escalation:
            raise EscalationRequired(self.escalation)
        return self


def place_entries(
    priorities: Sequence[Band], scores: Sequence[float], available: float
) -> tuple[list[float], list[bool], float]:
    """Minimum cost for every entry, then HIGH entries upgraded to 2 lines in score order.

    An upgrade needs a whole line left; ties keep input order; CRITICAL is never reduced, so what
    remains may be negative. Returns each entry's cost, whether it was upgraded, and what remains.
    ``available`` may be a half line: the gate places new entries around what the bank holds.
    """
    costs = [MIN_COST[priority] for priority in priorities]
    upgraded = [False] * len(costs)
    remaining = available - sum(costs)
    for i in sorted((i for i, p in enumerate(priorities) if p == "HIGH"), key=lambda i: (-scores[i], i)):
        if remaining >= 1:
            costs[i], upgraded[i], remaining = 2.0, True, remaining - 1
    return costs, upgraded, remaining


def allocate_phase(
    items: Sequence[BudgetItem],
    budget: int,
    *,
    carry_in: int = 0,
    phase: str | None = None,
    critical_committed: float = 0,
    total: int = TOTAL_BUDGET,
) -> PhasePlan:
    """Allocate one phase: minimum costs first, then HIGH upgrades in score order.

    ``critical_committed`` is the CRITICAL budget-lines already in the bank (for the escalation
    check, which is about CRITICAL lines across the whole section).
    """
    ranked = sorted(enumerate(items), key=lambda pair: (-pair[1].score, pair[0]))
    available = budget + carry_in
    cost, upgraded, _ = place_entries(
        [item.priority for item in items], [item.score for item in items], available
    )
    mode: list[Mode] = [
        "expanded" if up else _MIN_MODE[item.priority] for item, up in zip(items, upgraded, strict=True)
    ]
    used = sum(cost)  # costs are multiples of half a line: exact in floating point, in any order
    critical = [item for item in items if item.priority == "CRITICAL"]
    critical_lines = MIN_COST["CRITICAL"] * len(critical)
    flags: list[str] = []
    over = used > available
    if over:
        why = "CRITICAL entries are never reduced" if critical_lines > available else "minimum costs"
        flags.append(f"phase {phase or '?'} uses {used:g} of {available} budget-lines ({why}); over budget")
    if len(critical) > OVERFLOW_CRITICAL:
        flags.append(
            f"Phase {phase or '?'} has {len(critical)} > {OVERFLOW_CRITICAL} CRITICAL entries. Budget risk."
        )
    escalation = None
    if critical_committed + critical_lines > total:
        escalation = escalation_message(critical_committed + critical_lines, total)
        flags.append("escalation: " + escalation)
    return PhasePlan(
        phase=phase,
        budget=budget,
        carry_in=carry_in,
        allocations=tuple(
            Allocation(item.id, item.score, item.priority, mode[i], cost[i]) for i, item in ranked
        ),
        used=used,
        carryover=carryover(available, used),
        over_budget=over,
        flags=tuple(flags),
        escalation=escalation,
    )


@dataclass(frozen=True, slots=True)
class BatchPlan:
    """Several phases allocated in order, carryover flowing from one to the next."""

    phase_budget: int
    phases: tuple[PhasePlan, ...]
    total: int = TOTAL_BUDGET
    escalation: str | None = None

    @property
    def used(self) -> float:
        """Budget-lines used over all phases."""
        return sum(p.used for p in self.phases)

    @property
    def flags(self) -> tuple[str, ...]:
        """Every phase's flags, plus the cap warning when the batch alone exceeds the total."""
        flags = [f for p in self.phases for f in p.flags if not f.startswith("escalation: ")]
        if self.escalation:
            flags.append("escalation: " + self.escalation)
        if self.used > self.total:
            flags.append(f"batch uses {self.used:g} of {self.total} lines; C7 trim needed")
        return tuple(flags)

    def check(self) -> BatchPlan:
        """Raise :class:`EscalationRequired` if the batch escalates; else return the plan."""
        if self.escalation:
            raise EscalationRequired(self.escalation)
        return self


def plan_batch(
    phases: Sequence[tuple[str | None, Sequence[BudgetItem]]],
    estimated_phases: int | None = None,
    *,
    carry_in: int = 0,
    total: int = TOTAL_BUDGET,
) -> BatchPlan:
    """Allocate each ``(phase id, items)`` group in order; escalate if CRITICAL alone exceeds ``total``."""
    budget = per_phase_budget(estimated_phases, total)
    plans: list[PhasePlan] = []
    carry = carry_in
    critical_so_far = 0.0
    for phase, items in phases:
        plan = allocate_phase(items, budget, carry_in=carry, phase=phase, total=total)
        critical_so_far += sum(a.cost for a in plan.allocations if a.priority == "CRITICAL")
        plans.append(plan)
        carry = plan.carryover
    escalation = escalation_message(critical_so_far, total) if critical_so_far > total else None
    return BatchPlan(phase_budget=budget, phases=tuple(plans), total=total, escalation=escalation)


def archive_path(month: str) -> str:
    """Where C7 archives trimmed entries: ``_notes/archive/YYYY-MM-compressed-entries.md``."""
    return f"_notes/archive/{month}-compressed-entries.md"


@dataclass(frozen=True, slots=True)
class TrimItem:
    """An entry already in ``## Completed Phases``: id, band, score, current cost and date."""

    id: str
    priority: Band
    score: float
    cost: float
    date: str = ""  # YYYY-MM-DD; older first on score ties ("" sorts first)


@dataclass(frozen=True, slots=True)
class TrimPlan:
    """What C7 does: entries to remove, MEDIUM entries to cut, what to archive, and the result."""

    cap: int
    before: float
    after: float
    remove: tuple[str, ...] = ()
    cut_to_filename: tuple[str, ...] = ()
    archive: tuple[str, ...] = ()  # ids to archive before removing/cutting (removed + cut)
    archive_path: str = ""
    protected_over_cap: bool = False
    messages: tuple[str, ...] = field(default=())

    @property
    def needed(self) -> bool:
        """True when anything must change."""
        return bool(self.remove or self.cut_to_filename)


def trim_plan(items: Sequence[TrimItem], month: str, cap: int = TOTAL_BUDGET) -> TrimPlan:
    """Plan the C7 size-based trim of ``items`` down to ``cap`` budget-lines.

    ``month`` (``YYYY-MM``) names the archive file; passing it keeps this function pure.
    """
    before = sum(i.cost for i in items)
    total = before
    order = sorted(enumerate(items), key=lambda p: (p[1].score, p[1].date, p[0]))
    remove: list[str] = []
    cut: list[str] = []
    for _, item in order:
        if total <= cap:
            break
        if item.priority == "LOW":
            remove.append(item.id)
            total -= item.cost
    for _, item in order:
        if total <= cap:
            break
        if item.priority == "MEDIUM" and item.cost > 0.5:
            cut.append(item.id)
            total -= item.cost - 0.5
    protected = sum(i.cost for i in items if i.priority in ("CRITICAL", "HIGH"))
    messages: list[str] = []
    if remove or cut:
        messages.append(
            f"C7 trim: removed {len(remove)} low-priority entries, cut {len(cut)} MEDIUM to filename-only, "
            f"archived to {archive_path(month)}"
        )
    if protected > cap:
        messages.append(
            f"CRITICAL and HIGH entries alone use {protected:g} lines, over the {cap}-line cap; "
            "they are never dropped: raise the cap or split the feature"
        )
    elif total > cap:
        messages.append(f"still {total:g} lines after trimming, over the {cap}-line cap")
    return TrimPlan(
        cap=cap,
        before=before,
        after=total,
        remove=tuple(remove),
        cut_to_filename=tuple(cut),
        archive=tuple(remove + cut),
        archive_path=archive_path(month) if remove or cut else "",
        protected_over_cap=protected > cap,
        messages=tuple(messages),
    )
