"""Downstream-aware field masks: which fields of a compressed entry survive for the next agent.

Lookup order (docs/phase-gate.md): the exact ``(from, to)`` pair, then ``(* -> themis)`` and
``(* -> mnemosyne)``, then ``(from -> *)``, then the default set
``{date, agent, files, summary_semantic, tests, status}``.

* ``* -> themis`` keeps ALL fields: the reviewer needs full context.
* ``* -> mnemosyne`` keeps date, agent, status and the summary cut to 60 characters on a word
  boundary (the archive is minimal).
* ``themis -> *`` keeps date, agent, verdict, critical_issues, coverage and files.

Every exact pair in the mask table carries the default set; they are listed anyway so that the
table reads like docs/phase-gate.md and a future pair-specific mask is a one-line change. For MEDIUM and LOW
entries, which have no semantic summary, the rendered one-line text stands in for
``summary_semantic``. Several next agents: the union of their masks (a field any of them needs is
kept; the summary is cut only if every mask cuts it). Everything here is pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from summarizer.phasegate.facts import shorten
from summarizer.phasegate.models import SubtaskSummary
from summarizer.phasegate.scoring import WARNING_SIGN, Band

__all__ = [
    "ALL_FIELDS",
    "DEFAULT_FIELDS",
    "MASKS",
    "MNEMOSYNE_SUMMARY_CHARS",
    "Mask",
    "apply_mask",
    "entry_record",
    "mask_for",
    "mask_for_many",
    "masked_entry",
]

ALL_FIELDS: tuple[str, ...] = (
    "date",
    "agent",
    "files",
    "summary",
    "summary_semantic",
    "tests",
    "status",
    "coverage",
    "verdict",
    "critical_issues",
    "blockers",
)
DEFAULT_FIELDS = frozenset({"date", "agent", "files", "summary_semantic", "tests", "status"})
MNEMOSYNE_SUMMARY_CHARS = 60


@dataclass(frozen=True, slots=True)
class Mask:
    """One row of the mask table: the rule that matched, the kept fields, an optional summary cut."""

    rule: str
    fields: frozenset[str]
    summary_chars: int | None = None  # cut ``summary`` to this many characters on a word boundary


_DEFAULT = Mask("default", DEFAULT_FIELDS)
MASKS: dict[tuple[str, str], Mask] = {
    pair: Mask(f"{pair[0]} -> {pair[1]}", DEFAULT_FIELDS)
    for pair in (
        ("hermes", "aphrodite"),
        ("hermes", "demeter"),
        ("hermes", "*"),
        ("demeter", "hermes"),
        ("demeter", "aphrodite"),
        ("demeter", "*"),
        ("aphrodite", "hermes"),
        ("aphrodite", "demeter"),
        ("aphrodite", "*"),
        ("hephaestus", "*"),
        ("prometheus", "*"),
    )
}
MASKS[("themis", "*")] = Mask(
    "themis -> *", frozenset({"date", "agent", "verdict", "critical_issues", "coverage", "files"})
)
MASKS[("*", "themis")] = Mask("* -> themis", frozenset(ALL_FIELDS))
MASKS[("*", "mnemosyne")] = Mask(
    "* -> mnemosyne", frozenset({"date", "agent", "summary", "status"}), MNEMOSYNE_SUMMARY_CHARS
)


def mask_for(from_agent: str | None, to_agent: str | None) -> Mask:
    """The mask for one pair: exact, then ``* -> themis/mnemosyne``, then ``from -> *``, then default.

    >>> mask_for("themis", "mnemosyne").rule
    '* -> mnemosyne'
    """
    src, dst = (from_agent or "").strip().lower(), (to_agent or "").strip().lower()
    return MASKS.get((src, dst)) or MASKS.get(("*", dst)) or MASKS.get((src, "*")) or _DEFAULT


def mask_for_many(from_agent: str | None, to_agents: Iterable[str]) -> Mask:
    """Union of the masks of several next agents (one agent: its mask; none: the ``from -> *`` mask)."""
    masks = [mask_for(from_agent, to) for to in to_agents] or [mask_for(from_agent, None)]
    if len(masks) == 1:
        return masks[0]
    fields = frozenset().union(*(m.fields for m in masks))
    cuts = [m.summary_chars for m in masks if "summary" in m.fields]
    cut = min(c for c in cuts if c is not None) if cuts and all(c is not None for c in cuts) else None
    return Mask(" + ".join(dict.fromkeys(m.rule for m in masks)), fields, cut)


def entry_record(entry: SubtaskSummary, band: Band, lines: Sequence[str]) -> dict[str, object]:
    """Every maskable field of a compressed entry (absent values are left out).

    ``summary_semantic`` is the rendered text: the CRITICAL/HIGH lines joined by a space, or the
    one-line MEDIUM/LOW rendering that stands in for it. A partial status carries the warning sign.
    """
    status = f"{WARNING_SIGN} {entry.status}" if entry.status == "partial" else entry.status
    if entry.status_note:
        status += f" ({entry.status_note})"
    record: dict[str, object | None] = {
        "date": entry.date,
        "agent": entry.agent,
        "files": ", ".join(entry.files_changed) or None,
        "summary": entry.summary,
        "summary_semantic": " ".join(lines)
        if band in ("CRITICAL", "HIGH")
        else (lines[0] if lines else None),
        "tests": entry.tests,
        "status": status,
        "coverage": entry.coverage,
        "verdict": entry.verdict,
        "critical_issues": entry.critical_issues,
        "blockers": entry.blockers,
    }
    return {k: v for k, v in record.items() if v is not None}


def apply_mask(record: Mapping[str, object], mask: Mask) -> dict[str, object]:
    """Keep the fields of ``mask`` (in :data:`ALL_FIELDS` order), cutting the summary if it says so."""
    out = {k: record[k] for k in ALL_FIELDS if k in mask.fields and k in record}
    if mask.summary_chars is not None and isinstance(out.get("summary"), str):
        out["summary"] = shorten(str(out["summary"]), mask.summary_chars)
    return out


def masked_entry(
    entry: SubtaskSummary, band: Band, lines: Sequence[str], to: str | Iterable[str] | None = None
) -> tuple[Mask, dict[str, object]]:
    """The mask for the entry's pair (``to`` overrides its next agents) and the masked record."""
    if to is None:
        to_agents: Sequence[str] = entry.to_agent
    else:
        items = to.split(",") if isinstance(to, str) else list(to)
        to_agents = [t.strip().lower() for t in items if t.strip()]
    mask = mask_for_many(entry.from_agent, to_agents)
    return mask, apply_mask(entry_record(entry, band, lines), mask)
