"""From a matrix of cells to numbers a prompt author can act on.

Per dataset, per contender and per metric: the mean with its bootstrap 95% interval. Per dataset
and metric, every pair of contenders is compared on the cases both answered without error, later
contender against earlier (so ``--prompts v1 --prompts v2`` reads "v2 beats v1"; the template comes
first and is everyone's baseline). Pairs that are identical on every case are summarised, not
given a verdict of their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from summarizer.evaluation.cells import CellResult
from summarizer.evaluation.metrics import METRICS, MetricSpec
from summarizer.evaluation.runner import Matrix
from summarizer.evaluation.stats import Comparison, Estimate, bootstrap_mean, compare

__all__ = ["Analysis", "ContenderStats", "analyse"]


@dataclass(frozen=True, slots=True)
class ContenderStats:
    """One contender on one dataset: the estimate per metric, cells answered and failed."""

    dataset: str
    contender: str
    estimates: dict[str, Estimate]
    cells: int
    errors: int


@dataclass(frozen=True, slots=True)
class Analysis:
    """Everything the reports show."""

    datasets: tuple[str, ...]
    metrics: tuple[MetricSpec, ...]
    stats: tuple[ContenderStats, ...]
    comparisons: tuple[tuple[str, Comparison], ...]  # (dataset, comparison)
    identical: tuple[tuple[str, str, str, int], ...]  # (dataset, challenger, baseline, cases)

    def verdicts(self) -> list[str]:
        """The one-line verdicts, prefixed with the dataset when there are several."""
        many = len(self.datasets) > 1
        return [(f"[{ds}] " if many else "") + c.verdict() for ds, c in self.comparisons]


def _values(cells: Sequence[CellResult], metric: str) -> dict[str, float]:
    return {c.case_id: c.metrics[metric] for c in cells if c.error is None and metric in c.metrics}


def _estimate(metric: MetricSpec, values: list[float], kwargs: dict[str, int]) -> Estimate:
    # Bookkeeping metrics (latency, tokens, cost) are reported as plain means: an interval on them
    # would cost most of the analysis time and answer no question anyone asks of them.
    if not metric.compare:
        mean = sum(values) / len(values)
        return Estimate(mean, mean, mean, len(values))
    return bootstrap_mean(values, **kwargs)


def analyse(matrix: Matrix, *, seed: int | None = None) -> Analysis:
    """Estimates and paired comparisons for every dataset, contender and metric present."""
    datasets = tuple(dict.fromkeys(case.dataset for case in matrix.cases))
    present = {name for r in matrix.results for name in r.metrics}
    metrics = tuple(m for m in METRICS if m.name in present)
    kwargs = {} if seed is None else {"seed": seed}
    stats: list[ContenderStats] = []
    comparisons: list[tuple[str, Comparison]] = []
    identical: list[tuple[str, str, str, int]] = []
    for ds in datasets:
        by_contender = {
            label: [r for r in matrix.results if r.dataset == ds and r.contender == label]
            for label in matrix.contenders
        }
        for label, cells in by_contender.items():
            if not cells:
                continue
            estimates = {
                m.name: _estimate(m, list(values.values()), kwargs)
                for m in metrics
                if (values := _values(cells, m.name))
            }
            stats.append(ContenderStats(ds, label, estimates, len(cells), sum(1 for c in cells if c.error)))
        labels = [label for label, cells in by_contender.items() if cells]
        for j, challenger in enumerate(labels):
            for baseline in labels[:j]:
                all_same = True
                shared_cases = 0
                for m in metrics:
                    if not m.compare:
                        continue
                    a = _values(by_contender[challenger], m.name)
                    b = _values(by_contender[baseline], m.name)
                    shared = [case for case in a if case in b]
                    if not shared:
                        continue
                    shared_cases = max(shared_cases, len(shared))
                    result = compare(
                        m, challenger, [a[c] for c in shared], baseline, [b[c] for c in shared], **kwargs
                    )
                    if result.wins or result.losses:
                        all_same = False
                        comparisons.append((ds, result))
                if all_same and shared_cases:
                    identical.append((ds, challenger, baseline, shared_cases))
    return Analysis(datasets, metrics, tuple(stats), tuple(comparisons), tuple(identical))
