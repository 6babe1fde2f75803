"""Several processes writing one engram file at once: nothing fails, nothing is lost.

engram users' most common complaint is ``database is locked`` with several agents running (engram
#125, #559, #1182). Eight real processes each save 500 observations as fast as they can, all opening
the store at the same instant (the cold-start switch to WAL races too). The workers are forked so the
test pays for the package import once, not eight times.
"""

from __future__ import annotations

import multiprocessing
import time
import traceback
from pathlib import Path

import pytest
from summarizer_engram.store import Store

WORKERS, EACH = 8, 500


def _worker(path: str, worker: int, start: float, errors: multiprocessing.Queue[str]) -> None:
    try:
        time.sleep(max(0.0, start - time.time()))
        with Store(path) as store:
            sid = f"proc-{worker}"
            store.start_session(sid, "load", "/tmp")
            for i in range(EACH):
                store.save(
                    sid,
                    f"worker {worker} note {i}",
                    f"observation {i} from process {worker}",
                    project="load",
                    topic_key=f"load/w{worker}-{i}" if i % 10 == 0 else "",
                )
    except BaseException:
        errors.put(traceback.format_exc())
        raise


@pytest.mark.slow
def test_eight_processes_saving_500_each_lose_nothing(tmp_path: Path) -> None:
    """All 4,000 observations are present and no process met an error."""
    ctx = multiprocessing.get_context("fork")
    errors: multiprocessing.Queue[str] = ctx.Queue()
    start = time.time() + 0.5
    procs = [
        ctx.Process(target=_worker, args=(str(tmp_path / "engram.db"), w, start, errors))
        for w in range(WORKERS)
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=180)
    failures = [errors.get() for _ in range(errors.qsize())] if not errors.empty() else []
    assert failures == []
    assert [p.exitcode for p in procs] == [0] * WORKERS
    with Store(tmp_path / "engram.db") as store:
        stats = store.stats()
        assert (stats.total_observations, stats.total_sessions) == (WORKERS * EACH, WORKERS)
        assert {s.observation_count for s in store.recent_sessions("load", 10)} == {EACH}
        assert len(store.search("observation", project="load", limit=20)) == 20
