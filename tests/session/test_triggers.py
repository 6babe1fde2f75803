"""The trigger rules fire and hold off as docs/session.md says, on a realistic session."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from summarizer.session.transcript import Event, Transcript
from summarizer.session.triggers import decide, start_of_count

Upto = Callable[[Transcript, int], Transcript]


def _say(transcript: Transcript, text: str, role: str = "user") -> Transcript:
    return replace(transcript, events=(*transcript.events, Event(0, "message", role, text)))


def _mark(transcript: Transcript, calls: int) -> int:
    return start_of_count(transcript, calls)


def test_the_full_session_is_due_for_every_counted_reason(claude_code: Transcript) -> None:
    """53 calls, 7 long reads, a question asked twice and 6 finished tasks all fire."""
    decision = decide(claude_code)
    assert decision.due and decision.held is None
    assert decision.reasons == (
        "53 tool calls (> 30)",
        "7 reads of files over 200 lines (> 5)",
        "question asked twice: 'Does the refresh endpoint share code with the websocket path?'",
        "6 tasks completed (> 5)",
    )


def test_nothing_fires_automatically_in_the_first_ten_tool_calls(claude_code: Transcript, upto: Upto) -> None:
    """After 9 calls the question was asked twice, but it is too early to compress."""
    decision = decide(upto(claude_code, 9))
    assert decision.counts.repeated_questions
    assert not decision.due
    assert decision.held == "only 9 tool calls in the session (none in the first 10)"


def test_a_repeated_question_fires_once_past_the_warmup(claude_code: Transcript, upto: Upto) -> None:
    """After 11 calls the repeated question alone makes a compression due."""
    decision = decide(upto(claude_code, 11))
    assert decision.due
    assert decision.reasons == (
        "question asked twice: 'Does the refresh endpoint share code with the websocket path?'",
    )


def test_a_question_asked_once_does_not_fire(claude_code: Transcript, upto: Upto) -> None:
    """Before the user re-asks there is nothing to trigger on."""
    decision = decide(upto(claude_code, 8))
    assert decision.reasons == () and not decision.due


def test_counts_restart_at_the_last_compression_and_hold_off_for_twenty_calls(
    claude_code: Transcript, upto: Upto
) -> None:
    """Compressed at call 26: six long reads follow, but only from call 46 on may it run again."""
    at_40 = upto(claude_code, 40)
    held = decide(at_40, start=_mark(at_40, 26))
    assert held.counts.large_reads == 6 and held.counts.tool_calls_since == 14
    assert held.counts.repeated_questions == ()  # asked before the compression: already counted
    assert not held.due
    assert held.held == "14 tool calls since the last compression (at most one per 20)"

    at_46 = upto(claude_code, 46)
    due = decide(at_46, start=_mark(at_46, 26))
    assert due.due and due.reasons == ("6 reads of files over 200 lines (> 5)",)


def test_more_than_thirty_calls_since_the_last_compression_fires(messages: Transcript) -> None:
    """Compressed at call 11 (after the repeated question), 42 calls later it is due again."""
    decision = decide(messages, start=_mark(messages, 11))
    assert decision.due
    assert decision.reasons[0] == "42 tool calls (> 30)"
    assert decision.counts.tasks_done == 4  # two were already done at the mark


def test_an_explicit_request_bypasses_warmup_and_spacing(claude_code: Transcript, upto: Upto) -> None:
    """'getting long' from the user compresses at call 5, and right after another compression."""
    early = _say(upto(claude_code, 5), "This is getting long, please compress the context.")
    assert decide(early).due and decide(early).reasons == ("explicit request",)
    at_30 = upto(claude_code, 30)
    spaced = _say(at_30, "/memory-compress")
    assert decide(spaced, start=_mark(at_30, 28)).due
    assert not decide(at_30, start=_mark(at_30, 28)).due


def test_the_word_compress_in_other_work_is_not_a_request(claude_code: Transcript, upto: Upto) -> None:
    """'compress the images' is a task, not a request to compress the context."""
    decision = decide(_say(upto(claude_code, 5), "Can you compress the images in static/ too?"))
    assert not decision.counts.explicit


def test_force_is_an_explicit_request(claude_code: Transcript, upto: Upto) -> None:
    """--force compresses even a 3-call session."""
    decision = decide(upto(claude_code, 3), force=True)
    assert decision.due and decision.reasons == ("explicit request",)


def test_a_compression_visible_in_the_transcript_is_the_last_compression(
    claude_code: Transcript, upto: Upto
) -> None:
    """An agent's own mem_save to a .../compressed/... topic restarts the counts."""
    at_30 = upto(claude_code, 30)
    saved = Event(
        0,
        "tool_call",
        "assistant",
        tool="mcp__engram__mem_save",
        tool_input={"title": "x", "topic_key": "session/shopapi/compressed/2026-11-29"},
    )
    with_save = replace(at_30, events=(*at_30.events, saved))
    assert start_of_count(with_save) == len(with_save.events)
    decision = decide(with_save, start=start_of_count(with_save))
    assert decision.counts.tool_calls_since == 0 and not decision.due


def test_a_recorded_mark_past_the_end_belongs_to_another_transcript(
    claude_code: Transcript, upto: Upto
) -> None:
    """A mark at call 90 on a 20-call transcript is ignored."""
    assert start_of_count(upto(claude_code, 20), 90) == 0
