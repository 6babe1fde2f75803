"""compress_session and recover against a real engram database in tmp_path."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from summarizer_engram import Store

from summarizer.core.errors import NotFound
from summarizer.core.settings import default_prompt_dir
from summarizer.core.tokens import count_tokens
from summarizer.semantic.prompts import PromptLibrary
from summarizer.semantic.service import Summarizer
from summarizer.session.document import MAX_TOKENS, parse, split_tag
from summarizer.session.service import FileMarks, SessionReport, compress_session, recover, render_report
from summarizer.session.transcript import Event, Transcript
from summarizer.testing import FakeCompleter

Upto = Callable[[Transcript, int], Transcript]
DAY = "2026-11-29"
TOPIC = f"session/shopapi/compressed/{DAY}"
SECRET = "ghp_R8x2Kq7LmN4pZ1vB6tY3wC9sD0fG5hJ2kL8a"


def _run(
    transcript: Transcript,
    store: Store | None,
    marks: FileMarks,
    *,
    force: bool = False,
    day: str = DAY,
    summarizer: Summarizer | None = None,
) -> SessionReport:
    return asyncio.run(
        compress_session(
            transcript,
            project="shopapi",
            date=day,
            memory=store,
            marks=marks,
            session_key=transcript.session_id or "messages",
            force=force,
            summarizer=summarizer,
        )
    )


def _stored(store: Store, day: str = DAY) -> tuple[str, int]:
    found = store.latest_by_topic(f"session/shopapi/compressed/{day}", project="shopapi")
    assert found is not None
    return found.content, found.revision_count


def test_a_due_session_is_saved_under_the_day_topic_and_reported(
    claude_code: Transcript, store: Store, marks: FileMarks
) -> None:
    """The document lands as type 'session' at the day's topic; the report is the documented one."""
    report = _run(claude_code, store, marks)
    assert report.action == "saved" and report.due
    content, _ = _stored(store)
    assert content.strip() == report.document.strip()
    assert content.startswith(f"## Session Compression — {DAY}\n")
    observation = store.latest_by_topic(TOPIC, project="shopapi")
    assert observation is not None and observation.type == "session"
    assert observation.title == "The token refresh test is flaky on CI. Can you find out why and fix it?"
    assert render_report(report) == (
        "Context compressed to engram:\n- 3 decisions saved\n- 4 discoveries saved\n- 8 files tracked\n"
        f"- Topic: {TOPIC}\nOlder conversation context can now be safely forgotten.\n"
    )
    assert store.get_session(claude_code.session_id or "").directory == "/home/dev/shopapi"


def test_running_twice_leaves_the_same_stored_document_and_no_new_revision(
    claude_code: Transcript, store: Store, marks: FileMarks
) -> None:
    """The idempotency rule: a forced re-run changes nothing in engram."""
    _run(claude_code, store, marks, force=True)
    first = _stored(store)
    second = _run(claude_code, store, marks, force=True)
    assert second.action == "unchanged"
    assert _stored(store) == first
    assert "Already in memory" in render_report(second)


def test_an_unforced_rerun_is_held_off_by_the_spacing_rule(
    claude_code: Transcript, store: Store, marks: FileMarks
) -> None:
    """Right after a compression of the same session, the next automatic one waits."""
    assert _run(claude_code, store, marks).action == "saved"
    again = _run(claude_code, store, marks)
    assert again.action == "not_due"
    assert render_report(again).startswith("No compression due: 0 tool calls since the last compression")


def test_a_second_compression_the_same_day_merges_into_the_document(
    claude_code: Transcript, messages: Transcript, store: Store, marks: FileMarks, upto: Upto
) -> None:
    """Morning: the first 26 calls. Afternoon: the whole session. One document holds both, in order."""
    morning = _run(upto(claude_code, 26), store, marks)
    assert morning.action == "saved"
    morning_doc = parse(_stored(store)[0])
    afternoon = _run(messages, store, marks, force=True)
    assert afternoon.action == "updated" and afternoon.new_items > 0
    merged = parse(_stored(store)[0])
    for key in ("decisions", "discoveries", "failures", "files"):
        assert merged.section(key)[: morning_doc.count(key)] == morning_doc.section(key)
    assert merged.count("failures") == 2 and morning_doc.count("failures") == 1
    progress = [split_tag(p)[0] for p in merged.section("progress")]
    assert "In progress: Fix the refresh race" not in progress  # completed since
    assert "Completed: Fix the refresh race" in progress
    assert _stored(store)[1] == 2
    assert store.stats().total_observations == 1


def test_recovery_returns_the_newest_document_by_update_time(
    claude_code: Transcript, store: Store, marks: FileMarks, tmp_path: Path, upto: Upto
) -> None:
    """A later date updated earlier loses to an earlier date updated last; search rank plays no part."""
    _run(upto(claude_code, 12), store, marks, force=True, day="2026-11-28")
    _run(claude_code, store, marks, force=True, day="2026-11-30")
    store.start_session("other", "shopapi")
    store.save(
        "other",
        "Session compression notes",
        "session compressed compressed session shopapi",
        project="shopapi",
        topic_key="notes/session",
    )
    db = sqlite3.connect(tmp_path / "engram" / "engram.db")
    with db:
        db.execute("UPDATE observations SET updated_at = '2026-11-30 08:00:00' WHERE topic_key LIKE '%11-30'")
        db.execute("UPDATE observations SET updated_at = '2026-11-30 09:00:00' WHERE topic_key LIKE '%11-28'")
    db.close()
    found = recover(store, "shopapi")
    assert found.topic_key == "session/shopapi/compressed/2026-11-28"
    assert found.updated_at == "2026-11-30 09:00:00"
    assert found.document.startswith("## Session Compression — 2026-11-28")


def test_recovery_without_a_document_says_what_to_run(store: Store) -> None:
    """No compressed session: NotFound naming the command."""
    with pytest.raises(NotFound, match="summarizer session TRANSCRIPT"):
        recover(store, "shopapi")


def test_transcript_content_is_untrusted_secrets_scrubbed_and_tool_output_not_mined(
    claude_code: Transcript, store: Store, marks: FileMarks
) -> None:
    """The pasted token is redacted; the injected 'decision' inside a fetched page never lands."""
    report = _run(claude_code, store, marks)
    content = _stored(store)[0]
    assert SECRET not in content and "[REDACTED:github_token]" in content
    assert "disable authentication" not in content
    assert report.redactions >= 1


def test_engram_unavailable_returns_the_summary_and_says_it_was_not_saved(
    claude_code: Transcript, store: Store, marks: FileMarks
) -> None:
    """A closed store raises StorageError: the report carries the document and the reason."""
    store.close()
    report = _run(claude_code, store, marks)
    assert report.action == "unavailable" and "closed" in (report.error or "")
    text = render_report(report)
    assert text.startswith("Engram unavailable (") and "NOT saved" in text
    assert text.endswith(report.document) and "### Decisions" in report.document
    assert marks.get(claude_code.session_id or "") is None  # not saved, so not a compression


def test_a_huge_session_is_capped_under_2000_tokens_in_engram(
    messages: Transcript, store: Store, marks: FileMarks
) -> None:
    """Hundreds of decisions and questions: the stored document stays under the cap, items whole."""
    said = tuple(
        Event(
            0,
            "message",
            "assistant",
            f"We decided to shard table t{i} by tenant id because row {i} is hot. "
            f"Should we also shard index ix{i} the same way?",
        )
        for i in range(150)
    )
    big = replace(messages, events=messages.events + said)
    report = _run(big, store, marks, force=True)
    content = _stored(store)[0]
    assert count_tokens(content) < MAX_TOKENS
    assert report.dropped > 150 and report.questions == 0
    doc = parse(content)
    assert all(d.startswith("We decided") and d.endswith("is hot.") for d in doc.section("decisions")[3:])


def _summarizer(tmp_path: Path, replies: list[str]) -> tuple[Summarizer, FakeCompleter]:
    fake = FakeCompleter(list(replies))
    return Summarizer(PromptLibrary(default_prompt_dir({})), completer=fake, model="fake/model"), fake


def test_a_configured_model_writes_the_document_and_tool_call_files_are_kept(
    claude_code: Transcript, store: Store, marks: FileMarks, tmp_path: Path
) -> None:
    """The model's valid answer is used; files and decisions it left out are added from the keyword rules."""
    answer = (
        f"## Session Compression — {DAY}\n### Decisions\n"
        "- Inject a Clock protocol: tests must freeze time\n### Files Modified\n"
        "- `src/auth/tokens.py` — reads the clock once per request\n"
    )
    summarizer, fake = _summarizer(tmp_path, [answer])
    report = _run(claude_code, store, marks, summarizer=summarizer)
    assert len(fake.calls) == 1 and report.source == "llm"
    assert SECRET not in fake.calls[0].user  # scrubbed before it left the process
    doc = parse(_stored(store)[0])
    decisions = doc.section("decisions")
    assert decisions[0] == "Inject a Clock protocol: tests must freeze time (session 5b1f0c8e)"
    assert len(decisions) == 3  # the other two keyword decisions fill the gap; the paraphrased one does not
    assert not any(d.startswith("We decided to inject a Clock") for d in decisions)
    assert doc.section("files")[0] == (
        "`src/auth/tokens.py` — reads the clock once per request (session 5b1f0c8e)"
    )
    assert any(f.startswith("`src/auth/clock.py`") for f in doc.section("files"))


def test_an_invalid_model_answer_falls_back_to_the_keyword_document(
    claude_code: Transcript, store: Store, marks: FileMarks, tmp_path: Path
) -> None:
    """An answer with no document sections fails validation; the offline extraction is saved."""
    summarizer, _ = _summarizer(tmp_path, ["Sure! Here is a summary of the session."])
    report = _run(claude_code, store, marks, summarizer=summarizer)
    assert report.source == "keywords" and report.decisions == 3


def test_an_unwritable_mark_never_fails_a_saved_compression(
    claude_code: Transcript, store: Store, tmp_path: Path
) -> None:
    """The document is in engram; a mark that cannot be written is not an error."""
    blocked = tmp_path / "marks-file"
    blocked.write_text("a file where the marks directory should be")
    report = _run(claude_code, store, FileMarks(blocked / "sessions"))
    assert report.action == "saved" and FileMarks(blocked / "sessions").get("x") is None
