"""The gate's seam to the phase engine: masks, allocation around the bank, labelled renderings.

Scoring (:mod:`summarizer.phasegate.scoring`), scrubbing
(:func:`summarizer.phasegate.service.scrub_entry`), the band
templates (:func:`summarizer.phasegate.service.render_for_mode`) and the field masks
(:func:`summarizer.phasegate.masks.mask_for_many`) are the phase engine's; this module adapts them to what
the bank stores:

* :func:`allocate` places *new* entries around the costs already committed in the bank (a second
  agent gating the same phase, a replaced entry), where the remaining budget can be a half line.
  The rule is the engine's own :func:`summarizer.phasegate.budget.place_entries`, which ``allocate_phase``
  uses for a whole phase: minimum costs first, then HIGH upgrades in score order.
* expanded lines get the ``What changed`` / ``To next agent`` / ``Gotcha`` labels the templates
  leave to the writer.
* masks become a set of kept field names, ``summary_60`` standing for the ``* -> mnemosyne`` cut.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from summarizer.phasegate.budget import place_entries
from summarizer.phasegate.masks import mask_for_many
from summarizer.phasegate.models import SubtaskSummary
from summarizer.phasegate.scoring import Band
from summarizer.phasegate.service import render_for_mode

__all__ = ["LABELS", "Allocation", "allocate", "mask_fields", "render_bank_lines", "template_lines"]

LABELS = ("What changed", "To next agent", "Gotcha")


def mask_fields(from_agent: str, to_agents: tuple[str, ...]) -> frozenset[str]:
    """Fields kept for an entry handed from ``from_agent`` to ``to_agents`` (union over several)."""
    mask = mask_for_many(from_agent, to_agents)
    if mask.summary_chars is not None and "summary" in mask.fields:
        return (mask.fields - {"summary"}) | {"summary_60"}
    return mask.fields


@dataclass(frozen=True, slots=True)
class Allocation:
    """Budget-line cost and rendering mode of each new entry (by index), and what is left."""

    costs: tuple[float, ...]
    expanded: tuple[bool, ...]
    remaining: float


def allocate(bands: Sequence[Band], scores: Sequence[float], budget: float) -> Allocation:
    """Minimum cost for every entry, then upgrade HIGH entries to 2 lines in score order.

    ``budget`` is what the phase has left after the entries already in the bank. CRITICAL is never
    reduced, so ``remaining`` may go negative (the gate flags it).
    """
    costs, upgraded, remaining = place_entries(bands, scores, budget)
    expanded = (band == "CRITICAL" or up for band, up in zip(bands, upgraded, strict=True))
    return Allocation(tuple(costs), tuple(expanded), remaining)


def template_lines(entry: SubtaskSummary, band: Band) -> tuple[str, ...]:
    """The deterministic expanded lines of a CRITICAL (3) or HIGH (2) entry, unlabelled."""
    return render_for_mode(entry, band, "expanded")


def render_bank_lines(
    entry: SubtaskSummary, band: Band, expanded: bool, semantic: tuple[str, ...] | None = None
) -> tuple[str, ...]:
    """The band's lines for the bank: expanded ones labelled (``semantic`` lines when given), else one."""
    if band == "CRITICAL" or (band == "HIGH" and expanded):
        lines = semantic or template_lines(entry, band)
        return tuple(f"{LABELS[min(i, 2)]}: {line}" for i, line in enumerate(lines))
    return render_for_mode(entry, band, "aggressive" if band == "LOW" else "standard")
