"""Benchmark the embedded engram store: save rate and search latency at 100,000 observations.

Baselines are measured in the same run on the same database file, because the machine is shared and
noisy: the save rate is set against a bare ``INSERT`` of the same row (same triggers and indexes, no
privacy strip, hashing, duplicate or topic lookup), and ``Store.search`` against a plain FTS5 query
(``MATCH ... ORDER BY rank LIMIT 10``, no join, no filters, no model building) with the same query.

    .venv/bin/python evals/bench_engram.py                # 100,000 observations, 300 queries
    .venv/bin/python evals/bench_engram.py --n 20000      # quicker; --keep keeps the database file

The bulk of the rows is loaded with one transaction of plain INSERTs (the triggers keep FTS in sync,
so the file is what the store would have written); the save rate is measured with real
``Store.save`` calls, one transaction each, first on an empty store and again at full size.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from summarizer_engram import queries as q
from summarizer_engram.normalize import hash_normalized, sanitize_fts
from summarizer_engram.store import Store

TYPES = ("decision", "architecture", "bugfix", "pattern", "config", "discovery", "learning", "manual")
PLAIN = "SELECT rowid FROM observations_fts WHERE observations_fts MATCH ? ORDER BY rank LIMIT 10"
ENGRAM_RECENT_SESSIONS = """SELECT s.id, s.project, s.started_at, s.ended_at, s.summary, COUNT(o.id)
FROM sessions s LEFT JOIN observations o ON o.session_id = s.id AND o.deleted_at IS NULL
GROUP BY s.id ORDER BY MAX(COALESCE(o.created_at, s.started_at)) DESC LIMIT 5"""
ENGRAM_PROJECTS = """SELECT project FROM observations WHERE project IS NOT NULL AND deleted_at IS NULL
GROUP BY project ORDER BY MAX(created_at) DESC"""
PROJECTS = tuple(f"project-{i}" for i in range(20))


def vocabulary(rng: random.Random, size: int = 5000) -> list[str]:
    """Pseudo-words; drawn with Zipf-like weights so some terms are common, most are rare."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    return ["".join(rng.choice(letters) for _ in range(rng.randint(3, 10))) for _ in range(size)]


def text(rng: random.Random, words: list[str], weights: list[float], n: int) -> str:
    """``n`` words drawn from the vocabulary."""
    return " ".join(rng.choices(words, weights, k=n))


Words = list[str]


def timed_saves(store: Store, rng: random.Random, words: Words, weights: list[float], count: int) -> float:
    """Saves per second over ``count`` real ``Store.save`` calls."""
    start = time.perf_counter()
    for i in range(count):
        store.save(
            f"bench-{i % 200}",
            text(rng, words, weights, 6),
            text(rng, words, weights, 60),
            type=rng.choice(TYPES),
            project=rng.choice(PROJECTS),
        )
    return count / (time.perf_counter() - start)


def timed_raw_inserts(
    path: Path, rng: random.Random, words: Words, weights: list[float], count: int
) -> float:
    """Baseline: the same rows as bare INSERTs, one transaction each, on a raw connection."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = NORMAL")
    start = time.perf_counter()
    for i in range(count):
        row = random_row(rng, words, weights, i)
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(q.INSERT_OBSERVATION, row)
        conn.execute("COMMIT")
    rate = count / (time.perf_counter() - start)
    conn.close()
    return rate


def random_row(rng: random.Random, words: Words, weights: list[float], i: int) -> tuple[object, ...]:
    """One observation row for ``INSERT_OBSERVATION``, with a 60-word body."""
    body = text(rng, words, weights, 60)
    return (
        f"bench-{i % 200}",
        rng.choice(TYPES),
        text(rng, words, weights, 6),
        body,
        None,
        rng.choice(PROJECTS),
        "project",
        None,
        hash_normalized(body),
    )


def bulk_fill(path: Path, rng: random.Random, words: list[str], weights: list[float], count: int) -> None:
    """Load ``count`` rows in one transaction (triggers fire, so the FTS index is complete)."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    rows = [random_row(rng, words, weights, i) for i in range(count)]
    conn.executemany(q.INSERT_OBSERVATION, rows)
    conn.execute("COMMIT")
    conn.close()


def percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(pct / 100 * len(ordered)) - 1))]


def main() -> None:
    """Run the benchmark and print a small report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000, help="observations in the store")
    parser.add_argument("--queries", type=int, default=300, help="search queries to time")
    parser.add_argument("--saves", type=int, default=2000, help="timed Store.save calls per measurement")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", action="store_true", help="keep the database (printed path) afterwards")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    words = vocabulary(rng)
    weights = [1 / (rank + 1) for rank in range(len(words))]
    workdir = Path(tempfile.mkdtemp(prefix="bench-engram-"))
    path = workdir / "engram.db"
    store = Store(path)
    for s in range(200):
        store.start_session(f"bench-{s}", PROJECTS[s % len(PROJECTS)], "/bench")

    empty_rate = timed_saves(store, rng, words, weights, args.saves)
    empty_raw = timed_raw_inserts(path, rng, words, weights, args.saves)
    bulk_fill(path, rng, words, weights, max(0, args.n - 4 * args.saves))  # 4 timed phases add the rest
    full_rate = timed_saves(store, rng, words, weights, args.saves)
    full_raw = timed_raw_inserts(path, rng, words, weights, args.saves)
    total = store.stats().total_observations

    queries = [" ".join(rng.choices(words[:2000], k=rng.randint(1, 3))) for _ in range(args.queries)]
    raw = sqlite3.connect(path)
    ours, plain, hits = [], [], []
    for query in queries:  # interleaved, so both see the same cache state and machine noise
        t0 = time.perf_counter()
        hits.append(len(store.search(query)))
        t1 = time.perf_counter()
        raw.execute(PLAIN, (sanitize_fts(query),)).fetchall()
        t2 = time.perf_counter()
        ours.append((t1 - t0) * 1000)
        plain.append((t2 - t1) * 1000)
    # mem_context's reads (recent sessions + project order) against engram's own GROUP BY queries.
    ctx_ours, ctx_engram = [], []
    for _ in range(5):
        t0 = time.perf_counter()
        store.context()
        store.stats()
        t1 = time.perf_counter()
        raw.execute(ENGRAM_RECENT_SESSIONS).fetchall()
        raw.execute(ENGRAM_PROJECTS).fetchall()
        t2 = time.perf_counter()
        ctx_ours.append((t1 - t0) * 1000)
        ctx_engram.append((t2 - t1) * 1000)
    raw.close()
    store.close()

    print(
        f"engram store benchmark: {total:,} observations, {args.queries} queries, "
        f"{args.saves} saves per measurement"
    )
    print(f"  database: {path} ({path.stat().st_size / 1e6:.0f} MB + WAL)")
    print("  save rate (one transaction per save, obs/s):")
    print(
        f"    empty store : Store.save {empty_rate:7.0f}   bare INSERT {empty_raw:7.0f}   "
        f"ratio {empty_rate / empty_raw:.2f}"
    )
    print(
        f"    at {total:,}: Store.save {full_rate:7.0f}   bare INSERT {full_raw:7.0f}   "
        f"ratio {full_rate / full_raw:.2f}"
    )
    print("  search latency (ms), limit 10, OR-joined quoted terms:")
    print(f"    Store.search     median {statistics.median(ours):6.2f}   p95 {percentile(ours, 95):6.2f}")
    print(f"    plain FTS5 query median {statistics.median(plain):6.2f}   p95 {percentile(plain, 95):6.2f}")
    print(
        f"    ratio (ours / plain): median {statistics.median(ours) / statistics.median(plain):.2f}   "
        f"p95 {percentile(ours, 95) / percentile(plain, 95):.2f}"
    )
    print(f"  mean hits per query: {statistics.mean(hits):.1f}")
    print(
        f"  context + stats (ms, median of 5): Store {statistics.median(ctx_ours):.1f}   engram's "
        f"GROUP BY queries alone {statistics.median(ctx_engram):.1f}   "
        f"ratio {statistics.median(ctx_ours) / statistics.median(ctx_engram):.2f}"
    )
    if not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
