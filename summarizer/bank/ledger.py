"""The budget ledger: per-phase budget, carry-in and carryover, persisted in the bank.

Budget (docs/memory-bank.md): per-phase = max(5, floor(100 / estimated_phases)); carryover to the next phase =
floor(0.2 x unused). The ledger is a table in ``01-active-context.md`` (``## Budget Ledger``), one
row per (feature, phase), in the order the phases were first gated. It is what makes carryover
survive between gate runs, which are separate processes.

Rules for carry-in (documented in docs/memory-bank.md):

* a phase gated for the first time takes the carryover of the last ledger row of its feature;
* a phase gated again keeps the carry-in recorded the first time, so re-runs are stable and
  byte-identical; a later change to an earlier phase does not ripple forward.

The phase plan (how many phases the feature is estimated to take) is the ledger's "Estimated
phases" column: the first gate of a feature records it (8 when not given), later gates reuse it
(a phase gated again keeps its own row's figure, a new phase takes the feature's latest), and a
different ``--estimated-phases`` is an explicit change that :func:`resolve_plan` reports.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from summarizer.bank.entry import format_cost
from summarizer.bank.markdown import BankFormatError, Section, render_table, table_rows
from summarizer.bank.request import DEFAULT_ESTIMATED_PHASES
from summarizer.phasegate.budget import TOTAL_BUDGET, carryover, per_phase_budget

__all__ = [
    "DEFAULT_ESTIMATED_PHASES",
    "LEDGER_COLUMNS",
    "TOTAL_BUDGET",
    "LedgerRow",
    "carryover",
    "open_phase",
    "parse_ledger",
    "per_phase_budget",
    "render_ledger",
    "resolve_plan",
]

LEDGER_COLUMNS = (
    "Feature",
    "Phase",
    "Estimated phases",
    "Per-phase",
    "Carry-in",
    "Allocated",
    "Used",
    "Carryover",
)


@dataclass(frozen=True, slots=True)
class LedgerRow:
    """One phase's budget figures (budget-lines)."""

    feature: str
    phase: str
    estimated_phases: int
    per_phase: int
    carry_in: int
    used: float

    @property
    def allocated(self) -> int:
        """Per-phase budget plus what the previous phase carried over."""
        return self.per_phase + self.carry_in

    @property
    def carryover(self) -> int:
        """What this phase hands to the next one."""
        return carryover(self.allocated, self.used)

    def cells(self) -> list[str]:
        """Table cells in :data:`LEDGER_COLUMNS` order."""
        return [
            self.feature,
            self.phase,
            str(self.estimated_phases),
            str(self.per_phase),
            str(self.carry_in),
            str(self.allocated),
            format_cost(self.used),
            str(self.carryover),
        ]


def resolve_plan(
    rows: list[LedgerRow], feature: str, phase: str, requested: int | None
) -> tuple[int, int | None, bool]:
    """``(estimated phases to use, the recorded figure it replaces or None, recorded before)``."""
    own = [row for row in rows if (row.feature, row.phase) == (feature, phase)]
    mine = own or [row for row in rows if row.feature == feature]
    recorded = mine[-1].estimated_phases if mine else None
    if requested is None:
        return (recorded or DEFAULT_ESTIMATED_PHASES, None, recorded is not None)
    changed = recorded if recorded is not None and recorded != requested else None
    return (requested, changed, recorded is not None)


def open_phase(rows: list[LedgerRow], feature: str, phase: str, estimated_phases: int) -> LedgerRow:
    """The ledger row a gate of ``phase`` works against (existing, or new with its carry-in)."""
    for row in rows:
        if row.feature == feature and row.phase == phase:
            return replace(
                row, estimated_phases=estimated_phases, per_phase=per_phase_budget(estimated_phases)
            )
    previous = [row for row in rows if row.feature == feature]
    carry_in = previous[-1].carryover if previous else 0
    return LedgerRow(feature, phase, estimated_phases, per_phase_budget(estimated_phases), carry_in, 0.0)


def _int(value: str, *, path: Path | str, line: int, column: str) -> int:
    try:
        return int(value)
    except ValueError as exc:
        raise BankFormatError(
            path, line, f"ledger column {column!r} must be an integer, not {value!r}"
        ) from exc


def parse_ledger(section: Section, *, path: Path | str) -> list[LedgerRow]:
    """Rows of the ``## Budget Ledger`` table; derived columns are recomputed, not trusted."""
    rows: list[LedgerRow] = []
    for line, cells in table_rows(section, LEDGER_COLUMNS, path=path):
        try:
            used = float(cells[6])
        except ValueError as exc:
            raise BankFormatError(path, line, f"ledger 'Used' must be a number, not {cells[6]!r}") from exc
        rows.append(
            LedgerRow(
                feature=cells[0],
                phase=cells[1],
                estimated_phases=_int(cells[2], path=path, line=line, column="Estimated phases"),
                per_phase=_int(cells[3], path=path, line=line, column="Per-phase"),
                carry_in=_int(cells[4], path=path, line=line, column="Carry-in"),
                used=used,
            )
        )
    return rows


def render_ledger(rows: list[LedgerRow]) -> list[str]:
    """The ``## Budget Ledger`` body lines."""
    return render_table(LEDGER_COLUMNS, [row.cells() for row in rows])
