"""Text reports: the terminal table, ``report.md``, ``results.jsonl`` (every cell) and the CSV.

Both the terminal and ``report.md`` open with the recommendation per dataset, then the outcome
lines (contenders that fell back) and the gate failures, then per dataset one row per contender with
each metric's mean in its unit, and a totals table: cells, provider requests (retries included),
tokens in and out, cost in USD and latency percentiles in ms. ``report.md`` adds the 95%
intervals, the verdicts and the cells that failed or missed facts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from summarizer.evaluation.cells import CellResult
    from summarizer.evaluation.cellstore import CellStore

import dataclasses
import json
from pathlib import Path

from summarizer.evaluation.accounting import Totals
from summarizer.evaluation.comparison import Analysis
from summarizer.evaluation.export import write_csv
from summarizer.evaluation.gates import GateReport, check
from summarizer.evaluation.metrics import MetricSpec
from summarizer.evaluation.runner import Matrix
from summarizer.evaluation.stats import column_label, format_value

__all__ = ["render_markdown", "render_table", "store_warning", "write_reports"]

TOTALS_HEADER = [
    "contender",
    "cells",
    "model cells",
    "fallbacks",
    "errors",
    "requests (retries)",
    "tokens in",
    "tokens out",
    "cost (USD)",
    "latency p50 (ms)",
    "latency p95 (ms)",
    "client p50 (ms)",
]


def _head(m: MetricSpec) -> str:
    return column_label(m)


def _rows(analysis: Analysis, dataset: str, *, with_ci: bool) -> tuple[list[str], list[list[str]]]:
    header = ["contender", "cells", *(_head(m) for m in analysis.metrics)]
    rows: list[list[str]] = []
    for st in analysis.stats:
        if st.dataset != dataset:
            continue
        row = [st.contender, f"{st.cells}" + (f" ({st.errors} err)" if st.errors else "")]
        for m in analysis.metrics:
            est = st.estimates.get(m.name)
            if est is None:
                row.append("-")
            elif with_ci and est.low != est.high:
                row.append(
                    f"{format_value(m, est.mean)} [{format_value(m, est.low)}, {format_value(m, est.high)}]"
                )
            else:
                row.append(format_value(m, est.mean))
        rows.append(row)
    # Drop metric columns no contender has on this dataset.
    keep = [i for i in range(len(header)) if i < 2 or any(r[i] != "-" for r in rows)]
    return [header[i] for i in keep], [[r[i] for i in keep] for r in rows]


def _total_rows(gates: GateReport, dataset: str) -> list[list[str]]:
    def row(t: Totals) -> list[str]:
        retries = f" ({t.failed_requests})" if t.failed_requests else ""
        cost = "-" if t.cost_usd is None else f"{t.cost_usd:.5f}"
        return [
            t.contender,
            str(t.cells),
            str(t.model_cells),
            str(t.fallbacks),
            str(t.errors),
            f"{t.requests}{retries}",
            str(t.tokens_in),
            str(t.tokens_out),
            cost,
            f"{t.latency_p50_ms:.1f}",
            f"{t.latency_p95_ms:.1f}",
            f"{t.client_p50_ms:.1f}",
        ]

    return [row(t) for t in gates.totals if t.dataset == dataset]


def _plain(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in [header, *rows]]


def _markdown(header: list[str], rows: list[list[str]]) -> list[str]:
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)] + [
        "| " + " | ".join(r) + " |" for r in rows
    ]


def _headline(gates: GateReport) -> list[str]:
    out = [f"recommendation: {line}" for line in gates.recommendations]
    out += [f"outcome: {line}" for line in gates.outcomes]
    out += [f"FAILED: {line}" for line in gates.failures]
    return out


def _footer(matrix: Matrix) -> str:
    retries = f" ({matrix.failed_calls} failed and retried or given up)" if matrix.failed_calls else ""
    return (
        f"cells: {matrix.computed} computed, {matrix.reused} reused, {matrix.skipped} not applicable; "
        f"provider calls: {matrix.provider_calls}{retries}"
    )


def render_table(matrix: Matrix, analysis: Analysis, gates: GateReport | None = None) -> str:
    """The recommendation, a plain-text table per dataset, totals and the verdicts, for the terminal.

    Without ``gates``, the default ones (no requirement; fallbacks reported) are applied.
    """
    gates = gates or check(matrix, analysis)
    out = [*_headline(gates), ""]
    for ds in analysis.datasets:
        out.append(f"== {ds} ==")
        out.extend(_plain(*_rows(analysis, ds, with_ci=False)))
        out.append("")
        out.extend(_plain(TOTALS_HEADER, _total_rows(gates, ds)))
        out.append("")
    out.extend(analysis.verdicts())
    out.extend(
        f"[{ds}] {a} and {b} answered all {n} shared cases identically" for ds, a, b, n in analysis.identical
    )
    out.append(_footer(matrix))
    return "\n".join(out) + "\n"


def render_markdown(matrix: Matrix, analysis: Analysis, gates: GateReport | None = None) -> str:
    """``report.md``: recommendation, tables with intervals, totals, verdicts, cells that lost something."""
    gates = gates or check(matrix, analysis)
    out = ["# Eval report", ""]
    out += [f"- {line}" for line in _headline(gates)]
    out.append("")
    out.append(
        f"Contenders: {', '.join(matrix.contenders)}. Cases: {len(matrix.cases)}. "
        f"Cells computed {matrix.computed}, reused {matrix.reused}, not applicable {matrix.skipped}; "
        f"provider calls {matrix.provider_calls} (retries included)."
    )
    out.append("")
    out.append("Rates are in points (0-100) with bootstrap 95% intervals in brackets.")
    for ds in analysis.datasets:
        out += ["", f"## {ds}", ""]
        out += _markdown(*_rows(analysis, ds, with_ci=True))
        out += ["", "Totals (reused cells count what they cost when computed):", ""]
        out += _markdown(TOTALS_HEADER, _total_rows(gates, ds))
    out += ["", "## Verdicts", ""]
    verdicts = analysis.verdicts()
    out += [f"- {v}" for v in verdicts] or ["- no pair of contenders differs on any case"]
    out += [
        f"- [{ds}] {a} and {b} answered all {n} shared cases identically"
        for ds, a, b, n in analysis.identical
    ]
    lost = [
        r
        for r in matrix.results
        if r.error
        or r.missed
        or r.hallucinated
        or r.format_problem
        or any(not a.passed for a in r.asserts)
        or (r.output is not None and r.output.fallback)
    ]
    if lost:
        out += ["", "## Cells that lost something", "", "| contender | case | problem |", "|---|---|---|"]
        for r in lost:
            problems = []
            if r.error:
                problems.append(f"error: {r.error}")
            if r.output is not None and r.output.fallback:
                problems.append(f"fell back: {r.output.reason or 'unknown reason'}")
            if r.missed:
                problems.append("missed " + "; ".join(r.missed[:5]) + (" ..." if len(r.missed) > 5 else ""))
            if r.hallucinated:
                problems.append("invented " + ", ".join(r.hallucinated[:5]))
            if r.format_problem:
                problems.append(r.format_problem)
            problems += [
                f"assert {a.check} failed" + (f" ({a.reason})" if a.reason else "")
                for a in r.asserts
                if not a.passed
            ]
            cell = "; ".join(problems).replace("|", "\\|").replace("\n", " ")
            out.append(f"| {r.contender} | {r.case_id} | {cell} |")
    return "\n".join(out) + "\n"


def _scrubbed(matrix: Matrix, result: CellResult) -> CellResult:
    """The cell as written: scrubbed, and a missed fact that is a secret in the case's source too."""
    from summarizer.core.scrub import scrub_model

    if not (result.missed or result.hallucinated):
        return scrub_model(result)
    source = next((c.source for c in matrix.cases if c.id == result.case_id), "")
    return scrub_model(result, context=source)


def write_reports(
    out_dir: Path,
    matrix: Matrix,
    analysis: Analysis,
    gates: GateReport | None = None,
    *,
    csv_path: Path | None = None,
) -> dict[str, Path]:
    """Write ``results.jsonl``, ``report.md``, ``report.html`` and ``summary.json`` (and the CSV)."""
    from summarizer.core.scrub import scrub
    from summarizer.evaluation.html import render_html
    from summarizer.evaluation.summary import run_summary

    gates = gates or check(matrix, analysis)
    # Nothing leaves the process unscrubbed: the cells quote dataset entries and answers verbatim.
    matrix = dataclasses.replace(matrix, results=tuple(_scrubbed(matrix, r) for r in matrix.results))
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {
        "results": out_dir / "results.jsonl",
        "markdown": out_dir / "report.md",
        "html": out_dir / "report.html",
    }
    with paths["results"].open("w", encoding="utf-8") as fh:
        for r in matrix.results:
            fh.write(json.dumps(r.model_dump(mode="json"), ensure_ascii=False) + "\n")
    paths["markdown"].write_text(scrub(render_markdown(matrix, analysis, gates))[0], encoding="utf-8")
    totals = {ds: (TOTALS_HEADER, _total_rows(gates, ds)) for ds in analysis.datasets}
    page = render_html(matrix, analysis, _headline(gates), totals=totals)
    paths["html"].write_text(scrub(page)[0], encoding="utf-8")
    paths["summary"] = out_dir / "summary.json"
    summary = json.dumps(run_summary(matrix, analysis, gates), ensure_ascii=False, indent=1)
    paths["summary"].write_text(scrub(summary)[0] + "\n", encoding="utf-8")
    if csv_path is not None:
        write_csv(csv_path, matrix)
        paths["csv"] = csv_path
    return paths


def store_warning(results: CellStore | None) -> str | None:
    """The stderr line for cells the cell store could not keep (they are recomputed next time)."""
    if results is None or not results.write_errors:
        return None
    return (
        f"summarizer: {results.write_errors} cells were not stored in {results.location!r} "
        f"({results.last_error}); they will be recomputed next time"
    )
