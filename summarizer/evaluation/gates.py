"""Gates a CI job can fail on, and the one line that says which contender to pick.

* **Honest outcomes**: a contender whose model cells all fell back to the template (or failed)
  never answered; it is named with its reason and fails the run unless ``--allow-fallback``.
* **Requirements** (``--require [CONTENDER:]METRIC>=VALUE`` or ``<=``): checked per dataset for
  every contender except the template (name it, ``template:reduction>=0.5``, to gate it too).
  Rates are written as fractions or percentages (``0.9``, ``90%``); latency in ms; cost in USD.
* **No regression** (``--no-regression-vs BASELINE``): every other contender but the template is
  compared with the baseline case by case; a metric it loses (more losing cases than winning ones)
  with an exact sign-test p below ``alpha`` fails the run.
* **Recommendation**: per dataset, among the contenders that pass every gate, the one with the most
  net significant wins against the others, metric by metric in the metric table's order (fidelity
  before size); with its significant differences and where the template still wins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from summarizer.core.errors import InputError
from summarizer.evaluation.accounting import Totals, totals
from summarizer.evaluation.comparison import Analysis
from summarizer.evaluation.metrics import MetricSpec
from summarizer.evaluation.runner import Matrix
from summarizer.evaluation.stats import Comparison, Estimate, format_value

__all__ = ["GateReport", "Requirement", "check", "check_labels", "parse_requirement"]

TEMPLATE = "template"

# what users may write -> the metric (a METRICS name, or a figure computed from the totals)
_ALIASES = {
    "fact_recall": "fact_recall",
    "recall": "fact_recall",
    "coordinate_recall": "coordinate_recall",
    "hallucinations": "hallucinations",
    "hallucinated_tokens": "hallucinations",
    "format": "format_ok",
    "format_ok": "format_ok",
    "format_compliance": "format_ok",
    "reduction": "reduction",
    "latency_p95": "latency_p95",
    "p95": "latency_p95",
    "cost": "cost",
    "cost_usd": "cost",
    "fallback": "fallback",
    "fallbacks": "fallback",
    "assert_pass_rate": "assert_pass_rate",
    "asserts": "assert_pass_rate",
}
_RATES = {"fact_recall", "coordinate_recall", "format_ok", "reduction", "fallback", "assert_pass_rate"}
_REQUIREMENT = re.compile(
    r"^(?:(?P<who>[^:<>=]+):)?(?P<metric>[a-z_0-9]+)\s*(?P<op>>=|<=)\s*(?P<value>[-\d.]+)(?P<pct>%?)$"
)


@dataclass(frozen=True, slots=True)
class Requirement:
    """One ``--require``: ``metric op value`` for one contender, or all but the template."""

    text: str
    metric: str
    op: Literal[">=", "<="]
    value: float
    contender: str | None = None

    def applies_to(self, contender: str) -> bool:
        """Named contenders only, or every contender but the template."""
        return contender == self.contender if self.contender else contender != TEMPLATE

    def holds(self, actual: float) -> bool:
        """True when ``actual`` satisfies the requirement."""
        return actual >= self.value if self.op == ">=" else actual <= self.value


def parse_requirement(text: str) -> Requirement:
    """``fact_recall>=0.9``, ``v2:latency_p95<=800``, ``reduction>=60%`` (InputError otherwise)."""
    m = _REQUIREMENT.match(text.strip().replace(" ", ""))
    names = ", ".join(sorted(set(_ALIASES)))
    if m is None:
        raise InputError(f"--require {text!r}: write [CONTENDER:]METRIC>=VALUE or <=VALUE (metrics: {names})")
    metric = _ALIASES.get(m["metric"])
    if metric is None:
        raise InputError(f"--require {text!r}: unknown metric {m['metric']!r} (metrics: {names})")
    try:
        value = float(m["value"])
    except ValueError as exc:
        raise InputError(f"--require {text!r}: {m['value']!r} is not a number") from exc
    if m["pct"]:
        value /= 100
    elif metric in _RATES and value > 1:
        raise InputError(f"--require {text!r}: {metric} is a rate; write 0.9 or 90%")
    op: Literal[">=", "<="] = ">=" if m["op"] == ">=" else "<="
    return Requirement(text=text.strip(), metric=metric, op=op, value=value, contender=m["who"])


@dataclass
class GateReport:
    """What the gates found: failures fail the run (exit 1); outcomes and lines are for reading."""

    failures: list[str] = field(default_factory=list)
    outcomes: list[str] = field(default_factory=list)
    recommendations: list[str] = field(default_factory=list)
    totals: list[Totals] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when no gate failed."""
        return not self.failures


def _figure(analysis: Analysis, total: Totals, metric: str) -> float | None:
    if metric == "latency_p95":
        return total.latency_p95_ms
    if metric == "cost":
        return total.cost_usd if total.cost_usd is not None else 0.0  # no model cell: nothing paid
    if metric == "fallback":
        return total.fallbacks / total.model_cells if total.model_cells else 0.0
    for st in analysis.stats:
        if st.dataset == total.dataset and st.contender == total.contender and metric in st.estimates:
            return st.estimates[metric].mean
    return None


def _shown(metric: str, value: float) -> str:
    if metric in _RATES:
        return f"{value * 100:.1f}%"
    if metric == "latency_p95":
        return f"{value:.0f} ms"
    if metric == "cost":
        return f"${value:.5f}"
    return f"{value:.2f}"


def _pair(analysis: Analysis, dataset: str, a: str, b: str) -> list[Comparison]:
    """Comparisons of ``a`` against ``b`` on ``dataset``, oriented so ``a`` is the challenger."""
    out = []
    for ds, c in analysis.comparisons:
        if ds != dataset:
            continue
        if (c.challenger, c.baseline) == (a, b):
            out.append(c)
        elif (c.challenger, c.baseline) == (b, a):
            out.append(_flip(c))
    return out


def _flip(c: Comparison) -> Comparison:
    d = c.diff
    return Comparison(
        c.metric,
        c.baseline,
        c.challenger,
        Estimate(-d.mean, -d.high, -d.low, d.n),
        c.losses,
        c.wins,
        c.ties,
        c.p_value,
    )


def _lost(c: Comparison, alpha: float) -> bool:
    return c.losses > c.wins and c.p_value < alpha


def _won(c: Comparison, alpha: float) -> bool:
    return c.wins > c.losses and c.p_value < alpha


def _p(p: float) -> str:
    return "p<0.001" if p < 0.001 else f"p={p:.3f}"


def _diff(c: Comparison) -> str:
    spec: MetricSpec = c.metric
    return f"{format_value(spec, c.diff.mean, signed=True)} {spec.label} ({_p(c.p_value)})"


def check_labels(
    labels: tuple[str, ...], requirements: tuple[Requirement, ...], no_regression_vs: str | None
) -> None:
    """Every contender a gate names exists (checked before the first cell runs, and again after)."""
    names = ", ".join(labels)
    for req in requirements:
        if req.contender and req.contender not in labels:
            raise InputError(f"--require {req.text!r}: no contender {req.contender!r} ({names})")
    if no_regression_vs is not None and no_regression_vs not in labels:
        raise InputError(f"--no-regression-vs {no_regression_vs!r}: no such contender ({names})")


def unpriced_models(matrix: Matrix, contender: str | None = None) -> list[str]:
    """Models that answered cells of ``contender`` (or anyone's) with no known price."""
    found = {
        r.output.model or "?"
        for r in matrix.results
        if r.output is not None
        and r.output.provider_calls
        and r.output.cost_usd is None
        and (contender is None or r.contender == contender)
    }
    return sorted(found)


def _check_known_costs(matrix: Matrix, requirements: tuple[Requirement, ...]) -> None:
    """A cost gate over a model litellm cannot price would compare 0 with the bar: refuse it."""
    for req in requirements:
        if req.metric != "cost":
            continue
        unknown = [
            m for label in matrix.contenders if req.applies_to(label) for m in unpriced_models(matrix, label)
        ]
        if unknown:
            raise InputError(
                f"--require {req.text!r}: the cost of {', '.join(dict.fromkeys(unknown))} is unknown "
                "(not in litellm's cost map); pass --cost-per-1k USD to price its tokens"
            )


def check(
    matrix: Matrix,
    analysis: Analysis,
    *,
    requirements: tuple[Requirement, ...] = (),
    no_regression_vs: str | None = None,
    allow_fallback: bool = False,
    alpha: float = 0.05,
) -> GateReport:
    """Apply every gate to every dataset; build the outcome and recommendation lines."""
    report = GateReport(totals=totals(matrix.results))
    check_labels(matrix.contenders, requirements, no_regression_vs)
    _check_known_costs(matrix, requirements)
    many = len(analysis.datasets) > 1
    for ds in analysis.datasets:
        prefix = f"[{ds}] " if many else ""
        rows = [t for t in report.totals if t.dataset == ds]
        out: dict[str, list[str]] = {t.contender: [] for t in rows}  # why each contender is out
        for t in rows:
            if (line := t.outcome()) is not None:
                report.outcomes.append(prefix + line)
            if t.never_answered:
                out[t.contender].append(
                    f"never answered ({t.fallbacks + t.errors}/{t.model_cells} fell back)"
                )
                if not allow_fallback:
                    report.failures.append(prefix + (t.outcome() or t.contender))
            for req in requirements:
                if not req.applies_to(t.contender):
                    continue
                actual = _figure(analysis, t, req.metric)
                if actual is None:
                    continue  # the metric does not apply to this dataset's kind
                if not req.holds(actual):
                    wanted, got = _shown(req.metric, req.value), _shown(req.metric, actual)
                    why = f"fails {req.metric}{req.op}{wanted} ({got})"
                    out[t.contender].append(why)
                    report.failures.append(f"{prefix}{t.contender} {why}")
            if no_regression_vs and t.contender not in (no_regression_vs, TEMPLATE):
                for c in _pair(analysis, ds, t.contender, no_regression_vs):
                    if _lost(c, alpha):
                        why = f"regresses vs {no_regression_vs}: {_diff(c)}"
                        out[t.contender].append(why)
                        report.failures.append(f"{prefix}{t.contender} {why}")
        report.recommendations.append(prefix + _recommend(analysis, ds, rows, out, alpha))
    return report


def _beats(analysis: Analysis, ds: str, a: str, b: str, alpha: float) -> bool:
    """``a`` significantly better than ``b`` on the first metric, in table order, where they differ."""
    net = {m.name: 0 for m in analysis.metrics}
    for c in _pair(analysis, ds, a, b):
        net[c.metric.name] += 1 if _won(c, alpha) else -1 if _lost(c, alpha) else 0
    return next((v > 0 for v in net.values() if v), False)


def _recommend(
    analysis: Analysis, ds: str, rows: list[Totals], out: dict[str, list[str]], alpha: float
) -> str:
    challengers = [t.contender for t in rows if t.contender != TEMPLATE]
    if not challengers:
        return "only the template ran: nothing to choose between (add --prompts/--model)"
    candidates = [c for c in challengers if not out[c]]
    excluded = "; ".join(f"{c} {', '.join(out[c])}" for c in challengers if out[c])
    if not candidates:
        return f"pick none: {excluded}"

    def score(label: str) -> tuple[int, ...]:
        # Net significant wins per metric, in the metric table's order: fidelity (recall,
        # hallucinations, format) before size, so "more facts, a little longer" beats the reverse.
        net = {m.name: 0 for m in analysis.metrics}
        for other in candidates:
            for c in _pair(analysis, ds, label, other) if other != label else ():
                net[c.metric.name] += 1 if _won(c, alpha) else -1 if _lost(c, alpha) else 0
        return tuple(net.values())

    best = max(candidates, key=lambda c: (score(c), -candidates.index(c)))
    if TEMPLATE in out and not out[TEMPLATE] and _beats(analysis, ds, TEMPLATE, best, alpha):
        # The matrix says the template is better where it matters most: recommending a prompt
        # here would contradict it.
        diffs = [_diff(c) for c in _pair(analysis, ds, TEMPLATE, best) if c.p_value < alpha]
        line = f"keep the template: {', '.join(diffs)} vs {best}"
        return line + (f"; not {excluded}" if excluded else "")
    others = [c for c in candidates if c != best]
    versus = others[0] if others else (TEMPLATE if TEMPLATE in out else None)
    line = f"pick {best}"
    if versus is not None:
        diffs = [_diff(c) for c in _pair(analysis, ds, best, versus) if c.p_value < alpha]
        line += f": {', '.join(diffs)} vs {versus}" if diffs else f": no significant difference from {versus}"
    if TEMPLATE in out:
        still = [c.metric.label for c in _pair(analysis, ds, TEMPLATE, best) if _won(c, alpha)]
        if still:
            line += f"; the template still wins on {', '.join(still)}"
    if excluded:
        line += f"; not {excluded}"
    return line
