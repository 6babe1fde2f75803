"""Hostile JSON-RPC over raw stdio: every request with an id gets an answer.

The SDK drops a line it cannot read as a JSON-RPC message, so a client waiting on that id would
hang. ``summarizer mcp`` answers each with a JSON-RPC error, answers bad tool arguments with a
one-line ``isError`` result (never "internal error"), and stays up for the next request.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow

DEEP = "[" * 100_000 + "]" * 100_000
DIGITS = "9" * 5000


class Wire:
    """`summarizer mcp` in a subprocess, spoken to line by line."""

    def __init__(self, tmp_path: Path, **env: str) -> None:
        script = shutil.which("summarizer", path=str(Path(sys.executable).parent))
        fallback = [sys.executable, "-c", "from summarizer.cli import main; main()", "mcp"]
        command = [script, "mcp"] if script else fallback
        dirs = {
            "ENGRAM_DATA_DIR": str(tmp_path / "engram"),
            "HOME": str(tmp_path),
            "SUMMARIZER_CACHE_DIR": str(tmp_path / "cache"),
        }
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=tmp_path,
            env={**os.environ, **dirs, **env},
        )
        self._lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def send(self, message: str | dict[str, Any]) -> None:
        line = message if isinstance(message, str) else json.dumps(message)
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def receive(self, timeout: float = 20) -> dict[str, Any] | None:
        """The next reply line, or None when none comes within ``timeout`` (a hang guard)."""
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            return None
        return json.loads(line) if line else None  # type: ignore[no-any-return]

    def _read(self) -> None:
        # A thread reads the replies: two lines that arrive in one read are both seen (select on
        # a buffered pipe would miss the second one, already in the buffer).
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(b"")

    def ask(self, message: str | dict[str, Any]) -> dict[str, Any]:
        self.send(message)
        reply = self.receive()
        assert reply is not None, f"no reply to {str(message)[:120]}"
        return reply

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def _open(tmp_path: Path, **env: str) -> Wire:
    wire = Wire(tmp_path, **env)
    hello = wire.ask(
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        }
    )
    assert "result" in hello
    wire.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    return wire


@pytest.fixture
def wire(tmp_path: Path) -> Iterator[Wire]:
    opened = _open(tmp_path)
    yield opened
    opened.close()


def _call(ident: int, tool: str, arguments: object) -> dict[str, Any]:
    params = {"name": tool, "arguments": arguments}
    return {"jsonrpc": "2.0", "id": ident, "method": "tools/call", "params": params}


def _raw_call(ident: int, tool: str, arguments: str) -> str:
    params = f'{{"name":"{tool}","arguments":{arguments}}}'
    return f'{{"jsonrpc":"2.0","id":{ident},"method":"tools/call","params":{params}}}'


MALFORMED: list[tuple[str, str | dict[str, Any], int | str | None]] = [
    ("no jsonrpc member", {"id": 1, "method": "tools/list"}, 1),
    ("jsonrpc 1.0", {"jsonrpc": "1.0", "id": 2, "method": "tools/list"}, 2),
    ("method not a string", {"jsonrpc": "2.0", "id": 3, "method": 5}, 3),
    ("params an array", {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": [1, 2]}, 4),
    ("params a string", {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": "x"}, 5),
    ("id an object", {"jsonrpc": "2.0", "id": {"a": 1}, "method": "tools/list"}, None),
    (
        "a string id, params null",
        {"jsonrpc": "2.0", "id": "r-7", "method": "tools/call", "params": None},
        "r-7",
    ),
    ("deep JSON", _raw_call(8, "score", '{"entry":' + DEEP + "}"), 8),
    (
        "a 5,000-digit number",
        _raw_call(9, "output_compress", '{"output":"x","target_tokens":' + DIGITS + "}"),
        9,
    ),
    ("not JSON at all", '{"jsonrpc": "2.0", "id": 10, "method": ', 10),
]


@pytest.mark.parametrize(("name", "message", "ident"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_a_malformed_request_gets_a_json_rpc_error_and_the_server_stays_up(
    wire: Wire, name: str, message: str | dict[str, Any], ident: int | str | None
) -> None:
    """The error carries the request's id (null when the id itself is unreadable)."""
    reply = wire.ask(message)
    assert reply["id"] == ident and reply["error"]["code"] in (-32700, -32600, -32602), reply
    assert "internal error" not in reply["error"]["message"]
    assert "result" in wire.ask({"jsonrpc": "2.0", "id": 99, "method": "tools/list"})


TOOL_ERRORS: list[tuple[str, dict[str, Any] | str, str]] = [
    (
        "target_tokens -1",
        _call(20, "output_compress", {"output": "error: x\n" * 600, "target_tokens": -1}),
        "target_tokens",
    ),
    ("floor_tokens -5", _call(21, "output_compress", {"output": "x", "floor_tokens": -5}), "floor_tokens"),
    ("deep JSON in a string", _call(22, "score", {"entry": DEEP}), "nested too deeply"),
    (
        "5,000 digits in a string",
        _call(23, "score", {"entry": '{"summary": "x", "n": ' + DIGITS + "}"}),
        "cannot be read",
    ),
    ("deep envelope string", _call(24, "envelope_reduce", {"envelope": DEEP}), "nested too deeply"),
    ("cap -1", _call(25, "envelope_reduce", {"envelope": {"ok": True}, "cap": -1}), "cap must be at least 1"),
]


@pytest.mark.parametrize(("name", "message", "says"), TOOL_ERRORS, ids=[m[0] for m in TOOL_ERRORS])
def test_a_bad_tool_argument_is_a_one_line_tool_error_not_an_internal_error(
    wire: Wire, name: str, message: dict[str, Any] | str, says: str
) -> None:
    """isError with a message naming the argument; nothing says 'please report it'."""
    reply = wire.ask(message)
    result = reply["result"]
    text = result["content"][0]["text"]
    assert result["isError"] is True and says in text and "internal error" not in text, text
    assert "\n" not in text


@pytest.mark.parametrize(
    "transcript",
    [
        '{"role": "user", "content": "We decided to use pnpm, not npm."}',
        '[{"role": "user", "content": "We decided to use pnpm, not npm."},'
        ' {"role": "assistant", "content": "ok"}]',
    ],
    ids=["one JSONL line", "a JSON array"],
)
def test_a_one_line_or_json_array_transcript_is_compressed(wire: Wire, transcript: str) -> None:
    """The SDK parses a JSON-looking string argument; the tool takes the object or list back as text."""
    reply = wire.ask(_call(30, "session_compress", {"transcript": transcript, "force": True, "project": "p"}))
    result = reply["result"]
    assert not result.get("isError"), result
    assert result["content"][0]["text"].startswith("Context compressed to engram:")


def test_an_oversized_request_is_refused_by_size_and_the_server_stays_up(tmp_path: Path) -> None:
    """A line past SUMMARIZER_MCP_MAX_MESSAGE_BYTES is drained, answered by id, and not kept."""
    wire = _open(tmp_path, SUMMARIZER_MCP_MAX_MESSAGE_BYTES="64K")
    try:
        big = _call(40, "output_compress", {"output": "x" * (1 << 20)})
        reply = wire.ask(big)
        assert reply["id"] == 40 and reply["error"]["code"] == -32600
        assert "larger than 65536 bytes" in reply["error"]["message"]
        assert "result" in wire.ask({"jsonrpc": "2.0", "id": 41, "method": "tools/list"})
    finally:
        wire.close()


@pytest.mark.parametrize(
    "line",
    ["[]", "{}", "not json at all", '{"jsonrpc": "2.0", "method": 7}', "[1, 2]", '[{"jsonrpc": "2.0"}]'],
    ids=["empty batch", "empty object", "not JSON", "broken notification", "batch of numbers", "batch no id"],
)
def test_a_message_without_a_readable_id_gets_an_error_with_a_null_id(wire: Wire, line: str) -> None:
    """JSON-RPC 2.0: when no id can be read, the error still comes, with ``"id": null``."""
    reply = wire.ask(line)
    assert reply["id"] is None and reply["error"]["code"] in (-32700, -32600), reply
    assert "result" in wire.ask({"jsonrpc": "2.0", "id": 50, "method": "tools/list"})


def test_a_batch_gets_one_error_per_request_id(wire: Wire) -> None:
    """MCP has no batches: each request in the array is answered by its own id, so no caller waits."""
    wire.send(
        '[{"jsonrpc": "2.0", "id": 61, "method": "ping"}, {"jsonrpc": "2.0", "method": "x"},'
        ' {"jsonrpc": "2.0", "id": "b-62", "method": "tools/list"}]'
    )
    replies = [wire.receive(), wire.receive()]
    assert [r["id"] for r in replies if r] == [61, "b-62"]
    assert all(r and "batch" in r["error"]["message"] for r in replies)
    assert "result" in wire.ask({"jsonrpc": "2.0", "id": 63, "method": "ping"})


def test_a_valid_notification_gets_no_reply(wire: Wire) -> None:
    """A well-formed notification is not answered: the next reply is the next request's."""
    wire.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 999}})
    assert wire.ask({"jsonrpc": "2.0", "id": 70, "method": "ping"})["id"] == 70


NUMERIC: list[tuple[str, dict[str, Any] | str, str]] = [
    (
        "a 5,000-digit line number",
        _call(80, "output_restore", {"restore_id": "a" * 12, "lines": "1:" + DIGITS}),
        "bad line range",
    ),
    (
        "a 4,000-digit estimated_phases",
        _raw_call(81, "stats", '{"entries":[{"summary":"x"}],"estimated_phases":' + "9" * 4000 + "}"),
        "estimated_phases must be at most",
    ),
    (
        "a 4,000-digit target_tokens",
        _raw_call(82, "output_compress", '{"output":"x","target_tokens":' + "9" * 4000 + "}"),
        "target_tokens must be at most",
    ),
    ("cap 10**12", _call(83, "envelope_reduce", {"envelope": {"ok": True}, "cap": 10**12}), "cap must be"),
]


@pytest.mark.parametrize(("name", "message", "says"), NUMERIC, ids=[m[0] for m in NUMERIC])
def test_numeric_arguments_are_range_checked(
    wire: Wire, name: str, message: dict[str, Any] | str, says: str
) -> None:
    """A number out of range is a one-line tool error naming the argument, never an internal error."""
    reply = wire.ask(message)
    if "error" in reply:  # the transport refused a number too long to read: also an answer by id
        assert reply["id"] == message["id"] if isinstance(message, dict) else reply["id"] is not None
        return
    text = reply["result"]["content"][0]["text"]
    assert reply["result"]["isError"] is True and says in text and "internal error" not in text, text


@pytest.mark.parametrize("size", [200_000, 1_000_000], ids=["200 KB", "1 MB"])
def test_a_huge_search_query_is_answered(wire: Wire, size: int) -> None:
    """A pasted log as a mem_search query: cut to the query limit, answered, the reply stays small."""
    words = " ".join(f"word{i % 5000}" for i in range(size // 8))[:size]
    reply = wire.ask(_call(90, "mem_search", {"query": words}))
    text = reply["result"]["content"][0]["text"]
    assert "No memories found" in text and len(text) < 5000


def test_ping_is_answered_while_a_session_compress_on_a_fifo_is_pending(tmp_path: Path) -> None:
    """session_compress reads a named pipe nobody writes to yet: the read runs off the event loop,
    so a ping sent after it is answered first (the compress cannot finish before the test writes the
    pipe, so the order shows the server did not stall, whatever the machine's load)."""
    import time

    fifo = tmp_path / "transcript.jsonl"
    os.mkfifo(fifo)
    wire = _open(tmp_path, SUMMARIZER_FIFO_WAIT="600")
    try:
        wire.send(
            _call(100, "session_compress", {"transcript_path": str(fifo), "force": True, "project": "p"})
        )
        started = time.monotonic()
        pong = wire.ask({"jsonrpc": "2.0", "id": 101, "method": "ping"})
        latency = time.monotonic() - started
        assert pong["id"] == 101 and "result" in pong
        print(f"ping answered in {latency:.3f} s while session_compress waited on a FIFO")
        fifo.write_text('{"role": "user", "content": "We decided to use pnpm, not npm."}\n')
        done = wire.receive(timeout=600)
        assert done is not None and done["id"] == 100
        assert done["result"]["content"][0]["text"].startswith("Context compressed to engram:"), done
    finally:
        wire.close()
