"""Benchmark: whole ``summarizer eval`` processes against a local fake provider, and promptfoo beside it.

Part 1 (default): a 48-cell eval (48 phase-gate cases, the packaged prompts, ``--no-template``,
every cell a model call) against ``evals/fake_openai_server.py --delay 1.0``, run as a whole
process at ``--concurrency 1`` and at ``--concurrency 8``, each with a fresh cache. It prints both
wall times and their ratio (the goal is >= 5x), each process's own CPU time (user + system: the
part a loaded machine stretches; the provider's 48 s of waiting it does not), the
``latency_p50_ms`` each run reports in its ``summary.json`` against the configured delay (goal:
within 10%), the client time, and the fake server's own service time per request (on a loaded
machine the server itself takes longer than its delay; that is not ours).

Part 2 (``--promptfoo``): the same six-case eval (``evals/datasets/asserts.jsonl``: every assertion
kind) through summarizer and through promptfoo 0.121, both against the fake server with no delay,
prompting for the same lines. promptfoo is installed from npm **here only**, into a temporary
folder (``npm install promptfoo@0.121``), never as a test dependency; if npm cannot install it,
the error is printed and part 2 reports summarizer alone.

Usage: ``.venv/bin/python evals/bench_eval.py [--cells 48] [--delay 1.0] [--promptfoo]``
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATASETS = ROOT / "evals" / "datasets"
SUMMARIZER = [str(Path(sys.executable).parent / "summarizer")]


def start_server(delay: float) -> tuple[subprocess.Popen[str], str]:
    """The fake provider on a free port; returns the process and its base URL."""
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "evals" / "fake_openai_server.py"), "--port", "0", "--delay", str(delay)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    match = re.search(r"(http://127\.0\.0\.1:\d+/v1)", line)
    if match is None:
        proc.kill()
        raise SystemExit(f"the fake server did not start: {line!r}")
    return proc, match.group(1)


def stats(api: str) -> dict[str, Any]:
    with urllib.request.urlopen(api.removesuffix("/v1") + "/stats", timeout=10) as response:
        return dict(json.loads(response.read()))


def run_summarizer(dataset: Path, api: str, concurrency: int, work: Path, *extra: str) -> dict[str, Any]:
    """One whole ``summarizer eval`` process, fresh cache; wall time, exit code, summary.json."""
    out = work / f"out-c{concurrency}-{dataset.stem}"
    env = {
        **os.environ,
        "OPENAI_API_KEY": "sk-local",
        "SUMMARIZER_CACHE_DIR": str(work / f"cache-{out.name}"),
    }
    args = [*SUMMARIZER, "eval", str(dataset), "--model", "openai/gpt-4o-mini", "--api-base", api]
    args += ["--concurrency", str(concurrency), "--out", str(out), "--no-reuse", *extra]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # The process's own CPU (user + system): what a loaded machine stretches, unlike the provider's wait.
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    summary = json.loads((out / "summary.json").read_text()) if (out / "summary.json").exists() else {}
    return {"wall_s": wall, "cpu_s": cpu, "code": done.returncode, "summary": summary, "stderr": done.stderr}


def _totals(summary: dict[str, Any], label: str = "prompts") -> dict[str, Any]:
    for dataset in summary.get("datasets", {}).values():
        if label in dataset["contenders"]:
            return dict(dataset["contenders"][label].get("totals", {}))
    return {}


def part1(cells: int, delay: float, work: Path) -> None:
    rows = [json.loads(line) for line in (DATASETS / "phase_gate.jsonl").read_text().splitlines()]
    dataset = work / "bench48.jsonl"
    model_cases = [r for r in rows if r.get("expected_band") in ("CRITICAL", "HIGH")]
    picked = []
    while len(picked) < cells:  # more cases than the file has: copies with their own id and text
        for r in model_cases[: cells - len(picked)]:
            n = len(picked) // len(model_cases)
            copy = json.loads(json.dumps(r))
            if n:
                copy["id"] = f"{r['id']}-{n}"
                copy["subtask_summary"]["summary"] += f" (copy {n})"
            picked.append(copy)
    dataset.write_text("".join(json.dumps(r) + "\n" for r in picked), encoding="utf-8")
    server, api = start_server(delay)
    try:
        results = {}
        for concurrency in (1, 8):
            before = stats(api)
            run = run_summarizer(dataset, api, concurrency, work, "--no-template")
            after = stats(api)
            served = after["requests"] - before["requests"]
            run["server_ms"] = 1000 * (after["service_s"] - before["service_s"]) / max(1, served)
            run["requests"] = served
            results[concurrency] = run
    finally:
        server.kill()
    print(f"{len(picked)} cells (every one a model call), fake provider delay {delay * 1000:.0f} ms")
    print(
        "concurrency  wall (s)  CPU (s)  litellm set-up (s)  cells (s)  exit  requests  latency p50 (ms)  "
        "vs delay  client p50 (ms)  server (ms/req)"
    )
    for concurrency, run in results.items():
        t = _totals(run["summary"])
        p50 = t.get("latency_p50_ms", float("nan"))
        off = 100 * (p50 / (delay * 1000) - 1)
        timing = run["summary"].get("timing", {})
        setup = timing.get("provider_setup_s", float("nan"))
        cells_s = timing.get("matrix_s", float("nan")) - setup
        print(
            f"{concurrency:>11}  {run['wall_s']:8.2f}  {run['cpu_s']:7.2f}  {setup:18.2f}  {cells_s:9.2f}  "
            f"{run['code']:>4}  "
            f"{run['requests']:>8}  {p50:16.1f}  "
            f"{off:+7.1f}%  {t.get('client_p50_ms', float('nan')):14.1f}  {run['server_ms']:15.1f}"
        )
        if run["code"] != 0:
            print(run["stderr"][-2000:])
    print(f"speed-up, whole process: {results[1]['wall_s'] / results[8]['wall_s']:.2f}x (goal >= 5x)")
    cells = [
        r["summary"]["timing"]["matrix_s"] - r["summary"]["timing"]["provider_setup_s"]
        for r in results.values()
    ]
    print(f"speed-up, cells after litellm's set-up: {cells[0] / cells[1]:.2f}x")


_PROMPT = """Write exactly 2 lines for the next agent.
agent: {{from_agent}}
next agents: {{to_agent}}
summary: {{summary}}
Name every endpoint path and every status code.
"""


def _promptfoo_assert(item: Any) -> dict[str, Any]:
    if item == "json-valid":
        return {"type": "is-json"}
    ((kind, value),) = item.items() if "type" not in item else [(item["type"], item["value"])]
    if kind == "max-tokens":  # promptfoo has no token-count assertion: the nearest is a JS word count
        return {"type": "javascript", "value": f"output.split(/\\s+/).length <= {value}"}
    if kind == "python":
        return {"type": "python", "value": value}
    return {"type": kind, "value": value}


def install_promptfoo(work: Path) -> Path | None:
    folder = work / "promptfoo"
    folder.mkdir()
    done = subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund", "promptfoo@0.121"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )
    binary = folder / "node_modules" / ".bin" / "promptfoo"
    if done.returncode != 0 or not binary.exists():
        print("promptfoo could not be installed from npm:", (done.stderr or done.stdout)[-1500:])
        return None
    return binary


def part2(work: Path) -> None:
    cases = [json.loads(line) for line in (DATASETS / "asserts.jsonl").read_text().splitlines()]
    server, api = start_server(0.0)
    try:
        ours = run_summarizer(DATASETS / "asserts.jsonl", api, 8, work, "--no-template")
        ours_fail = run_summarizer(
            DATASETS / "asserts.jsonl", api, 8, work / "again", "--no-template", "--require", "asserts>=0.95"
        )
        binary = install_promptfoo(work)
        theirs: dict[str, Any] = {}
        if binary is not None:
            config = {
                "prompts": [_PROMPT],
                "providers": [
                    {"id": "openai:chat:gpt-4o-mini", "config": {"apiBaseUrl": api, "apiKey": "sk-local"}}
                ],
                "tests": [
                    {
                        "vars": {
                            "from_agent": c["subtask_summary"].get("from_agent", ""),
                            "to_agent": c["subtask_summary"].get("to_agent", ""),
                            "summary": c["subtask_summary"]["summary"],
                        },
                        "assert": [_promptfoo_assert(a) for a in c["assert"]],
                    }
                    for c in cases
                ],
            }
            (work / "promptfooconfig.json").write_text(json.dumps(config, indent=1))
            env = {**os.environ, "PROMPTFOO_DISABLE_TELEMETRY": "1", "PROMPTFOO_DISABLE_UPDATE": "1"}
            env["PROMPTFOO_CONFIG_DIR"] = str(work / "pf-home")
            started = time.perf_counter()
            done = subprocess.run(
                [
                    str(binary),
                    "eval",
                    "-c",
                    str(work / "promptfooconfig.json"),
                    "--no-cache",
                    "-j",
                    "8",
                    "-o",
                    str(work / "pf-out.json"),
                    "--no-progress-bar",
                    "--no-table",
                    "--no-write",
                ],
                cwd=work,
                env=env,
                capture_output=True,
                text=True,
                check=False,
            )
            theirs = {
                "wall_s": time.perf_counter() - started,
                "code": done.returncode,
                "tail": done.stdout[-600:],
            }
    finally:
        server.kill()
    t = _totals(ours["summary"])
    print(f"six-case eval ({len(cases)} cases, every assertion kind), fake provider with no delay")
    print("| | summarizer | promptfoo 0.121 |")
    print("|---|---|---|")
    pf_wall = f"{theirs['wall_s']:.1f} s" if theirs else "not installed"
    pf_code = str(theirs.get("code", "-"))
    print(f"| wall time, whole process | {ours['wall_s']:.1f} s | {pf_wall} |")
    print(f"| exit code, checks as written | {ours['code']} | {pf_code} (1 when an assertion fails) |")
    print(f"| exit code, gate `asserts>=0.95` | {ours_fail['code']} | no gate flag |")
    print(f"| latency p50 (provider, ms) | {t.get('latency_p50_ms', 0):.1f} | reported per test |")
    if theirs:
        print("promptfoo said:", theirs["tail"].strip().replace("\n", " | ")[-400:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", type=int, default=48)
    parser.add_argument("--delay", type=float, default=1.0)
    parser.add_argument("--promptfoo", action="store_true", help="also run part 2 (installs promptfoo)")
    parser.add_argument("--skip-concurrency", action="store_true", help="only part 2")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-eval-"))
    try:
        if not args.skip_concurrency:
            part1(args.cells, args.delay, work)
        if args.promptfoo:
            part2(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
