"""A local OpenAI-compatible chat server that answers like an obedient, unimaginative model.

For evals without a provider key: ``summarizer eval ... --model openai/gpt-4o-mini --api-base
http://127.0.0.1:PORT/v1`` sends real HTTP through litellm to this server. It binds 127.0.0.1 only,
refuses bodies over 2 MB, stops after ``--max-requests`` (default 5,000) or ``--idle`` seconds
without a request (default 600), and answers ``GET /stats`` with its request count.

How it answers (deterministic, from the prompt alone, never inventing anything):

* phase-gate prompts ("Write exactly N lines"): line 1 is the first sentence of the entry's
  summary, shortened; line 2 says who must adapt; line 3 (CRITICAL) is the summary's sentence with
  a trade-off marker. When the prompt asks to "name every endpoint" / "every status code" /
  "every table and column", line 1 appends those, copied from the summary. So a prompt version
  that asks for more contract details really does get them, and the eval can show it.
* session prompts ("## Session Compression"): the session document's sections, filled with the transcript's
  own sentences that carry decision / failure / discovery / question markers, and the edited files.

Usage::

    python evals/fake_openai_server.py --port 8765 &
    curl -s 127.0.0.1:8765/stats
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MAX_BODY = 2 * 1024 * 1024

_LINES = re.compile(r"exactly (\d+) lines")
_FIELD = re.compile(r"^(summary|next agents|agent): (.*)$", re.MULTILINE)
_ENDPOINT = re.compile(r"\b(?:GET|POST|PUT|PATCH|DELETE) /[\w/{}.:?=-]*[\w}]")
_STATUS = re.compile(r"(?<![\w./-])[1-5]\d\d(?![\w.%/-])")
_SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_TRADE_OFF = re.compile(r"\b(?:so|must|never|not|instead|only|because|until|note)\b", re.IGNORECASE)
_DECISION = re.compile(r"\b(?:decided|chose|going with|go with|let'?s use|we keep)\b", re.IGNORECASE)
_FAILURE = re.compile(r"\b(?:didn'?t work|failed|broke|reverted|wrong approach|tried)\b", re.IGNORECASE)
_DISCOVERY = re.compile(r"\b(?:found that|turns out|discovered|root cause|realized)\b", re.IGNORECASE)
_QUESTION = re.compile(r"\b(?:open question|still open|decide later)\b", re.IGNORECASE)
_PATH = re.compile(r"(?<![\w/])(?:[\w.-]+/)+[\w.-]+\.\w+\b")


def _shorten(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0]
    return cut.rstrip(",;:") + "..."


def _fields(prompt: str) -> dict[str, str]:
    return {m.group(1): m.group(2).strip() for m in _FIELD.finditer(prompt)}


def phase_gate_answer(prompt: str) -> str:
    """The N lines a phase-gate prompt asks for (see the module docstring)."""
    wanted = int(m.group(1)) if (m := _LINES.search(prompt)) else 2
    fields = _fields(prompt)
    summary = fields.get("summary", "")
    sentences = [s for s in _SENTENCE.split(summary) if s]
    first = _shorten(sentences[0] if sentences else "The entry changed the contract.", 150)
    extras: list[str] = []
    lowered = prompt.lower()
    if "every endpoint" in lowered:
        extras += _ENDPOINT.findall(summary)
    if "every status code" in lowered:
        extras += _STATUS.findall(summary)
    if "every table and column" in lowered:
        extras += _SNAKE.findall(summary)
    if extras:
        first = _shorten(first.rstrip(".") + " (" + ", ".join(dict.fromkeys(extras)) + ").", 230)
    who = fields.get("next agents") or "the next agent"
    lines = [first, f"{who.capitalize()} must adapt to this change before building on it."]
    gotcha = next((s for s in sentences[1:] if _TRADE_OFF.search(s)), None)
    lines.append(_shorten(gotcha, 200) if gotcha else "No trade-off was recorded.")
    return "\n".join(lines[:wanted])


def session_answer(prompt: str) -> str:
    """A session document in the standard format, built from the transcript's own sentences."""
    date = m.group(1) if (m := re.search(r"## Session Compression — (\S+)", prompt)) else "today"
    # The transcript is the fenced block (<<<UNTRUSTED_DATA ...>>> ... <<<END_UNTRUSTED_DATA ...>>>);
    # the prompt's own skeleton around it is not session content.
    # The system prompt names the same markers; the block that holds the data is the last one.
    block = r"<<<UNTRUSTED_DATA nonce=(\w+)[^>]*>>>(.*?)<<<END_UNTRUSTED_DATA nonce=\1>>>"
    fenced = re.findall(block, prompt, re.DOTALL)
    body = fenced[-1][1] if fenced else prompt.split("UNTRUSTED_DATA", 1)[-1]
    # The transcript's "[user]"/"[assistant]" line tags are the prompt's markup, not the memory's.
    plain = re.sub(r"^\[(?:user|assistant|tool result)\] ?", "", body, flags=re.MULTILINE)
    talk = "\n".join(line for line in plain.splitlines() if not line.startswith("[tool call]"))
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n+", talk) if len(s.split()) >= 4]
    edited = re.findall(
        r"^\[tool call\] (?:Edit|MultiEdit|Write|apply_patch|edit|write)\s+(\S+)", body, flags=re.MULTILINE
    )
    files = list(dict.fromkeys(f for f in edited if _PATH.fullmatch(f)))
    sections = {  # the document's order
        "Decisions": [s for s in sentences if _DECISION.search(s)],
        "Discoveries": [s for s in sentences if _DISCOVERY.search(s)],
        "Files Modified": [f"`{f}` — changed in this session" for f in files[:12]],
        "Failed Approaches (avoid repeating)": [s for s in sentences if _FAILURE.search(s)],
        "Open Questions": [s for s in sentences if _QUESTION.search(s)],
    }
    out = [f"## Session Compression — {date}"]
    for title, items in sections.items():
        if items:
            out.append(f"### {title}")
            out += [f"- {_shorten(s, 200)}" for s in dict.fromkeys(items)]
    return "\n".join(out)


def answer(messages: list[dict[str, Any]]) -> str:
    """The reply to a chat request."""
    prompt = "\n".join(str(m.get("content") or "") for m in messages)
    if "## Session Compression" in prompt:
        return session_answer(prompt)
    return phase_gate_answer(prompt)


class _State:
    def __init__(self, max_requests: int, delay_s: float = 0.0) -> None:
        self.delay_s = delay_s  # every completion answers this much later (a model's think time)
        self.requests = 0
        self.service_s = 0.0  # summed time from a request's first byte read to its answer written
        self.max_requests = max_requests
        self.last = time.monotonic()
        self.lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    """``POST /v1/chat/completions`` (and ``/chat/completions``), ``GET /stats``."""

    server_version = "fake-openai/1"
    state: _State

    def log_message(self, format: str, *args: Any) -> None:
        return None  # quiet: the eval prints its own progress

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        if self.path.rstrip("/") == "/stats":
            self._send(200, {"requests": self.state.requests, "service_s": self.state.service_s})
        else:
            self._send(404, {"error": {"message": "not found"}})

    def do_POST(self) -> None:
        started = time.perf_counter()
        try:
            self._post()
        finally:
            with self.state.lock:
                self.state.service_s += time.perf_counter() - started

    def _post(self) -> None:
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send(404, {"error": {"message": f"no route {self.path}"}})
            return
        length = int(self.headers.get("Content-Length") or 0)
        if length <= 0 or length > MAX_BODY:
            self._send(413, {"error": {"message": "body missing or over 2 MB"}})
            return
        with self.state.lock:
            self.state.requests += 1
            self.state.last = time.monotonic()
            over = self.state.requests > self.state.max_requests
        if self.state.delay_s and not over:
            time.sleep(self.state.delay_s)
        if over:
            self._send(429, {"error": {"message": "request budget of the fake server is spent"}})
            return
        try:
            request = json.loads(self.rfile.read(length))
            messages = request["messages"]
        except (ValueError, KeyError, TypeError):
            self._send(400, {"error": {"message": "expected a chat completion request"}})
            return
        text = answer(messages)
        prompt_chars = sum(len(str(m.get("content") or "")) for m in messages)
        self._send(
            200,
            {
                "id": f"chatcmpl-fake-{self.state.requests}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": request.get("model", "fake"),
                "choices": [
                    {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}
                ],
                "usage": {
                    "prompt_tokens": prompt_chars // 4,
                    "completion_tokens": len(text) // 4,
                    "total_tokens": prompt_chars // 4 + len(text) // 4,
                },
            },
        )


class _Server(ThreadingHTTPServer):
    # socketserver listens with a backlog of 5. When a client opens eight connections at once
    # and this process is slow to accept them (a loaded machine), the kernel drops the extra
    # SYNs and the client resends them a second later: that request then takes 2 s, not the
    # configured delay. A real provider accepts far more.
    request_queue_size = 128


def serve(port: int, max_requests: int, idle_s: float, delay_s: float = 0.0) -> None:
    """Serve on 127.0.0.1:``port`` until the idle timeout; prints the bound port first."""
    state = _State(max_requests, delay_s)
    handler = type("BoundHandler", (Handler,), {"state": state})
    server = _Server(("127.0.0.1", port), handler)
    print(f"fake OpenAI server on http://127.0.0.1:{server.server_address[1]}/v1", flush=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        while time.monotonic() - state.last < idle_s:
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        print(f"served {state.requests} requests", file=sys.stderr)


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765, help="0 picks a free port")
    parser.add_argument("--max-requests", type=int, default=5000)
    parser.add_argument("--idle", type=float, default=600.0, help="seconds without a request before exiting")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds each completion takes to answer")
    args = parser.parse_args()
    serve(args.port, args.max_requests, args.idle, args.delay)


if __name__ == "__main__":
    main()
