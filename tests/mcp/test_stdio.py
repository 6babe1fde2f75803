"""`summarizer mcp` as a subprocess, driven by the real MCP client over stdio."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
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


RULES = """
[[failure]]
pattern = '^DEPLOY BROKEN: '
examples = ["DEPLOY BROKEN: api lost its types"]

[[noise]]
pattern = '^\\[bundler\\] asset '
examples = ["[bundler] asset chunk-17.js 3 KiB [emitted]"]
"""


def _team_log() -> str:
    lines = []
    for i in range(400):
        lines.append(f"[bundler] asset chunk-{i}.js {i % 7 + 1} KiB [emitted]")
        if i % 4 == 0:
            lines.append(f"compiled module {i} of 400 in {i % 13} ms")
        if i == 250:
            lines.append("DEPLOY BROKEN: api lost its types")
    return "\n".join(lines) + "\n"


async def _compress_through_mcp(tmp_path: Path, log: str) -> str:
    async with stdio_client(_server(tmp_path)) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        reply = await session.call_tool("output_compress", {"output": log, "target_tokens": 400})
        assert not reply.is_error, _text(reply)
        return _text(reply)


def test_output_compress_applies_the_teams_rules_and_records_the_run_as_summarizer_output_does(
    tmp_path: Path,
) -> None:
    """The same rules in force, the same text back, and one ledger record each for `summarizer gain`."""
    from summarizer.gain.ledger import read

    (tmp_path / ".git").mkdir()
    (tmp_path / ".summarizer").mkdir()
    (tmp_path / ".summarizer" / "rules.toml").write_text(RULES, encoding="utf-8")
    log = _team_log()
    through_mcp = asyncio.run(asyncio.wait_for(_compress_through_mcp(tmp_path, log), timeout=120))
    server = _server(tmp_path)
    cli = subprocess.run(
        [server.command, *server.args[:-1], "output", "--target", "400"],
        input=log,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=server.env,
        check=False,
        timeout=120,
    )
    assert cli.returncode == 0, cli.stderr
    # The same rendering; only the header's token count may differ (the CLI's cold path estimates it).
    assert through_mcp.split("\n", 1)[1] == cli.stdout.split("\n", 1)[1]
    assert "DEPLOY BROKEN: api lost its types" in through_mcp
    assert "dropped by your rules" in through_mcp
    records = [record for _, _, record in read(str(tmp_path / "cache" / "ledger"))]
    same = ("tool", "cwd", "project", "cmd", "bytes", "pass", "raw", "rid")
    assert len(records) == 2 and [r[k] for k in same for r in records[:1]] == [records[1][k] for k in same]
    assert records[0]["tool"] == "output" and records[0]["pass"] is False and records[0]["out"] > 0


def test_output_compress_in_raw_mode_gives_the_output_back_and_records_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SUMMARIZER_RAW=1 in the server's environment: the output untouched, a raw ledger record."""
    from summarizer.gain.ledger import read

    monkeypatch.setenv("SUMMARIZER_RAW", "1")
    log = _team_log()
    assert asyncio.run(asyncio.wait_for(_compress_through_mcp(tmp_path, log), timeout=120)) == log
    [record] = [record for _, _, record in read(str(tmp_path / "cache" / "ledger"))]
    assert record["raw"] is True and record["pass"] is True and record["bytes"] == len(log.encode())
