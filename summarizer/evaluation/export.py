"""``--csv``: one row per cell, with units in the column names, for a spreadsheet or pandas.

The columns are a contract (tests pin them): identity, who answered and why, what it cost, then
every metric. A metric that does not apply to the case kind is an empty field, never a zero.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from pathlib import Path

from summarizer.evaluation.cells import CellResult
from summarizer.evaluation.runner import Matrix

__all__ = ["CSV_COLUMNS", "csv_rows", "write_csv"]

_METRIC_COLUMNS = {
    "fact_recall": "fact_recall",
    "coordinate_recall": "coordinate_recall",
    "should_recall": "should_recall",
    "hallucinated_tokens": "hallucinations",
    "format_ok": "format_ok",
    "reduction": "reduction",
    "tokens_out": "tokens_out",
    "judge_faithfulness": "faithfulness",
    "assert_pass_rate": "assert_pass_rate",
}

CSV_COLUMNS: tuple[str, ...] = (
    "dataset",
    "case_id",
    "kind",
    "band",
    "contender",
    "model",
    "source",
    "fallback",
    "reason",
    "error",
    "reused",
    "provider_requests",
    "failed_requests",
    "latency_ms",
    "client_ms",
    "tokens_in",
    "tokens_out_provider",
    "cost_usd",
    *_METRIC_COLUMNS,
)


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def csv_rows(results: Iterable[CellResult]) -> list[dict[str, str]]:
    """The CSV rows of ``results``, keyed by :data:`CSV_COLUMNS`."""
    rows = []
    for r in results:
        o = r.output
        row: dict[str, object] = {
            "dataset": r.dataset,
            "case_id": r.case_id,
            "kind": r.kind,
            "band": r.band,
            "contender": r.contender,
            "model": o.model if o else None,
            "source": o.source if o else None,
            "fallback": o.fallback if o else None,
            "reason": o.reason if o else None,
            "error": r.error,
            "reused": r.reused,
            "provider_requests": o.provider_calls if o else 0,
            "failed_requests": o.failed_calls if o else 0,
            "latency_ms": o.latency_s * 1000 if o else None,
            "client_ms": o.client_s * 1000 if o else None,
            "tokens_in": o.prompt_tokens if o else 0,
            "tokens_out_provider": o.completion_tokens if o else 0,
            "cost_usd": o.cost_usd if o else None,
        }
        for column, metric in _METRIC_COLUMNS.items():
            row[column] = r.metrics.get(metric)
        rows.append({k: _text(row[k]) for k in CSV_COLUMNS})
    return rows


def write_csv(path: Path, matrix: Matrix) -> None:
    """Write every cell of ``matrix`` to ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(CSV_COLUMNS))
        writer.writeheader()
        writer.writerows(csv_rows(matrix.results))
