"""A model's document never loses what the keyword document had, and a cut answer is never saved as is."""

from __future__ import annotations

import asyncio

import pytest
from summarizer_engram import Store

from summarizer.core.errors import InvalidAnswer
from summarizer.core.settings import default_prompt_dir
from summarizer.semantic.ports import Completion
from summarizer.semantic.prompts import PromptLibrary
from summarizer.semantic.service import Summarizer
from summarizer.session.document import SECTIONS, SessionDocument, parse, split_tag
from summarizer.session.extract import extract
from summarizer.session.model import check_whole
from summarizer.session.service import FileMarks, SessionReport, compress_session
from summarizer.session.transcript import Transcript
from summarizer.testing import FakeCompleter

DAY = "2026-11-29"


def _run(
    transcript: Transcript, store: Store, marks: FileMarks, answer: str
) -> tuple[SessionReport, SessionDocument]:
    # finish_reason "stop": the provider says the answer is complete, whatever it holds.
    reply = Completion(text=answer, model="fake/model", finish_reason="stop")
    summarizer = Summarizer(
        PromptLibrary(default_prompt_dir({})), completer=FakeCompleter([reply]), model="fake/model"
    )
    report = asyncio.run(
        compress_session(
            transcript,
            project="shopapi",
            date=DAY,
            memory=store,
            marks=marks,
            session_key="k",
            force=True,
            summarizer=summarizer,
        )
    )
    found = store.latest_by_topic(f"session/shopapi/compressed/{DAY}", project="shopapi")
    assert found is not None
    return report, parse(found.content)


def _keyword_facts(transcript: Transcript) -> dict[str, tuple[str, ...]]:
    doc = SessionDocument.from_extraction(DAY, extract(transcript))
    return {key: doc.section(key) for key, _ in SECTIONS if doc.section(key)}


def _saved(doc: SessionDocument, key: str) -> set[str]:
    return {split_tag(item)[0] for item in doc.section(key)}


def test_an_answer_missing_sections_gets_every_keyword_fact_back(
    claude_code: Transcript, store: Store, marks: FileMarks
) -> None:
    """Tests, failures, files, questions and instructions left out: all are merged back."""
    facts = _keyword_facts(claude_code)
    assert {"status", "failures", "instructions", "decisions", "files"} <= set(facts)
    goal, decision = facts["goal"][0], facts["decisions"][-1]
    answer = f"## Session Compression — {DAY}\n### Goal\n- {goal}\n### Decisions\n- {decision}\n"
    report, doc = _run(claude_code, store, marks, answer)
    assert report.source == "llm" and report.fallback_reason is None, report.fallback_reason
    for key, items in facts.items():
        assert set(items) <= _saved(doc, key), key


def test_an_answer_cut_mid_sentence_is_rejected_though_the_provider_said_stop(
    claude_code: Transcript, store: Store, marks: FileMarks
) -> None:
    """'...switch the clock to the' ends mid-sentence: the keyword document is saved, whole."""
    facts = _keyword_facts(claude_code)
    answer = (
        f"## Session Compression — {DAY}\n### Goal\n- {facts['goal'][0]}\n### Decisions\n"
        "- We decided to switch the clock to the"
    )
    report, doc = _run(claude_code, store, marks, answer)
    assert report.source == "keywords" and "mid-sentence" in (report.fallback_reason or "")
    for key, items in facts.items():
        assert set(items) <= _saved(doc, key), key


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        ("## Session Compression — d\n### Decisions\n- Use a `Clock", "backtick"),
        ("## Session Compression — d\n### Decisions\n- Use a Clock (injected", "parenthesis"),
        ("## Session Compression — d\n### Decisions\n- Use a Clock.\n### Next Steps", "empty section"),
        ("## Session Compression — d\n### Decisions\n- Use a Clock, and", "mid-sentence"),
    ],
)
def test_cut_or_unbalanced_answers_are_named(answer: str, why: str) -> None:
    """Each way an answer can stop short has its own reason."""
    with pytest.raises(InvalidAnswer, match=why):
        check_whole(answer)


def test_a_whole_answer_passes() -> None:
    """Items need no final period: a file line or a command is whole as it is."""
    check_whole("## Session Compression — d\n### Files Modified\n- `a.py` — edited (2 edits)\n")


def test_a_subagents_claim_in_the_models_answer_is_not_saved_as_a_decision(
    store: Store, marks: FileMarks
) -> None:
    """The model saw the subagent's 'We decided to rewrite the mailer in Go'; it is not the session's."""
    from summarizer.session.transcript import Event

    transcript = Transcript(
        (
            Event(1, "message", "user", "Fix the flaky mailer test. Do not touch the CI config."),
            Event(2, "message", "subagent", "We decided to rewrite the mailer in Go."),
            Event(3, "message", "assistant", "We decided to pin the SMTP mock to one port."),
        ),
        session_id="s1",
    )
    answer = (
        f"## Session Compression — {DAY}\n### Decisions\n- We decided to rewrite the mailer in Go.\n"
        "- We decided to pin the SMTP mock to one port.\n"
    )
    report, doc = _run(transcript, store, marks, answer)
    assert report.source == "llm"
    assert _saved(doc, "decisions") == {"We decided to pin the SMTP mock to one port."}
