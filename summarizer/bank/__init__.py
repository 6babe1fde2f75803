"""The memory bank at the phase gate: ``summarizer gate`` and its files (docs/memory-bank.md).

Public entry points: :func:`run_gate` (one batch into the bank), :func:`close_sprint` and
:func:`injection_block` (the wisdom bridge). One concept per module:

* effects: ``atomic`` (crash-safe writes, stale cleanup, the lock), ``layout`` (paths, loading);
* files: ``markdown`` (sections, tables, located errors), ``entry`` (an entry and its content hash),
  ``active_context``, ``ledger`` (budget carryover), ``progress_log``, ``xref``, ``zz``, ``archive``;
* rules: ``artifacts`` (``.tmp/``), ``xref_rules``, ``trim`` (C7), ``engine`` (the phase engine's
  scoring, templates and masks adapted to the bank);
* flow: ``phase_plan`` + ``gate`` (pure planning, then ordered atomic writes), ``report``,
  ``sprint`` (C5 and the wisdom bridge), ``llm_lines`` (the optional LLM seam).
"""

from __future__ import annotations

from summarizer.bank.gate import GateRequest, run_gate
from summarizer.bank.report import CloseReport, GateReport
from summarizer.bank.sprint import close_sprint, injection_block

__all__ = ["CloseReport", "GateReport", "GateRequest", "close_sprint", "injection_block", "run_gate"]
