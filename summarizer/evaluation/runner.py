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
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from summarizer.core.errors import SummarizerError
from summarizer.core.scrub import scrub_model
from summarizer.core.tokens import count_tokens
from summarizer.evaluation.cells import CellResult, ResolvedCase, measure
from summarizer.evaluation.cellstore import CellStore
from summarizer.evaluation.contenders import Contender
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


async def run_matrix(
    contenders: Sequence[Contender],
    cases: Sequence[ResolvedCase],
    *,
    cache: CellStore | None,
    concurrency: int = 8,
    on_start: Callable[[Plan], None] | None = None,
    on_done: Callable[[CellResult], None] | None = None,
) -> Matrix:
    """Answer and measure every (contender, case) cell, reusing stored cells.

    ``on_start`` receives the :class:`Plan`; ``on_done`` is called once per cell as it finishes
    (reused cells included), for progress.
    """
    labels = [c.label for c in contenders]
    if len(set(labels)) != len(labels):
        raise SummarizerError(f"contender labels must be unique, got {labels}; rename a prompt directory")
    limit = asyncio.Semaphore(max(1, concurrency))
    plan: list[tuple[Contender, ResolvedCase, str]] = []
    skipped = 0
    for contender in contenders:
        for case in cases:
            material = contender.key_material(case)
            if material is None:
                skipped += 1
                continue
            plan.append((contender, case, cell_key(material, case)))
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
    if on_start is not None:
        on_start(
            Plan(
                total=len(plan),
                stored=sum(1 for _, _, key in plan if key in stored),
                compute=len(to_compute),
                provider=sum(1 for c, case in to_compute if c.uses_provider(case)),
            )
        )

    # Load the tokenizer once before the cells start: concurrent first calls would each load it.
    count_tokens("warm up")
    tasks: dict[str, asyncio.Task[tuple[CellResult, bool]]] = {}
    counters = {"computed": 0, "reused": 0, "calls": 0, "failed": 0}

    async def compute(contender: Contender, case: ResolvedCase, key: str) -> tuple[CellResult, bool]:
        if key in stored:
            return stored[key], True
        async with limit:
            try:
                output = await contender.run(case)
            except Exception as exc:  # a contender's bug fails its cell, not the whole matrix
                failed = CellResult(
                    contender=contender.label,
                    case_id=case.id,
                    dataset=case.dataset,
                    kind=case.kind,
                    band=case.band,
                    key=key,
                    error=str(exc) if isinstance(exc, SummarizerError) else f"{type(exc).__name__}: {exc}",
                )
                return failed, False
        counters["calls"] += output.provider_calls
        counters["failed"] += output.failed_calls
        result = measure(case, output, contender=contender.label, key=key)
        if cache is not None:
            # Stored scrubbed, with the case's own secrets known (a missed fact may be one).
            cache.put(key, scrub_model(result, context=case.source if result.missed else ""))
        return result, False

    async def one(contender: Contender, case: ResolvedCase, key: str) -> CellResult:
        if key not in tasks:  # the first contender with this key computes; the others share it
            tasks[key] = asyncio.ensure_future(compute(contender, case, key))
            first = True
        else:
            first = False
        result, was_stored = await tasks[key]
        reused = was_stored or not first
        if first and not was_stored and result.error is None:
            counters["computed"] += 1
        elif result.error is None:
            counters["reused"] += 1
        cell = result.model_copy(update={"contender": contender.label, "reused": reused})
        if on_done is not None:
            on_done(cell)
        return cell

    results = await asyncio.gather(*(one(c, case, key) for c, case, key in plan))
    return Matrix(
        contenders=tuple(labels),
        cases=tuple(cases),
        results=tuple(results),
        computed=counters["computed"],
        reused=counters["reused"],
        skipped=skipped,
        provider_calls=counters["calls"],
        failed_calls=counters["failed"],
    )
