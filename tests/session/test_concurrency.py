"""Concurrent `session` runs on one project and day keep the union of their items."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path

from summarizer_engram import Store

from summarizer.session.document import parse, split_tag
from summarizer.session.service import FileMarks, SessionReport, TopicLock, compress_session
from summarizer.session.transcript import parse_transcript

RUNS = 8
DAY = "2026-12-01"


def _transcript(i: int) -> str:
    return "\n".join(
        json.dumps(r)
        for r in (
            {
                "type": "user",
                "sessionId": f"run{i}-session",
                "cwd": "/w/api",
                "message": {"role": "user", "content": f"Partition table t{i} for the nightly report."},
            },
            {
                "type": "assistant",
                "sessionId": f"run{i}-session",
                "message": {
                    "role": "assistant",
                    "content": f"We decided to partition table t{i} by month {i}.",
                },
            },
        )
    )


def _run_all(db: Path, lock: TopicLock | None) -> list[SessionReport]:
    barrier = threading.Barrier(RUNS)
    reports: list[SessionReport] = []

    def one(i: int) -> None:
        with Store(db) as store:  # one connection per run, as separate processes would have
            parsed = parse_transcript(_transcript(i))
            barrier.wait()
            reports.append(
                asyncio.run(
                    compress_session(
                        parsed,
                        project="api",
                        date=DAY,
                        memory=store,
                        marks=FileMarks(db.parent / f"m{i}"),
                        session_key=f"k{i}",
                        force=True,
                        lock=lock,
                    )
                )
            )

    threads = [threading.Thread(target=one, args=(i,)) for i in range(RUNS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return reports


def test_eight_concurrent_runs_keep_all_eight_runs_items(tmp_path: Path) -> None:
    """Every run says saved or updated, and every run's decision is in the one stored document."""
    db = tmp_path / "engram" / "engram.db"
    Store(db).close()
    reports = _run_all(db, TopicLock(tmp_path / "engram" / "summarizer-session.lock"))
    assert sorted(r.action for r in reports) == ["saved"] + ["updated"] * (RUNS - 1)
    with Store(db) as store:
        found = store.latest_by_topic(f"session/api/compressed/{DAY}", project="api")
        assert found is not None and store.stats().total_observations == 1
    decisions = {split_tag(d)[0] for d in parse(found.content).section("decisions")}
    assert decisions == {f"We decided to partition table t{i} by month {i}." for i in range(RUNS)}


def test_a_writer_that_skips_the_lock_is_caught_by_the_verification(tmp_path: Path) -> None:
    """engram itself saving the topic between our read and write: our run merges again and re-saves."""
    db = tmp_path / "engram" / "engram.db"
    topic = f"session/api/compressed/{DAY}"

    class Interloper(Store):
        """A store that lets a foreign write land right after our first save."""

        saves = 0

        def save(self, *args: object, **kwargs: object) -> object:  # type: ignore[override]
            result = super().save(*args, **kwargs)  # type: ignore[arg-type]
            Interloper.saves += 1
            if Interloper.saves == 1:
                with Store(db) as other:
                    other.save(
                        "manual-save-api",
                        "foreign",
                        f"## Session Compression — {DAY}\n"
                        "### Decisions\n- Keep the report job on the replica\n",
                        type="session",
                        project="api",
                        topic_key=topic,
                    )
            return result

    with Interloper(db) as store:
        store.start_session("manual-save-api", "api")
        report = asyncio.run(
            compress_session(
                parse_transcript(_transcript(1)),
                project="api",
                date=DAY,
                memory=store,
                marks=FileMarks(tmp_path / "m"),
                session_key="k",
                force=True,
            )
        )
        found = store.latest_by_topic(topic, project="api")
    assert report.save_attempts == 2 and found is not None
    decisions = [split_tag(d)[0] for d in parse(found.content).section("decisions")]
    assert decisions == ["Keep the report job on the replica", "We decided to partition table t1 by month 1."]
