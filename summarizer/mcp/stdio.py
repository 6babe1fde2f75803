"""The stdio transport of ``summarizer mcp``, guarded: every request with an id gets an answer.

The SDK drops a line it cannot read as a JSON-RPC message (a missing "jsonrpc", params that are not
an object, JSON nested too deeply, a 5,000-digit number, a huge line), so a client waiting on that
id hangs. A guard stands in front of the SDK's own stdio transport (``MCPServer.run``, unchanged):

* fd 0 becomes a pipe that a guard thread fills from the client's stdin, line by line, each line
  read with a size limit; a line the SDK cannot read is answered here with a JSON-RPC error: with
  its id when one can be read, else with a null id (JSON-RPC 2.0: a parse error, ``{}``, ``[]``, a
  broken notification); a batch array gets one error per id it holds (MCP has no batches);
* fd 1 becomes a pipe that a relay thread copies to the client's stdout, line by line, so the
  guard's answers and the SDK's replies never interleave inside a line.

Only the SDK's public API is used: the SDK claims fd 0 and fd 1 as it would for a terminal (so a
stray print still goes to stderr, not onto the wire), and never knows a guard is there.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

__all__ = ["MAX_MESSAGE_BYTES", "serve_stdio"]

MAX_MESSAGE_BYTES = 64 << 20
"""One JSON-RPC line (so every tool argument): transcripts and logs fit, an endless stream does not.
``SUMMARIZER_MCP_MAX_MESSAGE_BYTES`` changes it (same forms as ``SUMMARIZER_MAX_INPUT_BYTES``)."""

# Ends the relay: the SDK's output is JSON lines, which never hold a NUL byte.
_END = b"\0\n"


def serve_stdio(server: MCPServer[Any]) -> None:
    """``server.run()`` over this process's stdin and stdout, with the guard in front."""
    limit = _limit()
    client_in = os.fdopen(os.dup(0), "rb")
    client_out = os.fdopen(os.dup(1), "wb")
    to_sdk_r, to_sdk_w = os.pipe()
    from_sdk_r, from_sdk_w = os.pipe()
    os.dup2(to_sdk_r, 0)
    os.dup2(from_sdk_w, 1)
    os.close(to_sdk_r)
    lock = threading.Lock()

    def send(line: bytes) -> None:
        with lock:
            client_out.write(line)
            client_out.flush()

    guard = threading.Thread(target=_guard, args=(client_in, os.fdopen(to_sdk_w, "wb"), send, limit))
    relay = threading.Thread(target=_relay, args=(os.fdopen(from_sdk_r, "rb"), send))
    guard.daemon = relay.daemon = True  # a client that never closes stdin must not hold the exit
    guard.start()
    relay.start()
    try:
        server.run()
    finally:
        sys.stdout.flush()
        os.write(from_sdk_w, _END)  # after every reply the SDK wrote: the pipe keeps the order
        relay.join()
        os.close(from_sdk_w)
        os.dup2(client_in.fileno(), 0)
        os.dup2(client_out.fileno(), 1)


def _limit() -> int:
    from summarizer.core.jsonio import input_limit

    configured = os.environ.get("SUMMARIZER_MCP_MAX_MESSAGE_BYTES", "")
    return input_limit({"SUMMARIZER_MAX_INPUT_BYTES": configured}) if configured else MAX_MESSAGE_BYTES


def _guard(client: IO[bytes], sdk: IO[bytes], send: Any, limit: int) -> None:
    """Pass each readable line to the SDK; answer the rest; close the SDK's stdin at the end."""
    with sdk:
        while raw := client.readline(limit + 1):
            if len(raw) > limit and not raw.endswith(b"\n"):
                head = raw[: 1 << 16].decode("utf-8", "replace")
                rest = b""
                while not rest.endswith(b"\n"):  # drain the oversized line without keeping it
                    if not (rest := client.readline(1 << 20)):
                        break
                if (ident := _id_or_none(head)) is not None:
                    send(_error(ident, -32600, f"request larger than {limit} bytes; send less, or a path"))
                continue
            line = raw.decode("utf-8", "replace")
            if not line.strip():
                continue
            if (answer := _rejection(line)) is None:
                sdk.write(raw if raw.endswith(b"\n") else raw + b"\n")
                sdk.flush()
            elif answer:
                send(answer)


def _relay(sdk: IO[bytes], send: Any) -> None:
    """Copy the SDK's replies to the client, whole lines at a time, until the end mark."""
    with sdk:
        while (line := sdk.readline()) and line != _END:
            send(line)


def _error(ident: int | str | None, code: int, message: str) -> bytes:
    reply = {"jsonrpc": "2.0", "id": ident, "error": {"code": code, "message": message}}
    return json.dumps(reply).encode() + b"\n"


def _rejection(line: str) -> bytes | None:
    """``None`` for a line the SDK can read; else the error reply for its sender ("" when it has none)."""
    import mcp_types

    from summarizer.core.jsonio import request_id

    try:
        parsed = mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except Exception:  # pydantic's error: judged again below, with our own reader
        parsed = None
    # The SDK reads {"id": {...}, "method": ...} as a notification and never answers it.
    if parsed is not None and not (isinstance(parsed, mcp_types.JSONRPCNotification) and '"id"' in line):
        return None
    if line.lstrip().startswith("["):
        return _batch(line)
    code, message, ident = mcp_types.INVALID_REQUEST, "not a JSON-RPC 2.0 request", None
    try:
        value = json.loads(line)
    except json.JSONDecodeError as exc:
        code, message = mcp_types.PARSE_ERROR, f"parse error: {exc.msg} at column {exc.colno}"
    except RecursionError:
        code, message = mcp_types.PARSE_ERROR, "the message is nested too deeply to read; flatten it"
    except ValueError as exc:  # a number longer than Python converts
        code, message = mcp_types.PARSE_ERROR, f"the message holds a value that cannot be read ({exc})"[:200]
    else:
        if isinstance(value, dict):
            ident = value.get("id")
            message = 'invalid request: needs jsonrpc "2.0", a string method and object params'
            if "id" in value and (isinstance(ident, bool) or not isinstance(ident, int | str)):
                # JSON-RPC: an unreadable id is answered with a null id
                return _error(None, code, "invalid request: the id must be a string or an integer")
    if ident is None:
        ident = request_id(line)
    if isinstance(ident, bool) or not isinstance(ident, int | str):
        # JSON-RPC 2.0: when the id cannot be read (a parse error, `{}`, a broken notification), the
        # error is still sent, with a null id; a client that sent garbage learns so instead of waiting.
        return _error(None, code, message)
    return _error(ident, code, message)


def _batch(line: str) -> bytes:
    """A JSON array: MCP has no batches (since 2025-06-18). Each element with a readable id gets its
    own error line, so no caller waits; an empty array, an unreadable one or one without ids gets one
    error with a null id."""
    import mcp_types

    try:
        items = json.loads(line)
    except (ValueError, RecursionError):
        return _error(None, mcp_types.PARSE_ERROR, "parse error: the message is not valid JSON")
    message = "batch requests are not supported; send one JSON-RPC request per line"
    if not isinstance(items, list) or not items:
        return _error(None, mcp_types.INVALID_REQUEST, "invalid request: an empty batch")
    ids = [item["id"] for item in items if isinstance(item, dict) and _usable(item.get("id"))]
    if not ids:
        return _error(None, mcp_types.INVALID_REQUEST, message)
    return b"".join(_error(ident, mcp_types.INVALID_REQUEST, message) for ident in ids)


def _usable(ident: object) -> bool:
    return isinstance(ident, int | str) and not isinstance(ident, bool)


def _id_or_none(text: str) -> int | str | None:
    from summarizer.core.jsonio import request_id

    ident = request_id(text)
    return None if isinstance(ident, bool) else ident
