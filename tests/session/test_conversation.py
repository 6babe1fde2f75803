"""The conversation model: whose words count, which still stand, what is left unanswered."""

from __future__ import annotations

import json

from summarizer.session.document import SessionDocument
from summarizer.session.extract import extract
from summarizer.session.reconcile import merge
from summarizer.session.transcript import Event, Transcript, parse_transcript


def _talk(*turns: tuple[str, str]) -> Transcript:
    return Transcript(tuple(Event(i, "message", role, text) for i, (role, text) in enumerate(turns, 1)))


def _claude(*records: dict[str, object]) -> Transcript:
    lines = []
    for role, content, side in records:  # type: ignore[misc]
        lines.append(
            json.dumps(
                {
                    "type": role,
                    "isSidechain": side,
                    "sessionId": "s1",
                    "message": {"role": role, "content": content},
                }
            )
        )
    return parse_transcript("\n".join(lines) + "\n")


def test_a_later_instruction_on_the_same_subject_supersedes_the_earlier_one() -> None:
    """'Actually use Postgres, not SQLite' replaces 'Use SQLite...'; an unrelated rule stays whole."""
    found = extract(
        _talk(
            (
                "user",
                "Use SQLite for the queue storage. Keep the public function signatures unchanged. "
                "And no mocks in the tests: we test against a real SQLite file.",
            ),
            ("assistant", "We decided to use SQLite with WAL mode for the queue storage."),
            ("user", "Actually use Postgres, not SQLite."),
            ("assistant", "Switching the queue to Postgres now."),
        )
    )
    assert found.instructions == (
        "Keep the public function signatures unchanged. And no mocks in the tests: we test against a real "
        "SQLite file.",
        "Actually use Postgres, not SQLite. (superseded: Use SQLite for the queue storage.)",
    )
    assert not any("WAL" in d for d in found.decisions)  # the user overruled the decision too


def test_a_change_without_an_instructions_wording_still_replaces_the_old_one() -> None:
    """'Scratch that, Postgres it is.' is an instruction because it changes one."""
    found = extract(
        _talk(("user", "Use SQLite for the queue."), ("user", "Scratch that, the queue goes to Postgres."))
    )
    assert found.instructions == (
        "Scratch that, the queue goes to Postgres. (superseded: Use SQLite for the queue.)",
    )


def test_a_relaxation_narrows_the_ban_it_relaxes() -> None:
    """'lodash.throttle is fine' after 'no new dependencies' is the rule now; the bare ban is not."""
    found = extract(
        _talk(
            ("user", "No new dependencies please."),
            ("assistant", "Noted."),
            ("user", "lodash.throttle is fine."),
        )
    )
    assert found.instructions == ("lodash.throttle is fine. (relaxes: No new dependencies please.)",)


def test_a_change_marker_on_another_subject_retires_nothing() -> None:
    """'Actually' alone is not enough: the subject's words must overlap."""
    found = extract(
        _talk(
            ("user", "Never push to main directly."), ("user", "Actually, always use uv to install packages.")
        )
    )
    assert found.instructions == (
        "Never push to main directly.",
        "Actually, always use uv to install packages.",
    )


def test_subagent_traffic_is_neither_the_users_instructions_nor_a_decision() -> None:
    """A Task subagent's prompt and claims (sidechain records) never count as the user's."""
    found = extract(
        _claude(
            ("user", "Fix the flaky mailer test. Do not touch the CI config.", False),
            ("user", "Never modify vendor/. Do not edit files.", True),
            ("assistant", "We decided to rewrite the mailer in Go.", True),
            ("assistant", [{"type": "text", "text": "The subagent found the cause."}], False),
        )
    )
    assert found.instructions == ("Do not touch the CI config.",)
    assert found.decisions == ()


def test_a_compaction_summary_and_tool_results_are_not_the_user() -> None:
    """Claude Code's continuation summary is an agent's retelling; a tool result is data."""
    found = extract(
        _claude(
            ("user", "This session is being continued from a previous conversation. Never use tabs.", False),
            ("user", [{"type": "tool_result", "tool_use_id": "x", "content": "Always push to main."}], False),
            ("user", "Keep the changelog in sync.", False),
        )
    )
    assert found.instructions == ("Keep the changelog in sync.",)


def test_the_last_unanswered_user_message_is_kept_verbatim_first() -> None:
    """The question the user is waiting on survives compaction word for word."""
    question = "does SKIP LOCKED work with our pgbouncer setup in transaction mode?"
    transcript = _talk(
        ("user", "Move the queue to Postgres."),
        ("assistant", "Should I keep the old table around?"),
        ("user", question),
    )
    found = extract(transcript)
    assert found.questions[0] == f"Unanswered: {question}"
    answered = extract(_talk(("user", question), ("assistant", "Yes, in transaction mode it works.")))
    assert not any(q.startswith("Unanswered:") for q in answered.questions)


def test_an_open_question_is_the_question_not_the_answers_sentence() -> None:
    """A reply that says it is not sure leaves the user's question open, not its own sentence."""
    found = extract(
        _talk(
            ("user", "Why does the tooltip still jump on hover?"),
            ("assistant", "I'm not sure whether the resize observer fires before layout."),
            ("user", "Ok, keep looking."),
            ("assistant", "Looking at the layout code next."),
        )
    )
    assert found.questions == ("Why does the tooltip still jump on hover?",)


def test_a_later_run_retires_a_stored_decision_the_user_overruled() -> None:
    """The day's stored 'use SQLite' decision leaves when a later compression says 'actually Postgres'."""
    old = SessionDocument("2026-12-01", {"decisions": ("We decided to use SQLite for the queue.",)})
    new = SessionDocument(
        "2026-12-01", {"instructions": ("Actually use Postgres for the queue, not SQLite.",), "decisions": ()}
    )
    merged = merge(old, SessionDocument("2026-12-01", {"decisions": new.section("instructions")}))
    assert merged.section("decisions") == ("Actually use Postgres for the queue, not SQLite.",)


def test_the_same_sessions_next_run_replaces_its_unanswered_message() -> None:
    """Answered since: the stored 'Unanswered:' of that session leaves; another session's stays."""
    old = SessionDocument(
        "2026-12-01",
        {"questions": ("Unanswered: does X work? (session s1)", "Unanswered: is Y safe? (session s2)")},
    )
    new = SessionDocument("2026-12-01", {"discoveries": ("does X work? → Yes. (session s1)",)})
    assert merge(old, new).section("questions") == ("Unanswered: is Y safe? (session s2)",)
