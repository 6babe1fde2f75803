"""Evaluate tool-output compression against independent ground truth.

Usage:
    python evals/eval_output.py /work/shared/evaldata [MORE_FOLDERS ...] [--target N] [--stress N]

Reads every case (LogHub ``loghub/<System>/`` and generated ``gen/<case>/`` formats, or any folder
of the same format), compresses it with the public API, and prints per case: tokens in, tokens out,
reduction, must recall, should recall, the missed items, and the time; then the totals and the
median reductions the bar is defined on (cases of 10,000+ tokens, dense vs not dense; dense means
more than 20% of the lines are must-survive lines).

``--stress N`` runs a second pass with ``--target N --floor 0`` so that the small cases, which pass
through unchanged by default, are compressed too and the rules are exercised on every case.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

from summarizer.core.tokens import count_tokens
from summarizer.output import OriginalStore, OutputOptions, compress
from summarizer.output.lines import strip_ansi
from summarizer.output.truth import Case, load_cases, recall

LARGE = 10_000
DENSE = 0.20
# The header's first error is right when it points into the first failure: at or after the first
# line holding a must-survive value, and within this many lines of it (a failing test's header
# comes a few lines before its error line).
FIRST_WINDOW = 40


def _first_truth_line(case: Case, text: str) -> int | None:
    """The first line of the output holding any must-survive value (ANSI stripped)."""
    needles = [n for item in case.must for n in item.needles]
    if not needles:
        return None
    for number, line in enumerate(strip_ansi(text).split("\n"), 1):
        if any(n in line for n in needles):
            return number
    return None


def _first_error_cell(case: Case, text: str, line: int | None) -> str:
    truth = None if case.exit_code == 0 else _first_truth_line(case, text)
    if truth is None:
        return "" if line is None else f"{line} (no failure)"
    if line is None:
        return f"NONE (truth {truth})"
    return "ok" if truth <= line <= truth + FIRST_WINDOW else f"WRONG {line} (truth {truth})"


def _run(case: Case, store: OriginalStore, options: OutputOptions) -> dict[str, object]:
    data = case.path.read_bytes()
    started = time.perf_counter()
    result = compress(io.BytesIO(data), store, options)
    elapsed = time.perf_counter() - started
    if result.passthrough:
        identical = b"".join(store.iter_bytes(result.restore_id)) == data and result.text == data.decode(
            "utf-8", "replace"
        )
    else:
        identical = False
    must = recall(case.must, result.text)
    should = recall(case.should, result.text)
    lines = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
    must_lines = {item.label.split(":", 1)[0] for item in case.must if item.label.startswith("line ")}
    dense = (
        (len(must_lines) / max(lines, 1) > DENSE) if must_lines else len(case.must) / max(lines, 1) > DENSE
    )
    return {
        "case": case.name,
        "in": result.original_tokens,
        "out": result.compressed_tokens,
        "reduction": result.reduction,
        "must": must,
        "should": should,
        "time": elapsed,
        "dense": dense,
        "passthrough": result.passthrough,
        "identical": identical,
        "class": result.classification,
        "exact": result.original_tokens_exact,
        "recount": count_tokens(data.decode("utf-8", "replace")),
        "first": _first_error_cell(
            case, data.decode("utf-8", "replace"), result.first_error.line if result.first_error else None
        ),
        "counts": None
        if case.runner_counts is None
        else (result.failed_tests, result.passed_tests) == case.runner_counts,
    }


def _counts_cell(value: object) -> str:
    return "" if value is None else ("= runner" if value else "WRONG")


def _table(rows: list[dict[str, object]], title: str) -> bool:
    print(f"\n## {title}\n")
    print(
        "| case | class | tokens in | tokens out | reduction | must | should | header counts | first error "
        "| time | note |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---|---|---:|---|")
    ok = True
    for r in rows:
        must, should = r["must"], r["should"]
        note = (
            "pass-through" + (" (byte-identical)" if r["identical"] else " (NOT identical)")
            if r["passthrough"]
            else ""
        )
        if r["dense"]:
            note = (note + " dense").strip()
        print(
            f"| {r['case']} | {r['class']} | {r['in']:,} | {r['out']:,} | {r['reduction']:.1%} | "
            f"{must.found}/{must.total} | {should.found}/{should.total} | {_counts_cell(r['counts'])} | "
            f"{r['first']} | {r['time']:.2f}s | {note} |"
        )
        if must.missed or r["counts"] is False or str(r["first"]).startswith(("WRONG", "NONE")):
            ok = False
    misses = [(r["case"], m) for r in rows for m in r["must"].missed]
    for name, missed in misses[:60]:
        print(f"  MISSED must [{name}] {missed[:200]}")
    large = [r for r in rows if r["in"] >= LARGE]
    sparse = [r["reduction"] for r in large if not r["dense"]]
    dense = [r["reduction"] for r in large if r["dense"]]
    must_found = sum(r["must"].found for r in rows)
    must_total = sum(r["must"].total for r in rows)
    should_found = sum(r["should"].found for r in rows)
    should_total = sum(r["should"].total for r in rows)
    print(
        f"\nTotals: {len(rows)} cases, tokens {sum(r['in'] for r in rows):,} -> "
        f"{sum(r['out'] for r in rows):,}; "
        f"must {must_found}/{must_total}; should {should_found}/{should_total}; "
        f"cases at 100% must: {sum(1 for r in rows if not r['must'].missed)}/{len(rows)}; "
        f"header counts equal to the runner's: {sum(1 for r in rows if r['counts'])}/"
        f"{sum(1 for r in rows if r['counts'] is not None)}"
    )
    if sparse:
        print(
            f"Median reduction, >= {LARGE:,} tokens, not dense ({len(sparse)} cases): "
            f"{statistics.median(sparse):.1%}"
        )
    if dense:
        print(
            f"Median reduction, >= {LARGE:,} tokens, dense ({len(dense)} cases): "
            f"{statistics.median(dense):.1%}"
        )
    small = [r for r in rows if r["in"] <= 500]
    if small:
        print(f"Under the floor: {sum(1 for r in small if r['identical'])}/{len(small)} byte-identical")
    return ok


def main(argv: list[str] | None = None) -> int:
    """Run the evaluation; exit 1 when any case misses a must-survive item."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument(
        "--target", type=int, default=None, help="token budget (default: the product default)"
    )
    parser.add_argument("--stress", type=int, default=None, help="also run with this target and no floor")
    args = parser.parse_args(argv)
    cases = [case for folder in args.folders for case in load_cases(folder)]
    if not cases:
        print("no cases found (expected folders holding truth.json)", file=sys.stderr)
        return 2
    ok = True
    with tempfile.TemporaryDirectory(prefix="eval-output-") as tmp:
        store = OriginalStore(Path(tmp) / "originals")
        rows = [_run(c, store, OutputOptions(target_tokens=args.target)) for c in cases]
        ok &= _table(rows, f"default options (target {args.target or 'auto'})")
        if args.stress:
            rows = [_run(c, store, OutputOptions(target_tokens=args.stress, floor_tokens=0)) for c in cases]
            ok &= _table(rows, f"stress: target {args.stress}, floor 0 (every case compressed)")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
