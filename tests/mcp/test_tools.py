"""The MCP tools in process: engram parity, lenient arguments, scrubbing, errors as isError."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp_types import CallToolResult, TextContent
from summarizer_engram import MemoryBackend, Store
from summarizer_engram.tool_specs import TOOLS
from summarizer_engram.tools import HANDLERS

from summarizer import app
from summarizer.core.errors import StorageError
from summarizer.core.settings import Settings
from summarizer.mcp.server import build_server

SECRET = "ghp_R8x2Kq7LmN4pZ1vB6tY3wC9sD0fG5hJ2kL8a"


@pytest.fixture
def settings() -> Settings:
    """Settings from the isolated test environment (tmp cache and engram directories)."""
    import os

    return Settings.load(os.environ)


@pytest.fixture
def store(settings: Settings) -> Iterator[Store]:
    """The real engram database the server will use."""
    with Store(settings.engram_db) as db:
        yield db


def _call(server: Any, name: str, args: dict[str, Any]) -> CallToolResult:
    result = asyncio.run(server.call_tool(name, args))
    assert isinstance(result, CallToolResult)
    return result


def _text(result: CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text


def _server(settings: Settings, store: MemoryBackend, tmp_path: Path, **kwargs: Any) -> Any:
    return build_server(
        settings, memory=app.shared_memory(settings, lambda: store), cwd=tmp_path / "shopapi", **kwargs
    )


def test_engram_tools_are_listed_with_engrams_schemas_and_annotations(
    settings: Settings, store: Store, tmp_path: Path
) -> None:
    """Names, input schemas, titles and hints are engram's own."""
    tools = {t.name: t for t in asyncio.run(_server(settings, store, tmp_path).list_tools())}
    for name, spec in TOOLS.items():
        assert tools[name].input_schema == spec.input_schema()
        assert tools[name].annotations is not None
        assert tools[name].annotations.read_only_hint is spec.read_only
        assert tools[name].annotations.destructive_hint is spec.destructive
    assert tools["mem_delete"].annotations and tools["mem_delete"].annotations.destructive_hint


def test_the_tools_flag_selects_engram_profiles_and_keeps_ours(
    settings: Settings, store: Store, tmp_path: Path
) -> None:
    """--tools agent serves engram's 11 agent tools; the compression tools are always there."""
    names = {t.name for t in asyncio.run(_server(settings, store, tmp_path, tools="agent").list_tools())}
    assert len([n for n in names if n.startswith("mem_")]) == 11 and "mem_delete" not in names
    assert {"score", "output_compress", "session_compress", "session_recover"} <= names


def test_memory_replies_are_exactly_engrams_texts(
    settings: Settings, store: Store, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The server's text equals the engram handler's for the same call, success or error."""
    server = _server(settings, store, tmp_path)
    args = {"title": "Fix panic", "content": "nil map in the loader", "type": "bugfix", "project": "engram"}
    saved = _call(server, "mem_save", args)
    reference = Store(tmp_path / "reference.db")
    request.addfinalizer(reference.close)
    assert (_text(saved), saved.is_error) == HANDLERS["mem_save"](reference, **args)
    assert _text(saved).startswith('Memory saved: "Fix panic" (bugfix)\nSuggested topic_key: ')
    for name, call in [
        ("mem_search", {"query": "panic", "project": "engram", "limit": 5}),
        ("mem_stats", {}),
        ("mem_get_observation", {"id": 1.0}),
        ("mem_get_observation", {"id": 9999}),
        ("mem_update", {"id": 1}),
    ]:
        ours = _call(server, name, call)
        text, is_error = HANDLERS[name](reference, **call)
        assert (_text(ours).replace(store.get(1).created_at, "T"), ours.is_error) == (
            text.replace(reference.get(1).created_at, "T"),
            is_error,
        ), name


def test_arguments_are_read_leniently_like_engrams_go_handlers(
    settings: Settings, store: Store, tmp_path: Path
) -> None:
    """A string where a number belongs falls back to the default instead of failing validation."""
    server = _server(settings, store, tmp_path)
    _call(server, "mem_save", {"title": "Auth model", "content": "JWT in cookies", "project": "p"})
    found = _call(server, "mem_search", {"query": "JWT", "limit": "7", "project": 3})
    assert not found.is_error and _text(found).startswith("Found 1 memories")


def test_secrets_are_scrubbed_before_saving_and_in_replies(
    settings: Settings, store: Store, tmp_path: Path
) -> None:
    """A token in mem_save content never reaches the database nor comes back out."""
    server = _server(settings, store, tmp_path)
    _call(
        server,
        "mem_save",
        {
            "title": "Staging access",
            "content": f"use token {SECRET} for smoke tests",
            "project": "p",
            "topic_key": "config/staging",
        },
    )
    assert SECRET not in store.get(1).content and "[REDACTED:github_token]" in store.get(1).content
    got = _call(server, "mem_get_observation", {"id": 1})
    assert SECRET not in _text(got)


def test_an_unusable_store_is_an_error_result_not_a_crash(settings: Settings, tmp_path: Path) -> None:
    """Memory tools answer isError; session_compress still returns the summary, saying it was not saved."""

    def broken() -> MemoryBackend:
        raise StorageError("cannot open the engram database '/nope/engram.db': disk I/O error")

    server = build_server(settings, memory=app.shared_memory(settings, broken), cwd=tmp_path)
    result = _call(server, "mem_save", {"title": "t", "content": "c"})
    assert result.is_error and _text(result).startswith("engram unavailable: cannot open")
    fixture = Path(__file__).parents[1] / "session" / "fixtures" / "claude_code.jsonl"
    report = _call(server, "session_compress", {"transcript_path": str(fixture), "force": True})
    assert not report.is_error
    assert _text(report).startswith("Engram unavailable (cannot open") and "### Decisions" in _text(report)


def test_phase_tools_score_and_refuse_bad_entries(settings: Settings, store: Store, tmp_path: Path) -> None:
    """score answers JSON; an unknown key is a one-line isError naming it."""
    server = _server(settings, store, tmp_path)
    entry = {
        "summary": "Added auth middleware and token refresh",
        "files_changed": ["src/auth.py"],
        "status": "complete",
        "from_agent": "hermes",
        "to_agent": "aphrodite",
    }
    scored = _call(server, "score", {"entry": entry})
    assert not scored.is_error and '"priority"' in _text(scored)
    bad = _call(server, "score", {"entry": {"summary": "x", "files_chaged": []}})
    assert bad.is_error and "files_chaged" in _text(bad) and "\n" not in _text(bad)
    planned = _call(server, "batch", {"entries": [entry, entry]})
    assert not planned.is_error
    assert _call(server, "stats", {"entries": []}).is_error


def test_session_tools_compress_and_recover_through_the_server(
    settings: Settings, store: Store, tmp_path: Path
) -> None:
    """session_compress takes JSONL text; session_recover defaults to the server's directory name."""
    server = _server(settings, store, tmp_path)
    fixture = Path(__file__).parents[1] / "session" / "fixtures" / "messages.jsonl"
    report = _call(server, "session_compress", {"transcript": fixture.read_text(), "date": "2026-11-29"})
    assert _text(report).startswith("Context compressed to engram:")
    assert "- Topic: session/shopapi/compressed/2026-11-29" in _text(report)
    recovered = _call(server, "session_recover", {})
    assert _text(recovered).startswith("## Session Compression — 2026-11-29")
    both = _call(server, "session_compress", {"transcript": "x", "transcript_path": "y"})
    assert both.is_error and _text(both) == "pass exactly one of transcript_path or transcript"


def test_server_startup_and_offline_session_compression_never_import_litellm(tmp_path: Path) -> None:
    """Building the server, then compressing a session offline, leaves litellm and jinja2 unloaded."""
    fixture = Path(__file__).parents[1] / "session" / "fixtures" / "claude_code.jsonl"
    code = (
        "import sys\nfrom summarizer.mcp.server import build_server\nbuild_server()\n"
        "from summarizer.cli import main\n"
        f"try:\n    main(['session', {str(fixture)!r}, '--json'])\nexcept SystemExit:\n    pass\n"
        "heavy = ('litellm', 'jinja2', 'summarizer.semantic.llm', 'summarizer.output')\n"
        "print(sorted(m for m in heavy if m in sys.modules), file=sys.stderr)"
    )
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "ENGRAM_DATA_DIR": str(tmp_path / "engram"),
        "SUMMARIZER_CACHE_DIR": str(tmp_path / "cache"),
    }
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120
    )
    assert json.loads(done.stdout)["action"] == "saved"
    assert done.stderr.strip().splitlines()[-1] == "[]"


def test_envelope_reduce_keeps_the_recovery_handle(settings: Settings, store: Store, tmp_path: Path) -> None:
    """A 40 KB result shrinks under the cap with its transaction id; bad JSON is an isError."""
    pytest.importorskip("summarizer.envelope.reduce")
    server = _server(settings, store, tmp_path)
    envelope = {
        "protocol": "agentic-workspace/v1",
        "ok": True,
        "operation": "workspace_edit",
        "summary": "Edited 40 files",
        "transactionId": "tx_9f2c1",
        "data": {"files": [{"path": f"src/m{i}.py", "diff": "+x\n" * 300} for i in range(40)]},
    }
    reduced = _call(server, "envelope_reduce", {"envelope": envelope, "cap": 2048})
    assert not reduced.is_error, _text(reduced)
    assert "tx_9f2c1" in _text(reduced) and len(_text(reduced)) < 40_000
    bad = _call(server, "envelope_reduce", {"envelope": "{not json"})
    assert bad.is_error and _text(bad).startswith("invalid JSON in 'envelope' at line 1")


def test_session_compress_with_no_arguments_reads_the_running_claude_code_session(
    settings: Settings, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An agent can call session_compress bare: the newest transcript of the server's project is used."""
    from summarizer.session.locate import claude_project_dir

    monkeypatch.setenv("HOME", str(tmp_path))
    folder = claude_project_dir(tmp_path / "shopapi", {"HOME": str(tmp_path)})
    folder.mkdir(parents=True)
    fixture = Path(__file__).parents[1] / "session" / "fixtures" / "claude_code.jsonl"
    (folder / "5b1f0c8e.jsonl").write_text(fixture.read_text())
    report = _call(_server(settings, store, tmp_path), "session_compress", {"date": "2026-11-29"})
    assert not report.is_error and _text(report).startswith("Context compressed to engram:")
