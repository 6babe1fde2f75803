"""The ZZ hand-off artifact: ``.tmp/ZZ-phase{phase}-context.md``, in the format docs/memory-bank.md shows.

It is rendered from the bank's state for the phase (its entries in ``## Completed Phases``, its
ledger row and the cross-references it produced), never from the batch alone, so a second gate of
the same phase (another agent, a re-run) yields one artifact covering the whole phase, and the
same state always gives the same bytes. Fields are filtered by the downstream mask of each entry's
(from, to) pair: only the kept fields appear (``* -> themis`` keeps everything, ``* -> mnemosyne``
keeps the summary cut to 60 characters, date, agent and status).

Two sections come first, right under the From/To lines, and are never masked or compressed: the
feature's ``Unfinished`` work (every entry that is not complete, with agent and reason) and the
phase's ``Review Verdicts`` (APPROVED / REQUEST CHANGES with the reviewer). An entry that carries a
verdict also shows it in its own status; a review's one-line row shows its subject and the
``critical issues`` / ``coverage`` its mask keeps (``themis -> *`` keeps both).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from summarizer.bank.entry import BankEntry, format_cost, normalise_verdict
from summarizer.bank.handoff import ReviewRow, UnfinishedRow, review_details
from summarizer.bank.ledger import LedgerRow
from summarizer.bank.markdown import render_table
from summarizer.bank.xref import EntityRow
from summarizer.phasegate.templates import agent_label

__all__ = ["MaskFn", "next_phase_label", "render_zz", "zz_name"]

MaskFn = Callable[[str, tuple[str, ...]], frozenset[str]]
_LABELS = ("What changed", "To next agent", "Gotcha")
_LABEL_RE = re.compile(r"^\**(What changed|To next agent|Gotcha|Why)\**:\**\s*", re.IGNORECASE)


def zz_name(phase: str) -> str:
    """File name of the phase's artifact."""
    return f"ZZ-phase{phase}-context.md"


def next_phase_label(phase: str) -> str:
    """``3`` after ``2`` (and after the parallel ``2a``/``2b``); ``next`` when not numeric."""
    match = re.match(r"^(\d+)[a-z]?$", phase)
    return str(int(match.group(1)) + 1) if match else "next"


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    head = text[:limit].rsplit(" ", 1)[0].rstrip(" ,;:—-")
    return (head or text[:limit]) + "…"


def _labelled(lines: tuple[str, ...]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for position, line in enumerate(lines):
        match = _LABEL_RE.match(line)
        label = match.group(1) if match else _LABELS[min(position, 2)]
        out.append((label[0].upper() + label[1:], line[match.end() :] if match else line))
    return out


def _details(entry: BankEntry, kept: frozenset[str]) -> list[str]:
    details: list[str] = []
    if "files" in kept and entry.files:
        details.append("**Files:** " + ", ".join(entry.files))
    for name, label, value in (
        ("tests", "Tests", entry.tests),
        ("status", "Status", entry.status),
        ("coverage", "Coverage", entry.coverage),
        ("verdict", "Verdict", normalise_verdict(entry.verdict) if entry.verdict else None),
    ):
        if name in kept and value:
            details.append(f"**{label}:** {value}")
    if "critical_issues" in kept and entry.critical_issues is not None:
        details.append(f"**Critical issues:** {entry.critical_issues}")
    return details


def _expanded(entry: BankEntry, kept: frozenset[str]) -> list[str]:
    head = [
        f"**Entry:** {entry.title or entry.lines[0]}",
        f"**Agent:** {agent_label(entry.agent)} | **Score:** {entry.score:.2f}",
    ]
    if "date" in kept:
        head[1] += f" | **Date:** {entry.date}"
    if "summary_semantic" in kept or "summary" in kept:
        head.extend(f"**{label}:** {text}" for label, text in _labelled(entry.lines))
    elif "summary_60" in kept:
        head.append(f"**Summary:** {_cut(_labelled(entry.lines)[0][1], 60)}")
    return [*head, *_details(entry, kept), ""]


def _standard_row(entry: BankEntry, kept: frozenset[str]) -> list[str]:
    summary = entry.lines[0] if entry.lines else ""
    if "summary_semantic" not in kept and "summary" not in kept:
        summary = _cut(summary, 60) if "summary_60" in kept else ""
    if entry.verdict:  # a review: its subject stands in for a masked summary, its findings follow
        summary = summary or entry.title
        summary += review_details(
            entry.critical_issues if "critical_issues" in kept else None,
            entry.coverage if "coverage" in kept else None,
        )
    flag = " ⚠️" if entry.status == "partial" else ""
    status = (entry.status + flag) if "status" in kept else ""
    if entry.verdict:  # a review's verdict is never masked away
        status = " · ".join(filter(None, [status, normalise_verdict(entry.verdict)]))
    return [
        entry.date if "date" in kept else "",
        agent_label(entry.agent) + (entry.who[len(entry.agent) :]),
        f"{entry.band}: {summary}" if summary else entry.band,
        status,
    ]


def _handoff(unfinished: Iterable[UnfinishedRow], reviews: Iterable[ReviewRow]) -> list[str]:
    open_rows = [[u.phase, u.agent, u.status, u.reason] for u in unfinished]
    verdicts = [[r.reviewer, r.verdict, r.subject] for r in reviews]
    out = ["## Unfinished (read first)", ""]
    out.extend(render_table(("Phase", "Agent", "Status", "Reason"), open_rows) if open_rows else ["None."])
    out.extend(["", "## Review Verdicts", ""])
    out.extend(render_table(("Reviewer", "Verdict", "Subject"), verdicts) if verdicts else ["None."])
    return [*out, ""]


def render_zz(
    phase: str,
    entries: Iterable[BankEntry],
    ledger: LedgerRow | None,
    xrefs: Iterable[EntityRow],
    mask: MaskFn,
    *,
    unfinished: Iterable[UnfinishedRow] = (),
    reviews: Iterable[ReviewRow] = (),
) -> str:
    """The artifact's text for ``phase``; entries in score order (highest first), then by key."""
    ordered = sorted(entries, key=lambda e: (-e.score, e.key))
    sources = sorted({e.agent for e in ordered})
    targets = sorted({t for e in ordered for t in e.to_agents})
    nxt = next_phase_label(phase)
    out = [
        f"# Phase {phase} → Phase {nxt} Context",
        f"**From:** {', '.join('@' + a for a in sources) or '(none)'} (Phase {phase})",
        f"**To:** {', '.join('@' + a for a in targets) or '(next agent)'} (Phase {nxt})",
        "",
        *_handoff(unfinished, reviews),
        "## Budget",
        f"- Allocated: {ledger.allocated if ledger else 0} lines",
        f"- Used: {format_cost(ledger.used) if ledger else 0} lines",
        f"- Carried: {ledger.carryover if ledger else 0} lines",
        "",
        "## Priority Entries",
        "",
    ]
    critical = [e for e in ordered if e.band == "CRITICAL"]
    high = [e for e in ordered if e.band == "HIGH" and len(e.lines) >= 2]
    standard = [e for e in ordered if e not in critical and e not in high]
    out.extend(["### CRITICAL (expanded)", ""])
    for entry in critical:
        out.extend(_expanded(entry, mask(entry.agent, entry.to_agents)))
    if not critical:
        out.extend(["(none)", ""])
    out.extend(["### HIGH (2-line)", ""])
    for entry in high:
        out.extend(_expanded(entry, mask(entry.agent, entry.to_agents)))
    if not high:
        out.extend(["(none)", ""])
    out.extend(["### STANDARD (1-line)", ""])
    rows = [_standard_row(e, mask(e.agent, e.to_agents)) for e in standard]
    out.extend([*(render_table(("Date", "Agent", "Summary", "Status"), rows) if rows else ["(none)"]), ""])
    out.extend(["## Cross-References", ""])
    refs = [[x.ref, x.type, x.name, x.location] for x in xrefs]
    out.extend(render_table(("ID", "Type", "Name", "File"), refs) if refs else ["(none)"])
    return "\n".join(out) + "\n"
