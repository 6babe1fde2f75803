"""Text renderings of the phase-gate results, shared by the CLI's click commands and the cold launcher.

Pure: each function turns a result into the lines a person reads. ``--json`` prints ``as_dict()``
instead, so these never decide anything a script depends on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from summarizer.phasegate.scoring import Score
    from summarizer.phasegate.service import Compressed, PhaseStats

__all__ = ["batch_lines", "compress_notes", "score_report", "stats_lines"]


def score_report(result: Score, from_agent: str | None) -> list[str]:
    """The human-readable breakdown that ``summarizer score`` prints: dimensions, keywords, band."""
    from summarizer.phasegate.scoring import WEIGHTS

    lines = [f"score {result.score:.2f}  {result.priority}" + (" ⚠️" if result.warning else "")]
    notes = {
        "novelty": f"files: {result.files}",
        "downstream": f"{from_agent or 'unknown'} -> {', '.join(result.to_agents) or 'unknown'}",
    }
    for name, value in result.dimensions.as_dict().items():
        weight = float(WEIGHTS[name])
        note = f"   ({notes[name]})" if name in notes else ""
        lines.append(f"  {name:<11} {value:.2f} x {weight:.2f} = {value * weight:.3f}{note}")
    lines.append(f"  keywords    {', '.join(result.keywords) or '(none)'}")
    if result.band != result.priority:
        lines.append(f"  band        {result.band} (raised to {result.priority})")
    lines.extend(f"flag: {flag}" for flag in result.flags)
    lines.append(f"{result.priority}: {_MEANING[result.priority]}; next: {_NEXT}")
    return lines


# What a band buys an entry in the hand-off (docs/phase-gate.md), for a first-time reader.
_MEANING = {
    "CRITICAL": "a 3-line hand-off summary (what / why / gotcha), never trimmed",
    "HIGH": "a 2-line hand-off summary (what / why) when the phase budget allows, else 1 line",
    "MEDIUM": "a 1-line summary, cut to its files when the bank is over budget",
    "LOW": "its files only, and the first to be trimmed",
}
_NEXT = "the same flags with `summarizer compress` print that summary; `summarizer --help` lists the rest"


def compress_notes(result: Compressed, *, semantic: bool) -> list[str]:
    """What ``compress`` says on stderr: why the template answered (with a model), and the flags."""
    notes = [f"template used: {result.reason}"] if semantic and result.reason else []
    return notes + list(result.score.flags)


def stats_lines(result: PhaseStats) -> list[str]:
    """``summarizer stats``: counts per band, budget-lines used, redactions and flags."""
    bands = "  ".join(f"{band} {count}" for band, count in result.bands.items())
    kinds = ", ".join(f"{k} {v}" for k, v in result.redactions.items())
    return [
        f"entries {result.entries}: {bands}",
        f"not compressed {result.not_compressed}, partial {result.partial}",
        f"budget lines used {result.lines_used:g}",
        f"redactions {sum(result.redactions.values())}" + (f" ({kinds})" if kinds else ""),
        *(f"flag: {flag}" for flag in result.flags),
    ]


def batch_lines(data: dict[str, Any]) -> list[str]:
    """``summarizer batch``: the plan as a table, from ``BatchResult.as_dict(lines=False)``."""
    lines = [f"per-phase budget {data['phase_budget']} lines (total {data['total']})"]
    for p in data["phases"]:
        over = "  OVER BUDGET" if p["over_budget"] else ""
        lines.append(
            f"phase {p['phase'] or '?'}: budget {p['budget']} + carry {p['carry_in']} = {p['available']}; "
            f"used {p['used']:g}; carryover {p['carryover']}{over}"
        )
        for row in p["entries"]:
            warn = " ⚠️" if row["warning"] else ""
            lines.append(
                f"  {row['id']:<5} {row['agent']:<11} {row['score']:.2f} {row['priority']:<8} "
                f"{row['mode']:<10} {row['cost']:g}{warn}"
            )
    for held in data["not_compressed"]:
        lines.append(f"  {held['id']:<5} {held['agent']:<11} not compressed ({held['status']})")
    lines.append(f"total used {data['used']:g} of {data['total']} lines")
    redactions = data["redactions"]
    if redactions["count"]:
        lines.append(f"redactions {redactions['count']} ({', '.join(redactions['types'])})")
    lines.extend(f"flag: {flag}" for flag in data["flags"])
    return lines
