"""The stdio transport of ``summarizer mcp``, guarded: every request with an id gets an answer.

The SDK drops a line it cannot read as a JSON-RPC message (a missing "jsonrpc", params that are not
an object, JSON nested too deeply, a 5,000-digit number, a huge line), so a client waiting on that
id hangs. Each such line becomes a synthetic request to _REJECTED carrying the id and the reason;
the pump answers it with a JSON-RPC error instead of passing it to the SDK. A line without a
readable id (a broken notification) cannot be answered and is only logged.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

__all__ = ["MAX_MESSAGE_BYTES", "serve_stdio"]

_REJECTED = "summarizer/rejected"
_NULL_ID = "summarizer/null-id"
MAX_MESSAGE_BYTES = 64 << 20
"""One JSON-RPC line (so every tool argument): transcripts and logs fit, an endless stream does not.
``SUMMARIZER_MCP_MAX_MESSAGE_BYTES`` changes it (same forms as ``SUMMARIZER_MAX_INPUT_BYTES``)."""


def _rejection(line: str) -> str | None:
    """``None`` for a line the SDK can read; else the synthetic request that answers its sender."""
    import mcp_types

    from summarizer.core.jsonio import request_id

    try:
        parsed = mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except Exception:  # pydantic's error: judged again below, with our own reader
        parsed = None
    # The SDK reads {"id": {...}, "method": ...} as a notification and never answers it.
    if parsed is not None and not (isinstance(parsed, mcp_types.JSONRPCNotification) and '"id"' in line):
        return None
    code, message, ident, null_id = mcp_types.INVALID_REQUEST, "not a JSON-RPC 2.0 request", None, False
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
                message = "invalid request: the id must be a string or an integer"
                ident, null_id = _NULL_ID, True  # JSON-RPC: an unreadable id is answered with null
    if ident is None:
        ident = request_id(line)
    if isinstance(ident, bool) or not isinstance(ident, int | str):
        sys.stderr.write(f"summarizer mcp: dropped a message without a usable id ({message})\n")
        return ""
    params = {"code": code, "message": message, "null_id": null_id}
    return json.dumps({"jsonrpc": "2.0", "id": ident, "method": _REJECTED, "params": params})


async def _stdin_lines(limit: int = MAX_MESSAGE_BYTES) -> AsyncIterator[str]:
    """The lines of stdin, each at most ``limit`` bytes; a longer one is skipped and answered."""
    import anyio

    buffer = sys.stdin.buffer
    while raw := await anyio.to_thread.run_sync(buffer.readline, limit + 1):
        if len(raw) > limit and not raw.endswith(b"\n"):
            head = raw[: 1 << 16].decode("utf-8", "replace")
            rest = b""
            while not rest.endswith(b"\n"):  # drain the oversized line without keeping it
                if not (rest := await anyio.to_thread.run_sync(buffer.readline, 1 << 20)):
                    break
            ident = _id_or_none(head)
            if ident is not None:
                yield json.dumps(
                    {
                        "jsonrpc": "2.0",
                        "id": ident,
                        "method": _REJECTED,
                        "params": {
                            "code": -32600,
                            "message": f"request larger than {limit} bytes; send less, or a path",
                        },
                    }
                )
            continue
        line = raw.decode("utf-8", "replace")
        if not line.strip():
            continue
        rejected = _rejection(line)
        if rejected is None:
            yield line
        elif rejected:
            yield rejected


def _id_or_none(text: str) -> int | str | None:
    from summarizer.core.jsonio import request_id

    ident = request_id(text)
    return None if isinstance(ident, bool) else ident


async def serve_stdio(server: MCPServer[Any]) -> None:
    """``server.run()`` over stdio, with :func:`_stdin_lines` in front of the SDK's reader."""
    import anyio
    import mcp_types
    from mcp.server.stdio import stdio_server
    from mcp.shared._context_streams import create_context_streams
    from mcp.shared.message import SessionMessage

    # The SDK's own loop (MCPServer.run_stdio_async) with our stdin; the low-level server has no
    # public accessor on MCPServer 2.x, hence the one private attribute read here.
    lowlevel = server._lowlevel_server
    from summarizer.core.jsonio import input_limit

    configured = os.environ.get("SUMMARIZER_MCP_MAX_MESSAGE_BYTES", "")
    limit = input_limit({"SUMMARIZER_MAX_INPUT_BYTES": configured}) if configured else MAX_MESSAGE_BYTES
    stdin: Any = _stdin_lines(limit)
    # any async iterator of lines serves as stdin; the SDK types an AsyncFile
    async with stdio_server(stdin=stdin) as (read_stream, write_stream):
        inbound_writer, inbound = create_context_streams[SessionMessage | Exception](0)

        async def pump() -> None:
            async with inbound_writer:
                async for item in read_stream:
                    request = item.message if isinstance(item, SessionMessage) else None
                    if isinstance(request, mcp_types.JSONRPCRequest) and request.method == _REJECTED:
                        params = request.params or {}
                        error = mcp_types.ErrorData(
                            code=int(params.get("code", -32600)),
                            message=str(params.get("message", "invalid request")),
                        )
                        ident = None if params.get("null_id") else request.id
                        reply = mcp_types.JSONRPCError(jsonrpc="2.0", id=ident, error=error)
                        await write_stream.send(SessionMessage(reply))
                    else:
                        await inbound_writer.send(item)

        async with anyio.create_task_group() as group:
            group.start_soon(pump)
            await lowlevel.run(inbound, write_stream, lowlevel.create_initialization_options())
            group.cancel_scope.cancel()
