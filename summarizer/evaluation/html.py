"""``report.html``: one self-contained page (inline CSS, inline JS, static SVG; nothing fetched).

Sections: the verdicts; the matrix (contenders x metrics, per dataset); one bar chart per metric
with the 95% interval as a whisker; and the per-case view, every contender's answer side by side,
with a toggle that shows only the cases where the answers differ.

The page must open on an air-gapped machine and must not leak that a report was opened, so it
references no URL at all. Answers can quote URLs from the input; ``://`` in any text is written
as ``:&#47;&#47;``, which displays the same but is not a link or a fetchable reference.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

from summarizer.evaluation.cells import CellResult
from summarizer.evaluation.comparison import Analysis
from summarizer.evaluation.runner import Matrix
from summarizer.evaluation.stats import column_label, format_value

__all__ = ["render_html"]

_CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#1d2330;background:#fbfbfd}
h1,h2,h3{font-weight:600}table{border-collapse:collapse;margin:.5em 0 1.5em}
th,td{border:1px solid #d5d9e2;padding:4px 8px;vertical-align:top;text-align:left}
th{background:#eef1f6}td.num{text-align:right;font-variant-numeric:tabular-nums}
.verdicts li{margin:.2em 0}.better{color:#0a6b2d}.worse{color:#a3231a}.ns{color:#5b6475}
pre{white-space:pre-wrap;margin:0;font:12px/1.35 ui-monospace,monospace;max-width:36em}
.chart{display:inline-block;margin:0 1.5em 1em 0;vertical-align:top}
.miss{color:#a3231a;font-size:12px}.meta{color:#5b6475;font-size:12px}
tr.same{opacity:.8}body.only-diff tr.same{display:none}
"""

_JS = """
document.getElementById('only-diff').addEventListener('change', function (e) {
  document.body.classList.toggle('only-diff', e.target.checked);
});
"""


def _esc(text: object) -> str:
    return html.escape(str(text)).replace("://", ":&#47;&#47;")


def _matrix(matrix: Matrix, analysis: Analysis, ds: str) -> str:
    metrics = [
        m
        for m in analysis.metrics
        if any(m.name in st.estimates for st in analysis.stats if st.dataset == ds)
    ]
    rows = [
        "<table class='matrix' data-dataset='"
        + _esc(ds)
        + "'><tr><th>contender</th><th>cells</th>"
        + "".join(f"<th>{_esc(column_label(m))}</th>" for m in metrics)
        + "</tr>"
    ]
    for st in analysis.stats:
        if st.dataset != ds:
            continue
        cells = []
        for m in metrics:
            est = st.estimates.get(m.name)
            if est is None:
                cells.append("<td class='num'>-</td>")
            else:
                ci = (
                    ""
                    if est.low == est.high
                    else (
                        f"<div class='meta'>[{_esc(format_value(m, est.low))}, "
                        f"{_esc(format_value(m, est.high))}]</div>"
                    )
                )
                cells.append(f"<td class='num'>{_esc(format_value(m, est.mean))}{ci}</td>")
        rows.append(f"<tr><th>{_esc(st.contender)}</th><td class='num'>{st.cells}</td>{''.join(cells)}</tr>")
    rows.append("</table>")
    return "".join(rows)


def _charts(analysis: Analysis, ds: str, contenders: tuple[str, ...]) -> str:
    out = []
    palette = ["#3b6fd4", "#d4843b", "#3bb07a", "#b03b8f", "#7a7a7a", "#c9b22b"]
    for m in analysis.metrics:
        bars = [
            (st.contender, st.estimates[m.name])
            for st in analysis.stats
            if st.dataset == ds and m.name in st.estimates
        ]
        if not bars:
            continue
        top = max([abs(e.high) for _, e in bars] + [abs(e.mean) for _, e in bars] + [1e-9])
        if m.unit == "points":
            top = max(top, 1.0)
        width, row_h, label_w = 360, 22, 130
        height = row_h * len(bars) + 8
        parts = [
            f"<svg class='bars' width='{width}' height='{height}' role='img' aria-label='{_esc(m.label)}'>"
        ]
        for i, (label, est) in enumerate(bars):
            y = 4 + i * row_h
            scale = (width - label_w - 70) / top
            w = max(0.0, est.mean) * scale
            color = palette[contenders.index(label) % len(palette)]  # one colour per contender
            parts.append(f"<text x='0' y='{y + 14}' font-size='12'>{_esc(label[:18])}</text>")
            parts.append(f"<rect x='{label_w}' y='{y + 3}' width='{w:.1f}' height='14' fill='{color}'/>")
            if est.low != est.high:
                x1, x2 = label_w + max(0.0, est.low) * scale, label_w + max(0.0, est.high) * scale
                parts.append(f"<line x1='{x1:.1f}' x2='{x2:.1f}' y1='{y + 10}' y2='{y + 10}' stroke='#111'/>")
            parts.append(
                f"<text x='{label_w + w + 4:.1f}' y='{y + 14}' font-size='11'>"
                f"{_esc(format_value(m, est.mean))}</text>"
            )
        parts.append("</svg>")
        better = "higher is better" if m.better == "higher" else "lower is better"
        out.append(
            f"<div class='chart'><h3>{_esc(m.label)} <span class='meta'>({better})</span></h3>"
            + "".join(parts)
            + "</div>"
        )
    return "".join(out)


def _asserts(cell: CellResult) -> str:
    if not cell.asserts:
        return ""
    passed = sum(a.passed for a in cell.asserts)
    items = "".join(
        f"<li class='{'better' if a.passed else 'miss'}'>{'pass' if a.passed else 'FAIL'}: {_esc(a.check)}"
        + (f" ({_esc(a.reason)})" if a.reason and not a.passed else "")
        + "</li>"
        for a in cell.asserts
    )
    return f"<div class='asserts'>asserts {passed}/{len(cell.asserts)} passed<ul>{items}</ul></div>"


def _cases(matrix: Matrix, ds: str) -> str:
    labels = matrix.contenders
    rows = [
        "<table class='cases'><tr><th>case</th>" + "".join(f"<th>{_esc(c)}</th>" for c in labels) + "</tr>"
    ]
    for case in matrix.cases:
        if case.dataset != ds:
            continue
        cells = [matrix.cell(label, case.id) for label in labels]
        texts = {c.output.text if c.output is not None else c.error for c in cells if c is not None}
        differs = len(texts) > 1
        tds = []
        for cell in cells:
            if cell is None:
                tds.append("<td class='meta'>not applicable</td>")
                continue
            if cell.error:
                tds.append(f"<td class='miss'>error: {_esc(cell.error)}</td>")
                continue
            assert cell.output is not None
            metrics = ", ".join(
                f"{k}={v:.2f}"
                for k, v in cell.metrics.items()
                if k in ("fact_recall", "coordinate_recall", "hallucinations", "format_ok")
            )
            extra = ""
            if cell.missed:
                extra += f"<div class='miss'>missed: {_esc('; '.join(cell.missed[:8]))}</div>"
            if cell.hallucinated:
                extra += f"<div class='miss'>invented: {_esc(', '.join(cell.hallucinated[:8]))}</div>"
            if cell.format_problem:
                extra += f"<div class='miss'>format: {_esc(cell.format_problem)}</div>"
            extra += _asserts(cell)
            text = cell.output.text if len(cell.output.text) <= 4000 else cell.output.text[:4000] + "\n[...]"
            tds.append(
                f"<td><pre>{_esc(text)}</pre><div class='meta'>{_esc(cell.output.source)}; "
                f"{_esc(metrics)}</div>{extra}</td>"
            )
        band = f"<div class='meta'>{_esc(case.band)}</div>" if case.band else ""
        rows.append(
            f"<tr class='{'differs' if differs else 'same'}'>"
            f"<th>{_esc(case.id)}{band}</th>{''.join(tds)}</tr>"
        )
    rows.append("</table>")
    return "".join(rows)


def _line_class(line: str) -> str:
    return "worse" if line.startswith("FAILED") else "meta"


def _totals(table: tuple[Sequence[str], Sequence[Sequence[str]]] | None) -> str:
    if table is None:
        return ""
    header, rows = table
    head = "".join(f"<th>{_esc(h)}</th>" for h in header)
    body = "".join(
        f"<tr><th>{_esc(row[0])}</th>" + "".join(f"<td class='num'>{_esc(c)}</td>" for c in row[1:]) + "</tr>"
        for row in rows
    )
    return f"<h3>Totals</h3><table class='totals'><tr>{head}</tr>{body}</table>"


def render_html(
    matrix: Matrix,
    analysis: Analysis,
    headline: Sequence[str] = (),
    *,
    totals: Mapping[str, tuple[Sequence[str], Sequence[Sequence[str]]]] | None = None,
) -> str:
    """The whole page as one string; ``headline`` (recommendation, outcome, gate lines) opens it.

    ``totals`` holds, per dataset, the totals table (header with units, one row per contender).
    """
    verdicts = []
    for ds, comp in analysis.comparisons:
        cls = "better" if comp.better else ("worse" if comp.significant else "ns")
        prefix = f"[{ds}] " if len(analysis.datasets) > 1 else ""
        verdicts.append(f"<li class='{cls}'>{_esc(prefix + comp.verdict())}</li>")
    verdicts += [
        f"<li class='ns'>{_esc(f'[{ds}] {a} and {b} answered all {n} shared cases identically')}</li>"
        for ds, a, b, n in analysis.identical
    ]
    body = [
        "<h1>Eval report</h1>",
        *(f"<p class='{_line_class(line)}'>{_esc(line)}</p>" for line in headline),
        f"<p class='meta'>Contenders: {_esc(', '.join(matrix.contenders))}. Cases: {len(matrix.cases)}. "
        f"Cells computed {matrix.computed}, reused {matrix.reused}; "
        f"provider calls {matrix.provider_calls}.</p>",
        "<h2>Verdicts</h2><ul class='verdicts'>" + ("".join(verdicts) or "<li>no differences</li>") + "</ul>",
        "<label><input type='checkbox' id='only-diff'> show only cases where contenders differ</label>",
    ]
    for ds in analysis.datasets:
        body += [
            f"<h2>{_esc(ds)}</h2>",
            "<h3>Matrix</h3>",
            _matrix(matrix, analysis, ds),
            _totals((totals or {}).get(ds)),
            "<h3>Charts</h3>",
            _charts(analysis, ds, matrix.contenders),
            "<h3>Cases</h3>",
            _cases(matrix, ds),
        ]
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>summarizer eval report</title>"
        f"<style>{_CSS}</style></head><body>" + "\n".join(body) + f"<script>{_JS}</script></body></html>\n"
    )
