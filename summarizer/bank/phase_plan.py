"""The pure middle of a gate: entries and artifacts applied to the parsed bank.

:func:`apply_entries` keys each prepared entry against the bank (:mod:`summarizer.bank.subtasks`),
drops the rows a re-run no longer lists, records unfinished work and review verdicts
(:mod:`summarizer.bank.handoff`), resolves the phase plan, allocates each phase's budget and
updates ``## Completed Phases``, the ledger, the progress log and the cross-references;
:func:`apply_artifacts` handles the phase's ``.tmp/`` artifacts. All of it mutates only the
in-memory :class:`~summarizer.bank.layout.BankState`.

Allocation around the bank: entries already stored for the phase keep the cost they were given
(their text is what the bank shows); new and replaced entries get their minimum cost, then the
phase's remaining budget upgrades HIGH entries to 2 lines in score order.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from summarizer.bank.active_context import PlanRow
from summarizer.bank.artifacts import decide
from summarizer.bank.engine import allocate, render_bank_lines
from summarizer.bank.entry import BankEntry, EntryKey, normalise_verdict
from summarizer.bank.handoff import record_artifact_review, record_batch
from summarizer.bank.layout import BankState
from summarizer.bank.ledger import LedgerRow, open_phase, per_phase_budget, resolve_plan
from summarizer.bank.prepare import Prepared, Unfinished
from summarizer.bank.progress_log import LogSection, section_heading
from summarizer.bank.report import GateReport, PhaseBudget, PlanNote
from summarizer.bank.request import GateRequest
from summarizer.bank.subtasks import assign
from summarizer.bank.xref_rules import add_entry_xrefs
from summarizer.core.errors import EscalationRequired, InputError
from summarizer.core.scrub import scrub
from summarizer.phasegate.budget import TOTAL_BUDGET, escalation_message
from summarizer.phasegate.templates import data_only

__all__ = ["Batch", "PlanContext", "apply_artifacts", "apply_entries"]

_RANK = {"CRITICAL": 3, "HIGH": 2, "MEDIUM": 1, "LOW": 0}

Batch = tuple[list[Prepared], list[str], list[Unfinished], list[Prepared]]
"""What :func:`summarizer.bank.prepare.prepare_entries` returns."""


@dataclass(slots=True)
class PlanContext:
    """Mutable bookkeeping of one gate's plan (counts, flags, groups touched, artifacts to delete)."""

    state: BankState
    request: GateRequest
    flags: list[str] = field(default_factory=list)
    groups: list[tuple[str, str]] = field(default_factory=list)
    outcome: dict[EntryKey, str] = field(default_factory=dict)
    written: list[BankEntry] = field(default_factory=list)
    dropped: list[BankEntry] = field(default_factory=list)
    keyed: list[Prepared] = field(default_factory=list)  # the batch's entries with their subtasks
    plans: list[PlanNote] = field(default_factory=list)
    delete: list[str] = field(default_factory=list)
    redactions: int = 0
    skipped: int = 0
    unfinished: int = 0

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
                "removed": tuple(f"{e.date} — {e.phase}: {e.who}" for e in self.dropped),
                "unfinished": self.unfinished,
                "plans": tuple(self.plans),
                "flags": tuple(self.flags),
                "budgets": budgets,
                "redactions": self.redactions,
                **extra,
            }
        )


def _entry(
    p: Prepared, feature: str, cost: float, expanded: bool, semantic: tuple[str, ...] | None
) -> BankEntry:
    # Untrusted text is data: a sentence or a file item that gives orders never reaches the bank's
    # files, the progress log or the ZZ hand-off. The model still sees the whole (fenced) entry,
    # so its validator can recognise an answer that obeys one.
    band, clean = p.score.priority, data_only(p.clean)
    return BankEntry(
        date=p.date,
        phase=p.phase,
        agent=p.agent,
        digest=p.digest,
        band=band,
        score=p.score.score,
        cost=cost,
        lines=render_bank_lines(clean, band, expanded, semantic),
        feature=feature,
        status=clean.status,
        to_agents=p.score.to_agents,
        files=clean.files_changed,
        tests=clean.tests,
        coverage=clean.coverage,
        verdict=clean.verdict,
        critical_issues=clean.critical_issues,
        title=p.title,
        subtask=p.subtask,
        note=clean.status_note if clean.status == "partial" else None,
    )


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


def _keys(ctx: PlanContext, batch: Batch) -> list[Prepared]:
    """Assign each entry its subtask against the bank; drop the rows the batch no longer lists."""
    prepared, _, unfinished, reviews = batch
    active, feature = ctx.state.active, ctx.request.feature
    mentioned = [p.group for p in prepared] + [(u.date, u.phase, u.agent.split(" [")[0]) for u in unfinished]
    mentioned += [r.group for r in reviews]
    subtasks, dropped = assign(prepared, mentioned, [e for e in active.entries() if e.feature == feature])
    keyed = [replace(p, subtask=subtasks[p.index]) for p in prepared]
    seen: dict[EntryKey, int] = {}
    for p in keyed:
        if p.key in seen:
            raise InputError(
                f"entry {p.index} repeats the id {p.subtask!r} of entry {seen[p.key]} for {p.agent} in "
                f"phase {p.phase}; give each subtask its own id"
            )
        seen[p.key] = p.index
    gone = {e.key for e in dropped}
    for group in active.groups:
        group.items = [i for i in group.items if not (isinstance(i, BankEntry) and i.key in gone)]
    for entry in dropped:
        ctx.state.log.remove(section_heading(entry.date, entry.phase, entry.agent, entry.subtask))
    ctx.dropped, ctx.keyed = dropped, keyed
    return keyed


def _handoff(ctx: PlanContext, batch: Batch) -> None:
    """Replace the unfinished rows and review verdicts of every (date, phase, agent) the batch lists."""
    prepared, _, unfinished, reviews = batch
    active = ctx.state.active
    active.unfinished, active.reviews = record_batch(
        active.unfinished, active.reviews, ctx.request.feature, prepared, unfinished, reviews
    )
    ctx.unfinished = len(unfinished)


def _plan(ctx: PlanContext, phase: str) -> LedgerRow:
    """The phase's ledger row under the feature's phase plan (recorded, reused or changed)."""
    active, feature = ctx.state.active, ctx.request.feature
    estimated, previous, known = resolve_plan(active.ledger, feature, phase, ctx.request.estimated_phases)
    source = "changed" if previous is not None else ("bank" if known else "recorded")
    ctx.plans.append(
        PlanNote(
            feature=feature,
            phase=phase,
            estimated_phases=estimated,
            per_phase=per_phase_budget(estimated),
            source=source,
            previous_phases=previous,
            previous_per_phase=per_phase_budget(previous) if previous is not None else None,
        )
    )
    return open_phase(active.ledger, feature, phase, estimated)


def apply_entries(ctx: PlanContext, batch: Batch) -> None:
    """Budget, render and store every compressible entry; progress log and cross-refs follow."""
    ctx.flags.extend(batch[1])
    ctx.skipped = len(ctx.request.entries) - len(batch[0])
    active, feature = ctx.state.active, ctx.request.feature
    existing = {e.key: e for e in active.entries()}
    for p in batch[0]:
        ctx.redactions += p.redactions
    prepared = _keys(ctx, batch)
    for p in prepared:
        found = existing.get(p.key)
        if found is not None and found.feature != feature:
            raise InputError(
                f"entry {p.index}: key {p.key!r} is stored under feature {found.feature!r}; "
                f"pass --feature {found.feature}"
            )
    _handoff(ctx, batch)
    phases = list(dict.fromkeys([*(p.phase for p in prepared), *(e.phase for e in ctx.dropped)]))
    for phase in phases:
        members = [p for p in prepared if p.phase == phase]
        row = _plan(ctx, phase)
        group = active.group(feature, phase)
        changing = [p for p in members if p.key not in existing or existing[p.key].digest != p.digest]
        changing_keys = {p.key for p in changing}
        committed = sum(e.cost for e in group.entries() if e.key not in changing_keys)
        alloc = allocate(
            [p.score.priority for p in changing], [p.score.score for p in changing], row.allocated - committed
        )
        fresh: dict[EntryKey, BankEntry] = {}
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
            heading = section_heading(p.date, p.phase, p.agent, p.subtask)
            ctx.state.log.upsert(heading, p.digest, _log_body(entry))
            add_entry_xrefs(ctx.state.xref, p, entry)
        if members:
            top = max(members, key=lambda p: (_RANK[p.score.priority], p.score.score))
            ctx.state.xref.touch_feature(
                feature, phase, [p.agent for p in members], top.score.priority, top.title
            )
    # Exceed budget: CRITICAL lines alone over the section's 100-line total. Only a gate
    # that adds CRITICAL lines escalates, so re-running an accepted gate stays a no-op.
    critical_lines = sum(e.cost for e in active.entries() if e.band == "CRITICAL")
    if critical_lines > TOTAL_BUDGET and any(e.band == "CRITICAL" for e in ctx.written):
        raise EscalationRequired(f"Phase {', '.join(phases)}: {escalation_message(critical_lines)}")


def _store_row(rows: list[LedgerRow], row: LedgerRow) -> None:
    for index, current in enumerate(rows):
        if (current.feature, current.phase) == (row.feature, row.phase):
            rows[index] = row
            return
    rows.append(row)


def _targets(
    ctx: PlanContext, phase: str, agent: str | None, default: str, review: tuple[str, str, list[Prepared]]
) -> list[LogSection]:
    """The progress-log sections an artifact's line goes to: each agent's first subtask of the phase.

    ``review`` is (artifact name, its verdict, the batch's review entries). A review line never sits
    under an entry whose own verdict says otherwise: such a section is passed over, and when the
    reviewer's own section would be one, the line gets a section named after the artifact.
    """
    log, date = ctx.state.log, ctx.request.date
    name, verdict, reviews = review

    def contradicts(p: Prepared) -> bool:
        return bool(verdict and p.clean.verdict and normalise_verdict(p.clean.verdict) != verdict)

    firsts: dict[str, str] = {}
    for p in ctx.keyed:
        if p.phase == phase and (agent is None or p.agent == agent) and not contradicts(p):
            firsts.setdefault(p.agent, section_heading(p.date, p.phase, p.agent, p.subtask))
    who = agent or default
    own = any(p.phase == phase and p.agent == who and contradicts(p) for p in [*ctx.keyed, *reviews])
    headings = list(firsts.values()) or [section_heading(date, phase, who, name if own else "#1")]
    sections = []
    for heading in headings:
        section = log.find(heading)
        if section is None:
            section = LogSection(heading)
            log.sections.append(section)
        sections.append(section)
    return sections


def apply_artifacts(ctx: PlanContext, batch: Batch) -> None:
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
            verdict = normalise_verdict(action.verdict) if action.verdict else ""
            review = (artifact.name, verdict, batch[3])
            for section in _targets(ctx, phase, artifact.agent, default, review):
                section.add_extra(line)
        if action.verdict:
            record_artifact_review(
                ctx.state.active.reviews, ctx.request.feature, phase, ctx.request.date, action
            )
        if action.decision:
            kind, summary, links_to = (scrub(part)[0] for part in action.decision)
            ctx.state.xref.add_link(kind, summary, links_to, phase)
        if action.plan:
            _plan_row(ctx, artifact.name)
        if action.delete:
            ctx.delete.append(artifact.name)


def _plan_row(ctx: PlanContext, name: str) -> None:
    plans = ctx.state.active.plans
    key = (ctx.request.date, ctx.request.feature)
    if not any((p.date, p.feature) == key for p in plans):  # a Plans row is keyed (date, feature)
        plans.append(PlanRow(ctx.request.date, ctx.request.feature, name, "complete"))
