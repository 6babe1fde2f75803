"""The secret-paths matrix: every leak class on every path out of the process, counted.

Run by hand: ``.venv/bin/python evals/leak_matrix.py``. The leak classes are the test corpus
(``tests/core/leaks.py``: one realistic line per class and the secret fragments that must never
survive). Each path is the real CLI (in-process) or the real MCP server (a subprocess), in a fresh
temporary home; what it prints, and every file it writes outside the documented raw stores, is
searched for every fragment. The documented raw stores are not searched: the originals files
(``<cache>/originals``, what ``restore`` gives back) and the head ``run`` streams as it comes.

A local echo "model" (an OpenAI-compatible server on 127.0.0.1 that answers with the whole prompt)
receives the model requests: the worst case for a summary cache, and every request body is searched.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("leaks", ROOT / "tests" / "core" / "leaks.py")
assert _spec and _spec.loader
_leaks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_leaks)
LEAKS: dict[str, tuple[str, tuple[str, ...]]] = _leaks.LEAKS

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("DISABLE_AIOHTTP_TRANSPORT", "True")

from click.testing import CliRunner  # noqa: E402

from summarizer.cli import main  # noqa: E402

BODIES: list[str] = []


class _Echo(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode("utf-8", "replace")
        BODIES.append(body)
        prompt = " ".join(str(m.get("content", "")) for m in json.loads(body).get("messages", []))
        reply = {
            "id": "x",
            "object": "chat.completion",
            "created": 0,
            "model": "gpt-4o-mini",
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": prompt}, "finish_reason": "stop"}
            ],
            "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
        }
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:
        return


@contextmanager
def home(**extra: str) -> Iterator[Path]:
    """A fresh per-user home (cache, engram, bank) in the environment, restored afterwards."""
    saved = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="leak-matrix-") as tmp:
        base = Path(tmp)
        (base / "in").mkdir()  # the inputs written here are not searched; everything under h/ is
        os.environ.update(
            SUMMARIZER_CACHE_DIR=str(base / "h" / "cache"),
            ENGRAM_DATA_DIR=str(base / "h" / "engram"),
            SUMMARIZER_BANK=str(base / "h" / "bank"),
            **extra,
        )
        try:
            yield base
        finally:
            os.environ.clear()
            os.environ.update(saved)


def stored(base: Path) -> str:
    """Every file under the home except the raw originals store, as text."""
    out = []
    for path in (base / "h").rglob("*"):
        if path.is_file() and "originals" not in path.relative_to(base).parts:
            out.append(path.read_bytes().decode("utf-8", "replace"))
    return "\n".join(out)


def invoke(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    return result.stdout + result.stderr


def entry(text: str) -> dict[str, object]:
    return {
        "summary": text + ". Added POST /api/auth/refresh returning 200.",
        "files_changed": ["backend/auth.py"],
        "from": "hermes",
        "to": "aphrodite",
        "status": "complete",
    }


def log() -> str:
    lines = [f"2026-11-29 10:{i // 60:02d}:{i % 60:02d} INFO worker step {i} ok" for i in range(400)]
    for text, _ in LEAKS.values():
        lines.insert(200, "ERROR " + text)
    return "\n".join(lines) + "\n"


def path_compress(text: str) -> str:
    with home() as base:
        (base / "in" / "e.json").write_text(json.dumps(entry(text)))
        return invoke("compress", str(base / "in" / "e.json"), "--json") + stored(base)


def path_model(text: str) -> str:
    port = SERVER.server_address[1]
    with home(OPENAI_API_KEY="sk-not-a-real-key", SUMMARIZER_API_BASE=f"http://127.0.0.1:{port}/v1") as base:
        (base / "in" / "e.json").write_text(json.dumps(entry(text)))
        before = len(BODIES)
        out = invoke("compress", str(base / "in" / "e.json"), "--json", "--model", "openai/gpt-4o-mini")
        return out + stored(base) + "\n".join(BODIES[before:])


def path_output(mode: str, *, broken: bool = False) -> Callable[[str], str]:
    def run(_: str) -> str:
        extra = {"SUMMARIZER_CACHE_DIR": os.devnull} if broken else {}
        with home() as base:
            (base / "in" / "build.log").write_text(log())
            os.environ.update(extra)
            out = invoke("output", str(base / "in" / "build.log"), *(["--json"] if mode == "json" else []))
            return out + stored(base)

    return run


def path_run_broken(_: str) -> str:
    """`run` past the pass-through size on a cache that cannot be written; the streamed head (2 KiB,
    documented raw) holds no secret: the leaks start after it."""
    with home() as base:
        (base / "in" / "big.log").write_text("2026-11-29 INFO warming up\n" * 200 + log() * 3)
        env = {**os.environ, "SUMMARIZER_CACHE_DIR": os.devnull}
        script = f"import sys; sys.stdout.write(open({str(base / 'in' / 'big.log')!r}).read())"
        exe = Path(sys.executable).with_name("summarizer")
        done = subprocess.run(
            [str(exe), "run", "--", sys.executable, "-c", script],
            capture_output=True,
            env=env,
            stdin=subprocess.DEVNULL,
            check=False,
        )
        return done.stdout.decode("utf-8", "replace") + done.stderr.decode("utf-8", "replace") + stored(base)


def path_gate(_: str) -> str:
    with home() as base:
        rows = [
            {**entry(text), "phase": "2", "date": f"2026-11-{10 + i}"}
            for i, (text, _) in enumerate(LEAKS.values())
        ]
        (base / "in" / "phase.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
        out = invoke(
            "gate",
            str(base / "in" / "phase.jsonl"),
            "--phase",
            "2",
            "--bank",
            str(base / "h" / "bank"),
            "--date",
            "2026-11-29",
        )
        return out + stored(base)


def path_session(_: str) -> str:
    with home() as base:
        messages: list[dict[str, str]] = [
            {"role": "user", "content": "The token refresh test is flaky. Fix it?"}
        ]
        for text, _ in LEAKS.values():
            messages.append({"role": "assistant", "content": f"We decided to keep this as is: {text}"})
            messages.append({"role": "user", "content": f"That failed again with {text}"})
        (base / "in" / "s.jsonl").write_text("\n".join(json.dumps(m) for m in messages) + "\n")
        out = invoke(
            "session", str(base / "in" / "s.jsonl"), "--project", "leaks", "--force", "--date", "2026-11-29"
        )
        return out + invoke("recover", "--project", "leaks") + stored(base)


def path_eval(_: str) -> str:
    with home() as base:
        rows = []
        for i, (text, secrets) in enumerate(LEAKS.values()):
            summary = entry(text)
            summary["from_agent"], summary["to_agent"] = summary.pop("from"), summary.pop("to")
            facts = [{"kind": "detail", "value": s} for s in secrets]
            rows.append(
                {
                    "id": f"leak-{i}",
                    "kind": "phase_gate",
                    "subtask_summary": {**summary, "phase": "1"},
                    "facts": facts,
                }
            )
        (base / "in" / "ds.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
        out = invoke("eval", str(base / "in" / "ds.jsonl"), "--offline", "--out", str(base / "h" / "out"))
        return out + stored(base)


def path_mcp(_: str) -> str:
    with home() as base:
        exe = Path(sys.executable).with_name("summarizer")
        proc = subprocess.Popen(
            [str(exe), "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=base
        )
        calls: list[dict[str, Any]] = [
            {
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "m", "version": "1"},
                },
            },
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "tools/call",
                "params": {"name": "output_compress", "arguments": {"output": log()}},
            },
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "tools/call",
                "params": {"name": "output_compress", "arguments": {"output": log(), "envelope": True}},
            },
        ]
        for i, (text, _) in enumerate(LEAKS.values()):
            calls.append(
                {
                    "jsonrpc": "2.0",
                    "id": 10 + i,
                    "method": "tools/call",
                    "params": {"name": "compress", "arguments": {"entry": entry(text)}},
                }
            )
            calls.append(
                {
                    "jsonrpc": "2.0",
                    "id": 100 + i,
                    "method": "tools/call",
                    "params": {
                        "name": "mem_save",
                        "arguments": {"title": text[:60], "content": text, "project": "leaks"},
                    },
                }
            )
        calls.append(
            {
                "jsonrpc": "2.0",
                "id": 999,
                "method": "tools/call",
                "params": {"name": "mem_search", "arguments": {"query": "pushed", "project": "leaks"}},
            }
        )
        payload = "".join(json.dumps(c) + "\n" for c in calls).encode()
        out, err = proc.communicate(payload, timeout=600)
        return out.decode("utf-8", "replace") + err.decode("utf-8", "replace") + stored(base)


PATHS: dict[str, Callable[[str], str]] = {
    "compress": path_compress,
    "compress --model (request, cache)": path_model,
    "output": path_output("text"),
    "output --json": path_output("json"),
    "output, cache=/dev/null": path_output("text", broken=True),
    "run, cache=/dev/null": path_run_broken,
    "gate (bank files)": path_gate,
    "session + recover (engram)": path_session,
    "eval (reports, cells)": path_eval,
    "mcp (replies, engram)": path_mcp,
}
# Paths that take every class at once (one run each); the others run once per class.
ALL_AT_ONCE = {
    "output",
    "output --json",
    "output, cache=/dev/null",
    "run, cache=/dev/null",
    "gate (bank files)",
    "session + recover (engram)",
    "eval (reports, cells)",
    "mcp (replies, engram)",
}

SERVER = ThreadingHTTPServer(("127.0.0.1", 0), _Echo)


def main_() -> None:
    threading.Thread(target=SERVER.serve_forever, daemon=True).start()
    names = list(LEAKS)
    table: dict[str, dict[str, int]] = {name: {} for name in names}
    seen: dict[str, int] = {}
    for path, run in PATHS.items():
        shared = run("") if path in ALL_AT_ONCE else None
        seen[path] = shared.count("[REDACTED:") if shared is not None else 0
        for name in names:
            text = shared if shared is not None else run(LEAKS[name][0])
            if shared is None:
                seen[path] += text.count("[REDACTED:")
            table[name][path] = sum(s in text for s in LEAKS[name][1])
        print(f"... {path}: {sum(table[n][path] for n in names)} leaked", file=sys.stderr)
    SERVER.shutdown()
    header = ["leak class (fragments)", *PATHS]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for name in names:
        print(f"| {name} ({len(LEAKS[name][1])}) | " + " | ".join(str(table[name][p]) for p in PATHS) + " |")
    totals = [sum(table[n][p] for n in names) for p in PATHS]
    fragments = sum(len(LEAKS[n][1]) for n in names)
    print(f"| **leaked of {fragments}** | " + " | ".join(str(t) for t in totals) + " |")
    # A path that printed and stored no placeholder at all did not see the secrets: a broken harness.
    print("| placeholders seen | " + " | ".join(str(seen[p]) for p in PATHS) + " |")
    print(f"\nmodel requests searched: {len(BODIES)}; total leaks: {sum(totals)}")


if __name__ == "__main__":
    main_()
