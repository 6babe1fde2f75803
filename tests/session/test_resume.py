"""What an agent needs to resume: goal, instructions, next steps, test status, generic tool records."""

from __future__ import annotations

import json

from summarizer.core.tokens import count_tokens
from summarizer.session.document import DROP_ORDER, SessionDocument, cap, render
from summarizer.session.extract import extract
from summarizer.session.transcript import parse_transcript


def _jsonl(*records: dict[str, object]) -> str:
    return "\n".join(json.dumps(r) for r in records)


SESSION = _jsonl(
    {"role": "user", "content": "The CSV export times out on big accounts. Can you make it stream the rows?"},
    {"role": "user", "content": "Keep it to the standard library. Don't touch the public API of export.py."},
    {"role": "assistant", "content": "I'll read the exporter first."},
    {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "Bash", "arguments": json.dumps({"command": "pytest tests/export -q"})},
            }
        ],
    },
    {
        "role": "tool",
        "tool_call_id": "c1",
        "content": "....F\nFAILED tests/export/test_big.py::test_stream\n1 failed, 4 passed in 0.31s",
    },
    {
        "role": "tool",
        "tool_name": "edit",
        "content": "Edited app/export.py: rows are yielded from a generator",
    },
    {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": "c2",
                "type": "function",
                "function": {
                    "name": "TodoWrite",
                    "arguments": json.dumps(
                        {
                            "todos": [
                                {"content": "Stream rows from the exporter", "status": "completed"},
                                {"content": "Add a progress header for the UI", "status": "pending"},
                            ]
                        }
                    ),
                },
            }
        ],
    },
    {"role": "tool", "tool_call_id": "c2", "content": "ok"},
    {
        "role": "assistant",
        "content": "The stream works. Next I'll add the Content-Length fallback and rerun the export tests.",
    },
)


def test_the_goal_is_the_users_request_in_one_sentence_with_its_setting() -> None:
    """A request that points back ("make it stream") keeps the sentence it points to."""
    found = extract(parse_transcript(SESSION))
    assert found.goal == ("The CSV export times out on big accounts. Can you make it stream the rows?",)


def test_every_user_constraint_is_an_instruction_verbatim() -> None:
    """ "Keep it to the standard library" and a prohibition both survive, word for word."""
    found = extract(parse_transcript(SESSION))
    assert found.instructions == (
        "Keep it to the standard library.",
        "Don't touch the public API of export.py.",
    )


def test_next_steps_are_pending_todos_and_the_last_stated_plan() -> None:
    """The pending to-do item and the final "Next I'll..." sentence."""
    found = extract(parse_transcript(SESSION))
    assert found.next_steps == (
        "Next: Add a progress header for the UI",
        "Next I'll add the Content-Length fallback and rerun the export tests.",
    )


def test_the_test_status_names_its_command_and_counts() -> None:
    """The latest run of each check command, with its counts."""
    found = extract(parse_transcript(SESSION))
    assert found.status == (
        "`pytest tests/export -q` — 1 failed, 4 passed; failing: tests/export/test_big.py::test_stream",
    )


def test_a_generic_tool_record_is_a_counted_call_and_its_file_is_listed() -> None:
    """{"role": "tool", "tool_name": "edit", "content": "Edited app/db.py: ..."}: a call, and a file."""
    transcript = parse_transcript(
        _jsonl(
            {"role": "user", "content": "Raise the pool timeout."},
            {"role": "tool", "tool_name": "edit", "content": "Edited app/db.py: pool timeout raised to 30s"},
            {"role": "tool", "name": "write", "input": {"path": "app/config.toml"}, "content": "ok"},
        )
    )
    assert [c.tool for c in transcript.tool_calls] == ["edit", "write"]
    assert extract(transcript).files == (
        "`app/db.py` — edited: pool timeout raised to 30s",
        "`app/config.toml` — created",
    )


def test_an_openai_tool_answer_is_still_a_result_not_a_call() -> None:
    """A role:tool record with a tool_call_id answers an earlier call: no double count."""
    transcript = parse_transcript(SESSION)
    assert [c.tool for c in transcript.tool_calls] == ["Bash", "edit", "TodoWrite"]


def test_under_the_cap_instructions_and_next_steps_are_dropped_last() -> None:
    """A document far over 2,000 tokens keeps every instruction and next step."""
    filler = tuple(f"decision {i}: shard table t{i} by tenant because row {i} is hot" for i in range(300))
    doc = SessionDocument(
        "2026-12-01",
        {
            "instructions": ("Never push to main.", "Use uv, not pip."),
            "next_steps": ("Next: write the migration",),
            "decisions": filler,
            "questions": filler,
        },
    )
    capped, dropped = cap(doc)
    assert count_tokens(render(capped)) < 2000 and dropped > 0
    assert capped.section("instructions") == doc.section("instructions")
    assert capped.section("next_steps") == doc.section("next_steps")
    assert DROP_ORDER[-3:] == ("next_steps", "unanswered", "instructions")


def test_an_older_codex_shell_apply_patch_is_an_edit() -> None:
    """shell ["apply_patch", "*** Begin Patch ..."] and a bash -lc apply_patch heredoc list their files."""
    patch = "*** Begin Patch\n*** Update File: src/app.py\n@@\n-a\n+b\n*** End Patch"
    transcript = parse_transcript(
        _jsonl(
            {
                "type": "response_item",
                "payload": {
                    "type": "function_call",
                    "name": "shell",
                    "call_id": "c1",
                    "arguments": json.dumps({"command": ["apply_patch", patch]}),
                },
            },
            {
                "type": "response_item",
                "payload": {
                    "type": "function_call",
                    "name": "shell",
                    "call_id": "c2",
                    "arguments": json.dumps(
                        {
                            "command": [
                                "bash",
                                "-lc",
                                "apply_patch <<'EOF'\n" + patch.replace("src/app.py", "src/cli.py") + "\nEOF",
                            ]
                        }
                    ),
                },
            },
        )
    )
    assert extract(transcript).files == ("`src/app.py` — edited", "`src/cli.py` — edited")


def test_the_answer_the_user_was_given_is_kept_with_the_question() -> None:
    """A user's question and the assistant's reply: "Q → A" under Discoveries; a request is not a question."""
    transcript = parse_transcript(
        _jsonl(
            {"role": "user", "content": "Can you make customer search fast?"},
            {"role": "assistant", "content": "Added a trigram index on customers.name."},
            {"role": "user", "content": "How fast is it now?"},
            {"role": "assistant", "content": "It takes 4 ms instead of 412 ms on the staging copy."},
        )
    )
    assert extract(transcript).discoveries == (
        "How fast is it now? → It takes 4 ms instead of 412 ms on the staging copy.",
    )
