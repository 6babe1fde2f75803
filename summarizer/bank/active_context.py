"""``01-active-context.md``: parse it into values, change it, render it back.

Layout (sections may come in any order; unknown sections are kept verbatim where they are)::

    # Active Context
    ## Unfinished                what is not complete, with agent and reason (handoff.py)
    ## Review Verdicts           APPROVED / REQUEST CHANGES with the reviewer (handoff.py)
    ## Completed Phases          budgeted entries, grouped by ``### Phase <id> — <feature>``
    ## Plans                     | Date | Feature | Plan | Status |   (C4, one row per (date, feature))
    ## Budget Ledger             per-phase budget, carry-in and carryover (see ledger.py)

The file holds no markers: an entry is recognised by the key its header line shows (date, agent,
subtask; phase and feature from its group) together with its record in the sidecar state file
(:mod:`summarizer.bank.state_file`). Inside ``## Completed Phases`` anything else (hand-written
bullets, foreign ``###`` groups, an entry whose record is gone) is kept verbatim and in place.
Every non-blank foreign line counts one budget-line toward the 100-line cap, because it costs the
reader just as much, but is never trimmed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from summarizer.bank.entry import (
    BankEntry,
    Repair,
    block_digest,
    parse_header,
    parse_marked_block,
    visible_lines,
)
from summarizer.bank.handoff import (
    ReviewRow,
    UnfinishedRow,
    parse_reviews,
    parse_unfinished,
    render_reviews,
    render_unfinished,
    unfinished_rows,
)
from summarizer.bank.ledger import LedgerRow, parse_ledger, render_ledger
from summarizer.bank.markdown import (
    BankFormatError,
    Section,
    around_table,
    render_table,
    split_sections,
    table_rows,
)

__all__ = [
    "ActiveContext",
    "PhaseGroup",
    "PlanRow",
    "parse_active_context",
    "render_active_context",
]

TITLE = "# Active Context"
COMPLETED, PLANS, LEDGER = "Completed Phases", "Plans", "Budget Ledger"
UNFINISHED, REVIEWS = "Unfinished", "Review Verdicts"
_OWN = (UNFINISHED, REVIEWS, COMPLETED, PLANS, LEDGER)
Candidates = Mapping[tuple[str, str, str, str, str], list[tuple[BankEntry, str]]]
PLAN_COLUMNS = ("Date", "Feature", "Plan", "Status")
_GROUP_RE = re.compile(r"^### Phase (\S+) — (.+?)\s*$")
Item = BankEntry | str  # a str is a foreign line kept verbatim


@dataclass(frozen=True, slots=True)
class PlanRow:
    """A ``## Plans`` row (C4: the PLAN reference at feature completion)."""

    date: str
    feature: str
    plan: str
    status: str


@dataclass(slots=True)
class PhaseGroup:
    """One ``### `` group: ours (feature and phase set) or foreign (heading kept as is)."""

    heading: str
    feature: str | None
    phase: str | None
    items: list[Item] = field(default_factory=list)

    def entries(self) -> list[BankEntry]:
        """The entries we own, in file order."""
        return [item for item in self.items if isinstance(item, BankEntry)]


@dataclass(slots=True)
class ActiveContext:
    """The parsed file. ``order`` lists section titles (``None`` = preamble) as they appear."""

    preamble: list[str] = field(default_factory=lambda: [TITLE, ""])
    order: list[str] = field(default_factory=list)
    raw: dict[str, list[str]] = field(default_factory=dict)
    loose: list[str] = field(default_factory=list)  # Completed Phases lines before any ### group
    groups: list[PhaseGroup] = field(default_factory=list)
    plans: list[PlanRow] = field(default_factory=list)
    ledger: list[LedgerRow] = field(default_factory=list)
    unfinished: list[UnfinishedRow] = field(default_factory=list)  # stored rows (partial is derived)
    reviews: list[ReviewRow] = field(default_factory=list)
    # prose around the Plans / Ledger tables (hand-written notes), kept verbatim
    prose: dict[str, tuple[list[str], list[str]]] = field(default_factory=dict)
    lines: list[tuple[BankEntry, int]] = field(default_factory=list, repr=False, compare=False)

    def entries(self) -> list[BankEntry]:
        """All our entries, in file order."""
        return [entry for group in self.groups for entry in group.entries()]

    def group(self, feature: str, phase: str) -> PhaseGroup:
        """The group of (feature, phase), created at the end when missing."""
        for group in self.groups:
            if group.feature == feature and group.phase == phase:
                return group
        created = PhaseGroup(f"### Phase {phase} — {feature}", feature, phase)
        self.groups.append(created)
        return created

    def foreign_lines(self) -> int:
        """Non-blank lines in Completed Phases that we did not write (they count toward the cap)."""
        lines = [line for line in self.loose if line.strip()]
        for group in self.groups:
            if group.feature is None:
                lines.append(group.heading)
            lines.extend(item for item in group.items if isinstance(item, str) and item.strip())
        return len(lines)


def _entry_of(
    block: list[str], group: PhaseGroup, known: Candidates, *, path: Path | str, line: int
) -> BankEntry | None:
    """The entry a block shows: a marked block (previous version), or a header with a record."""
    if "<!-- bank:" in block[0]:
        return parse_marked_block(block, path=path, line=line)
    header = parse_header(block[0])
    if header is None or group.feature is None or group.phase is None:
        return None
    date, agent, subtask = header
    candidates = known.get((group.feature, date, group.phase, agent, subtask), [])
    if not candidates:
        return None  # no record: a person wrote it (or the sidecar is gone); kept verbatim
    visible = visible_lines(block) or ("",)
    shown = block_digest(block)
    # The current record, else the one the last gate replaced (a crash between the sidecar and this
    # file), else the current one: a block edited by hand keeps the person's text.
    record = next((entry for entry, digest in candidates if digest == shown), candidates[0][0])
    return replace(record, lines=visible)


def _parse_completed(section: Section, ctx: ActiveContext, path: Path | str, known: Candidates) -> None:
    lines = list(section.lines)
    current: PhaseGroup | None = None
    index = 0
    while index < len(lines):
        line = lines[index]
        number = section.start + 1 + index
        if line.startswith("### "):
            match = _GROUP_RE.match(line)
            current = (
                PhaseGroup(line, match.group(2), match.group(1)) if match else PhaseGroup(line, None, None)
            )
            ctx.groups.append(current)
            index += 1
            continue
        if line.startswith("- ") and current is not None:
            block = [line]
            while index + len(block) < len(lines) and lines[index + len(block)].startswith("  - "):
                block.append(lines[index + len(block)])
            entry = _entry_of(block, current, known, path=path, line=number)
            if entry is not None:
                if (entry.feature, entry.phase) != (current.feature, current.phase):
                    raise BankFormatError(
                        path,
                        number,
                        f"entry of phase {entry.phase!r} ({entry.feature}) sits under {current.heading!r}",
                    )
                current.items.append(entry)
                ctx.lines.append((entry, number))
                index += len(block)
                continue
        elif line.startswith("- ") and "<!-- bank:" in line:
            raise BankFormatError(path, number, "entry is outside a '### Phase <id> — <feature>' group")
        if current is None:
            ctx.loose.append(line)
        else:
            current.items.append(line)
        index += 1


def parse_active_context(
    text: str | None,
    *,
    path: Path | str,
    known: Candidates | None = None,
    repairs: list[Repair] | None = None,
) -> ActiveContext:
    """Parse the file (``None`` = absent: an empty context). Errors name the file and line.

    ``known`` holds the sidecar's records by (feature, date, phase, agent, subtask); without it
    only entries written with markers by the previous version are recognised. With ``repairs``
    (``gate --repair``), an entry whose key repeats an earlier one is removed and recorded there
    instead of stopping the load.
    """
    ctx = ActiveContext()
    if text is None:
        return ctx
    known = known or {}
    seen: set[str] = set()
    for section in split_sections(text):
        if section.title is None:
            ctx.preamble = list(section.lines)
            continue
        if section.title in seen and section.title in _OWN:
            raise BankFormatError(path, section.start, f"a second '## {section.title}' section")
        seen.add(section.title)
        ctx.order.append(section.title)
        _parse_section(section, ctx, path, known)
    _check_keys(ctx, path, repairs)
    return ctx


def _parse_section(section: Section, ctx: ActiveContext, path: Path | str, known: Candidates) -> None:
    assert section.title is not None
    if section.title == COMPLETED:
        _parse_completed(section, ctx, path, known)
    elif section.title == PLANS:
        ctx.plans = [PlanRow(*cells) for _, cells in table_rows(section, PLAN_COLUMNS, path=path)]
        ctx.prose[PLANS] = around_table(section)
    elif section.title == LEDGER:
        ctx.ledger = parse_ledger(section, path=path)
        ctx.prose[LEDGER] = around_table(section)
    elif section.title == UNFINISHED:
        ctx.unfinished = parse_unfinished(section, path=path)
    elif section.title == REVIEWS:
        ctx.reviews = parse_reviews(section, path=path)
    else:
        ctx.raw[section.title] = list(section.lines)


def _check_keys(ctx: ActiveContext, path: Path | str, repairs: list[Repair] | None) -> None:
    """An entry key stored twice stops the load (or, repairing, the later block is removed)."""
    first: dict[tuple[str, str, str, str], int] = {}
    for entry, number in ctx.lines:
        if entry.key not in first:
            first[entry.key] = number
            continue
        problem = f"entry key {entry.key!r} repeats line {first[entry.key]}"
        if repairs is None:
            raise BankFormatError(
                path, number, f"{problem}; `summarizer gate --repair` removes the later one"
            )
        for group in ctx.groups:
            group.items = [i for i in group.items if i is not entry]
        repairs.append(Repair(f"{path}:{number}: removed an entry whose {problem}", entry=entry))


def _trim_blank(lines: list[str]) -> list[str]:
    out = list(lines)
    while out and not out[-1].strip():
        out.pop()
    while out and not out[0].strip():
        out.pop(0)
    return out


def _render_completed(ctx: ActiveContext) -> list[str]:
    body = _trim_blank(ctx.loose)
    for group in ctx.groups:
        if body:
            body.append("")
        body.append(group.heading)
        items: list[str] = []
        for item in group.items:
            items.extend(item.render() if isinstance(item, BankEntry) else [item])
        body.extend(_trim_blank(items))
    return body


def _with_prose(ctx: ActiveContext, title: str, table: list[str]) -> list[str]:
    before, after = ctx.prose.get(title, ([], []))
    before, after = _trim_blank(before), _trim_blank(after)
    return [*before, *([""] if before else []), *table, *([""] if after else []), *after]


def render_active_context(ctx: ActiveContext) -> str:
    """Render the whole file; sections we own are regenerated, the rest is kept verbatim.

    A file that lacks ``## Unfinished`` / ``## Review Verdicts`` gets them ahead of
    ``## Completed Phases``: they are what the next agent must read first.
    """
    order = list(ctx.order)
    for title in (COMPLETED, PLANS, LEDGER):
        if title not in order:
            order.append(title)
    for title in (UNFINISHED, REVIEWS):
        if title not in order:
            order.insert(order.index(COMPLETED), title)
    preamble = _trim_blank(ctx.preamble) or [TITLE]
    out: list[str] = [*preamble, ""]
    for title in order:
        if title == COMPLETED:
            body = _render_completed(ctx)
        elif title == PLANS:
            body = _with_prose(
                ctx,
                PLANS,
                render_table(PLAN_COLUMNS, [[p.date, p.feature, p.plan, p.status] for p in ctx.plans]),
            )
        elif title == LEDGER:
            body = _with_prose(ctx, LEDGER, render_ledger(ctx.ledger))
        elif title == UNFINISHED:
            body = render_unfinished(unfinished_rows(ctx.unfinished, ctx.entries()))
        elif title == REVIEWS:
            body = render_reviews(ctx.reviews)
        else:
            body = _trim_blank(ctx.raw.get(title, []))
        out.extend([f"## {title}", "", *body, ""] if body else [f"## {title}", ""])
    return "\n".join(out).rstrip("\n") + "\n"
