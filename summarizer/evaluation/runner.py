"""Run the matrix contenders x cases, reusing every cell whose inputs did not change.

Each cell's key is the hash of ``[METRIC_VERSION, contender key material, case hash]``: the
contender's material is the namespace of the prompt it uses for that case (or the template's code
hash, or the recorded answer), so after editing one template only the cells that template answers
are recomputed; everything else is read back from the results cache, a SQLite file under the cache
directory holding each :class:`CellResult` as JSON text. Two contenders whose material is the
same for a case (a prompt contender's MEDIUM entry is the template's answer) share one cell.

Failures are recorded in the cell (``error``) and never stored, so the next run tries again.
Cells run concurrently under a semaphore; the contenders' own calls decide what is I/O.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from summarizer.errors import StorageError, SummarizerError
from summarizer.evaluation.cells import CellResult, ResolvedCase, measure
from summarizer.evaluation.contenders import Contender
from summarizer.evaluation.metrics import METRIC_VERSION
from summarizer.tokens import count_tokens

__all__ = ["Matrix", "ResultsCache", "cell_key", "run_matrix"]


class ResultsCache:
    """Cell results by key in one SQLite file (JSON text only; an unreadable row is a miss)."""

    def __init__(self, path: Path) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, check_same_thread=False, timeout=30)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("CREATE TABLE IF NOT EXISTS cells (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            self._db.commit()
        except (OSError, sqlite3.Error) as exc:
            raise StorageError(
                f"cannot open the eval results cache {str(path)!r}: {exc}; "
                "check SUMMARIZER_CACHE_DIR or pass --no-reuse"
            ) from exc
        self._lock = threading.Lock()
        self.path = path
        self.write_errors = 0
        self.last_error: str | None = None

    def get(self, key: str) -> CellResult | None:
        """The stored cell, or ``None`` (also when the database cannot be read: recompute)."""
        try:
            with self._lock:
                row = self._db.execute("SELECT value FROM cells WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error:
            return None
        if row is None:
            return None
        try:
            return CellResult.model_validate_json(row[0])
        except ValidationError:
            return None  # written by an older layout: recompute rather than trust it

    def put(self, key: str, result: CellResult) -> None:
        """Store a successful cell. A failed write (disk full, locked) costs reuse, never the run."""
        try:
            with self._lock:
                self._db.execute(
                    "INSERT OR REPLACE INTO cells (key, value) VALUES (?, ?)", (key, result.model_dump_json())
                )
                self._db.commit()
        except sqlite3.Error as exc:
            self.write_errors += 1
            self.last_error = str(exc)

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM cells").fetchone()[0])

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()


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

    def cell(self, contender: str, case_id: str) -> CellResult | None:
        """The cell of ``contender`` on ``case_id`` (``None`` when the contender skipped it)."""
        for result in self.results:
            if result.contender == contender and result.case_id == case_id:
                return result
        return None


async def run_matrix(
    contenders: Sequence[Contender],
    cases: Sequence[ResolvedCase],
    *,
    cache: ResultsCache | None,
    concurrency: int = 8,
    on_done: Callable[[CellResult], None] | None = None,
) -> Matrix:
    """Answer and measure every (contender, case) cell, reusing stored cells.

    ``on_done`` is called once per cell as it finishes (reused cells included), for a progress bar.
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

    # Load the tokenizer once before the cells start: concurrent first calls would each load it.
    count_tokens("warm up")
    tasks: dict[str, asyncio.Task[tuple[CellResult, bool]]] = {}
    counters = {"computed": 0, "reused": 0, "calls": 0}

    async def compute(contender: Contender, case: ResolvedCase, key: str) -> tuple[CellResult, bool]:
        if cache is not None and (stored := cache.get(key)) is not None:
            return stored, True
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
        result = measure(case, output, contender=contender.label, key=key)
        if cache is not None:
            cache.put(key, result)
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
    )
