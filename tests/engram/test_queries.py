"""The hot lookups use the index meant for them (without ANALYZE, SQLite otherwise scans a whole scope)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from summarizer_engram import queries as q
from summarizer_engram.store import Store


@pytest.mark.parametrize(
    ("sql", "args", "index"),
    [
        (q.FIND_DUPLICATE, ("h", "p", "project", "manual", "t", "-15 minutes"), "idx_obs_dedupe"),
        (q.FIND_TOPIC, ("k", "p", "project"), "idx_obs_topic"),
        (q.FIND_HASH, ("h", "p"), "idx_obs_dedupe"),
        (
            f"SELECT {q._OBS} FROM observations o WHERE {q._LIVE_NOINDEX} "
            "ORDER BY o.created_at DESC LIMIT 20",
            (),
            "idx_obs_created",
        ),
    ],
)
def test_lookup_plans(tmp_path: Path, sql: str, args: tuple[object, ...], index: str) -> None:
    """Each save-path and context lookup searches its index, not idx_obs_scope or idx_obs_deleted."""
    path = tmp_path / "engram.db"
    with Store(path) as store:
        store.start_session("s", "p", "")
        for i in range(30):
            store.save("s", f"t{i}", f"c{i}", project="p", topic_key=f"k{i % 3}")
    conn = sqlite3.connect(path)
    plan = " ".join(row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql, args))
    conn.close()
    assert index in plan
    assert "idx_obs_scope" not in plan and "idx_obs_deleted" not in plan


ENGRAM_RECENT_SESSIONS = """SELECT s.id, COUNT(o.id) FROM sessions s
LEFT JOIN observations o ON o.session_id = s.id AND o.deleted_at IS NULL {where}
GROUP BY s.id ORDER BY MAX(COALESCE(o.created_at, s.started_at)) DESC LIMIT ?"""
ENGRAM_PROJECTS = """SELECT project FROM observations WHERE project IS NOT NULL AND deleted_at IS NULL
GROUP BY project ORDER BY MAX(created_at) DESC"""


def test_fast_recent_sessions_and_projects_match_engrams_queries(tmp_path: Path) -> None:
    """Our early-stopping walks return exactly what engram's GROUP BY queries return."""
    import random

    rng = random.Random(3)
    path = tmp_path / "engram.db"
    with Store(path) as store:
        for s in range(30):
            store.start_session(f"s{s}", f"p{s % 4}", "")
        for i in range(400):
            project = rng.choice(["a", "b", "c", "d", ""])
            store.save(f"s{rng.randrange(25)}", f"t{i}", f"c{i}", project=project)
    conn = sqlite3.connect(path)
    stamps = rng.sample(range(10**6), 430)  # distinct times: ties have no defined order in engram
    for oid in range(1, 401):
        conn.execute(
            "UPDATE observations SET created_at = datetime(?, 'unixepoch') WHERE id = ?",
            (1.7e9 + stamps[oid], oid),
        )
    for s in range(30):
        conn.execute(
            "UPDATE sessions SET started_at = datetime(?, 'unixepoch') WHERE id = ?",
            (1.7e9 + stamps[400 + s], f"s{s}"),
        )
    conn.execute("UPDATE observations SET deleted_at = datetime('now') WHERE id % 7 = 0 OR project = 'd'")
    conn.commit()
    with Store(path) as store:
        for project in ("", "p0", "p1", "p3"):
            for limit in (1, 5, 50):
                where = "WHERE s.project = ?" if project else ""
                args = (project, limit) if project else (limit,)
                expected = conn.execute(ENGRAM_RECENT_SESSIONS.format(where=where), args).fetchall()
                got = [(s.id, s.observation_count) for s in store.recent_sessions(project, limit)]
                assert got == expected, (project, limit)
        assert store.stats().projects == [r[0] for r in conn.execute(ENGRAM_PROJECTS)]
    conn.close()
