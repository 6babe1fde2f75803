"""The pure middle of a gate: entries and artifacts applied to the parsed bank.

:func:`prepare_entries` runs the safety preflight, scores, keys and scrubs each entry;
:func:`apply_entries` allocates each phase's budget and updates ``## Completed Phases``, the ledger,
the progress log and the cross-references; :func:`apply_artifacts` handles the phase's ``.tmp/``
artifacts. All of it mutates only the in-memory :class:`~summarizer.bank.layout.BankState`.

Allocation around the bank: entries already stored for the phase keep the cost they were given
(their text is what the bank shows); new and replaced entries get their minimum cost, then the
phase's remaining budget upgrades HIGH entries to 2 lines in score order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from summarizer.bank.artifacts import decide
from summarizer.bank.engine import allocate, render_bank_lines
from summarizer.bank.entry import BankEntry, content_hash
from summarizer.bank.ledger import LedgerRow, open_phase
from summarizer.bank.progress_log import LogSection, section_heading
from summarizer.bank.report import GateReport, PhaseBudget
from summarizer.bank.request import GateRequest, Prepared
from summarizer.bank.xref_rules import add_entry_xrefs
from summarizer.errors import EscalationRequired, InputError
from summarizer.phasegate.budget import TOTAL_BUDGET, escalation_message
from summarizer.phasegate.facts import shorten
from summarizer.phasegate.scoring import score_entry
from summarizer.phasegate.service import scrub_entry
from summarizer.phasegate.templates import first_sentence
from summarizer.scrub import scrub

if TYPE_CHECKING:
    from summarizer.bank.layout import BankState

__all__ = ["PlanContext", "Prepared", "apply_artifacts", "apply_entries", "prepare_entries"]

_PHASE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._]*$")
_RANK = {"CRITICAL": 3, "HIGH": 2, "MEDIUM": 1, "LOW": 0}


def prepare_entries(request: GateRequest) -> tuple[list[Prepared], list[str]]:
    """Preflight, score, key and scrub every entry; returns the compressible ones and the flags.

    The hash is taken over the raw summary (SPEC.md: before masking); scoring and rendering see
    the scrubbed entry, as ``summarizer score`` and ``compress`` do.
    """
    out: list[Prepared] = []
    flags: list[str] = []
    seen: dict[tuple[str, str, str], int] = {}
    for number, entry in enumerate(request.entries, start=1):
        phase = entry.phase or request.phase
        if not _PHASE_RE.match(phase):
            raise InputError(f"entry {number}: phase {phase!r} must be letters, digits, '.' or '_' (like 2a)")
        date = entry.date or request.date
        clean, redactions = scrub_entry(entry)
        score = score_entry(clean)
        if not score.compress or score.warning:
            flags.append(f"entry {number} ({entry.agent}, phase {phase}): " + "; ".join(score.flags))
        if not score.compress:
            continue
        key = (date, phase, entry.agent)
        if key in seen:
            raise InputError(
                f"entry {number} repeats the key (date, phase, agent) {key!r} of entry "
                f"{seen[key]}; merge them into one summary"
            )
        seen[key] = number
        out.append(Prepared(
            index=number, phase=phase, date=date, score=score, clean=clean,
            digest=content_hash(date, phase, entry.agent, entry.summary),
            title=clean.title or shorten(first_sentence(clean.summary), 60),
            redactions=len(redactions),
        ))  # fmt: skip
    return out, flags


@dataclass(slots=True)
class PlanContext:
    """Mutable bookkeeping of one gate's plan (counts, flags, groups touched, artifacts to delete)."""

    state: BankState
    request: GateRequest
    flags: list[str] = field(default_factory=list)
    groups: list[tuple[str, str]] = field(default_factory=list)
    outcome: dict[tuple[str, str, str], str] = field(default_factory=dict)
    written: list[BankEntry] = field(default_factory=list)
    delete: list[str] = field(default_factory=list)
    redactions: int = 0
    skipped: int = 0

    def report(self, **extra: object) -> GateReport:
        """The gate's report from what was recorded."""
        rows = {(r.feature, r.phase): r for r in self.state.active.ledger}
        budgets = tuple(
            PhaseBudget(
                feature=f,
                phase=p,
                per_phase=rows[(f, p)].per_phase,
                carry_in=rows[(f, p)].carry_in,
                allocated=rows[(f, p)].allocated,
                used=rows[(f, p)].used,
                carryover=rows[(f, p)].carryover,
            )
            for f, p in self.groups
        )
        values = list(self.outcome.values())
        return GateReport.model_validate(
            {
                "phase": self.request.phase,
                "feature": self.request.feature,
                "compressed": len(self.written),
                "critical": sum(e.band == "CRITICAL" for e in self.written),
                "high": sum(e.band == "HIGH" for e in self.written),
                "new": values.count("new"),
                "replaced": values.count("replaced"),
                "unchanged": values.count("unchanged"),
                "skipped": self.skipped,
                "cross_refs_added": self.state.xref.added,
                "flags": tuple(self.flags),
                "budgets": budgets,
                "redactions": self.redactions,
                **extra,
            }
        )


def _entry(
    p: Prepared, feature: str, cost: float, expanded: bool, semantic: tuple[str, ...] | None
) -> BankEntry:
    band, clean = p.score.priority, p.clean
    return BankEntry(
        date=p.date, phase=p.phase, agent=p.agent, digest=p.digest, band=band, score=p.score.score,
        cost=cost, lines=render_bank_lines(clean, band, expanded, semantic), feature=feature,
        status=clean.status, to_agents=p.score.to_agents, files=clean.files_changed, tests=clean.tests,
        coverage=clean.coverage, verdict=clean.verdict, critical_issues=clean.critical_issues, title=p.title,
    )  # fmt: skip


def _log_body(entry: BankEntry) -> list[str]:
    warn = " ⚠️" if entry.status == "partial" else ""
    body = [f"- {entry.band} {entry.score:.2f} · {entry.feature} · {entry.status}{warn}"]
    if entry.files:
        body.append("- Files: " + ", ".join(entry.files))
    for label, value in (("Tests", entry.tests), ("Coverage", entry.coverage), ("Verdict", entry.verdict)):
        if value:
            body.append(f"- {label}: {value}")
    body.extend(f"- {line}" for line in entry.lines)
    return body


def _escalate_or_flag(ctx: PlanContext, phase: str, group_entries: list[BankEntry], allocated: int) -> None:
    critical = [e for e in group_entries if e.band == "CRITICAL"]
    if len(critical) > 5:
        ctx.flags.append(f"Phase {phase} has {len(critical)} > 5 CRITICAL entries. Budget risk.")
    used = sum(e.cost for e in group_entries)
    if used > allocated:
        ctx.flags.append(
            f"Phase {phase} uses {used:g} budget-lines of its {allocated}: CRITICAL entries are never reduced"
        )


def apply_entries(ctx: PlanContext, batch: tuple[list[Prepared], list[str]]) -> None:
    """Budget, render and store every compressible entry; progress log and cross-refs follow."""
    prepared, flags = batch
    ctx.flags.extend(flags)
    ctx.skipped = len(ctx.request.entries) - len(prepared)
    active, feature = ctx.state.active, ctx.request.feature
    existing = {e.key: e for e in active.entries()}
    for p in prepared:
        found = existing.get(p.key)
        if found is not None and found.feature != feature:
            raise InputError(
                f"entry {p.index}: key {p.key!r} is stored under feature {found.feature!r}; "
                f"pass --feature {found.feature}"
            )
        ctx.redactions += p.redactions
    for phase in dict.fromkeys(p.phase for p in prepared):
        members = [p for p in prepared if p.phase == phase]
        row = open_phase(active.ledger, feature, phase, ctx.request.estimated_phases)
        group = active.group(feature, phase)
        changing = [p for p in members if p.key not in existing or existing[p.key].digest != p.digest]
        changing_keys = {p.key for p in changing}
        committed = sum(e.cost for e in group.entries() if e.key not in changing_keys)
        alloc = allocate(
            [p.score.priority for p in changing], [p.score.score for p in changing], row.allocated - committed
        )
        fresh: dict[tuple[str, str, str], BankEntry] = {}
        for p, cost, expanded in zip(changing, alloc.costs, alloc.expanded, strict=True):
            fresh[p.key] = _entry(p, feature, cost, expanded, ctx.request.semantic.get(p.index))
        # Replaced entries keep their place; new ones follow, highest score first.
        group.items = [
            fresh.pop(i.key) if isinstance(i, BankEntry) and i.key in fresh else i for i in group.items
        ]
        appended: list[BankEntry] = sorted(fresh.values(), key=lambda e: -e.score)
        group.items.extend(appended)
        stored = {e.key: e for e in group.entries()}
        _escalate_or_flag(ctx, phase, list(stored.values()), row.allocated)
        used = sum(e.cost for e in stored.values())
        _store_row(
            active.ledger,
            LedgerRow(row.feature, row.phase, row.estimated_phases, row.per_phase, row.carry_in, used),
        )
        ctx.groups.append((feature, phase))
        for p in members:
            entry = stored[p.key]
            state = (
                "unchanged" if p.key not in changing_keys else ("replaced" if p.key in existing else "new")
            )
            ctx.outcome[p.key] = state
            if state != "unchanged":
                ctx.written.append(entry)
            ctx.state.log.upsert(section_heading(p.date, p.phase, p.agent), p.digest, _log_body(entry))
            add_entry_xrefs(ctx.state.xref, p, entry)
        top = max(members, key=lambda p: (_RANK[p.score.priority], p.score.score))
        ctx.state.xref.touch_feature(
            feature, phase, [p.agent for p in members], top.score.priority, top.title
        )
    # Seed §18 "Exceed budget": CRITICAL lines alone over the section's 100-line total. Only a gate
    # that adds CRITICAL lines escalates, so re-running an accepted gate stays a no-op.
    critical_lines = sum(e.cost for e in active.entries() if e.band == "CRITICAL")
    if critical_lines > TOTAL_BUDGET and any(e.band == "CRITICAL" for e in ctx.written):
        phases = ", ".join(dict.fromkeys(p.phase for p in prepared))
        raise EscalationRequired(f"Phase {phases}: {escalation_message(critical_lines)}")


def _store_row(rows: list[LedgerRow], row: LedgerRow) -> None:
    for index, current in enumerate(rows):
        if (current.feature, current.phase) == (row.feature, row.phase):
            rows[index] = row
            return
    rows.append(row)


def _targets(
    ctx: PlanContext, prepared: list[Prepared], phase: str, agent: str | None, default: str
) -> list[LogSection]:
    log, date = ctx.state.log, ctx.request.date
    headings = [
        section_heading(p.date, p.phase, p.agent)
        for p in prepared
        if p.phase == phase and (agent is None or p.agent == agent)
    ]
    if not headings:
        headings = [section_heading(date, phase, agent or default)]
    sections = []
    for heading in headings:
        section = log.find(heading)
        if section is None:
            section = LogSection(heading)
            log.sections.append(section)
        sections.append(section)
    return sections


def apply_artifacts(ctx: PlanContext, batch: tuple[list[Prepared], list[str]]) -> None:
    """Process the ``.tmp/`` artifacts of the gate's phase(s) (see :mod:`summarizer.bank.artifacts`)."""
    prepared = batch[0]
    phases = list(dict.fromkeys([ctx.request.phase, *(p.phase for p in prepared)]))
    for artifact, text in ctx.state.artifacts:
        phase = artifact.phase if artifact.phase in phases else ctx.request.phase
        action = decide(artifact, text, phase=phase, final=ctx.request.final, feature=ctx.request.feature)
        if action is None:
            continue
        if action.flag:
            ctx.flags.append(action.flag)
        if action.log_line:
            default = {"REVIEW": "themis", "DISC": "user"}.get(artifact.kind, "unknown")
            line, found = scrub(action.log_line)
            ctx.redactions += len(found)
            for section in _targets(ctx, prepared, phase, artifact.agent, default):
                section.add_extra(line)
        if action.decision:
            kind, summary, links_to = (scrub(part)[0] for part in action.decision)
            ctx.state.xref.add_link(kind, summary, links_to, phase)
        if action.plan:
            _plan_row(ctx, artifact.name)
        if action.delete:
            ctx.delete.append(artifact.name)


def _plan_row(ctx: PlanContext, name: str) -> None:
    from summarizer.bank.active_context import PlanRow

    plans = ctx.state.active.plans
    key = (ctx.request.date, ctx.request.feature)
    if not any((p.date, p.feature) == key for p in plans):  # seed §17: Plans row keyed (date, feature)
        plans.append(PlanRow(ctx.request.date, ctx.request.feature, name, "complete"))
