"""The large differential run of the Claude Code hook against the oracle of Claude Code's rules.

Generates command lines (every quoting and nesting form: substitutions, backquotes, ``${...}``,
process substitution, here-strings, ``eval``, ``sh -c``, functions, compound commands, heredocs,
pipes, lists, redirections, background jobs), pairs each with a random rule set, and asks the hook
in every permission mode. A reply is a violation when its decision plus its rewritten command is
more permissive than the oracle's decision for the original line. The generator and its seed are
in ``tests/agents/shellgen.py``; the test suite runs 400 lines of the same stream.

    .venv/bin/python evals/fuzz_hook.py                 # 10,000 lines x 5 modes
    .venv/bin/python evals/fuzz_hook.py --lines 20000 --seed 7
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.agents import fuzz, shellgen


def main() -> int:
    """Run, print the counts and any violation; exit 1 when one is found."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=shellgen.SEED)
    args = parser.parse_args()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        report = fuzz.run(args.lines, args.seed, Path(tmp) / "bin")
    seconds = time.perf_counter() - started
    print(
        f"lines {report.lines}, cases {report.cases} (lines x rule sets x {len(shellgen.MODES)} modes), "
        f"random seed={args.seed}, {seconds:.1f} s"
    )
    print("hook replies: " + ", ".join(f"{k} {v}" for k, v in sorted(report.replies.items())))
    print(f"more permissive than the oracle: {len(report.violations)}")
    for line in report.violations[:20]:
        print("  " + line)
    return 1 if report.violations else 0


if __name__ == "__main__":
    sys.exit(main())
