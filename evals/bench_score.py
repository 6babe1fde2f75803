"""Benchmark the phase-gate scorer: in-process throughput and the CLI's cold start.

Two figures, each next to a baseline measured in the same run (the machine is shared and noisy):

1. Entries scored per second, in-process, over N varied entries (default 100,000) on one core:
   ``summarizer.phasegate.scoring.score_entry`` on validated entries (goal: >= 20,000/s), and the same with
   pydantic validation of the raw dict included (what an MCP call pays). Baseline: one pass of
   ``str.lower()`` over the same summaries, to show the machine's speed at the time.
2. The median wall time of ``summarizer score --text ... --json`` (the installed console script,
   one entry) against ``python -c pass`` (goal: at most 10x), run alternately so that both see
   the same load. A plain call reads its entry without pydantic (the light entry reader); the same
   call through ``summarizer.cli:main``, click with the light reader alone, and the floor of
   ``import click`` plus one pydantic model (what the dependencies alone cost) are printed beside it.

    .venv/bin/python evals/bench_score.py              # 100,000 entries, 21 cold starts each
    .venv/bin/python evals/bench_score.py --n 20000 --runs 9
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from summarizer.phasegate.models import SubtaskSummary
from summarizer.phasegate.scoring import score_entry

AGENTS = ("hermes", "aphrodite", "demeter", "themis", "mnemosyne", "hephaestus", "prometheus", "zeus")
VERBS = ("Added", "Fixed", "Refactored", "Renamed", "Deleted", "Documented", "Migrated", "Reviewed", "Tuned")
THINGS = (
    "JWT auth endpoint",
    "refresh token rotation",
    "orders table",
    "new column expires_at",
    "login page",
    "README typo",
    "CSS for the navbar",
    "Docker image",
    "deploy pipeline",
    "foreign key to users",
    "unique index on email",
    "role permissions",
    "POST /api/v1/orders route",
    "config loader",
    "docstring of the parser",
    "password reset flow",
    "service boundary",
    "schema of invoices",
    "comment in utils",
    "deprecated settings",
    "webhook retries",
    "style of the cards",
)
TAILS = (
    "",
    " with tests",
    "; was blocked by review",
    " and unblocked the UI",
    ". Must rotate keys weekly.",
    " behind a flag",
    " (returns 401 on bad tokens)",
    " for the v2 API",
    ", however it is slow on big lists",
)
STATUSES = ("complete", "complete", "complete", "partial (waiting on API)", "in_progress", "blocked")


def make_entries(n: int, seed: int = 7) -> list[dict[str, object]]:
    """``n`` varied raw entries (deterministic for a seed), each with a unique id in its text."""
    rng = random.Random(seed)
    out: list[dict[str, object]] = []
    for i in range(n):
        summary = f"{rng.choice(VERBS)} {rng.choice(THINGS)}{rng.choice(TAILS)} #{i}"
        files = [f"src/mod{rng.randrange(50)}/file{j}.py" for j in range(rng.choice((0, 1, 2, 3, 5, 7, 12)))]
        out.append(
            {
                "summary": summary,
                "files_changed": files,
                "status": rng.choice(STATUSES),
                "from": rng.choice(AGENTS),
                "to": rng.choice(AGENTS),
            }
        )
    return out


def bench_throughput(n: int) -> None:
    """Entries per second: score_entry on validated entries, and validation + scoring."""
    raw = make_entries(n)
    entries = [SubtaskSummary.model_validate(r) for r in raw]
    texts = [e.summary for e in entries]

    def timed(run: Callable[[], object]) -> tuple[float, float]:
        wall, cpu = time.perf_counter(), time.process_time()
        run()
        return time.perf_counter() - wall, time.process_time() - cpu

    baseline = timed(lambda: [text.lower() for text in texts])
    scoring = timed(lambda: [score_entry(entry) for entry in entries])
    validated = timed(lambda: [score_entry(SubtaskSummary.model_validate(item)) for item in raw])

    print(f"entries: {n:,} varied (unique text each); rates by wall time and by this process's CPU time")
    for label, (wall, cpu) in (
        ("score_entry (validated entries)", scoring),
        ("validate + score (raw dicts)", validated),
        ("baseline str.lower() per entry", baseline),
    ):
        print(f"  {label:<32}: {n / wall:>10,.0f}/s wall  {n / cpu:>10,.0f}/s cpu")
    print("  goal: score_entry >= 20,000 entries/s on one core")


def _run(cmd: list[str], env: dict[str, str], stdin: bytes | None = None) -> tuple[float, float]:
    """Wall time and the child's CPU time (user + system), which load on the machine barely changes."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env, input=stdin)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


ENTRY = {
    "summary": "Added JWT auth endpoint with refresh token rotation",
    "files_changed": ["backend/routers/auth.py", "backend/services/auth_service.py"],
    "from_agent": "hermes",
    "to_agent": "aphrodite",
    "status": "complete",
    "phase": "1",
}


# The alternative to the hand parser in summarizer.launcher (issue: "decide the launcher with a
# measurement"): click parses the same flags, the light reader and scorer answer, no pydantic.
CLICK_LIGHT = """
import json, sys, click
from summarizer.phasegate.entry_rules import light_entry
from summarizer.phasegate.service import score_one
@click.command()
@click.argument("command")
@click.option("--text")
@click.option("--files")
@click.option("--from", "from_agent")
@click.option("--to", "to_agent")
@click.option("--json", "as_json", is_flag=True)
def main(command, text, files, from_agent, to_agent, as_json):
    entry = light_entry({"summary": text, "files_changed": files.split(","), "from_agent": from_agent,
                         "to_agent": to_agent})
    print(json.dumps(score_one(entry).as_dict()))
main()
"""


def bench_cold_start(runs: int) -> None:
    """Median wall time of `summarizer score` on one entry vs `python -c pass`, interleaved."""
    exe = Path(sys.executable).with_name("summarizer")
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    flags = [
        "score",
        "--text",
        "Added JWT auth endpoint with refresh token rotation",
        "--files",
        "backend/routers/auth.py,backend/services/auth_service.py",
        "--from",
        "hermes",
        "--to",
        "aphrodite",
        "--json",
    ]
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "summarizer score": [str(exe), *flags],
        "summarizer score - (JSON on stdin)": [str(exe), "score", "-", "--json"],
        "click path (summarizer.cli:main)": [
            sys.executable,
            "-c",
            "from summarizer.cli import main; main()",
            *flags,
        ],
        "click + light entry reader (no pydantic)": [sys.executable, "-c", CLICK_LIGHT, *flags],
        "floor: import click + pydantic model": [
            sys.executable,
            "-c",
            "import click; from pydantic import BaseModel\nclass M(BaseModel):\n    x: int = 0",
        ],
        "floor: same, plugins disabled": [
            sys.executable,
            "-c",
            "import os; os.environ['PYDANTIC_DISABLE_PLUGINS'] = '__all__'\n"
            "import click; from pydantic import BaseModel\nclass M(BaseModel):\n    x: int = 0",
        ],
    }
    walls: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    stdin = {"summarizer score - (JSON on stdin)": json.dumps(ENTRY).encode()}
    for name, cmd in commands.items():  # warm the OS file cache once
        _run(cmd, env, stdin.get(name))
    for _ in range(runs):
        for name, cmd in commands.items():
            wall, cpu = _run(cmd, env, stdin.get(name))
            walls[name].append(wall)
            cpus[name].append(cpu)
    base_wall = statistics.median(walls["python -c pass"])
    base_cpu = statistics.median(cpus["python -c pass"])
    print(f"cold start, median of {runs} interleaved runs (wall time, and the process's CPU time):")
    for name in commands:
        wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
        print(
            f"  {name:<38} {wall * 1000:7.1f} ms wall {wall / base_wall:5.1f}x   "
            f"{cpu * 1000:7.1f} ms cpu {cpu / base_cpu:5.1f}x   (x = times python -c pass)"
        )
    print("  goal: summarizer score <= 10x python -c pass")


def main() -> None:
    """Run both benchmarks."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000, help="entries for the throughput run")
    parser.add_argument("--runs", type=int, default=21, help="cold-start runs per command")
    args = parser.parse_args()
    bench_throughput(args.n)
    bench_cold_start(args.runs)


if __name__ == "__main__":
    main()
