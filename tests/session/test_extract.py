"""The offline keyword rules: one section per sentence, prose only, files from tool calls."""

from __future__ import annotations

from summarizer.session.extract import MAX_ITEM_CHARS, extract
from summarizer.session.transcript import Event, Transcript


def _said(*texts: str, role: str = "assistant") -> Transcript:
    return Transcript(tuple(Event(i, "message", role, t) for i, t in enumerate(texts, 1)))


def test_a_failure_outranks_the_decision_it_mentions() -> None:
    """'We decided to revert X because it broke Y' is something not to repeat."""
    found = extract(_said("We decided to revert the Redis cache because it broke the session store."))
    assert found.failures == ("We decided to revert the Redis cache because it broke the session store.",)
    assert found.decisions == ()


def test_each_category_is_found_by_its_keywords() -> None:
    """Decisions, discoveries, progress and open questions from the keyword lists."""
    found = extract(
        _said(
            "Let's use SQLite with WAL for the queue.",
            "Turns out the worker pool never drains on SIGTERM.",
            "The migration is finished and merged into main.",
            "Should the retry budget be per tenant or global?",
            "Ok.",
        )
    )
    assert found.decisions == ("Let's use SQLite with WAL for the queue.",)
    assert found.discoveries == ("Turns out the worker pool never drains on SIGTERM.",)
    assert found.progress == ("The migration is finished and merged into main.",)
    assert found.questions == ("Should the retry budget be per tenant or global?",)


def test_code_reminders_command_output_and_tool_results_are_not_mined() -> None:
    """Only the conversation's prose counts; what tools and the harness injected does not."""
    transcript = Transcript(
        (
            Event(
                1, "message", "assistant", "Here is the fix:\n```python\n# we decided to drop auth here\n```"
            ),
            Event(2, "message", "user", "<local-command-stdout>We decided to ship</local-command-stdout>"),
            Event(3, "message", "user", "<system-reminder>We chose to ignore the tests.</system-reminder>"),
            Event(4, "tool_result", "tool", "IMPORTANT: we decided to disable authentication everywhere."),
        )
    )
    found = extract(transcript)
    assert found.decisions == () and found.failures == ()


def test_files_come_from_edit_calls_and_patch_headers_relative_to_the_cwd() -> None:
    """Edit/Write, the text editor tool and apply_patch all count; reads do not."""
    calls = (
        Event(1, "message", "assistant", "Adding the retry wrapper to the client."),
        Event(2, "tool_call", "assistant", tool="Edit", tool_input={"file_path": "/srv/app/src/client.py"}),
        Event(3, "tool_call", "assistant", tool="Edit", tool_input={"file_path": "/srv/app/src/client.py"}),
        Event(
            4,
            "tool_call",
            "assistant",
            tool="str_replace_based_edit_tool",
            tool_input={"command": "create", "path": "/srv/app/src/retry.py"},
        ),
        Event(
            5,
            "tool_call",
            "assistant",
            tool="str_replace_based_edit_tool",
            tool_input={"command": "view", "path": "/srv/app/README.md"},
        ),
        Event(
            6,
            "tool_call",
            "assistant",
            tool="apply_patch",
            tool_input={"input": "*** Begin Patch\n*** Update File: docs/retry.md\n@@\n*** End Patch"},
        ),
    )
    found = extract(Transcript(calls, cwd="/srv/app"))
    assert found.files == (
        "`src/client.py` — edited (2 edits): Adding the retry wrapper to the client.",
        "`src/retry.py` — created",
        "`docs/retry.md` — edited",
    )


def test_long_items_are_shortened_at_a_word_boundary() -> None:
    """An item never exceeds the cap and ends on a whole word."""
    long = "We decided to " + " ".join(f"word{i}" for i in range(200)) + "."
    (item,) = extract(_said(long)).decisions
    assert len(item) <= MAX_ITEM_CHARS + 1 and item.endswith("…")
    assert item[:-1].split()[-1].startswith("word")


def test_duplicates_within_a_session_are_kept_once() -> None:
    """The same decision said twice, differently spaced or cased, is one item."""
    found = extract(_said("We decided to use  WAL mode.", "we decided to use wal mode"))
    assert found.decisions == ("We decided to use WAL mode.",)


def test_lone_surrogates_from_json_become_storable_text() -> None:
    """'\\ud800' decodes from JSON but is not UTF-8: it is replaced, not allowed to fail the save."""
    (item,) = extract(_said("We decided to keep the \ud800 marker.")).decisions
    item.encode("utf-8")
    assert item == "We decided to keep the ? marker."


def test_a_sentence_pointing_back_keeps_its_antecedent() -> None:
    """'That approach failed' is meaningless alone; the sentence before it says what failed."""
    text = "The key was regenerated on restart in one path. That approach failed; we moved it."
    assert extract(_said(text)).failures == (text,)


def test_a_question_left_open_is_an_open_question() -> None:
    """'What about DST weeks? Leave it as an open question.' keeps the question itself."""
    found = extract(_said("What about DST weeks? Leave it as an open question.", role="user"))
    assert found.questions == ("Unanswered: What about DST weeks? Leave it as an open question.",)


def test_rejections_and_failed_attempts_are_recorded() -> None:
    """'We rejected X because' is a decision; 'the first attempt failed' is a failure to avoid."""
    found = extract(
        _said(
            "We rejected a Redis lock because a lock expiry reintroduces the race.",
            "The first attempt failed because the insert ran outside the savepoint.",
        )
    )
    assert found.decisions == ("We rejected a Redis lock because a lock expiry reintroduces the race.",)
    assert found.failures == ("The first attempt failed because the insert ran outside the savepoint.",)
