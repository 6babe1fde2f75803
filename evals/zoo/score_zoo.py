"""Score the zoo through the public CLI: must recall, the header's first error, reduction.

Usage:
    python evals/zoo/score_zoo.py [CASES_DIR] [--route output|run|both] [--md FILE]

For every case folder (``output.txt`` + ``truth.json``, see ``zoo_lib.py``) two routes are
scored, each as an agent would meet them:

* ``output``: ``summarizer output --json --exit-code RC output.txt``;
* ``run``: ``summarizer run -- sh -c 'cat output.txt; exit RC'`` (the recorded output through
  the same code path as a live command; the exit code must come back unchanged).

Per case: tokens in and out, reduction, must recall (the package's recall: ANSI stripped,
``@ file`` rows expanded), and whether the header's first error holds ``first_failure`` (``—``
when the output passed through whole, so there is no header; for cases whose truth has no
failure, the header must name none), and whether the header's ``failing tests (N`` and
``passing tests: M`` are the runner's counts (``reported_counts``, from its machine-readable
report or the planted list). Exit 1 when any case misses an item, names a wrong first error or
counts its tests wrong.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

from summarizer.core.tokens import count_tokens
from summarizer.output.truth import TruthItem, recall

HERE = Path(__file__).resolve().parent
HEADER_PREFIX = "first error"


def _items(truth: dict[str, object]) -> tuple[TruthItem, ...]:
    rows = truth.get("must_survive") or []
    assert isinstance(rows, list)
    return tuple(TruthItem(label=f"{r['kind']}: {r['value']}", needles=(r["value"],)) for r in rows)


def _first_ok(first: str | None, expected: str | None, passthrough: bool) -> str:
    if passthrough:
        return "—"
    if expected is None:
        return "ok" if first is None else "WRONG (invented)"
    if first is None:
        return "MISSING"
    return "ok" if expected in first else "WRONG"


_COUNT_LINES = (re.compile(r"^failing tests \((\d[\d,]*)"), re.compile(r"^passing tests: (\d[\d,]*)"))


def _counts_ok(text: str, truth: dict[str, object], passthrough: bool) -> str:
    """Whether the header's failing/passing counts are the runner's (truth: its machine-readable
    report, or the planted list); ``—`` when the case has none or passed through."""
    expected = truth.get("reported_counts")
    if passthrough or not isinstance(expected, dict):
        return "—"
    lines = text.splitlines()[:8]
    got = []
    for pattern in _COUNT_LINES:
        found = next((m.group(1) for line in lines if (m := pattern.match(line))), "0")
        got.append(int(found.replace(",", "")))
    want = [int(expected["failed"]), int(expected["passed"])]
    return "ok" if got == want else f"WRONG ({got[0]}/{got[1]}, runner {want[0]}/{want[1]})"


def _header_first(lines: list[str]) -> str | None:
    """The header's "first error" line of a rendering, if it has one."""
    start = next((n for n, line in enumerate(lines) if line.startswith("[summarizer output")), None)
    if start is None:
        return None
    return next((line for line in lines[start : start + 6] if line.startswith(HEADER_PREFIX)), None)


def score_output(folder: Path, truth: dict[str, object], extra: tuple[str, ...] = ()) -> dict[str, object]:
    """The ``summarizer output`` route (``extra``: more options, such as a forced target)."""
    rc = int(truth.get("exit_code") or 0)
    done = subprocess.run(
        ["summarizer", "output", "--json", "--exit-code", str(rc), *extra, str(folder / "output.txt")],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        return {"error": done.stderr.strip()[:200]}
    env = json.loads(done.stdout)
    # What the agent reads: the header's line (it names the failing test an error line belongs to).
    first_text = _header_first(env["text"].splitlines())
    got = recall(_items(truth), env["text"])
    return {
        "in": env["original_tokens"],
        "out": env["compressed_tokens"],
        "must": got,
        "first": _first_ok(first_text, truth.get("first_failure"), env["passthrough"]),  # type: ignore[arg-type]
        "first_text": first_text,
        "counts": _counts_ok(env["text"], truth, env["passthrough"]),
        "rc_ok": True,
    }


def score_run(folder: Path, truth: dict[str, object]) -> dict[str, object]:
    """The ``summarizer run`` route: the recorded output replayed by a child that exits RC."""
    rc = int(truth.get("exit_code") or 0)
    replay = f"cat {shlex.quote(str(folder / 'output.txt'))}; exit {rc}"
    done = subprocess.run(["summarizer", "run", "--", "sh", "-c", replay], capture_output=True, check=False)
    text = done.stdout.decode("utf-8", "replace")
    raw = (folder / "output.txt").read_bytes().decode("utf-8", "replace")
    header = _header_first(text.splitlines())
    passthrough = done.stdout == (folder / "output.txt").read_bytes()
    got = recall(_items(truth), text)
    return {
        "in": count_tokens(raw),
        "out": count_tokens(text),
        "must": got,
        "first": _first_ok(header, truth.get("first_failure"), passthrough),  # type: ignore[arg-type]
        "first_text": header,
        "counts": _counts_ok(text[text.find("[summarizer output") :], truth, passthrough),
        "rc_ok": done.returncode == rc,
    }


def _row(name: str, r: dict[str, object]) -> str:
    if "error" in r:
        return f"| {name} | error: {r['error']} |"
    must = r["must"]
    red = 1 - r["out"] / max(r["in"], 1)  # type: ignore[operator]
    return (
        f"| {name} | {r['in']:,} | {r['out']:,} | {red:.1%} | {must.found}/{must.total} | "  # type: ignore[attr-defined]
        f"{r['first']} | {r['counts']} | {'ok' if r['rc_ok'] else 'WRONG'} |"
    )


def _table(route: str, rows: list[tuple[str, dict[str, object]]]) -> tuple[list[str], bool]:
    lines = [
        f"\n### route: summarizer {route}\n",
        "| case | tokens in | tokens out | reduction | must | first error | test counts | exit code |",
    ]
    lines.append("|---|---:|---:|---:|---:|---|---|---|")
    ok = True
    for name, r in rows:
        lines.append(_row(name, r))
    good = [r for _, r in rows if "error" not in r]
    found = sum(r["must"].found for r in good)  # type: ignore[attr-defined]
    total = sum(r["must"].total for r in good)  # type: ignore[attr-defined]
    full = sum(1 for r in good if not r["must"].missed)  # type: ignore[attr-defined]
    firsts = [r["first"] for r in good]
    t_in = sum(r["in"] for r in good)  # type: ignore[misc]
    t_out = sum(r["out"] for r in good)  # type: ignore[misc]
    lines.append(
        f"\nTotals ({route}): {len(rows)} cases; must {found}/{total}; cases at 100% must {full}/{len(rows)}; "
        f"first error ok {firsts.count('ok')}, wrong/missing/invented "
        f"{sum(1 for f in firsts if f not in ('ok', '—'))}, no header (passed through) {firsts.count('—')}; "
        f"test counts right {sum(1 for r in good if r['counts'] == 'ok')}, wrong "
        f"{sum(1 for r in good if str(r['counts']).startswith('WRONG'))}; "
        f"exit codes right {sum(1 for r in good if r['rc_ok'])}/{len(good)}; tokens {t_in:,} -> {t_out:,} "
        f"({1 - t_out / max(t_in, 1):.1%} smaller)"
    )
    for name, r in rows:
        if "error" in r:
            ok = False
            continue
        for missed in r["must"].missed:  # type: ignore[attr-defined]
            lines.append(f"  MISSED [{name}] {missed[:160]}")
            ok = False
        if r["first"] not in ("ok", "—"):
            lines.append(f"  FIRST ERROR [{name}] {r['first']}: header says {str(r['first_text'])[:160]!r}")
            ok = False
        if str(r["counts"]).startswith("WRONG"):
            lines.append(f"  TEST COUNTS [{name}] {r['counts']}")
            ok = False
        if not r["rc_ok"]:
            ok = False
    return lines, ok


def main(argv: list[str] | None = None) -> int:
    """Score every case; print the tables (and write them to --md)."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("cases", nargs="?", type=Path, default=HERE / "cases")
    parser.add_argument("--route", choices=("output", "run", "both"), default="both")
    parser.add_argument("--md", type=Path, default=None)
    parser.add_argument(
        "--stress",
        type=int,
        default=None,
        metavar="N",
        help="also score `output --target N --floor 0`, so that small cases are compressed too",
    )
    args = parser.parse_args(argv)
    folders = sorted(p.parent for p in args.cases.glob("*/truth.json"))
    if not folders:
        print(f"no cases under {args.cases}", file=sys.stderr)
        return 2
    routes = ["output", "run"] if args.route == "both" else [args.route]
    out_lines: list[str] = []
    ok = True
    if args.stress:
        routes.append(f"output --target {args.stress} --floor 0")
    for route in routes:
        extra = tuple(route.split()[1:])
        rows = [
            (f.name, score_run(f, t) if route == "run" else score_output(f, t, extra))
            for f in folders
            for t in [json.loads((f / "truth.json").read_text())]
        ]
        lines, good = _table(route, rows)
        ok &= good
        out_lines += lines
    print("\n".join(out_lines))
    if args.md:
        args.md.write_text("\n".join(out_lines) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
