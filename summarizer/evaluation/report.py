"""Text reports: the terminal table, ``report.md`` and ``results.jsonl`` (every cell).

The terminal table shows, per dataset, one row per contender with each metric's mean (rates in
points, 0-100). ``report.md`` adds the 95% intervals, the verdicts and the cells that failed or
missed facts. ``results.jsonl`` holds every cell exactly as measured, for your own analysis.
"""

from __future__ import annotations

import json
from pathlib import Path

from summarizer.evaluation.comparison import Analysis
from summarizer.evaluation.runner import Matrix
from summarizer.evaluation.stats import format_value

__all__ = ["render_markdown", "render_table", "write_reports"]


def _rows(analysis: Analysis, dataset: str, *, with_ci: bool) -> tuple[list[str], list[list[str]]]:
    header = ["contender", "cells", *(m.label for m in analysis.metrics)]
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


def render_table(matrix: Matrix, analysis: Analysis) -> str:
    """A plain-text table per dataset plus the verdicts, for the terminal."""
    out: list[str] = []
    for ds in analysis.datasets:
        header, rows = _rows(analysis, ds, with_ci=False)
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
        out.append(f"== {ds} ==")
        out.append("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
        out.extend("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows)
        out.append("")
    out.extend(analysis.verdicts())
    out.extend(
        f"[{ds}] {a} and {b} answered all {n} shared cases identically" for ds, a, b, n in analysis.identical
    )
    out.append(
        f"cells: {matrix.computed} computed, {matrix.reused} reused, {matrix.skipped} not applicable; "
        f"provider calls: {matrix.provider_calls}"
    )
    return "\n".join(out) + "\n"


def render_markdown(matrix: Matrix, analysis: Analysis) -> str:
    """``report.md``: tables with intervals, verdicts, and the cells that lost something."""
    out = ["# Eval report", ""]
    out.append(
        f"Contenders: {', '.join(matrix.contenders)}. Cases: {len(matrix.cases)}. "
        f"Cells computed {matrix.computed}, reused {matrix.reused}, not applicable {matrix.skipped}; "
        f"provider calls {matrix.provider_calls}."
    )
    out.append("")
    out.append("Rates are in points (0-100) with bootstrap 95% intervals in brackets.")
    for ds in analysis.datasets:
        header, rows = _rows(analysis, ds, with_ci=True)
        out += ["", f"## {ds}", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        out += ["| " + " | ".join(r) + " |" for r in rows]
    out += ["", "## Verdicts", ""]
    verdicts = analysis.verdicts()
    out += [f"- {v}" for v in verdicts] or ["- no pair of contenders differs on any case"]
    out += [
        f"- [{ds}] {a} and {b} answered all {n} shared cases identically"
        for ds, a, b, n in analysis.identical
    ]
    lost = [r for r in matrix.results if r.error or r.missed or r.hallucinated or r.format_problem]
    if lost:
        out += ["", "## Cells that lost something", "", "| contender | case | problem |", "|---|---|---|"]
        for r in lost:
            problems = []
            if r.error:
                problems.append(f"error: {r.error}")
            if r.missed:
                problems.append("missed " + "; ".join(r.missed[:5]) + (" ..." if len(r.missed) > 5 else ""))
            if r.hallucinated:
                problems.append("invented " + ", ".join(r.hallucinated[:5]))
            if r.format_problem:
                problems.append(r.format_problem)
            cell = "; ".join(problems).replace("|", "\\|").replace("\n", " ")
            out.append(f"| {r.contender} | {r.case_id} | {cell} |")
    return "\n".join(out) + "\n"


def write_reports(out_dir: Path, matrix: Matrix, analysis: Analysis) -> dict[str, Path]:
    """Write ``results.jsonl``, ``report.md`` and ``report.html`` into ``out_dir``."""
    from summarizer.evaluation.html import render_html

    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {
        "results": out_dir / "results.jsonl",
        "markdown": out_dir / "report.md",
        "html": out_dir / "report.html",
    }
    with paths["results"].open("w", encoding="utf-8") as fh:
        for r in matrix.results:
            fh.write(json.dumps(r.model_dump(mode="json"), ensure_ascii=False) + "\n")
    paths["markdown"].write_text(render_markdown(matrix, analysis), encoding="utf-8")
    paths["html"].write_text(render_html(matrix, analysis), encoding="utf-8")
    return paths
