"""Hostile JSON-RPC over raw stdio: every request with an id gets an answer.

The SDK drops a line it cannot read as a JSON-RPC message, so a client waiting on that id would
hang. ``summarizer mcp`` answers each with a JSON-RPC error, answers bad tool arguments with a
one-line ``isError`` result (never "internal error"), and stays up for the next request.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
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

    def send(self, message: str | dict[str, Any]) -> None:
        line = message if isinstance(message, str) else json.dumps(message)
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def receive(self, timeout: float = 20) -> dict[str, Any] | None:
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            return None
        line = self.proc.stdout.readline()
        return json.loads(line) if line else None  # type: ignore[no-any-return]

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


def test_a_notification_without_an_id_gets_no_reply(wire: Wire) -> None:
    """JSON-RPC: a broken notification cannot be answered, and must not be."""
    wire.send({"jsonrpc": "2.0", "method": 7})
    assert "result" in wire.ask({"jsonrpc": "2.0", "id": 50, "method": "tools/list"})
