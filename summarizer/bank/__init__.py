"""The memory bank at the phase gate: ``summarizer gate`` and its files.

Public entry points: :func:`run_gate` (one batch into the bank), :func:`close_sprint` and
:func:`injection_block` (the wisdom bridge). The modules, one concept each: ``atomic`` (crash-safe
writes, stale cleanup, the lock), ``layout`` (paths, loading), ``active_context``,
``progress_log``, ``xref`` + ``xref_rules``, ``ledger`` (budget carryover), ``zz``, ``archive``,
``artifacts`` (``.tmp/`` rules), ``trim`` (C7), ``phase_plan`` + ``gate`` (the flow), ``sprint``.
"""

from __future__ import annotations

from summarizer.bank.gate import GateRequest, run_gate
from summarizer.bank.report import CloseReport, GateReport
from summarizer.bank.sprint import close_sprint, injection_block

__all__ = ["CloseReport", "GateReport", "GateRequest", "close_sprint", "injection_block", "run_gate"]
