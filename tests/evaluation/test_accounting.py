"""Honest outcomes and accounting: fallbacks fail the run, every request is counted, CSV, latency.

The provider is respx in front of the real litellm (no request leaves the process).
"""

from __future__ import annotations

import asyncio
import csv
import json
import tempfile
import time
from pathlib import Path

import httpx
import pytest
import respx
from click.testing import CliRunner

from summarizer import app
from summarizer.cli import main
from summarizer.evaluation.accounting import observe
from summarizer.evaluation.export import CSV_COLUMNS
from summarizer.evaluation.suite import EvalOptions, GateOptions, evaluate
from summarizer.output import OriginalStore
from summarizer.semantic.retry import RetryPolicy
from tests.conftest import chat_completion

from .test_cli_litellm import API, _server


@pytest.fixture
def via_httpx(monkeypatch: pytest.MonkeyPatch) -> None:
    """litellm's local cost map: no download (respx answers the calls themselves)."""
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")


def test_a_model_that_never_answered_fails_the_run_with_the_reason(
    tmp_path: Path, small_dataset: Path
) -> None:
    """--model alone, no key: every cell falls back; the verdict says so and names the variable."""
    args = ["eval", str(small_dataset), "--model", "openai/gpt-4o-mini", "--out", str(tmp_path / "o")]
    with respx.mock(assert_all_mocked=True):  # the missing key is caught before any request
        result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output
    line = "prompts: 16/16 cells fell back to the template (no API key: set OPENAI_API_KEY)"
    assert f"outcome: {line}" in result.output and f"FAILED: {line}" in result.output
    assert "pick none: prompts never answered (16/16 fell back)" in result.output
    assert line in (tmp_path / "o" / "report.md").read_text(encoding="utf-8")
    allowed = CliRunner().invoke(main, [*args, "--allow-fallback", "--no-reuse"])
    assert allowed.exit_code == 0 and f"outcome: {line}" in allowed.output


def test_retries_are_counted_per_cell_and_in_total(
    tmp_path: Path, small_dataset: Path, via_httpx: None
) -> None:
    """A provider that times out once per cell: 2 requests per model cell, all of them in the totals."""
    server = _server()
    seen: set[str] = set()

    def flaky(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        user = body["messages"][-1]["content"]
        if user not in seen:
            seen.add(user)
            raise httpx.ReadTimeout("the provider took too long")
        return httpx.Response(200, json=chat_completion(body["model"], server.answer(body["messages"])))

    options = EvalOptions(
        datasets=(small_dataset,), models=("openai/gpt-4o-mini",), api_base=API, concurrency=8
    )
    completer = app.build_completer(retry=RetryPolicy.immediate(attempts=3), observer=observe)
    with respx.mock(assert_all_mocked=True) as mock, tempfile.TemporaryDirectory() as store:
        route = mock.post(f"{API}/chat/completions").mock(side_effect=flaky)
        run = asyncio.run(
            evaluate(
                options,
                GateOptions(),
                completer=completer,
                answer_cache=None,
                results_cache=None,
                originals=OriginalStore(Path(store)),
            )
        )
    model_cells = [r for r in run.matrix.results if r.output and r.output.model_cell]
    assert model_cells and all(r.output and r.output.source == "llm" for r in model_cells)
    assert all(r.output and (r.output.provider_calls, r.output.failed_calls) == (2, 1) for r in model_cells)
    assert run.matrix.provider_calls == route.call_count == 2 * len(model_cells)
    [totals] = [t for t in run.gates.totals if t.contender == "prompts"]
    assert (totals.requests, totals.failed_requests) == (route.call_count, len(model_cells))
    assert totals.tokens_in == 100 * len(model_cells) and totals.tokens_out == 20 * len(model_cells)
    assert totals.cost_usd is not None and totals.cost_usd > 0  # gpt-4o-mini is in the offline cost map
    # Latency is the provider's own time for the two attempts, not the cell's time in the queue.
    assert all(r.output and r.output.latency_s < 5 for r in model_cells)


def test_the_csv_has_one_row_per_cell_and_the_documented_columns(tmp_path: Path, small_dataset: Path) -> None:
    """--csv writes the pinned header (units in the names) and every cell."""
    out = tmp_path / "cells.csv"
    result = CliRunner().invoke(
        main, ["eval", str(small_dataset), "--offline", "--out", str(tmp_path / "o"), "--csv", str(out)]
    )
    assert result.exit_code == 0, result.output
    with out.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert tuple(rows[0].keys()) == CSV_COLUMNS
    assert CSV_COLUMNS[:5] == ("dataset", "case_id", "kind", "band", "contender")
    assert {"provider_requests", "latency_ms", "tokens_in", "cost_usd", "fact_recall"} <= set(CSV_COLUMNS)
    assert len(rows) == 16 and {r["contender"] for r in rows} == {"template"}
    assert all(r["provider_requests"] == "0" and r["cost_usd"] == "" for r in rows)
    assert all(0.0 <= float(r["fact_recall"]) <= 1.0 for r in rows)


def test_template_cells_report_their_own_time_under_concurrency_8(tmp_path: Path, datasets_dir: Path) -> None:
    """Phase-gate and session templates take milliseconds; the time spent queued is not latency.

    A cell queued behind the others would read close to the run's whole time; each template cell's
    own time is a small share of it (the bound is a ratio within the run, not a number of ms).
    """
    options = EvalOptions(
        datasets=(datasets_dir / "phase_gate.jsonl", datasets_dir / "session.jsonl"),
        offline=True,
        concurrency=8,
    )
    with tempfile.TemporaryDirectory() as store:
        started = time.perf_counter()
        run = asyncio.run(
            evaluate(
                options,
                GateOptions(),
                completer=None,
                answer_cache=None,
                results_cache=None,
                originals=OriginalStore(Path(store)),
            )
        )
        wall_ms = (time.perf_counter() - started) * 1000
    latencies = [r.metrics["latency_ms"] for r in run.matrix.results if r.contender == "template"]
    assert len(latencies) > 50
    assert sum(latencies) < wall_ms, (sum(latencies), wall_ms)
