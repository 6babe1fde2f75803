"""The memory bank at the phase gate: ``summarizer gate`` and its files (docs/memory-bank.md).

Public entry points: :func:`run_gate` (one batch into the bank), :func:`close_sprint` and
:func:`injection_block` (the wisdom bridge). One concept per module:

* effects: ``atomic`` (crash-safe writes, stale cleanup, the lock, the writability check),
  ``layout`` (paths, loading);
* files: ``markdown`` (sections, tables, located errors), ``entry`` (an entry, its key and content
  hash), ``active_context``, ``handoff`` (Unfinished, Review Verdicts), ``ledger`` (budget carryover
  and the phase plan), ``progress_log``, ``xref``, ``zz``, ``archive``, ``state_file`` (the sidecar
  ``_bank-state.json`` that holds the bookkeeping, so the markdown holds none);
* rules: ``artifacts`` (``.tmp/``), ``xref_rules``, ``trim`` (C7), ``subtasks`` (which row an entry
  is), ``engine`` (the phase engine's scoring, templates and masks adapted to the bank);
* flow: ``request`` (what a gate is asked), ``prepare`` (preflight, scrub, score, hash),
  ``phase_plan`` + ``gate`` (pure planning, then ordered atomic writes; the optional model arrives
  as ``request.Summarize``), ``report``, ``sprint`` (C5, the wisdom bridge and its pasteable
  ``--inject`` hints), ``command`` (the use case the edges call: gate, close or inject).

Imports run one way (a test checks there is no circle): ``request`` and ``prepare`` at the bottom,
then the file modules, ``phase_plan``, ``gate``, ``sprint`` and ``command`` on top.
"""

from __future__ import annotations

from summarizer.bank.gate import GateRequest, run_gate
from summarizer.bank.report import CloseReport, GateReport
from summarizer.bank.sprint import close_sprint, injection_block

__all__ = ["CloseReport", "GateReport", "GateRequest", "close_sprint", "injection_block", "run_gate"]
