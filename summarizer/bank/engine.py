"""The gate's seam to the phase engine: scoring, masks, allocation and rendering for one batch.

Scoring comes from :mod:`summarizer.scoring` and contract facts from :mod:`summarizer.facts`. The
per-phase allocation, the downstream masks and the deterministic band renderings follow SPEC.md
("Budget", "Field masks", "Summaries"); this module holds the small, bank-specific versions the
gate needs (it allocates *new* entries around the costs already committed in the bank, which the
phase engine's whole-batch planner does not model). Everything here is pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from summarizer.bank.entry import Band
from summarizer.facts import extract_facts, sentences, shorten

__all__ = [
    "ALL_FIELDS",
    "DEFAULT_FIELDS",
    "MIN_COST",
    "Allocation",
    "allocate",
    "files_text",
    "mask_fields",
    "render_lines",
]

MIN_COST: dict[Band, float] = {"CRITICAL": 3.0, "HIGH": 1.0, "MEDIUM": 1.0, "LOW": 0.5}
DEFAULT_FIELDS = frozenset({"date", "agent", "files", "summary_semantic", "tests", "status"})
ALL_FIELDS = frozenset(
    {
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
    }
)
_THEMIS_FROM = frozenset({"date", "agent", "verdict", "critical_issues", "coverage", "files"})
# "summary_60" stands for the seed's "summary (first 60 chars)" of the * -> mnemosyne mask.
_MNEMOSYNE_TO = frozenset({"date", "agent", "status", "summary_60"})


def _one_mask(from_agent: str, to_agent: str | None) -> frozenset[str]:
    # SPEC.md lookup order: exact pair, then * -> themis and * -> mnemosyne, then from -> *, default.
    # Every exact pair in the seed's table carries the default set, so the exact step adds nothing.
    if to_agent == "themis":
        return ALL_FIELDS
    if to_agent == "mnemosyne":
        return _MNEMOSYNE_TO
    if from_agent == "themis":
        return _THEMIS_FROM
    return DEFAULT_FIELDS


def mask_fields(from_agent: str, to_agents: tuple[str, ...]) -> frozenset[str]:
    """Fields kept for an entry handed from ``from_agent`` to ``to_agents`` (union over several)."""
    masks = [_one_mask(from_agent, to) for to in to_agents] or [_one_mask(from_agent, None)]
    kept: frozenset[str] = frozenset()
    for mask in masks:
        kept |= mask
    return kept


@dataclass(frozen=True, slots=True)
class Allocation:
    """Budget-line cost and rendering mode of each new entry (by index), and what is left."""

    costs: tuple[float, ...]
    expanded: tuple[bool, ...]
    remaining: float


def allocate(bands: Sequence[Band], scores: Sequence[float], budget: float) -> Allocation:
    """Minimum cost for every entry, then upgrade HIGH entries to 2 lines in score order.

    ``budget`` is what the phase has left after the entries already in the bank. CRITICAL is never
    reduced, so ``remaining`` may go negative (the gate says so).
    """
    costs = [MIN_COST[band] for band in bands]
    expanded = [band == "CRITICAL" for band in bands]
    remaining = budget - sum(costs)
    order = sorted((i for i, band in enumerate(bands) if band == "HIGH"), key=lambda i: (-scores[i], i))
    for index in order:
        if remaining >= 1:
            costs[index], expanded[index] = 2.0, True
            remaining -= 1
    return Allocation(tuple(costs), tuple(expanded), remaining)


def files_text(files: Iterable[str], limit: int = 3) -> str:
    """``a.py, b.py, c.py +2 more`` (or ``no files``)."""
    names = list(files)
    if not names:
        return "no files"
    shown = ", ".join(names[:limit])
    return shown + (f" +{len(names) - limit} more" if len(names) > limit else "")


def _why(agent: str, to_agents: tuple[str, ...], summary: str, files: Sequence[str]) -> str:
    facts = extract_facts(summary, files)
    target = ", ".join(to_agents) or "the next agent"
    details: list[str] = []
    if agent == "themis":
        details.append("review verdict and open issues")
    details.extend(facts.endpoints[:3])
    if facts.status_codes:
        details.append("status " + "/".join(facts.status_codes[:4]))
    if facts.tables:
        details.append("tables " + ", ".join(facts.tables[:3]))
    if facts.columns:
        details.append("columns " + ", ".join(facts.columns[:4]))
    if facts.components:
        details.append("components " + ", ".join(facts.components[:3]))
    if facts.env_vars:
        details.append("env " + ", ".join(facts.env_vars[:3]))
    if not details:
        return f"{target} builds on {files_text(files)}."
    return shorten(f"{target} must use: {'; '.join(details)}.", 200)


def render_lines(
    agent: str,
    band: Band,
    expanded: bool,
    summary: str,
    files: Sequence[str],
    to_agents: tuple[str, ...],
) -> tuple[str, ...]:
    """The band's deterministic lines: CRITICAL what/why/gotcha, HIGH what/why, else one line."""
    parts = sentences(summary) or [summary]
    first = parts[0]
    if band == "CRITICAL" or (band == "HIGH" and expanded):
        lines = [
            f"What changed: {shorten(first, 200)}",
            f"To next agent: {_why(agent, to_agents, summary, files)}",
        ]
        if band == "CRITICAL":
            gotcha = extract_facts(summary, files).gotcha
            lines.append(f"Gotcha: {shorten(gotcha, 200) if gotcha else 'none recorded.'}")
        return tuple(lines)
    if band == "LOW":
        return (f"[{agent}] — {files_text(files)}",)
    return (f"[{agent}] — {shorten(first, 80)} — {files_text(files)}",)
