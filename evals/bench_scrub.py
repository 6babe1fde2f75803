"""Scrubber throughput on real logs, next to a one-regex baseline measured in the same run.

Run by hand: ``.venv/bin/python evals/bench_scrub.py [EVALDATA_DIR] [--repeat N]``. It concatenates
every log in the eval data (LogHub and generated tool outputs), repeats it to about 20 MB, and times
``scrub()`` line by line (how the tool-output compressor calls it) and on the whole text, next to
``re.search("error|fail|warn")`` per line as the baseline a grep-like filter costs. Each figure is
the best of ``--repeat`` runs (default 3): on a shared machine the minimum is the stable number.
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

from summarizer.core.scrub import LineScrubber, scrub


def corpus(root: Path, target_bytes: int = 20_000_000) -> list[str]:
    """Every .log/output.txt under ``root``, repeated up to ``target_bytes``."""
    files = sorted([*root.rglob("*.log"), *root.rglob("output.txt")])
    lines = [ln for f in files for ln in f.read_text(encoding="utf-8", errors="replace").splitlines(True)]
    size = sum(len(ln) for ln in lines)
    return lines * max(1, target_bytes // max(size, 1))


def timed(label: str, func: object, lines: list[str], mb: float, repeat: int = 3) -> float:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        func(lines)  # type: ignore[operator]
        runs.append(time.perf_counter() - start)
    secs = min(runs)
    print(f"{label:<34} {secs:7.2f} s  {mb / secs:7.1f} MB/s")
    return secs


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--repeat")]
    repeat = int(next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--repeat=")), "3"))
    root = Path(args[0]) if args else Path(__file__).resolve().parents[2] / "shared/evaldata"
    lines = corpus(root)
    mb = sum(len(ln.encode()) for ln in lines) / 1e6
    print(f"{len(lines):,} lines, {mb:.1f} MB from {root}")
    grep = re.compile(r"error|fail|warn", re.IGNORECASE)
    base = timed("baseline re.search per line", lambda ls: [grep.search(ln) for ln in ls], lines, mb, repeat)
    per_line = timed("scrub() per line", lambda ls: [scrub(ln) for ln in ls], lines, mb, repeat)
    line_scrubber = LineScrubber()
    timed("LineScrubber per line", lambda ls: [line_scrubber(ln) for ln in ls], lines, mb, repeat)
    timed("scrub() on the whole text", lambda ls: scrub("".join(ls)), lines, mb, repeat)
    print(f"scrub per line / baseline: {per_line / base:.2f}x")


if __name__ == "__main__":
    main()
