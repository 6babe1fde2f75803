"""The generated sessions hold the bar: every current instruction whole, nothing stale or foreign."""

from __future__ import annotations

import pytest

from summarizer.session.document import SessionDocument, render
from summarizer.session.extract import extract
from summarizer.session.transcript import parse_transcript
from tests.session.conversations import generate, score, write

SHAPES = ("claude_code", "opencode", "codex")


def _document(text: str) -> str:
    return render(SessionDocument.from_extraction("2026-12-01", extract(parse_transcript(text))))


@pytest.mark.parametrize("shape", SHAPES)
def test_generated_sessions_keep_every_fact_and_nothing_foreign(shape: str) -> None:
    """Eight conversations per shape: the figures docs/session.md quotes, at a smaller size."""
    for seed in range(8):
        turns, facts = generate(seed, shape)
        counts = score(_document(write(turns, facts)), facts)
        assert counts["current_whole"] == counts["current"], facts.case
        assert counts["superseded_shown"] == 0 and counts["subagent_kept"] == 0, facts.case
        assert counts["other_foreign_kept"] == 0, facts.case
        assert counts["unanswered_verbatim"] == counts["unanswered"], facts.case
        assert counts["answered_marked_open"] == 0, facts.case
        assert counts["failing_kept"] == counts["failing"] and counts["failing_rest_counted"] == 1, facts.case
        assert counts["counts_right"] == 1, facts.case
        assert counts["deleted_shown"] == counts["deleted"] and counts["renamed_shown"] == counts["renamed"]


def test_the_scorer_counts_the_mistakes_it_exists_to_catch() -> None:
    """A document that keeps the stale instruction and the subagent's claim is scored as wrong."""
    _, facts = generate(1, "claude_code")
    stale, claim = facts.retired[0], next(s for kind, s in facts.foreign if kind == "subagent")
    bad = f"## Session Compression — d\n### Instructions\n- {stale}\n### Decisions\n- {claim}\n"
    counts = score(bad, facts)
    assert counts["superseded_shown"] == 1 and counts["subagent_kept"] == 1
    assert counts["current_whole"] == 0 and counts["unanswered_verbatim"] == 0
