"""`summarizer mcp` as a subprocess, driven by the real MCP client over stdio."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp_types import TextContent

pytestmark = pytest.mark.slow


def _server(tmp_path: Path) -> StdioServerParameters:
    """`summarizer mcp` from this environment, its data directories in tmp_path."""
    env = {
        **os.environ,
        "ENGRAM_DATA_DIR": str(tmp_path / "engram"),
        "SUMMARIZER_CACHE_DIR": str(tmp_path / "cache"),
        "HOME": str(tmp_path),
    }
    script = shutil.which("summarizer", path=str(Path(sys.executable).parent))
    if script:
        return StdioServerParameters(command=script, args=["mcp"], env=env, cwd=str(tmp_path))
    code = "from summarizer.cli import main; main()"
    return StdioServerParameters(command=sys.executable, args=["-c", code, "mcp"], env=env, cwd=str(tmp_path))


def _text(result: Any) -> str:
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text


async def _scenario(tmp_path: Path, log: str, transcript: Path) -> None:
    async with stdio_client(_server(tmp_path)) as (read, write), ClientSession(read, write) as session:
        hello = await session.initialize()
        assert hello.instructions and hello.instructions.startswith("Engram provides persistent memory")
        assert "session_compress" in hello.instructions
        names = {tool.name for tool in (await session.list_tools()).tools}
        assert {
            "mem_save",
            "mem_search",
            "mem_get_observation",
            "mem_context",
            "mem_session_summary",
            "mem_session_start",
            "mem_session_end",
            "mem_update",
            "mem_delete",
            "mem_suggest_topic_key",
            "mem_stats",
            "mem_timeline",
        } <= names
        assert {
            "score",
            "compress",
            "stats",
            "batch",
            "output_compress",
            "output_restore",
            "session_compress",
            "session_recover",
        } <= names

        saved = await session.call_tool(
            "mem_save",
            {
                "title": "Auth architecture",
                "content": "Define boundaries for auth middleware",
                "type": "architecture",
                "project": "engram",
            },
        )
        assert not saved.is_error
        assert _text(saved) == (
            'Memory saved: "Auth architecture" (architecture)\n'
            "Suggested topic_key: architecture/auth-architecture"
        )
        found = await session.call_tool("mem_search", {"query": "middleware", "project": "engram"})
        assert _text(found).startswith("Found 1 memories:\n\n[1] #1 (architecture) — Auth architecture\n")

        compressed = await session.call_tool(
            "output_compress", {"output": log, "target_tokens": 600, "envelope": True}
        )
        assert not compressed.is_error, _text(compressed)
        envelope = json.loads(_text(compressed))
        assert envelope["reduction"] > 0.8
        assert "src/billing/invoices.py:212" in envelope["text"]
        restored = await session.call_tool(
            "output_restore", {"restore_id": envelope["restore_id"], "lines": "1201:1201"}
        )
        assert _text(restored).strip() == log.splitlines()[1200]

        missing = await session.call_tool("mem_get_observation", {})
        assert missing.is_error and _text(missing) == "id is required"
        bad = await session.call_tool("output_restore", {"restore_id": "not-hex!"})
        assert bad.is_error and "bad restore id" in _text(bad)

        report = await session.call_tool(
            "session_compress", {"transcript_path": str(transcript), "date": "2026-11-29"}
        )
        assert _text(report).startswith("Context compressed to engram:\n- 3 decisions saved")
        recovered = await session.call_tool("session_recover", {"project": "shopapi"})
        assert _text(recovered).startswith("## Session Compression — 2026-11-29\n")


def test_the_stdio_server_lists_saves_searches_compresses_and_reports_errors(
    tmp_path: Path, build_log: str, session_transcript: Path
) -> None:
    """One real client session: tools listed, memory saved and found, a log compressed, errors as isError."""
    asyncio.run(asyncio.wait_for(_scenario(tmp_path, build_log, session_transcript), timeout=120))
    assert (tmp_path / "engram" / "engram.db").is_file()
