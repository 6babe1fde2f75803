"""``summary.json``: what a CI step or a dashboard reads from an eval run, in one object.

Per dataset and contender: the metric means with their bootstrap intervals and units, and the
totals (cells, requests, tokens, cost, latency and client time); each case's own checks
(``assert``) per contender; then the gates (each requirement
that failed, the outcome lines, whether the run passed) and the recommendation lines, exactly as
the terminal and the reports show them. Everything is figures and the lines we wrote: no answer
text (that is ``results.jsonl``), so the file stays small and scrub-safe.
"""

from __future__ import annotations

from typing import Any

from summarizer.evaluation.accounting import Totals
from summarizer.evaluation.comparison import Analysis
from summarizer.evaluation.gates import GateReport
from summarizer.evaluation.runner import Matrix

__all__ = ["SUMMARY_VERSION", "run_summary"]

SUMMARY_VERSION = 1


def _totals(t: Totals) -> dict[str, Any]:
    return {
        "cells": t.cells,
        "model_cells": t.model_cells,
        "fallbacks": t.fallbacks,
        "errors": t.errors,
        "requests": t.requests,
        "failed_requests": t.failed_requests,
        "requests_this_run": t.requests_now,
        "tokens_in": t.tokens_in,
        "tokens_out": t.tokens_out,
        "cost_usd": t.cost_usd,
        "latency_p50_ms": round(t.latency_p50_ms, 3),
        "latency_p95_ms": round(t.latency_p95_ms, 3),
        "client_p50_ms": round(t.client_p50_ms, 3),
    }


def run_summary(matrix: Matrix, analysis: Analysis, gates: GateReport) -> dict[str, Any]:
    """The summary object (see the module docstring)."""
    units = {m.name: m.unit for m in analysis.metrics}
    datasets: dict[str, Any] = {}
    for ds in analysis.datasets:
        contenders: dict[str, Any] = {}
        for st in analysis.stats:
            if st.dataset != ds:
                continue
            contenders[st.contender] = {
                "metrics": {
                    name: {
                        "mean": est.mean,
                        "low": est.low,
                        "high": est.high,
                        "n": est.n,
                        "unit": units[name],
                    }
                    for name, est in st.estimates.items()
                },
            }
        for t in gates.totals:
            if t.dataset == ds:
                contenders.setdefault(t.contender, {})["totals"] = _totals(t)
        datasets[ds] = {"contenders": contenders}
    checks: dict[str, dict[str, dict[str, Any]]] = {}
    for r in matrix.results:
        if r.asserts:
            checks.setdefault(r.dataset, {}).setdefault(r.case_id, {})[r.contender] = [
                a.model_dump(mode="json") for a in r.asserts
            ]
    return {
        "version": SUMMARY_VERSION,
        "contenders": list(matrix.contenders),
        "cases": len(matrix.cases),
        "cells": {
            "computed": matrix.computed,
            "reused": matrix.reused,
            "not_applicable": matrix.skipped,
            "provider_calls": matrix.provider_calls,
            "failed_calls": matrix.failed_calls,
        },
        "timing": {"provider_setup_s": round(matrix.setup_s, 3), "matrix_s": round(matrix.run_s, 3)},
        "datasets": datasets,
        "gates": {"passed": gates.ok, "failures": list(gates.failures), "outcomes": list(gates.outcomes)},
        "recommendations": list(gates.recommendations),
        "assertions": checks,
    }
