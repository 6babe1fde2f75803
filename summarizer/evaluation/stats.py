"""Is a difference real? Bootstrap confidence intervals and paired comparisons, deterministic.

Every contender answers the same cases, so contenders are compared **paired**, case by case:
wins / losses / ties on the metric, an exact two-sided sign test over the non-tied cases, and a
paired bootstrap of the mean difference. A verdict claims a winner only when the bootstrap 95%
interval excludes 0; otherwise it says "no significant difference". Resampling uses a seeded
``random.Random``, so a report is reproducible to the last digit (no numpy needed at this size).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from summarizer.evaluation.metrics import MetricSpec

__all__ = [
    "Comparison",
    "Estimate",
    "bootstrap_mean",
    "column_label",
    "compare",
    "format_value",
    "sign_test",
]

RESAMPLES = 2000
SEED = 20260610


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean with its bootstrap confidence interval over ``n`` values."""

    mean: float
    low: float
    high: float
    n: int


def _percentile(sorted_values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile of already sorted values (q in [0, 1])."""
    if len(sorted_values) == 1:
        return sorted_values[0]
    pos = q * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return float(sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo))


def bootstrap_mean(
    values: Sequence[float], *, resamples: int = RESAMPLES, seed: int = SEED, level: float = 0.95
) -> Estimate:
    """The mean of ``values`` with a percentile bootstrap interval; the same input gives the same CI."""
    if not values:
        raise ValueError("bootstrap_mean needs at least one value")
    n = len(values)
    mean = math.fsum(values) / n
    if all(v == values[0] for v in values):
        return Estimate(mean, mean, mean, n)
    rng = random.Random(seed)
    means = sorted(math.fsum(rng.choices(values, k=n)) / n for _ in range(resamples))
    tail = (1.0 - level) / 2
    return Estimate(mean, _percentile(means, tail), _percentile(means, 1 - tail), n)


def sign_test(wins: int, losses: int) -> float:
    """Exact two-sided sign-test p-value for ``wins`` against ``losses`` (ties already dropped)."""
    n = wins + losses
    if n == 0:
        return 1.0
    k = min(wins, losses)
    # Exact integers, then one division: math.comb(2000, k) overflows a float long before 2**n does.
    tail = sum(math.comb(n, i) for i in range(k + 1))
    return min(1.0, float(Fraction(2 * tail, 1 << n)))


@dataclass(frozen=True, slots=True)
class Comparison:
    """``challenger`` against ``baseline`` on one metric over their shared cases."""

    metric: MetricSpec
    challenger: str
    baseline: str
    diff: Estimate  # challenger - baseline, in raw metric units
    wins: int
    losses: int
    ties: int
    p_value: float

    @property
    def significant(self) -> bool:
        """True when the 95% interval of the difference excludes 0."""
        return self.diff.low > 0 or self.diff.high < 0

    @property
    def better(self) -> bool:
        """True when the challenger is significantly better (direction-aware)."""
        improved = self.diff.mean > 0 if self.metric.better == "higher" else self.diff.mean < 0
        return self.significant and improved

    def verdict(self) -> str:
        """One line, ``v2 beats v1 on fact recall: +8.1 points, 95% CI [3.2, 12.9], 31 wins / 6 losses``.

        Ties and the sign-test p-value are appended; an interval spanning 0 says so.
        """
        spec = self.metric
        shown = (
            f"{format_value(spec, self.diff.mean, signed=True)}, "
            f"95% CI [{format_value(spec, self.diff.low)}, {format_value(spec, self.diff.high)}], "
            f"{self.wins} wins / {self.losses} losses"
        )
        if self.ties:
            shown += f" / {self.ties} ties"
        shown += f", sign test p={self.p_value:.3g}"
        if not self.significant:
            return (
                f"{self.challenger} vs {self.baseline} on {spec.label}: no significant difference ({shown})"
            )
        verb = "beats" if self.better else "is worse than"
        return f"{self.challenger} {verb} {self.baseline} on {spec.label}: {shown}"


def compare(
    metric: MetricSpec,
    challenger: str,
    challenger_values: Sequence[float],
    baseline: str,
    baseline_values: Sequence[float],
    *,
    seed: int = SEED,
) -> Comparison:
    """Paired comparison of two contenders' values on the same cases, in the same order."""
    if len(challenger_values) != len(baseline_values) or not challenger_values:
        raise ValueError("a paired comparison needs the same non-empty list of cases on both sides")
    diffs = [a - b for a, b in zip(challenger_values, baseline_values, strict=True)]
    eps = 1e-12
    up = sum(1 for d in diffs if d > eps)
    down = sum(1 for d in diffs if d < -eps)
    wins, losses = (up, down) if metric.better == "higher" else (down, up)
    return Comparison(
        metric=metric,
        challenger=challenger,
        baseline=baseline,
        diff=bootstrap_mean(diffs, seed=seed),
        wins=wins,
        losses=losses,
        ties=len(diffs) - up - down,
        p_value=sign_test(wins, losses),
    )


_UNITS = {"points": " (pts)", "ms": " (ms)", "usd": " (USD)", "tokens": " (tokens)", "count": ""}


def column_label(spec: MetricSpec) -> str:
    """A table header with its unit: ``fact recall (pts)``, ``latency (ms)``, ``cost (USD)``."""
    return spec.label + _UNITS[spec.unit]


def format_value(spec: MetricSpec, value: float, *, signed: bool = False) -> str:
    """Render a metric value in its unit (rates as points: 0.081 -> ``8.1 points``)."""
    sign = "+" if signed and value > 0 else ""
    if spec.unit == "points":
        return f"{sign}{value * 100:.1f}" + (" points" if signed else "")
    if spec.unit == "ms":
        return f"{sign}{value:.0f} ms" if signed else f"{value:.0f}"
    if spec.unit == "usd":
        return f"{sign}${value:.5f}" if signed else f"{value:.5f}"
    if spec.unit == "tokens":
        return f"{sign}{value:.1f}" + (" tokens" if signed else "")
    return f"{sign}{value:.2f}"
