"""Gates: --require and --no-regression-vs pass and fail as they should; one recommendation line."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import pytest

from summarizer.core.errors import InputError
from summarizer.evaluation.gates import parse_requirement
from summarizer.evaluation.suite import EvalOptions, EvalRun, GateOptions, evaluate
from summarizer.output import OriginalStore
from summarizer.testing import FakeCompleter

from .conftest import echo_model


def _run(dataset: Path, versions: tuple[Path, Path], gates: GateOptions) -> EvalRun:
    v1, v2 = versions
    options = EvalOptions(
        datasets=(dataset,), prompts=(str(v1), str(v2)), models=("openai/fake-model",), concurrency=4
    )
    with tempfile.TemporaryDirectory() as store:
        return asyncio.run(
            evaluate(
                options,
                gates,
                completer=FakeCompleter(default=echo_model),
                answer_cache=None,
                results_cache=None,
                originals=OriginalStore(Path(store)),
            )
        )


@pytest.mark.parametrize(
    ("text", "metric", "op", "value", "who"),
    [
        ("fact_recall>=0.9", "fact_recall", ">=", 0.9, None),
        ("recall >= 90%", "fact_recall", ">=", 0.9, None),
        ("v2:latency_p95<=800", "latency_p95", "<=", 800.0, "v2"),
        ("hallucinated_tokens<=0.5", "hallucinations", "<=", 0.5, None),
        ("cost<=0.02", "cost", "<=", 0.02, None),
        ("format>=1", "format_ok", ">=", 1.0, None),
    ],
)
def test_requirements_parse_with_aliases_and_percentages(
    text: str, metric: str, op: str, value: float, who: str | None
) -> None:
    """Metric aliases, ``%`` and a contender prefix are understood."""
    req = parse_requirement(text)
    assert (req.metric, req.op, req.value, req.contender) == (metric, op, pytest.approx(value), who)


@pytest.mark.parametrize("text", ["recall>90", "recall>=95", "speed<=1", "recall>=x"])
def test_bad_requirements_are_input_errors(text: str) -> None:
    """A wrong operator, a rate above 1 without %, an unknown metric: exit 2 material."""
    with pytest.raises(InputError, match="--require"):
        parse_requirement(text)


def test_require_fails_the_contender_below_the_bar_and_passes_the_one_above(
    small_dataset: Path, versions: tuple[Path, Path]
) -> None:
    """v1 never states the endpoint (recall 0), v2 does: a 10% bar fails v1 only; v2 is picked."""
    run = _run(small_dataset, versions, GateOptions(requirements=("fact_recall>=0.1",)))
    assert run.exit_code == 1
    assert run.gates.failures == ["v1 fails fact_recall>=10.0% (0.0%)"]
    [line] = run.gates.recommendations
    # The only candidate left loses fact recall to the template: the line never recommends it.
    assert line == (
        "keep the template: +86.5 points fact recall (p<0.001), -48.1 points token reduction (p<0.001) "
        "vs v2; not v1 fails fact_recall>=10.0% (0.0%)"
    )


def test_require_that_every_contender_meets_exits_0(small_dataset: Path, versions: tuple[Path, Path]) -> None:
    """Bars both contenders clear: no failure, exit 0, and the template is not gated by default."""
    run = _run(small_dataset, versions, GateOptions(requirements=("format>=0.9", "reduction>=50%")))
    assert run.gates.failures == [] and run.exit_code == 0
    # Both pass; v2 beats v1 on fact recall (fidelity decides between them), but the template
    # keeps far more facts than v2: recommending v2 would contradict the matrix.
    assert run.gates.recommendations[0] == (
        "keep the template: +86.5 points fact recall (p<0.001), -48.1 points token reduction (p<0.001) vs v2"
    )


def test_a_named_requirement_gates_only_that_contender(
    small_dataset: Path, versions: tuple[Path, Path]
) -> None:
    """``template:reduction>=0.5`` gates the template (30% reduction here), nobody else."""
    run = _run(small_dataset, versions, GateOptions(requirements=("template:reduction>=0.5",)))
    assert run.exit_code == 1 and [f.split(" ")[0] for f in run.gates.failures] == ["template"]


def test_no_regression_vs_fails_on_a_significant_loss(
    small_dataset: Path, versions: tuple[Path, Path]
) -> None:
    """Against v2, v1 loses fact recall on 9 of 9 differing cases (p=0.004): exit 1, and v2 is fine."""
    run = _run(small_dataset, versions, GateOptions(no_regression_vs="v2"))
    assert run.exit_code == 1
    assert run.gates.failures == [f for f in run.gates.failures if f.startswith("v1 regresses vs v2: -")]
    assert any("fact recall (p=0.004)" in f for f in run.gates.failures)


def test_no_regression_vs_passes_when_no_loss_is_significant_at_alpha(
    small_dataset: Path, versions: tuple[Path, Path]
) -> None:
    """At alpha 0.001, p=0.004 is not significant: the same run exits 0."""
    run = _run(small_dataset, versions, GateOptions(no_regression_vs="v2", alpha=0.001))
    assert run.exit_code == 0 and run.gates.failures == []


def test_the_judge_rates_beside_the_metrics_and_is_cached(
    tmp_path: Path, small_dataset: Path, versions: tuple[Path, Path]
) -> None:
    """--judge adds judge faithfulness to every phase-gate cell; a second run asks the judge nothing."""
    from summarizer.evaluation.cellstore import ResultsCache
    from summarizer.evaluation.judge import RUBRIC
    from summarizer.semantic.ports import CompletionRequest

    judged: list[CompletionRequest] = []

    def model(request: CompletionRequest) -> str:
        if request.system == RUBRIC:
            judged.append(request)
            return "4"
        return echo_model(request)

    v1, v2 = versions
    options = EvalOptions(
        datasets=(small_dataset,), prompts=(str(v1), str(v2)), models=("openai/m",), judge="openai/judge"
    )

    def once() -> EvalRun:
        with tempfile.TemporaryDirectory() as store:
            return asyncio.run(
                evaluate(
                    options,
                    GateOptions(),
                    completer=FakeCompleter(default=model),
                    answer_cache=None,
                    results_cache=ResultsCache(tmp_path / "r.sqlite3"),
                    originals=OriginalStore(Path(store)),
                )
            )

    first = once()
    assert all(r.metrics["faithfulness"] == 0.75 for r in first.matrix.results)
    assert {"fact_recall", "reduction"} <= set(first.matrix.results[0].metrics)  # beside, not instead
    assert "UNTRUSTED_DATA" in judged[0].user and judged[0].model == "openai/judge"
    assert len(judged) < len(first.matrix.results)  # identical (source, answer) pairs rated once
    asked = len(judged)
    second = once()
    assert len(judged) == asked and any(line.endswith(", 0 requests") for line in second.gates.outcomes)
