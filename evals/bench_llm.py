"""Benchmark: 50 CRITICAL/HIGH entries through the real service, litellm and a local fake provider.

A tiny OpenAI-compatible server on 127.0.0.1 answers every chat completion after 200 ms (like a
fast hosted model). The script measures, in one run:

1. wall time at concurrency 1 and at concurrency 8 (cache off), and the ratio;
2. a cold run with the cache on (fills it), then a warm run that must make 0 requests, with the
   cache-hit time per entry.

Client CPU per call is printed for both concurrency levels: it is what caps the speed-up, since
every call's CPU runs in the one event-loop thread (docs/evals.md has the before/after figures).

Usage: ``.venv/bin/python evals/bench_llm.py [--entries 50] [--delay 0.2]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import re
import tempfile
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from summarizer.app import build
from summarizer.core.settings import Settings
from summarizer.phasegate.models import SubtaskSummary
from summarizer.phasegate.summaries import EntryJob, summarize_entries
from summarizer.semantic.ports import CompletionRequest
from summarizer.testing import FakeCompleter

FAKE_ANSWER = [
    "The entry changed the shared contract.",
    "The next agent must re-check its callers.",
    "Rotation was chosen over expiry.",
]
RUN_CPU: list[float] = []  # client CPU seconds of each run, in order
Counter = Any  # multiprocessing.Value("i"): a shared request counter

AGENTS = [("hermes", "aphrodite"), ("demeter", "hermes"), ("aphrodite", "hermes"), ("prometheus", "hermes")]


class FakeProvider(BaseHTTPRequestHandler):
    """POST /v1/chat/completions: sleep, then answer with as many lines as the prompt asks for.

    ``--keep-alive`` answers in HTTP/1.1 and keeps connections open, as hosted providers do; the
    default (HTTP/1.0, a new connection per call) is the setting the earlier figures were taken with.
    """

    delay_s = 0.2
    counter: Counter

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with self.counter.get_lock():
            self.counter.value += 1
        time.sleep(self.delay_s)
        user = body["messages"][-1]["content"]
        count = int(m.group(1)) if (m := re.search(r"Write exactly (\d) lines", user)) else 2
        lines = [
            "The entry changed the shared contract.",
            "The next agent must re-check its callers.",
            "Rotation was chosen over expiry.",
        ][:count]
        payload = {
            "id": "bench",
            "object": "chat.completion",
            "created": 0,
            "model": body["model"],
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": "\n".join(lines)},
                }
            ],
            "usage": {"prompt_tokens": len(user) // 4, "completion_tokens": 20, "total_tokens": 0},
        }
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:  # keep the benchmark output readable
        pass


def _fake_answer(request: CompletionRequest) -> str:
    return "\n".join(FAKE_ANSWER[: 3 if "exactly 3 lines" in request.user else 2])


def serve(port: Any, counter: Counter, delay_s: float, keep_alive: bool = False) -> None:
    """The provider process: its own interpreter, so it never competes for the client's GIL."""
    FakeProvider.delay_s, FakeProvider.counter = delay_s, counter
    if keep_alive:
        FakeProvider.protocol_version = "HTTP/1.1"
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeProvider)
    port.value = server.server_address[1]
    server.serve_forever()


def make_jobs(n: int) -> list[EntryJob]:
    jobs = []
    for i in range(n):
        src, dst = AGENTS[i % len(AGENTS)]
        entry = SubtaskSummary.model_validate(
            {
                "summary": f"Added endpoint POST /api/items/{i} with schema migration {i:04d} "
                f"and auth checks; "
                f"returns 201 or 403. Chose rotation over expiry for tokens of tenant {i}.",
                "files_changed": [f"backend/routers/items_{i}.py", f"migrations/{i:04d}_items.sql"],
                "from": src,
                "to": dst,
            }
        )
        jobs.append(EntryJob(entry=entry, band="CRITICAL" if i % 2 else "HIGH", fallback="t\nt\nt"))
    return jobs


def run(
    settings: Settings, jobs: list[EntryJob], concurrency: int, counter: Counter
) -> tuple[float, dict[str, int], int]:
    service = build(settings)
    before = counter.value
    started, cpu = time.perf_counter(), time.process_time()
    results = asyncio.run(summarize_entries(service, jobs, concurrency=concurrency))
    elapsed = time.perf_counter() - started
    RUN_CPU.append(time.process_time() - cpu)
    sources: dict[str, int] = {}
    for r in results:
        sources[r.source] = sources.get(r.source, 0) + 1
    return elapsed, sources, counter.value - before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=50)
    parser.add_argument("--delay", type=float, default=0.2)
    parser.add_argument("--keep-alive", action="store_true", help="HTTP/1.1 with persistent connections")
    args = parser.parse_args()
    counter: Counter = multiprocessing.Value("i", 0)
    port: Any = multiprocessing.Value("i", 0)
    provider = multiprocessing.Process(
        target=serve, args=(port, counter, args.delay, args.keep_alive), daemon=True
    )
    provider.start()
    while not port.value:
        time.sleep(0.01)
    api_base = f"http://127.0.0.1:{port.value}/v1"
    jobs = make_jobs(args.entries)
    with tempfile.TemporaryDirectory() as tmp:
        env = {"HOME": tmp, "SUMMARIZER_CACHE_DIR": str(Path(tmp) / "cache")}
        base = {"model": "openai/bench-model", "api_base": api_base}
        no_cache = Settings.load(env, use_cache=False, **base)
        with_cache = Settings.load(env, **base)

        run(no_cache, jobs[:2], 2, counter)  # warm-up: litellm import, first connection; not measured
        t1, s1, r1 = run(no_cache, jobs, 1, counter)
        t8, s8, r8 = run(no_cache, jobs, 8, counter)
        cold, sc, rc = run(with_cache, jobs, 8, counter)
        warm, sw, rw = run(with_cache, jobs, 8, counter)
        # Reference: the same service with an in-process fake model (no litellm, no HTTP), to show
        # how much of the concurrent wall time is litellm's per-call CPU on this machine.
        fake = FakeCompleter(default=_fake_answer, delay_s=args.delay)
        ref = build(no_cache, completer=fake)
        started = time.perf_counter()
        asyncio.run(summarize_entries(ref, jobs, concurrency=8))
        t_ref = time.perf_counter() - started
    provider.terminate()

    n = len(jobs)
    http = "HTTP/1.1 keep-alive" if args.keep_alive else "HTTP/1.0, a connection per call"
    print(f"entries {n}, fake provider latency {args.delay * 1000:.0f} ms ({http}), real litellm + service")
    print(f"concurrency 1 (no cache) : {t1:6.2f} s  requests {r1:3d}  sources {s1}")
    print(f"concurrency 8 (no cache) : {t8:6.2f} s  requests {r8:3d}  sources {s8}")
    load = os.getloadavg()[0]
    per_call = RUN_CPU[2] / n * 1000
    print(f"client CPU at conc. 1    : {RUN_CPU[1]:6.2f} s  ({RUN_CPU[1] / n * 1000:.1f} ms/call)")
    print(
        f"client CPU at conc. 8    : {RUN_CPU[2]:6.2f} s  ({per_call:.1f} ms/call in one event-loop thread;"
    )
    print(f"                           load average {load:.1f} on {os.cpu_count()} cores)")
    print(f"speed-up 8 vs 1          : {t1 / t8:6.2f} x  (ideal {min(8, n) * 1.0:.0f} x)")
    print(f"reference, FakeCompleter : {t_ref:6.2f} s  concurrency 8, same delay, no litellm/HTTP")
    print(f"cache cold (fills)       : {cold:6.2f} s  requests {rc:3d}  sources {sc}")
    print(f"cache warm               : {warm:6.3f} s  requests {rw:3d}  sources {sw}")
    print(
        f"cache hit per entry      : {warm / n * 1000:6.2f} ms (vs {t1 / n * 1000:.0f} ms per entry uncached)"
    )
    if rw != 0:
        raise SystemExit(f"expected 0 requests on the warm run, got {rw}")


if __name__ == "__main__":
    main()
