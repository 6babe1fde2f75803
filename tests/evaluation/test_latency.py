"""Latency is the provider's time, measured in the HTTP layer; our own time is ``client_ms``.

Every clock here is a fake one that only the fake provider moves, so the figures are exact and
nothing depends on how loaded the machine is.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import respx
from click.testing import CliRunner

from summarizer.cli import main
from summarizer.evaluation import http_timing, runner
from summarizer.evaluation.accounting import metering
from summarizer.evaluation.cells import CellOutput, ResolvedCase
from summarizer.evaluation.progress import Progress
from summarizer.evaluation.runner import Plan, run_matrix
from tests.conftest import chat_completion

API = "http://127.0.0.1:8765/v1"
PROVIDER_S = 1.0


class FakeClock:
    """Seconds that pass only when someone says so."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeClock]:
    fake = FakeClock()
    monkeypatch.setattr(http_timing, "clock", fake)
    yield fake


def _completion(request: httpx.Request) -> dict[str, object]:
    body = json.loads(request.content)
    lines = "Changed the contract.\nThe next agent must adapt.\nWatch the trade-off."
    wanted = 3 if "exactly 3 lines" in body["messages"][-1]["content"] else 2
    return chat_completion(body["model"], "\n".join(lines.split("\n")[:wanted]))


def test_the_http_layer_times_request_sent_to_last_byte(clock: FakeClock) -> None:
    """A plain and a streamed response: each counts what the provider took, to the cell running it."""

    def answer(request: httpx.Request) -> httpx.Response:
        clock.now += 0.25
        return httpx.Response(200, content=b"x" * 10)

    async def go() -> tuple[float, int]:
        with respx.mock() as mock, http_timing.timed_http(), metering() as meter:
            mock.post("http://provider.test/v1").mock(side_effect=answer)
            async with httpx.AsyncClient() as client:
                await client.post("http://provider.test/v1")
                request = client.build_request("POST", "http://provider.test/v1")
                response = await client.send(request, stream=True)
                clock.now += 0.5  # reading the body is part of the provider's time
                await response.aread()
                await response.aclose()
        return meter.http_s, meter.http_requests

    original = httpx.AsyncClient.send
    seconds, requests = asyncio.run(go())
    assert requests == 2 and seconds == pytest.approx(0.25 + 0.75)
    assert httpx.AsyncClient.send is original  # the wrapper lives only as long as the run


@pytest.mark.parametrize("concurrency", ["1", "8"])
def test_eval_latency_is_the_providers_time_at_any_concurrency(
    tmp_path: Path, datasets_dir: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch, concurrency: str
) -> None:
    """Through the real CLI and litellm: every model cell reads exactly the provider's 1,000 ms."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    monkeypatch.setenv("SUMMARIZER_CACHE_DIR", str(tmp_path / "cache"))

    def reply(request: httpx.Request) -> httpx.Response:
        clock.now += PROVIDER_S
        return httpx.Response(200, json=_completion(request))

    with respx.mock(assert_all_called=False) as mock:
        mock.post(f"{API}/chat/completions").mock(side_effect=reply)
        result = CliRunner().invoke(
            main,
            [
                "eval",
                str(datasets_dir / "phase_gate.jsonl"),
                "--model",
                "openai/gpt-4o-mini",
                "--api-base",
                API,
                "--no-template",
                "--limit",
                "6",
                "--concurrency",
                concurrency,
                "--out",
                str(tmp_path / "out"),
            ],
        )
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in (tmp_path / "out/results.jsonl").read_text().splitlines()]
    model = [r for r in rows if r["output"]["model_cell"]]
    assert model and all(r["metrics"]["latency_ms"] == PROVIDER_S * 1000 for r in model)
    assert "client p50 (ms)" in result.output


class _Slow:
    """A contender whose provider takes 2 s (fake) after 3 s queued: client_s must be the 3 s."""

    label = "slow"

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock

    def key_material(self, case: ResolvedCase) -> str:
        return "slow"

    def uses_provider(self, case: ResolvedCase) -> bool:
        return True

    async def run(self, case: ResolvedCase) -> CellOutput:
        self.clock.now += 2.0 + 3.0  # 2 s at the provider, 3 s of ours
        return CellOutput(text="x", source="llm", latency_s=2.0, model_cell=True, provider_calls=1)


def test_client_time_is_the_cells_time_minus_the_providers_and_the_warm_up_runs_once(
    resolved_case: ResolvedCase,
) -> None:
    """The client's set-up (importing litellm) is awaited once and counted in neither figure."""
    clock = FakeClock()
    warmed: list[float] = []

    async def warm_up() -> None:
        clock.now += 7.0
        warmed.append(clock.now)

    matrix = asyncio.run(
        run_matrix([_Slow(clock)], [resolved_case], cache=None, warm_up=warm_up, clock=clock)  # type: ignore[list-item]
    )
    (cell,) = matrix.results
    assert warmed == [107.0]
    assert cell.output is not None and cell.output.latency_s == 2.0 and cell.output.client_s == 3.0


def test_no_warm_up_when_no_cell_calls_a_model(resolved_case: ResolvedCase) -> None:
    """A run the store or the template answers never imports litellm."""
    calls: list[int] = []

    async def warm_up() -> None:
        calls.append(1)

    class _Template(_Slow):
        def uses_provider(self, case: ResolvedCase) -> bool:
            return False

    asyncio.run(run_matrix([_Template(FakeClock())], [resolved_case], cache=None, warm_up=warm_up))  # type: ignore[list-item]
    assert calls == []


def test_cpu_only_work_waits_until_the_first_wave_of_requests_is_at_the_provider(
    resolved_cases: list[ResolvedCase], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Import, then every request of the first wave, then the tokenizer and the template cells.

    All three are CPU work: done during the import they would take turns with it and delay the
    first request; done while the provider answers, they fill a wait that is there anyway.
    """
    events: list[str] = []
    asked = 0
    loaded = threading.Event()

    def load_tokenizer(text: str) -> int:
        events.append(f"tokenizer loads after {asked} requests")
        loaded.set()
        return 1

    async def warm_up() -> None:
        events.append("litellm imported")

    async def provider(request: httpx.Request) -> httpx.Response:
        for _ in range(12_000):  # a safety net only: the order of the events is the assertion
            if loaded.is_set():
                break
            await asyncio.sleep(0.01)
        return httpx.Response(200, json={})

    class _Asking(_Slow):
        async def run(self, case: ResolvedCase) -> CellOutput:
            nonlocal asked
            asked += 1
            async with httpx.AsyncClient() as client:
                await client.post(f"{API}/chat/completions", json={})
            return CellOutput(text="x", source="llm", model_cell=True, provider_calls=1)

    class _Template(_Slow):
        label = "template"

        def key_material(self, case: ResolvedCase) -> str:
            return "template"

        def uses_provider(self, case: ResolvedCase) -> bool:
            return False

        async def run(self, case: ResolvedCase) -> CellOutput:
            events.append(f"template cell runs after {asked} requests")
            return CellOutput(text="x", source="template")

    monkeypatch.setattr(runner, "count_tokens", load_tokenizer)
    contenders = [_Asking(FakeClock()), _Template(FakeClock())]
    with respx.mock() as mock:
        mock.post(f"{API}/chat/completions").mock(side_effect=provider)
        matrix = asyncio.run(
            run_matrix(contenders, resolved_cases, cache=None, concurrency=2, warm_up=warm_up)  # type: ignore[arg-type]
        )
    assert events[:2] == ["litellm imported", "tokenizer loads after 2 requests"]
    templates = [e for e in events if e.startswith("template")]
    assert len(templates) == 3 and "template cell runs after 0 requests" not in templates
    assert "template cell runs after 1 requests" not in templates
    assert [cell.error for cell in matrix.results] == [None] * 6


def test_threads_hand_the_interpreter_lock_over_quickly_while_cells_run(resolved_case: ResolvedCase) -> None:
    """litellm builds requests in executor threads: at the default 5 ms interval each hand-over
    could hold the event loop; the process's own setting is back once the run is over."""
    seen: list[float] = []

    class _Seeing(_Slow):
        async def run(self, case: ResolvedCase) -> CellOutput:
            seen.append(sys.getswitchinterval())
            return await super().run(case)

    before = sys.getswitchinterval()
    asyncio.run(run_matrix([_Seeing(FakeClock())], [resolved_case], cache=None))  # type: ignore[list-item]
    assert seen and seen[0] <= 0.001 < before
    assert sys.getswitchinterval() == before


def test_the_first_eta_waits_for_the_first_wave_of_provider_cells() -> None:
    """48 provider cells at concurrency 8: nothing before 8 have finished, then the honest rate."""
    lines: list[str] = []
    clock = FakeClock()
    progress = Progress(write=lines.append, clock=clock, every=1, concurrency=8)
    progress.start(Plan(total=48, stored=0, compute=48, provider=48))
    clock.now += 20.0  # importing litellm: not provider time
    progress.ready()
    clock.now += 1.0
    cell = _cell()
    for _ in range(7):
        progress.cell(cell)
    assert progress.eta_s() is None
    progress.cell(cell)
    assert progress.eta_s() == pytest.approx(40 * 1.0 / 8)
    assert lines[-1].rstrip().endswith("ETA 5 s")


def _cell() -> object:
    from summarizer.evaluation.cells import CellResult

    output = CellOutput(text="x", source="llm", model_cell=True, provider_calls=1)
    return CellResult(contender="c", case_id="x", dataset="d", kind="phase_gate", key="k", output=output)


@pytest.fixture
def resolved_cases(datasets_dir: Path) -> list[ResolvedCase]:
    """The first three shipped phase-gate cases, resolved."""
    from summarizer.evaluation.dataset import load_dataset
    from summarizer.evaluation.resolve import resolve_all

    return resolve_all([load_dataset(datasets_dir / "phase_gate.jsonl")], None)[:3]


@pytest.fixture
def resolved_case(resolved_cases: list[ResolvedCase]) -> ResolvedCase:
    """The first shipped phase-gate case, resolved."""
    return resolved_cases[0]
