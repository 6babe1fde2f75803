"""Run the matrix contenders x cases, reusing every cell whose inputs did not change.

Each cell's key is the hash of ``[METRIC_VERSION, contender key material, case hash]``: the
contender's material is the namespace of the prompt it uses for that case (or the template's code
hash, or the recorded answer), so after editing one template only the cells that template answers
are recomputed; everything else is read back from the cell store (:mod:`.cellstore`: SQLite
under the cache directory, or the team's Redis), holding each :class:`CellResult` as JSON text.
Two contenders whose material is the same for a case (a prompt contender's MEDIUM entry is the
template's answer) share one cell.

Failures are recorded in the cell (``error``) and never stored, so the next run tries again.
Cells run concurrently under a semaphore; the contenders' own calls decide what is I/O.

Start order, when a model is called: the provider client's set-up (importing litellm, seconds of
CPU) runs first and alone, then the first wave of requests goes out. Everything else a run needs
that is CPU only (loading the tokenizer, the template cells) waits until that wave is at the
provider: done earlier it would only take turns with the import and delay the first request;
done then, it fills a wait that is there anyway.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from summarizer.core.errors import SummarizerError
from summarizer.core.scrub import scrub_model
from summarizer.core.tokens import count_tokens
from summarizer.evaluation.assertions import run_checks
from summarizer.evaluation.cells import CellResult, ResolvedCase, measure
from summarizer.evaluation.cellstore import CellStore
from summarizer.evaluation.contenders import Contender
from summarizer.evaluation.http_timing import timed_http
from summarizer.evaluation.metrics import METRIC_VERSION

__all__ = ["Matrix", "Plan", "cell_key", "run_matrix"]


def cell_key(material: str, case: ResolvedCase) -> str:
    """The results-cache key of one cell."""
    blob = json.dumps([METRIC_VERSION, material, case.digest], separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:40]


@dataclass(frozen=True, slots=True)
class Matrix:
    """The results of one run, contender-major in the order given, plus what it cost."""

    contenders: tuple[str, ...]
    cases: tuple[ResolvedCase, ...]
    results: tuple[CellResult, ...]
    computed: int
    reused: int
    skipped: int
    provider_calls: int
    failed_calls: int = 0
    setup_s: float = 0.0  # the provider client's one-time set-up (importing litellm), if it ran
    run_s: float = 0.0  # the whole matrix, set-up included

    def cell(self, contender: str, case_id: str) -> CellResult | None:
        """The cell of ``contender`` on ``case_id`` (``None`` when the contender skipped it)."""
        for result in self.results:
            if result.contender == contender and result.case_id == case_id:
                return result
        return None


@dataclass(frozen=True, slots=True)
class Plan:
    """What a run will do, known before the first cell starts (for progress and its ETA).

    ``stored``: cells read back from the store; ``provider``: cells still to compute that call a
    model (the only slow ones); ``compute``: every cell still to compute.
    """

    total: int
    stored: int
    compute: int
    provider: int


def _planned(contenders: Sequence[Contender], cases: Sequence[ResolvedCase]) -> tuple[list[Planned], int]:
    plan: list[Planned] = []
    skipped = 0
    for contender in contenders:
        for case in cases:
            material = contender.key_material(case)
            if material is None:
                skipped += 1
                continue
            plan.append((contender, case, cell_key(material, case)))
    return plan, skipped


Planned = tuple[Contender, ResolvedCase, str]


@dataclass
class _Run:
    """The mutable state of one matrix run: stored cells, shared tasks, counters, the set-ups."""

    stored: dict[str, CellResult]
    cache: CellStore | None
    limit: asyncio.Semaphore
    clock: Callable[[], float]
    warm_up: Callable[[], Awaitable[None]] | None = None
    on_ready: Callable[[], None] | None = None
    wave: int = 1  # the requests of the first wave: min(concurrency, provider cells to compute)
    tasks: dict[str, asyncio.Task[tuple[CellResult, bool]]] = field(default_factory=dict)
    computed: int = 0
    reused: int = 0
    calls: int = 0
    failed: int = 0
    sent: int = 0
    setup_s: float = 0.0
    _ready: asyncio.Task[None] | None = None
    _tokenizer: asyncio.Future[int] | None = None
    _wave_out: asyncio.Event = field(default_factory=asyncio.Event)

    def start_ready(self) -> None:
        """Start the provider client's one-time set-up, once, without waiting for it."""
        if self.warm_up is not None and self._ready is None:
            self._ready = asyncio.ensure_future(self._warm(self.warm_up))

    async def ready(self) -> None:
        """Wait for the provider client's one-time set-up (started as soon as a model cell is planned)."""
        self.start_ready()
        if self._ready is not None:
            await asyncio.shield(self._ready)

    async def _warm(self, warm_up: Callable[[], Awaitable[None]]) -> None:
        started = self.clock()
        try:
            await warm_up()
        except BaseException:
            self.first_wave_out()  # no request will go out: nothing may wait for one
            raise
        self.setup_s = self.clock() - started
        if self.on_ready is not None:
            self.on_ready()

    def request_sent(self) -> None:
        """A provider request entered the HTTP layer (each one, retries included)."""
        self.sent += 1
        if self.sent >= self.wave:
            self.first_wave_out()

    def first_wave_out(self) -> None:
        """The first wave is at the provider, or needs no more of our CPU (its cells answered
        without a request, or failed): the CPU-only work held back for it starts now."""
        if not self._wave_out.is_set():
            self._wave_out.set()
            self.start_tokenizer()

    def start_tokenizer(self) -> None:
        """Load the tokenizer once, in a thread (concurrent first calls would each load it)."""
        if self._tokenizer is None:
            self._tokenizer = asyncio.ensure_future(asyncio.to_thread(count_tokens, "warm up"))

    async def tokenizer(self) -> None:
        """Wait for the tokenizer every metric counts with."""
        self.start_tokenizer()
        assert self._tokenizer is not None
        await asyncio.shield(self._tokenizer)

    async def compute(self, contender: Contender, case: ResolvedCase, key: str) -> tuple[CellResult, bool]:
        if key in self.stored:
            return self.stored[key], True
        if self.warm_up is not None and contender.uses_provider(case):
            await self.ready()  # the import is set-up, not a provider's time nor this cell's
        else:
            await self._wave_out.wait()
            await self.tokenizer()  # a template may count tokens itself
        queued = self.clock()
        async with self.limit:
            try:
                output = await contender.run(case)
            except Exception as exc:  # a contender's bug fails its cell, not the whole matrix
                self.first_wave_out()
                error = str(exc) if isinstance(exc, SummarizerError) else f"{type(exc).__name__}: {exc}"
                failed = CellResult(
                    contender=contender.label,
                    case_id=case.id,
                    dataset=case.dataset,
                    kind=case.kind,
                    band=case.band,
                    key=key,
                    error=error,
                )
                return failed, False
        # Our own time for the cell: queued behind other cells, plus our client work around the
        # provider's requests (the provider's own time is the latency).
        client = max(0.0, self.clock() - queued - output.latency_s)
        output = output.model_copy(update={"client_s": client})
        self.first_wave_out()
        # The cell waiting for this slot builds and sends its request before this one is scored.
        await asyncio.sleep(0)
        self.calls += output.provider_calls
        self.failed += output.failed_calls
        await self.tokenizer()
        checks = await run_checks(case.case.checks, output.text) if case.case.checks else ()
        result = measure(case, output, contender=contender.label, key=key, asserts=checks)
        if self.cache is not None:
            # Stored scrubbed, with the case's own secrets known (a missed fact may be one).
            self.cache.put(key, scrub_model(result, context=case.source if result.missed else ""))
        return result, False

    async def one(
        self, contender: Contender, case: ResolvedCase, key: str, on_done: Callable[[CellResult], None] | None
    ) -> CellResult:
        first = key not in self.tasks  # the first contender with this key computes; others share it
        if first:
            self.tasks[key] = asyncio.ensure_future(self.compute(contender, case, key))
        result, was_stored = await self.tasks[key]
        if first and not was_stored and result.error is None:
            self.computed += 1
        elif result.error is None:
            self.reused += 1
        cell = result.model_copy(update={"contender": contender.label, "reused": was_stored or not first})
        if on_done is not None:
            on_done(cell)
        return cell


async def run_matrix(
    contenders: Sequence[Contender],
    cases: Sequence[ResolvedCase],
    *,
    cache: CellStore | None,
    concurrency: int = 8,
    on_start: Callable[[Plan], None] | None = None,
    on_done: Callable[[CellResult], None] | None = None,
    warm_up: Callable[[], Awaitable[None]] | None = None,
    on_ready: Callable[[], None] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Matrix:
    """Answer and measure every (contender, case) cell, reusing stored cells.

    ``on_start`` receives the :class:`Plan`; ``on_done`` is called once per cell as it finishes
    (reused cells included), for progress. ``warm_up`` (the provider client's one-time set-up,
    such as importing litellm off the event loop) runs once, when the first cell that calls a
    model starts, and never when no such cell is left to compute; ``on_ready`` hears when it is
    done. ``clock`` times each cell's ``client_s`` (tests pass a fake).
    """
    labels = [c.label for c in contenders]
    if len(set(labels)) != len(labels):
        raise SummarizerError(f"contender labels must be unique, got {labels}; rename a prompt directory")
    plan, skipped = _planned(contenders, cases)
    # Look every distinct cell up once, before starting: the plan then knows how many provider
    # cells are left, which is what an honest ETA divides by.
    stored: dict[str, CellResult] = {}
    first_of: dict[str, tuple[Contender, ResolvedCase]] = {}
    for contender, case, key in plan:
        if key in first_of:
            continue
        first_of[key] = (contender, case)
        if cache is not None and (hit := cache.get(key)) is not None:
            stored[key] = hit
    to_compute = [(c, case) for key, (c, case) in first_of.items() if key not in stored]
    provider = sum(1 for c, case in to_compute if c.uses_provider(case))
    started = clock()
    limit = max(1, concurrency)
    run = _Run(
        stored,
        cache,
        asyncio.Semaphore(limit),
        clock,
        warm_up if provider else None,
        on_ready,
        wave=min(limit, provider) or 1,
    )
    if run.warm_up is not None:
        # A model will be called: its client's set-up (seconds) starts before anything else.
        run.start_ready()
    else:
        run.first_wave_out()
    if on_start is not None:
        on_start(
            Plan(
                total=len(plan),
                stored=sum(1 for _, _, key in plan if key in stored),
                compute=len(to_compute),
                provider=provider,
            )
        )
    with timed_http(on_send=run.request_sent), _quick_handovers():
        results = await asyncio.gather(*(run.one(c, case, key, on_done) for c, case, key in plan))
    return Matrix(
        contenders=tuple(labels),
        cases=tuple(cases),
        results=tuple(results),
        computed=run.computed,
        reused=run.reused,
        skipped=skipped,
        provider_calls=run.calls,
        failed_calls=run.failed,
        setup_s=run.setup_s,
        run_s=clock() - started,
    )


@contextmanager
def _quick_handovers(interval_s: float = 0.001) -> Iterator[None]:
    """Let threads hand the interpreter lock over every ``interval_s`` while cells run.

    litellm builds each request in an executor thread, so with eight requests in flight the event
    loop and those threads keep trading the lock; at Python's default of 5 ms each hand-over can
    hold the loop (and every answer waiting on it) for up to 5 ms. 1 ms measured best: 6.7-6.9 s
    for six waves of eight 1 s requests against 6.9-7.1 s at 5 ms.
    """
    before = sys.getswitchinterval()
    sys.setswitchinterval(min(before, interval_s))
    try:
        yield
    finally:
        sys.setswitchinterval(before)
