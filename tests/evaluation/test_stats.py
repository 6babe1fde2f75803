"""Statistics: deterministic bootstrap, exact sign test, direction-aware verdicts."""

from __future__ import annotations

import pytest

from summarizer.evaluation.metrics import METRICS
from summarizer.evaluation.stats import bootstrap_mean, compare, sign_test

RECALL = next(m for m in METRICS if m.name == "fact_recall")
HALLUCINATIONS = next(m for m in METRICS if m.name == "hallucinations")


def test_bootstrap_is_deterministic_for_a_seed_and_varies_across_seeds() -> None:
    """The same values and seed give the same interval; another seed gives another one."""
    values = [((i * 37) % 101) / 101 for i in range(30)]
    assert bootstrap_mean(values, seed=1) == bootstrap_mean(values, seed=1)
    assert bootstrap_mean(values, seed=1) != bootstrap_mean(values, seed=2)
    est = bootstrap_mean(values, seed=1)
    assert est.low < est.mean < est.high and est.mean == pytest.approx(sum(values) / 30)


def test_bootstrap_of_constant_values_is_a_point() -> None:
    """No spread, no interval."""
    est = bootstrap_mean([0.25] * 10)
    assert (est.mean, est.low, est.high, est.n) == (0.25, 0.25, 0.25, 10)


@pytest.mark.parametrize(
    ("wins", "losses", "p"),
    [
        (0, 0, 1.0),
        (5, 5, 1.0),
        (10, 0, 2 / 1024),
        (8, 2, 112 / 1024),
        (2, 8, 112 / 1024),
        (1, 0, 1.0),
        (6, 0, 2 / 64),
    ],
)
def test_sign_test_matches_the_exact_binomial(wins: int, losses: int, p: float) -> None:
    """Two-sided exact p-values: P(X <= min) * 2 under Binomial(n, 1/2), capped at 1."""
    assert sign_test(wins, losses) == pytest.approx(p)


def test_sign_test_survives_large_counts() -> None:
    """Thousands of cases do not overflow a float."""
    assert 0.0 <= sign_test(1500, 500) < 1e-100 or sign_test(1500, 500) == 0.0
    assert sign_test(1000, 1000) == pytest.approx(1.0, abs=0.05)


def test_a_clear_improvement_reads_as_beats_with_the_right_sign() -> None:
    """v2 recalls more on most cases: a positive difference, an interval above 0, 'beats'."""
    v1 = [0.5] * 20
    v2 = [1.0] * 15 + [0.5] * 4 + [0.25]
    c = compare(RECALL, "v2", v2, "v1", v1)
    assert (c.wins, c.losses, c.ties) == (15, 1, 4)
    assert c.better and c.diff.low > 0
    assert c.verdict().startswith("v2 beats v1 on fact recall: +36.2 points, 95% CI [")
    assert "15 wins / 1 losses / 4 ties" in c.verdict()


def test_the_reverse_comparison_says_worse() -> None:
    """Swapping the sides flips the sign and the verb."""
    v1 = [0.5] * 20
    v2 = [1.0] * 15 + [0.5] * 5
    c = compare(RECALL, "v1", v1, "v2", v2)
    assert c.significant and not c.better and c.diff.mean < 0
    assert c.verdict().startswith("v1 is worse than v2 on fact recall: -37.5 points")


def test_an_interval_spanning_zero_is_no_significant_difference() -> None:
    """Balanced wins and losses: no claim."""
    a = [1.0, 0.0] * 10
    b = [0.0, 1.0] * 10
    c = compare(RECALL, "v2", a, "v1", b)
    assert c.diff.low < 0 < c.diff.high and not c.significant
    assert "no significant difference" in c.verdict()


def test_lower_is_better_metrics_count_decreases_as_wins() -> None:
    """Fewer hallucinated tokens is a win."""
    c = compare(HALLUCINATIONS, "v2", [0.0] * 10, "v1", [2.0] * 10)
    assert (c.wins, c.losses) == (10, 0) and c.better
    assert c.verdict().startswith("v2 beats v1 on hallucinated tokens: -2.00")


def test_compare_refuses_unpaired_inputs() -> None:
    """A paired comparison needs the same cases on both sides."""
    with pytest.raises(ValueError, match="same non-empty"):
        compare(RECALL, "a", [1.0], "b", [1.0, 0.0])
