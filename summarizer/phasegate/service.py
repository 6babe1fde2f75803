"""The phase-gate service: the thin functions the CLI (`score`, `compress`, `stats`, `batch`) and MCP call.

Each function takes validated values and returns a frozen result with an ``as_dict()`` for JSON.
Order of work: scrub first (:func:`summarizer.core.scrub.scrub`), then score, then
render. Results carry the redaction count and types, never the secrets. ``score`` scrubs too, so its
preview always equals what ``compress`` will decide.

Input parsing lives here as well (:func:`entry_from_mapping`, :func:`entries_from_text`), turning
pydantic's multi-line ``ValidationError`` into one :class:`~summarizer.core.errors.InputError` line that
names the field, e.g. ``unknown key 'files_chaged' in entry.json; did you mean 'files_changed'?``.

The offline path never imports litellm, jinja2 or tiktoken: only ``re``, ``decimal``, pydantic and
our own pure modules.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from summarizer.core.errors import InputError
from summarizer.core.jsonio import json_type, loads
from summarizer.core.scrub import Redaction, scrub
from summarizer.core.vocabulary import Source
from summarizer.phasegate.entry_rules import ALIASES, EntryLike, flag_mapping
from summarizer.phasegate.scoring import Band, Score, score_entry

if TYPE_CHECKING:  # imported where used: the cold path of `summarizer score` needs none of them
    from pydantic import ValidationError

    from summarizer.phasegate.budget import BatchPlan, Mode
    from summarizer.phasegate.models import SubtaskSummary

__all__ = [
    "BatchResult",
    "Compressed",
    "PhaseStats",
    "ScoredEntry",
    "batch_plan",
    "compress_one",
    "entries_from_text",
    "entry_from_flags",
    "entry_from_mapping",
    "render_for_mode",
    "score_one",
    "scrub_entry",
    "stats_over",
]

_SCRUBBED_FIELDS = ("summary", "title", "tests", "coverage", "verdict", "blockers", "unblocks", "status_note")


# ---- input -------------------------------------------------------------------------------------


def _allowed_keys() -> list[str]:
    from summarizer.phasegate.models import SubtaskSummary

    return [name for name in SubtaskSummary.model_fields if name != "status_note"] + list(ALIASES)


def _one_line(error: ValidationError, source: str) -> str:
    first = error.errors()[0]
    loc = ".".join(str(p) for p in first["loc"])
    if first["type"] == "extra_forbidden":
        import difflib  # only on this error path: keeps the cold start small

        allowed = _allowed_keys()
        close = difflib.get_close_matches(loc, allowed, n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        return f"unknown key {loc!r} in {source}; {hint}allowed keys: {', '.join(allowed)}"
    if first["type"] == "missing":
        return f"{source} has no {loc!r}; add it (the summary text is required)"
    message = str(first["msg"]).removeprefix("Value error, ")
    where = f"field {loc!r}" if loc else "entry"
    return f"{source}: {where}: {message}; fix that value"


def entry_from_mapping(data: Mapping[str, Any], source: str = "entry") -> SubtaskSummary:
    """Validate one ``subtask_summary`` mapping; errors are one :class:`InputError` line naming the field."""
    if not isinstance(data, Mapping):
        raise InputError(f"{source} must be a JSON object, not {json_type(data)}")
    from pydantic import ValidationError

    from summarizer.phasegate.models import SubtaskSummary

    try:
        return SubtaskSummary.model_validate(dict(data))
    except ValidationError as exc:
        raise InputError(_one_line(exc, source)) from None


def entry_from_flags(
    text: str,
    *,
    files: str | Sequence[str] | None = None,
    status: str | None = None,
    from_agent: str | None = None,
    to_agent: str | Sequence[str] | None = None,
    phase: str | None = None,
) -> SubtaskSummary:
    """Build an entry from CLI flags (``--text --files a,b --status S --from A --to B --phase P``)."""
    data = flag_mapping(
        text, files=files, status=status, from_agent=from_agent, to_agent=to_agent, phase=phase
    )
    return entry_from_mapping(data, "--text entry")


def entries_from_text(text: str, source: str) -> list[SubtaskSummary]:
    """Parse a JSON object, a JSON array of objects, or JSONL (one object per line; blank lines skipped)."""
    stripped = text.strip()
    if not stripped:
        raise InputError(f"{source} is empty; give it at least one JSON entry")
    if "\x00" in text:
        raise InputError(f"{source} looks binary (it has NUL bytes); give a JSON or JSONL text file")
    if stripped.startswith("["):
        try:
            values = loads(stripped, source=source)
        except json.JSONDecodeError as exc:
            raise InputError(
                f"invalid JSON in {source} at line {exc.lineno} column {exc.colno}: {exc.msg}"
            ) from None
        return [entry_from_mapping(v, f"{source}[{i}]") for i, v in enumerate(values)]
    try:
        return [entry_from_mapping(loads(stripped, source=source), source)]
    except json.JSONDecodeError as exc:
        # "Extra data" after a complete value means several values: JSONL, which reports the failing
        # line. Anything else is one broken document (a pretty-printed object spans many lines).
        if exc.msg != "Extra data":
            raise InputError(
                f"invalid JSON in {source} at line {exc.lineno} column {exc.colno}: {exc.msg}"
            ) from None
    entries = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            value = loads(line, source=f"{source} line {number}")
        except json.JSONDecodeError as exc:
            raise InputError(
                f"invalid JSON in {source} line {number} column {exc.colno}: {exc.msg}"
            ) from None
        entries.append(entry_from_mapping(value, f"{source} line {number}"))
    return entries


# ---- scrub, score, render ----------------------------------------------------------------------


class _Replaceable(EntryLike, Protocol):
    def replaced(self: E, **update: Any) -> E: ...


E = TypeVar("E", bound=_Replaceable)


def scrub_entry(entry: E) -> tuple[E, tuple[Redaction, ...]]:
    """Scrub every free-text field and file path of ``entry``; return the clean entry and what was removed."""
    found: list[Redaction] = []
    update: dict[str, Any] = {}
    for name in _SCRUBBED_FIELDS:
        value = getattr(entry, name)
        if isinstance(value, str):
            clean, redactions = scrub(value)
            if redactions:
                update[name] = clean
                found.extend(redactions)
    files = []
    for path in entry.files_changed:
        clean, redactions = scrub(path)
        files.append(clean)
        found.extend(redactions)
    if tuple(files) != entry.files_changed:
        update["files_changed"] = tuple(files)
    return (entry.replaced(**update) if update else entry), tuple(found)


def _redaction_summary(redactions: Sequence[Redaction]) -> dict[str, Any]:
    return {"count": len(redactions), "types": sorted({r.kind for r in redactions})}


def score_one(entry: _Replaceable, to: str | Iterable[str] | None = None) -> Score:
    """Scrub, then score ``entry`` (``to`` overrides its next agents)."""
    clean, _ = scrub_entry(entry)
    return score_entry(clean, to)


@dataclass(frozen=True, slots=True)
class Compressed:
    """One compressed entry: the band, the rendered lines and what the scrubber removed."""

    score: Score
    lines: tuple[str, ...]
    redactions: tuple[Redaction, ...]
    mask_rule: str
    fields: Mapping[str, object]
    source: Source = "template"
    reason: str | None = None

    @property
    def compressed(self) -> bool:
        """False when the preflight protects the entry (the lines are then the scrubbed summary)."""
        return self.score.compress

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready mapping (``summarizer compress --json``); never contains a secret."""
        out: dict[str, Any] = {
            "priority": self.score.priority,
            "score": self.score.score,
            "compressed": self.compressed,
            "lines": list(self.lines),
            "redactions": _redaction_summary(self.redactions),
            "source": self.source,
            "mask": self.mask_rule,
            "fields": dict(self.fields),
            "flags": list(self.score.flags),
        }
        if self.reason:
            out["reason"] = self.reason
        return out


def compress_one(entry: SubtaskSummary, to: str | Iterable[str] | None = None) -> Compressed:
    """Scrub, score and render ``entry`` for its band with the deterministic template.

    A protected entry (in_progress, blocked, ...) is not compressed: its lines are the scrubbed
    summary as given, and the score's flags say why.
    """
    from summarizer.phasegate.masks import masked_entry
    from summarizer.phasegate.templates import render_lines

    clean, redactions = scrub_entry(entry)
    result = score_entry(clean, to)
    lines = render_lines(clean, result.priority, to) if result.compress else (clean.summary,)
    mask, fields = masked_entry(clean, result.priority, lines, to)
    return Compressed(result, lines, redactions, mask.rule, fields)


def render_for_mode(
    entry: SubtaskSummary, band: Band, mode: Mode, to: str | Iterable[str] | None = None
) -> tuple[str, ...]:
    """Render for a budget mode: expanded = the band's lines, standard = one line, aggressive = files."""
    from summarizer.phasegate.templates import render_lines

    if mode == "expanded":
        return render_lines(entry, band, to)
    return render_lines(entry, "MEDIUM" if mode == "standard" else "LOW", to)


# ---- batches -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ScoredEntry:
    """One batch entry after scrubbing and scoring, with the id used in the plan."""

    id: str
    entry: SubtaskSummary
    score: Score
    redactions: tuple[Redaction, ...]


@dataclass(frozen=True, slots=True)
class BatchResult:
    """A scored and allocated batch: the plan, the entries, and those the preflight held back."""

    plan: BatchPlan
    entries: tuple[ScoredEntry, ...]
    held: tuple[ScoredEntry, ...] = field(default=())

    def as_dict(self, *, lines: bool = True) -> dict[str, Any]:
        """JSON-ready plan (``summarizer batch --json``); with the rendered lines unless ``lines=False``."""
        by_id = {s.id: s for s in self.entries}
        phases = []
        for p in self.plan.phases:
            rows = []
            for a in p.allocations:
                scored = by_id[a.id]
                row: dict[str, Any] = {
                    "id": a.id,
                    "agent": scored.entry.agent,
                    "score": a.score,
                    "priority": a.priority,
                    "mode": a.mode,
                    "cost": a.cost,
                    "warning": scored.score.warning,
                }
                if lines:
                    row["lines"] = list(render_for_mode(scored.entry, a.priority, a.mode))
                rows.append(row)
            phases.append(
                {
                    "phase": p.phase,
                    "budget": p.budget,
                    "carry_in": p.carry_in,
                    "available": p.available,
                    "used": p.used,
                    "unused": p.unused,
                    "carryover": p.carryover,
                    "over_budget": p.over_budget,
                    "flags": list(p.flags),
                    "entries": rows,
                }
            )
        redactions = [r for s in (*self.entries, *self.held) for r in s.redactions]
        return {
            "phase_budget": self.plan.phase_budget,
            "total": self.plan.total,
            "used": self.plan.used,
            "phases": phases,
            "not_compressed": [
                {"id": s.id, "agent": s.entry.agent, "status": s.entry.status, "flags": list(s.score.flags)}
                for s in self.held
            ],
            "flags": list(self.plan.flags) + [f for s in self.held for f in s.score.flags],
            "escalation": self.plan.escalation,
            "redactions": _redaction_summary(redactions),
        }


def _score_all(entries: Sequence[SubtaskSummary]) -> list[ScoredEntry]:
    out = []
    for number, entry in enumerate(entries, start=1):
        clean, redactions = scrub_entry(entry)
        out.append(ScoredEntry(f"#{number}", clean, score_entry(clean), redactions))
    return out


def batch_plan(entries: Sequence[SubtaskSummary], estimated_phases: int | None = None) -> BatchResult:
    """Scrub and score every entry, group by phase (first-seen order) and allocate the budget.

    Entries the preflight protects are left out of the allocation and listed in ``held``.
    """
    from summarizer.phasegate.budget import BudgetItem, plan_batch

    scored = _score_all(entries)
    groups: dict[str | None, list[BudgetItem]] = {}
    for s in scored:
        if s.score.compress:
            groups.setdefault(s.entry.phase, []).append(BudgetItem(s.id, s.score.score, s.score.priority))
    plan = plan_batch(list(groups.items()), estimated_phases)
    return BatchResult(
        plan=plan,
        entries=tuple(s for s in scored if s.score.compress),
        held=tuple(s for s in scored if not s.score.compress),
    )


@dataclass(frozen=True, slots=True)
class PhaseStats:
    """Counts over many entries: per band, held back, partial, budget lines and redactions."""

    entries: int
    bands: Mapping[Band, int]
    not_compressed: int
    partial: int
    lines_used: float
    redactions: Mapping[str, int]
    flags: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready mapping (``summarizer stats --json``)."""
        return {
            "entries": self.entries,
            "bands": dict(self.bands),
            "not_compressed": self.not_compressed,
            "partial": self.partial,
            "lines_used": self.lines_used,
            "redactions": {"count": sum(self.redactions.values()), "types": dict(self.redactions)},
            "flags": list(self.flags),
        }


def stats_over(entries: Sequence[SubtaskSummary], estimated_phases: int | None = None) -> PhaseStats:
    """Band counts, budget-lines a batch plan would use, and redactions by type."""
    result = batch_plan(entries, estimated_phases)
    everything = (*result.entries, *result.held)
    bands = Counter(s.score.priority for s in everything)
    kinds = Counter(r.kind for s in everything for r in s.redactions)
    return PhaseStats(
        entries=len(everything),
        bands={band: bands.get(band, 0) for band in ("CRITICAL", "HIGH", "MEDIUM", "LOW")},
        not_compressed=len(result.held),
        partial=sum(1 for s in everything if s.score.warning),
        lines_used=result.plan.used,
        redactions=dict(sorted(kinds.items())),
        flags=result.plan.flags,
    )
