"""The ``gate`` use case as the edges call it: one of promote a batch, close the sprint, or inject.

The CLI parses flags into a :class:`GateCall`, hands in the entries' text and the model seam (or
``None`` for the templates), and prints what :func:`run_gate_call` returns: the human lines, and the
JSON a ``--json`` caller reads. Everything between (which mode, the date rule, the default learnings
folder, the pasteable ``--inject`` hints) is decided here, once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from summarizer.bank.gate import Summarize, run_gate
from summarizer.bank.request import MAX_SUMMARY_BYTES, GateRequest
from summarizer.bank.sprint import close_sprint, default_learnings_dir, injection_block, with_inject_hints
from summarizer.core.errors import InputError

__all__ = ["GateCall", "GateOutput", "run_gate_call"]


@dataclass(frozen=True, slots=True)
class GateCall:
    """What one ``summarizer gate`` invocation asks for (flags already parsed and validated)."""

    root: Path
    default_root: Path
    date: str
    entries_text: str | None = None
    source: str = "-"
    phase: str | None = None
    estimated_phases: int | None = None
    feature: str = "default"
    final: bool = False
    learnings: Path | None = None
    close_sprint: bool = False
    inject: str | None = None
    repair: bool = False
    max_summary_kb: int = MAX_SUMMARY_BYTES // 1024


@dataclass(frozen=True, slots=True)
class GateOutput:
    """The human rendering and, for ``--json``, the data (``None``: the text is the whole answer)."""

    text: str
    data: dict[str, Any] | None = None


def run_gate_call(call: GateCall, summarize: Summarize | None = None) -> GateOutput:
    """Run the mode ``call`` asks for; exactly one of entries, ``close_sprint``, ``inject`` or ``repair``."""
    modes = (call.close_sprint, call.inject, call.entries_text is not None, call.repair)
    if sum(bool(x) for x in modes) != 1:
        raise InputError("give exactly one of ENTRIES.jsonl, --close-sprint, --inject PHASE or --repair")
    if call.repair:
        from summarizer.bank.repair import repair_bank

        repaired = repair_bank(call.root, date=call.date)
        return GateOutput("\n".join(repaired.lines()) + "\n", repaired.model_dump(mode="json"))
    if call.inject:
        block = injection_block(call.root, call.inject, feature=call.feature, learnings=call.learnings)
        return GateOutput(block)
    if call.close_sprint:
        closed = close_sprint(call.root, date=call.date, learnings=call.learnings)
        return GateOutput("\n".join(closed.lines()) + "\n", closed.model_dump(mode="json"))
    if not call.phase:
        raise InputError("--phase is required with ENTRIES.jsonl (e.g. --phase 2)")
    from summarizer.phasegate.service import entries_from_text

    assert call.entries_text is not None
    request = GateRequest(
        phase=call.phase,
        entries=tuple(entries_from_text(call.entries_text, call.source)),
        date=call.date,
        estimated_phases=call.estimated_phases,
        feature=call.feature,
        final=call.final,
        learnings=call.learnings or default_learnings_dir(call.root),
        max_summary_bytes=call.max_summary_kb * 1024,
    )
    report = run_gate(call.root, request, summarize=summarize)
    report = with_inject_hints(report, call.root, default_root=call.default_root, learnings=call.learnings)
    data = {"confirmation": report.confirmation(), **report.model_dump(mode="json")}
    return GateOutput("\n".join(report.lines()) + "\n", data)
