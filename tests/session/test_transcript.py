"""Reading transcripts in the common shapes, and refusing malformed ones line by line."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from summarizer.core.errors import InputError
from summarizer.session.transcript import (
    Transcript,
    conversation_text,
    parse_transcript,
    tool_kind,
    tool_path,
)


def test_claude_code_session_file_yields_messages_calls_and_paired_results(claude_code: Transcript) -> None:
    """Claude Code's records become events; tool results pair with their calls by tool_use_id."""
    assert claude_code.session_id == "5b1f0c8e-2d7a-4c1e-9a53-7f0e6b2c9d41"
    assert claude_code.cwd == "/home/dev/shopapi"
    calls = claude_code.tool_calls
    assert len(calls) == 53
    results = claude_code.results()
    reads = [i for i, e in enumerate(claude_code.events) if e.kind == "tool_call" and tool_kind(e) == "read"]
    # toolUseResult.file.totalLines is the size of the file read
    assert [results[i].file_lines for i in reads][:3] == [312, 140, 90]
    assert all(results[i].call_id == claude_code.events[i].call_id for i in results)


def test_openai_messages_shape_parses_to_the_same_calls(
    claude_code: Transcript, messages: Transcript
) -> None:
    """{role, content} messages with tool_calls/role:tool give the same calls, paths and texts."""
    assert len(messages.tool_calls) == len(claude_code.tool_calls)
    assert [tool_kind(c) for c in messages.tool_calls] == [tool_kind(c) for c in claude_code.tool_calls]
    assert tool_path(messages.tool_calls[2]) == "src/auth/tokens.py"
    said = [e.text for e in messages.events if e.kind == "message" and e.role == "assistant"]
    assert said == [e.text for e in claude_code.events if e.kind == "message" and e.role == "assistant"]


def test_bare_tool_records_and_opencode_parts_are_read() -> None:
    """tool_call/tool_result records, Responses-API calls and OpenCode parts are all understood."""
    lines = [
        {"role": "user", "content": [{"type": "text", "text": "fix it"}]},
        {"type": "tool_call", "name": "read_file", "arguments": {"path": "a.py"}},
        {"type": "tool_result", "output": "x\n" * 300},
        {
            "type": "function_call",
            "name": "edit_file",
            "arguments": json.dumps({"path": "b.py"}),
            "call_id": "c1",
        },
        {"type": "function_call_output", "call_id": "c1", "output": "ok"},
        {
            "info": {"role": "assistant"},
            "parts": [
                {"type": "text", "text": "Editing now."},
                {
                    "type": "tool",
                    "tool": "edit",
                    "callID": "t1",
                    "state": {"status": "completed", "input": {"filePath": "c.py"}, "output": "done"},
                },
            ],
        },
    ]
    parsed = parse_transcript("\n".join(json.dumps(line) for line in lines))
    assert [(e.kind, e.tool) for e in parsed.tool_calls] == [
        ("tool_call", "read_file"),
        ("tool_call", "edit_file"),
        ("tool_call", "edit"),
    ]
    assert [tool_path(c) for c in parsed.tool_calls] == ["a.py", "b.py", "c.py"]
    results = parsed.results()
    assert len(results) == 3
    first = next(i for i, e in enumerate(parsed.events) if e.kind == "tool_call")
    assert results[first].text.count("\n") == 300


def test_a_json_array_transcript_is_accepted() -> None:
    """A whole-file JSON array of messages reads like JSONL."""
    parsed = parse_transcript(
        json.dumps([{"role": "user", "content": "hello there"}, {"role": "assistant", "content": "hi"}])
    )
    assert [e.text for e in parsed.events] == ["hello there", "hi"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"role": "user", "content": "a"}\n{"role": "assistant", "content": \n', "line 2 is not valid JSON"),
        ('{"role": "user", "content": "a"}\n\n[1, 2]\n', "line 3 is a JSON array"),
        ('{"type": "summary", "summary": "x"}\n', "holds no messages or tool calls"),
    ],
)
def test_malformed_transcripts_raise_one_line_naming_the_line(text: str, expected: str) -> None:
    """A bad line is an InputError (CLI exit 2) that says which line and what to do."""
    with pytest.raises(InputError) as caught:
        parse_transcript(text, source="t.jsonl")
    assert expected in str(caught.value)
    assert "\n" not in str(caught.value)


def test_meta_and_bookkeeping_records_are_skipped(claude_code: Transcript, fixture_dir: Path) -> None:
    """summary/system/isMeta records carry no conversation."""
    extra = [
        {"type": "user", "isMeta": True, "message": {"role": "user", "content": "Caveat: local cmds"}},
        {"type": "system", "subtype": "compact_boundary", "content": "Conversation compacted"},
        {
            "type": "user",
            "isCompactSummary": True,
            "message": {"role": "user", "content": "This session is being continued. We decided to X."},
        },
    ]
    text = (fixture_dir / "claude_code.jsonl").read_text() + "".join(json.dumps(r) + "\n" for r in extra)
    assert len(parse_transcript(text).events) == len(claude_code.events)


def test_conversation_text_keeps_the_end_when_it_must_cut(
    claude_code: Transcript, upto: Callable[[Transcript, int], Transcript]
) -> None:
    """The model's view drops the oldest lines first and cuts tool results short."""
    text = conversation_text(claude_code, max_chars=2000)
    assert len(text) <= 2100
    assert text.startswith("[… earlier conversation omitted …]")
    assert text.splitlines()[-2:] == ["[tool call] Bash git status --short", "[tool result] "]
    full = conversation_text(upto(claude_code, 3))
    assert "value_300" not in full  # a 312-line read is cut to 200 characters


def test_codex_rollouts_are_read_from_their_response_items() -> None:
    """session_meta gives id and cwd; response_items are the conversation; event_msg copies are skipped."""
    from summarizer.session.extract import extract

    patch = "*** Begin Patch\n*** Update File: src/x.py\n+x\n*** End Patch\n"
    lines = [
        {"type": "session_meta", "payload": {"id": "019a-codex", "cwd": "/repo", "cli_version": "0.5.1"}},
        {
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "developer",
                "content": [{"type": "input_text", "text": "We decided X."}],
            },
        },
        {
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "<environment_context>cwd /repo</environment_context>"},
                    {"type": "input_text", "text": "Why does the hook never fire?"},
                ],
            },
        },
        {"type": "event_msg", "payload": {"type": "user_message", "message": "Why does the hook fire?"}},
        {
            "type": "response_item",
            "payload": {
                "type": "function_call",
                "name": "shell",
                "call_id": "c1",
                "arguments": json.dumps({"command": ["bash", "-lc", "ls"]}),
            },
        },
        {"type": "response_item", "payload": {"type": "function_call_output", "call_id": "c1", "output": ""}},
        {
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Turns out the parser reads the wrong shape."}],
            },
        },
        {
            "type": "response_item",
            "payload": {"type": "custom_tool_call", "name": "apply_patch", "call_id": "c2", "input": patch},
        },
        {
            "type": "response_item",
            "payload": {
                "type": "custom_tool_call_output",
                "call_id": "c2",
                "output": "Success. Updated: M src/x.py",
            },
        },
    ]
    parsed = parse_transcript("\n".join(json.dumps(line) for line in lines))
    assert (parsed.session_id, parsed.cwd) == ("019a-codex", "/repo")
    assert [e.tool for e in parsed.tool_calls] == ["shell", "apply_patch"]
    assert len(parsed.results()) == 2
    found = extract(parsed)
    assert found.decisions == ()  # the developer message is instructions, not the conversation
    assert found.goal == ("Why does the hook never fire?",)
    assert found.discoveries == ("Turns out the parser reads the wrong shape.",)
    assert found.files == ("`src/x.py` — edited: Turns out the parser reads the wrong shape.",)
