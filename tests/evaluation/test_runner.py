"""The runner with a fake provider: verdicts with the right sign, cell reuse, per-template re-runs."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from summarizer.evaluation.cells import CellOutput, ResolvedCase
from summarizer.evaluation.cellstore import ResultsCache
from summarizer.evaluation.dataset import load_dataset
from summarizer.evaluation.report import render_markdown, render_table
from summarizer.evaluation.resolve import resolve_all
from summarizer.evaluation.runner import run_matrix
from summarizer.evaluation.suite import EvalOptions
from summarizer.semantic.ports import Completion, CompletionRequest
from summarizer.testing import FakeCompleter

from .conftest import echo_model, run_eval_now


def _options(dataset: Path, v1: Path, v2: Path) -> EvalOptions:
    return EvalOptions(
        datasets=(dataset,),
        prompts=(str(v1), str(v2)),
        models=("openai/fake-model",),
        concurrency=4,
    )


def test_v2_that_asks_for_the_endpoint_beats_v1_on_fact_recall(
    tmp_path: Path, small_dataset: Path, versions: tuple[Path, Path]
) -> None:
    """The report names v2 the winner on fact recall with a positive difference and more wins."""
    v1, v2 = versions
    fake = FakeCompleter(default=echo_model)
    matrix, analysis = run_eval_now(
        _options(small_dataset, v1, v2),
        completer=fake,
        answer_cache=None,
        results_cache=ResultsCache(tmp_path / "r.sqlite3"),
    )
    assert matrix.contenders == ("template", "v1", "v2")
    [comparison] = [
        c
        for _, c in analysis.comparisons
        if c.challenger == "v2" and c.baseline == "v1" and c.metric.name == "fact_recall"
    ]
    assert comparison.better and comparison.diff.mean > 0 and comparison.diff.low > 0
    assert comparison.wins > 0 and comparison.losses == 0
    line = next(v for v in analysis.verdicts() if v.startswith("v2 beats v1 on fact recall: +"))
    assert f"{comparison.wins} wins / 0 losses" in line
    assert line in render_table(matrix, analysis) and line in render_markdown(matrix, analysis)
    # Only CRITICAL/HIGH entries reach the model; the fake was really asked.
    llm_cells = [r for r in matrix.results if r.contender in ("v1", "v2") and r.band in ("CRITICAL", "HIGH")]
    assert len(fake.calls) == len(llm_cells) and all(r.output and r.output.source == "llm" for r in llm_cells)


def test_second_run_makes_no_provider_call(
    tmp_path: Path, small_dataset: Path, versions: tuple[Path, Path]
) -> None:
    """Every cell of an unchanged matrix is read back from the results cache."""
    v1, v2 = versions
    cache_path = tmp_path / "r.sqlite3"
    first, _ = run_eval_now(
        _options(small_dataset, v1, v2),
        completer=FakeCompleter(default=echo_model),
        answer_cache=None,
        results_cache=ResultsCache(cache_path),
    )
    again = FakeCompleter(default=echo_model)
    second, analysis = run_eval_now(
        _options(small_dataset, v1, v2),
        completer=again,
        answer_cache=None,
        results_cache=ResultsCache(cache_path),
    )
    assert first.provider_calls > 0
    assert again.calls == [] and second.provider_calls == 0 and second.computed == 0
    assert second.reused == len(second.results) and all(r.reused for r in second.results)
    assert [r.metrics for r in second.results] == [r.metrics for r in first.results]
    assert any(v.startswith("v2 beats v1 on fact recall") for v in analysis.verdicts())


def test_editing_one_template_reruns_only_its_cells(
    tmp_path: Path, small_dataset: Path, versions: tuple[Path, Path]
) -> None:
    """After editing v2's high.md.j2, exactly v2's HIGH cells are recomputed."""
    v1, v2 = versions
    cache_path = tmp_path / "r.sqlite3"
    run_eval_now(
        _options(small_dataset, v1, v2),
        completer=FakeCompleter(default=echo_model),
        answer_cache=None,
        results_cache=ResultsCache(cache_path),
    )
    high = v2 / "high.md.j2"
    high.write_text(high.read_text(encoding="utf-8") + "Be brief.\n", encoding="utf-8")
    fake = FakeCompleter(default=echo_model)
    matrix, _ = run_eval_now(
        _options(small_dataset, v1, v2),
        completer=fake,
        answer_cache=None,
        results_cache=ResultsCache(cache_path),
    )
    fresh = [r for r in matrix.results if not r.reused]
    high_cases = {case.id for case in matrix.cases if case.band == "HIGH"}
    assert high_cases and {(r.contender, r.case_id) for r in fresh} == {("v2", c) for c in high_cases}
    assert matrix.computed == len(high_cases) == len(fake.calls)
    assert all("Be brief." in call.user for call in fake.calls)


def test_a_failing_provider_shows_as_fallback_and_is_not_stored(
    tmp_path: Path, small_dataset: Path, versions: tuple[Path, Path]
) -> None:
    """With no reply the service falls back to the template; the fallback metric says so."""
    v1, _ = versions
    options = EvalOptions(datasets=(small_dataset,), prompts=(str(v1),), models=("openai/fake-model",))
    matrix, analysis = run_eval_now(
        options,
        completer=FakeCompleter(),
        answer_cache=None,
        results_cache=ResultsCache(tmp_path / "r.sqlite3"),
    )
    v1_high = [r for r in matrix.results if r.contender == "v1" and r.band in ("CRITICAL", "HIGH")]
    assert v1_high and all(r.metrics["fallback"] == 1.0 for r in v1_high)
    [stats] = [s for s in analysis.stats if s.contender == "v1"]
    assert stats.estimates["fallback"].mean > 0


class _Broken:
    """A contender whose code raises on one case."""

    label = "broken"

    def key_material(self, case: ResolvedCase) -> str | None:
        return "broken:1"

    def uses_provider(self, case: ResolvedCase) -> bool:
        return False

    async def run(self, case: ResolvedCase) -> CellOutput:
        if case.id == "pg-002":
            raise ValueError("template bug")
        return CellOutput(text=f"[hermes] — {case.id}", source="template")


def test_a_failing_cell_is_reported_not_stored_and_the_rest_survive(
    tmp_path: Path, small_dataset: Path
) -> None:
    """One contender bug fails one cell; the error is in the cell and the next run retries it."""
    cases = resolve_all([load_dataset(small_dataset)], None)
    cache = ResultsCache(tmp_path / "r.sqlite3")
    first = asyncio.run(run_matrix([_Broken()], cases, cache=cache))
    [failed] = [r for r in first.results if r.error]
    assert failed.case_id == "pg-002" and failed.error == "ValueError: template bug"
    assert first.computed == len(cases) - 1 and len(cache) == len(cases) - 1
    second = asyncio.run(run_matrix([_Broken()], cases, cache=cache))
    assert second.reused == len(cases) - 1 and [r.case_id for r in second.results if r.error] == ["pg-002"]


def test_an_unreadable_stored_cell_is_recomputed(tmp_path: Path, small_dataset: Path) -> None:
    """A row that is not a valid cell (older layout, tampering) counts as a miss."""
    cases = [c for c in resolve_all([load_dataset(small_dataset)], None) if c.id != "pg-002"][:2]
    cache = ResultsCache(tmp_path / "r.sqlite3")
    asyncio.run(run_matrix([_Broken()], cases, cache=cache))
    with sqlite3.connect(tmp_path / "r.sqlite3") as db:
        db.execute('UPDATE cells SET value = \'{"not": "a cell"}\'')
    again = asyncio.run(run_matrix([_Broken()], cases, cache=ResultsCache(tmp_path / "r.sqlite3")))
    assert again.computed == 2 and again.reused == 0


def test_concurrency_bounds_the_calls_in_flight(
    tmp_path: Path, small_dataset: Path, versions: tuple[Path, Path]
) -> None:
    """With --concurrency 2, never more than two model calls are pending at once (and two are)."""
    v1, _ = versions
    inflight = {"now": 0, "max": 0}
    fake = FakeCompleter(default=echo_model, delay_s=0.02)

    class Counting:
        async def complete(self, request: CompletionRequest, /) -> Completion:
            inflight["now"] += 1
            inflight["max"] = max(inflight["max"], inflight["now"])
            try:
                return await fake.complete(request)
            finally:
                inflight["now"] -= 1

    options = EvalOptions(
        datasets=(small_dataset,), prompts=(str(v1),), models=("openai/fake",), concurrency=2, template=False
    )
    run_eval_now(options, completer=Counting(), answer_cache=None, results_cache=None)
    assert len(fake.calls) > 2 and inflight["max"] == 2
