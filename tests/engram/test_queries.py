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
        (f"SELECT {q._OBS} FROM observations o WHERE {q._LIVE_NOINDEX} ORDER BY o.created_at DESC LIMIT 20",
         (), "idx_obs_created"),
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
