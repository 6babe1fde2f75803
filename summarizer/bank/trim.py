"""C7 size trim of ``## Completed Phases`` (docs/memory-bank.md, "Budget").

When the section holds more than 100 budget-lines: remove LOW entries (lowest score first, the
oldest first on ties), then cut MEDIUM entries to filename-only (0.5 lines), never touching CRITICAL
or HIGH. The caller archives every trimmed entry, in its original form, before it writes the
trimmed file. If CRITICAL and HIGH alone are over the cap, that is reported, never fixed by
dropping them. Pure: the plan is computed on values.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from summarizer.bank.active_context import ActiveContext
from summarizer.bank.entry import BankEntry, EntryKey, format_cost
from summarizer.bank.ledger import TOTAL_BUDGET
from summarizer.phasegate.templates import agent_label, files_text

__all__ = ["TrimResult", "section_cost", "trim"]


@dataclass(frozen=True, slots=True)
class TrimResult:
    """What the trim did: (original entry, reason) pairs to archive, the log line and a flag."""

    archived: tuple[tuple[BankEntry, str], ...]
    removed: int
    cut: int
    log: str | None
    flag: str | None


def section_cost(ctx: ActiveContext) -> float:
    """Budget-lines in ``## Completed Phases``: entry costs plus one per foreign line."""
    return sum(entry.cost for entry in ctx.entries()) + ctx.foreign_lines()


def _order(entry: BankEntry) -> tuple[float, str, str, str, str]:
    return (entry.score, entry.date, entry.phase, entry.agent, entry.subtask)


def trim(ctx: ActiveContext, archive_name: str, cap: float = TOTAL_BUDGET) -> TrimResult:
    """Trim ``ctx`` in place down to ``cap`` if it is over it."""
    total = section_cost(ctx)
    if total <= cap:
        return TrimResult((), 0, 0, None, None)
    archived: list[tuple[BankEntry, str]] = []
    drop: set[EntryKey] = set()
    for entry in sorted((e for e in ctx.entries() if e.band == "LOW"), key=_order):
        if total <= cap:
            break
        archived.append((entry, "removed"))
        drop.add(entry.key)
        total -= entry.cost
    cuts: dict[EntryKey, BankEntry] = {}
    medium = [e for e in ctx.entries() if e.band == "MEDIUM" and not e.trimmed and e.cost > 0.5]
    for entry in sorted(medium, key=_order):
        if total <= cap:
            break
        archived.append((entry, "cut to filename-only"))
        line = f"[{agent_label(entry.agent)}] — {files_text(entry.files)}"
        cuts[entry.key] = replace(entry, cost=0.5, trimmed=True, lines=(line,))
        total -= entry.cost - 0.5
    for group in ctx.groups:
        group.items = [
            cuts.get(item.key, item) if isinstance(item, BankEntry) else item
            for item in group.items
            if not (isinstance(item, BankEntry) and item.key in drop)
        ]
    log = None
    if archived:
        log = f"C7 trim: removed {len(drop)} low-priority entries, archived to {archive_name}"
        if cuts:
            log += f" ({len(cuts)} MEDIUM entries cut to filename-only)"
    flag = None
    if total > cap:
        flag = (
            f"Completed Phases holds {format_cost(total)} budget-lines after the C7 trim, over the "
            f"{format_cost(cap)}-line cap; CRITICAL and HIGH entries are never dropped: raise the "
            "budget or close the sprint"
        )
    return TrimResult(tuple(archived), len(drop), len(cuts), log, flag)
