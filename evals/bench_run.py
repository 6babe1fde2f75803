"""Benchmark the start-up cost of the commands an agent puts in front of every command it runs.

Times, side by side and interleaved (round after round, each command once per round, so every
command sees the same machine load), the installed console script:

* ``summarizer run -- true`` and ``summarizer run -- echo hi`` (a small output: pass-through),
* ``summarizer hook claude`` fed a real Claude Code ``PreToolUse`` event on stdin,

next to the bare commands (``true``, ``echo hi``) and ``python -c pass``. Reported per command:
median wall time over the rounds, the median of the per-round ratio to ``python -c pass``, the
added time over the bare command, and the peak resident memory of the process (``wait4``'s
``ru_maxrss``, per child). Goal: ``run`` on a small output and ``hook claude`` within
3x ``python -c pass``, peak memory under 40 MB.

    .venv/bin/python evals/bench_run.py               # 21 rounds
    .venv/bin/python evals/bench_run.py --runs 41 --json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

EVENT = {
    "session_id": "bench",
    "transcript_path": "/tmp/bench.jsonl",
    "cwd": "/tmp",
    "permission_mode": "default",
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "pytest -x tests", "description": "Run the tests"},
    "tool_use_id": "toolu_bench",
}


def _spawn(argv: list[str], stdin_path: str, env: dict[str, str]) -> tuple[float, int]:
    """(wall seconds, ``ru_maxrss`` in KiB) of one run; the command's output is discarded."""
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, stdin_path, os.O_RDONLY, 0),
        (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
        (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
    ]
    start = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, env, file_actions=actions)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"{' '.join(argv)} exited {code}")
    return wall, usage.ru_maxrss


_PROBE = """\
import atexit, os, sys
def _report():
    with open('/proc/self/status') as status:
        peak = next(line.split()[1] for line in status if line.startswith('VmHWM:'))
    with open(os.environ['BENCH_PEAK_FILE'], 'w') as out:
        out.write(peak)
atexit.register(_report)
if len(sys.argv) > 1:
    sys.argv = ['summarizer'] + sys.argv[1:]
    from summarizer.launcher import main
    main()
"""


def _peak_kib(args: list[str] | None, stdin_path: str, env: dict[str, str], tmp: str) -> int | None:
    """The process's own peak RSS (``VmHWM`` read at exit), or None for a bare command.

    Not ``wait4``'s ``ru_maxrss``: Linux folds the pre-exec memory's high-water mark into it at
    exec, and a spawned child starts out sharing this benchmark's Python, so every command would
    read as this script's size. The probe is ``python -c`` running the console script's own
    entry point, which is what the console script does.
    """
    if args is None:
        return None
    path = os.path.join(tmp, "peak")
    _spawn([sys.executable, "-c", _PROBE, *args], stdin_path, {**env, "BENCH_PEAK_FILE": path})
    with open(path) as handle:
        return int(handle.read())


def main() -> None:
    """Run the rounds and print the table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="interleaved rounds (default 21)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    exe = Path(sys.executable).with_name("summarizer")
    if not exe.exists():
        raise SystemExit(f"{exe} not found: pip install -e . first")
    with tempfile.TemporaryDirectory() as tmp:
        event = Path(tmp) / "event.json"
        event.write_text(json.dumps(EVENT))
        env = {**os.environ, "SUMMARIZER_CACHE_DIR": str(Path(tmp) / "cache"), "HOME": tmp}
        commands: dict[str, tuple[list[str], str, list[str] | None]] = {
            "python -c pass": ([sys.executable, "-c", "pass"], os.devnull, []),
            "true (bare)": (["true"], os.devnull, None),
            "summarizer run -- true": ([str(exe), "run", "--", "true"], os.devnull, ["run", "--", "true"]),
            "echo hi (bare)": (["echo", "hi"], os.devnull, None),
            "summarizer run -- echo hi": (
                [str(exe), "run", "--", "echo", "hi"],
                os.devnull,
                ["run", "--", "echo", "hi"],
            ),
            "summarizer hook claude": ([str(exe), "hook", "claude"], str(event), ["hook", "claude"]),
        }
        for argv, stdin, _ in commands.values():  # warm the page cache and the .pyc files
            _spawn(argv, stdin, env)
        walls: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, (argv, stdin, _) in commands.items():
                walls[name].append(_spawn(argv, stdin, env)[0])
        peaks: dict[str, int | None] = {}
        for name, (_, stdin, probe) in commands.items():
            runs = [_peak_kib(probe, stdin, env, tmp) for _ in range(3)]
            peaks[name] = max((r for r in runs if r is not None), default=None)
    base = walls["python -c pass"]
    bare = {"summarizer run -- true": "true (bare)", "summarizer run -- echo hi": "echo hi (bare)"}
    rows = []
    for name, times in walls.items():
        ratio = statistics.median(t / b for t, b in zip(times, base, strict=True))
        added = statistics.median(times) - statistics.median(walls[bare[name]]) if name in bare else None
        peak = peaks[name]
        rows.append(
            {
                "command": name,
                "median_ms": round(statistics.median(times) * 1000, 1),
                "ratio_to_python_pass": round(ratio, 2),
                "added_ms": None if added is None else round(added * 1000, 1),
                "peak_mib": None if peak is None else round(peak / 1024, 1),
            }
        )
    if args.json:
        print(json.dumps({"runs": args.runs, "cpus": os.cpu_count(), "rows": rows}, indent=2))
        return
    print(f"median of {args.runs} interleaved runs, {os.cpu_count()} CPUs")
    print(f"{'command':<28}{'median ms':>10}{'x python -c pass':>18}{'added ms':>10}{'peak MiB':>10}")
    for r in rows:
        added_text = "" if r["added_ms"] is None else f"{r['added_ms']:.1f}"
        shown = "" if r["peak_mib"] is None else f"{r['peak_mib']:.1f}"
        figures = f"{r['median_ms']:>10.1f}{r['ratio_to_python_pass']:>18.2f}{added_text:>10}{shown:>10}"
        print(f"{r['command']:<28}{figures}")


if __name__ == "__main__":
    main()
