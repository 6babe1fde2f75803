"""Benchmark the phase gate: a 50-entry gate on a bank that holds 100 phases vs on an empty bank.

Both timings come from the same run on the same machine (it is shared and noisy), so the ratio is
the figure to quote. Wall-clock time includes every fsync and whatever else the machine runs; CPU
time (``time.process_time``) is the part the gate's own code costs, and varies far less.

Each repetition copies a fresh bank (the 100-phase one, or an empty directory) and times
``run_gate`` end to end: lock, stale cleanup, loading and parsing every bank file (the markdown and
the ``_bank-state.json`` sidecar), scoring, allocation, rendering, cross-references, the C7 trim,
atomic writes with fsync. The 100-phase bank is built with real gates; once its CRITICAL entries
reach the 100-line total a phase's CRITICAL entries are dropped (they would escalate), and the
timed batch holds none.

    .venv/bin/python evals/bench_gate.py               # 100 phases x 5 entries, 50-entry gate, 7 reps
    .venv/bin/python evals/bench_gate.py --reps 3      # quicker
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from summarizer.bank import GateRequest, run_gate
from summarizer.core.errors import EscalationRequired
from summarizer.phasegate.models import SubtaskSummary
from summarizer.phasegate.scoring import score_entry

AGENTS = ("hermes", "aphrodite", "demeter", "themis", "hephaestus", "prometheus", "mnemosyne")
SUMMARIES = (
    "Added POST /api/{n}/items endpoint with pagination; returns 404 when the list is missing.",
    "Created {n}_events table via migration 00{n}_events with FK to users. Must backfill first.",
    "Refactored the {n} service config loader; deprecated the old env names.",
    "Added LoginForm{n} component with validation and error display.",
    "Fixed typo in README section {n}.",
    "Renamed helper functions in utils_{n}.",
    "Added index on orders.created_at for report {n}; however the rollout needs a maintenance window.",
    "Updated CSS spacing on the {n} page.",
    "Docker image for worker {n} now pins the base image; deploy config changed.",
)


def _entries(rng: random.Random, phase: int, count: int) -> tuple[SubtaskSummary, ...]:
    out = []
    for i in range(count):
        files = [f"src/mod{phase}_{i}_{k}.py" for k in range(rng.randint(1, 6))]
        out.append(
            SubtaskSummary.model_validate(
                {
                    "summary": rng.choice(SUMMARIES).format(n=f"{phase}x{i}"),
                    "files_changed": files,
                    "from_agent": f"{rng.choice(AGENTS)}{i}",  # distinct keys within a phase
                    "to_agent": rng.choice(AGENTS),
                    "tests": f"{rng.randint(1, 80)} passed",
                }
            )
        )
    return tuple(out)


def _no_critical(entries: tuple[SubtaskSummary, ...]) -> tuple[SubtaskSummary, ...]:
    return tuple(e for e in entries if score_entry(e).priority != "CRITICAL")


def _gate(root: Path, phase: int, entries: tuple[SubtaskSummary, ...]) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one gate (CPU time leaves out fsync waits and other processes)."""
    request = GateRequest(
        phase=str(phase), entries=entries, date="2026-06-20", estimated_phases=100, feature="bench"
    )
    start, cpu = time.perf_counter(), time.process_time()
    run_gate(root, request)
    return time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    """Build the 100-phase bank, then time the same 50-entry gate on it and on an empty bank."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phases", type=int, default=100)
    parser.add_argument("--per-phase", type=int, default=5)
    parser.add_argument("--entries", type=int, default=50)
    parser.add_argument("--reps", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(20260620)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        full = base / "full"
        start = time.perf_counter()
        for phase in range(1, args.phases + 1):
            entries = _entries(rng, phase, args.per_phase)
            try:
                _gate(full, phase, entries)
            except EscalationRequired:  # CRITICAL lines reached the 100-line total: keep the rest
                _gate(full, phase, _no_critical(entries))
        build = time.perf_counter() - start
        sizes = {
            p.name: p.stat().st_size
            for p in full.rglob("*")
            if p.suffix in (".md", ".json") and p.parent.name != ".tmp" and p.name != "_next_id.json"
        }
        # The full bank holds its 100 CRITICAL lines already: a CRITICAL entry would (rightly) escalate.
        batch = _no_critical(_entries(rng, args.phases + 1, args.entries * 2))[: args.entries]
        on_full: list[tuple[float, float]] = []
        on_empty: list[tuple[float, float]] = []
        for rep in range(args.reps):
            for source, sink in ((full, on_full), (None, on_empty)):
                target = base / f"run{rep}-{'full' if source else 'empty'}"
                if source is not None:
                    shutil.copytree(source, target)
                sink.append(_gate(target, args.phases + 1, batch))
                shutil.rmtree(target)
    print(
        f"built a {args.phases}-phase bank ({args.phases * args.per_phase} entries) in {build:.1f} s; "
        f"file sizes: {sizes}"
    )
    print(f"gate of {args.entries} entries, median of {args.reps}:   wall ms    CPU ms")
    figures = []
    for column in (0, 1):
        empty_ms = statistics.median(t[column] for t in on_empty) * 1000
        full_ms = statistics.median(t[column] for t in on_full) * 1000
        figures.append((empty_ms, full_ms))
    (empty_wall, full_wall), (empty_cpu, full_cpu) = figures
    print(f"  empty bank                      {empty_wall:8.1f}  {empty_cpu:8.1f}")
    print(f"  {args.phases}-phase bank                  {full_wall:8.1f}  {full_cpu:8.1f}")
    print(f"  ratio                           {full_wall / empty_wall:7.2f}x  {full_cpu / empty_cpu:7.2f}x")


if __name__ == "__main__":
    main()
