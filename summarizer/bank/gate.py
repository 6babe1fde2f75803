"""The phase gate (docs/memory-bank.md): a batch of subtask_summaries in, the memory bank updated.

Flow, one batch under one lock:

1. clean stale ``*.tmp`` partial writes (older than 5 minutes) and load the bank (every parse
   error names its file and line);
2. :func:`plan_gate` (pure): preflight and score each entry, key it (date, phase, agent, subtask)
   with its content hash, drop the rows a re-run no longer lists, record unfinished work and
   review verdicts, allocate the phase budget under the feature's phase plan around what the bank
   already holds (carry-in from the ledger), render, update the progress log, process the phase's
   ``.tmp/`` artifacts, add cross-references, C7-trim, render the ZZ artifact. An escalation
   raises here: nothing written;
3. write every changed file atomically, in an order that keeps a crash harmless: the ID counter
   before the index (a crash leaves a gap, never a reused ID), the archive before the trimmed
   active context, the sidecar state file before the markdown it describes, the ZZ artifact
   last, then delete the processed artifacts.

Files whose new text equals the old are not written, so a re-run leaves every byte (and mtime)
as it was. Every text that reaches a file is scrubbed first (Layer 2) and is built only from the
structured fields Layer 1 allows plus the rendered summary lines.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from summarizer.bank import atomic
from summarizer.bank.active_context import ActiveContext, render_active_context
from summarizer.bank.archive import append_entries, archive_file
from summarizer.bank.engine import mask_fields, template_lines
from summarizer.bank.entry import BankEntry
from summarizer.bank.handoff import resolved_by_links, unfinished_rows
from summarizer.bank.layout import BankState, load_state
from summarizer.bank.phase_plan import PlanContext, apply_artifacts, apply_entries
from summarizer.bank.prepare import full_summary_name, prepare_entries
from summarizer.bank.progress_log import ProgressLog, render_progress_log
from summarizer.bank.report import GateReport
from summarizer.bank.request import GateRequest, Summarize
from summarizer.bank.state_file import LogRecord, StateFile, render_state_file
from summarizer.bank.trim import trim
from summarizer.bank.xref import XrefIndex, render_next_ids, render_xref
from summarizer.bank.zz import render_zz
from summarizer.core.errors import InputError

__all__ = [
    "GatePlan",
    "GateRequest",
    "Summarize",
    "log_records",
    "next_state_file",
    "plan_gate",
    "run_gate",
    "write_plan",
]


@dataclass(slots=True)
class GatePlan:
    """The files to write (in order), the artifacts to delete, and the report."""

    writes: list[tuple[Path, str]] = field(default_factory=list)
    deletes: list[Path] = field(default_factory=list)
    report: GateReport | None = None


def log_records(log: ProgressLog) -> list[LogRecord]:
    return [LogRecord(s.heading, s.digest, s.shown()) for s in log.sections if s.digest]


def next_state_file(
    old: StateFile, loaded: list[BankEntry], loaded_log: list[LogRecord], state: BankState
) -> StateFile:
    """The sidecar after this gate: current records, plus the versions this gate replaced or removed.

    ``previous`` is what lets a gate killed between the sidecar and the markdown be re-run to the
    same bytes (see :mod:`summarizer.bank.state_file`); a gate that changes no record keeps it.
    """
    entries = state.active.entries()
    log = log_records(state.log)
    now = {(e.feature, *e.key): e for e in entries}
    previous = old.previous
    if entries != loaded:
        previous = [e.record() for e in loaded if now.get((e.feature, *e.key)) != e]
    now_log = {r.heading: r for r in log}
    log_previous = (
        [r for r in loaded_log if now_log.get(r.heading) != r] if log != loaded_log else old.log_previous
    )
    return StateFile(
        entries=[e.record() for e in entries], previous=previous, log=log, log_previous=log_previous
    )


def plan_gate(state: BankState, request: GateRequest) -> GatePlan:
    """Compute the whole gate on values; raises before anything is written."""
    paths = state.paths
    loaded, loaded_log = state.active.entries(), log_records(state.log)
    batch = prepare_entries(request)
    plan_ctx = PlanContext(state=state, request=request)
    apply_entries(plan_ctx, batch)
    apply_artifacts(plan_ctx, batch)
    links = [(link.type, link.links_to) for link in state.xref.links]
    state.active.unfinished = resolved_by_links(state.active.unfinished, links, state.active.entries())
    archive_path = archive_file(paths.root, request.date, "compressed-entries")
    trimmed = trim(state.active, paths.rel(archive_path))
    if trimmed.flag:
        plan_ctx.flags.append(trimmed.flag)
    archived = [(e, "dropped: its batch no longer lists it") for e in plan_ctx.dropped] + list(
        trimmed.archived
    )

    plan = GatePlan()

    # An absent file whose new text is just the empty skeleton is not created.
    skeletons = {
        render_xref(XrefIndex()),
        render_progress_log(ProgressLog()),
        render_active_context(ActiveContext()),
        render_state_file(StateFile()),
    }

    def stage(path: Path, text: str | None) -> None:
        current = state.current(path)
        if text is None or text == current or (current is None and text in skeletons):
            return
        plan.writes.append((path, text))

    for p in batch[0]:
        if p.full is not None:  # a cut summary stays restorable: its full scrubbed text, archived
            title = f"# Full summary — {p.date} — phase {p.phase}: {p.agent} (content hash {p.digest})"
            stage(paths.root / full_summary_name(p.digest), f"{title}\n\n{p.full.rstrip()}\n")
    stage(paths.next_ids, render_next_ids(state.xref.next_ids) if state.xref.added else None)
    stage(paths.xref, render_xref(state.xref))
    if archived:
        stage(archive_path, append_entries(state.current(archive_path), request.date, archived))
    # The sidecar goes before the markdown it describes: see state_file's crash-safety note.
    stage(paths.state, render_state_file(next_state_file(state.sidecar, loaded, loaded_log, state)))
    stage(paths.progress, render_progress_log(state.log))
    stage(paths.active, render_active_context(state.active))
    zz_names = []
    # Every phase the batch touched; a batch of unfinished work only still gets its hand-off.
    groups = list(dict.fromkeys([*plan_ctx.groups, *((request.feature, u.phase) for u in batch[2])]))
    for feature, phase in groups:
        group = state.active.group(feature, phase) if (feature, phase) in plan_ctx.groups else None
        row = next((r for r in state.active.ledger if (r.feature, r.phase) == (feature, phase)), None)
        refs = [x for x in state.xref.entities if x.phase == f"P{phase}"]
        unfinished = [
            u
            for u in unfinished_rows(state.active.unfinished, state.active.entries())
            if u.feature == feature
        ]
        reviews = [r for r in state.active.reviews if (r.feature, r.phase) == (feature, phase)]
        text = render_zz(
            phase,
            group.entries() if group else [],
            row,
            refs,
            mask_fields,
            unfinished=unfinished,
            reviews=reviews,
        )
        stage(paths.zz(phase), text)
        zz_names.append(paths.rel(paths.zz(phase)))
    plan.deletes = [paths.tmp / name for name in plan_ctx.delete]
    plan.report = plan_ctx.report(
        trim=trimmed.log,
        zz_files=tuple(zz_names),
        written=tuple(paths.rel(p) for p, _ in plan.writes),
        deleted=tuple(paths.rel(p) for p in plan.deletes),
    )
    return plan


def write_plan(plan: GatePlan) -> None:
    """Apply a plan: atomic writes in order, then deletions (a missing file is a silent skip)."""
    atomic.check_writable([path for path, _ in plan.writes])
    for path, text in plan.writes:
        atomic.atomic_write(path, text)
    for path in plan.deletes:
        atomic.remove_file(path)


def run_gate(
    root: Path,
    request: GateRequest,
    *,
    lock_timeout_s: float = 120.0,
    clock: Callable[[], float] | None = None,
    summarize: Summarize | None = None,
) -> GateReport:
    """Run one gate against the bank at ``root`` (lock, clean, load, plan, write).

    ``summarize`` (optional) writes the CRITICAL/HIGH lines, e.g. with an LLM; it runs *before*
    the lock is taken, so slow model calls never block other gates. The template lines are its
    fallback; an answer with the wrong number of lines is ignored. Entries that end up stored in
    1-line form, or that are unchanged in the bank, do not use its answer.
    """
    if root.exists() and not root.is_dir():
        raise InputError(f"bank path {str(root)!r} is a file, not a directory; pass --bank DIR")
    if summarize is not None:
        request = _with_semantic(request, summarize)
    with atomic.bank_lock(root, timeout_s=lock_timeout_s):
        cleaned = atomic.clean_stale_temp(root, now=clock() if clock else None)
        state = load_state(root)
        plan = plan_gate(state, request)
        write_plan(plan)
    assert plan.report is not None
    pending = _learnings_pending(request)
    return plan.report.model_copy(
        update={
            "cleaned": tuple(str(p.relative_to(root)) for p in cleaned),
            "learnings_pending": pending,
        }
    )


def _with_semantic(request: GateRequest, summarize: Summarize) -> GateRequest:
    prepared = prepare_entries(request)[0]
    wanted = [p for p in prepared if p.score.priority in ("CRITICAL", "HIGH")]
    if not wanted:
        return request
    jobs = [(p.clean, p.score.priority, template_lines(p.clean, p.score.priority)) for p in wanted]
    answers = summarize(jobs)
    semantic = {
        p.index: tuple(lines)
        for p, (_, _, fallback), lines in zip(wanted, jobs, answers, strict=True)
        if len(lines) == len(fallback)
    }
    return replace(request, semantic=semantic)


def _learnings_pending(request: GateRequest) -> bool:
    if request.learnings is None:
        return False
    path = request.learnings / request.feature / "learnings.md"
    try:
        return path.is_file() and os.path.getsize(path) > 0
    except OSError:
        return False
