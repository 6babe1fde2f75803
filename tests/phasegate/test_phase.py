"""The service the CLI and MCP call: parse, scrub, score, render, plan."""

from __future__ import annotations

import json

import pytest

from summarizer.core.errors import InputError
from summarizer.phasegate.models import SubtaskSummary
from summarizer.phasegate.service import (
    batch_plan,
    compress_one,
    entries_from_text,
    entry_from_flags,
    entry_from_mapping,
    score_one,
    stats_over,
)

SECRET = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def test_compress_scrubs_before_anything_else() -> None:
    """The secret appears nowhere in the result; the count and type do."""
    entry = entry_from_flags(
        f"Added JWT auth endpoint; CI token {SECRET} was rotated.", from_agent="hermes", to_agent="themis"
    )
    result = compress_one(entry)
    dumped = json.dumps(result.as_dict())
    assert SECRET not in dumped
    assert result.as_dict()["redactions"] == {"count": 1, "types": ["github_token"]}
    assert result.as_dict()["source"] == "template"
    assert "[REDACTED:github_token]" in result.fields["summary"]  # type: ignore[operator]


def test_redacted_placeholders_do_not_change_the_score() -> None:
    """A secret (and its placeholder) adds no keyword: score and compress agree."""
    plain = entry_from_flags("Fixed a typo in the docs.")
    leaky = entry_from_flags(f"Fixed a typo in the docs. {SECRET}")
    assert score_one(plain).score == score_one(leaky).score == compress_one(leaky).score.score


def test_protected_entries_are_not_compressed() -> None:
    """in_progress: lines are the (scrubbed) summary as given; the flag says why."""
    result = compress_one(entry_from_flags(f"Half done {SECRET}", status="in_progress"))
    assert not result.compressed
    assert result.lines == ("Half done [REDACTED:github_token]",)
    assert "in_progress" in result.as_dict()["flags"][0]


def test_entries_from_text_accepts_object_array_and_jsonl() -> None:
    """One object, an array, or JSONL with blank lines."""
    assert len(entries_from_text('{"summary": "a"}', "x")) == 1
    assert len(entries_from_text('[{"summary": "a"}, {"summary": "b"}]', "x")) == 2
    assert len(entries_from_text('{"summary": "a"}\n\n{"summary": "b"}\n', "x")) == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"summary": "a"}\n{"summary": ', "invalid JSON in f.jsonl line 2"),
        ('{\n  "summary":\n}', "invalid JSON in f.jsonl at line 3 column 1"),
        (
            '{"summary": "a", "files_chaged": []}',
            "unknown key 'files_chaged' in f.jsonl; did you mean 'files_changed'?",
        ),
        ('{"files": ["a.py"]}', "f.jsonl has no 'summary'"),
        ('{"summary": "a", "status": "shipped-ish"}', "unknown status 'shipped-ish'"),
        ('{"summary": "a", "date": "June 1"}', "field 'date'"),
        ("   \n", "f.jsonl is empty"),
        ("[1, 2]", "f.jsonl[0] must be a JSON object"),
    ],
)
def test_bad_input_is_one_line_naming_the_problem(text: str, message: str) -> None:
    """InputError (exit 2 at the CLI) with a single line."""
    with pytest.raises(InputError) as caught:
        entries_from_text(text, "f.jsonl")
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_unknown_key_message_lists_allowed_keys() -> None:
    """The message says what is allowed, aliases included."""
    with pytest.raises(InputError, match=r"allowed keys: summary, files_changed, .*from, to, agent, files"):
        entry_from_mapping({"summary": "x", "zzz": 1}, "entry.json")


def jsonl(*entries: dict[str, object]) -> list[SubtaskSummary]:
    return entries_from_text("\n".join(json.dumps(e) for e in entries), "batch.jsonl")


def test_batch_plan_groups_by_phase_and_carries_over() -> None:
    """Two phases in first-seen order; carryover flows; protected entries are held out."""
    entries = jsonl(
        {"summary": "New schema for orders with migration", "phase": "1", "from": "demeter", "to": "hermes"},
        {"summary": "Fixed a typo", "phase": "1", "files": ["README.md"]},
        {"summary": "Added auth endpoint", "phase": "2", "from": "hermes", "to": "aphrodite"},
        {"summary": "Still going", "phase": "2", "status": "in_progress"},
    )
    result = batch_plan(entries)
    one, two = result.plan.phases
    assert (one.phase, two.phase) == ("1", "2")
    assert one.used == 3.5 and one.carryover == 1 and two.carry_in == 1
    data = result.as_dict()
    assert data["not_compressed"][0]["id"] == "#4"
    assert data["phases"][1]["entries"][0]["lines"]  # rendered lines for the plan
    assert data["phases"][0]["entries"][1]["lines"] == ["[unknown] — README.md"]


def test_stats_counts_bands_lines_and_redactions() -> None:
    """Counts per band, budget-lines used and redactions by type."""
    entries = jsonl(
        {"summary": "Changed the schema", "from": "hermes", "to": "demeter"},
        {"summary": f"Fixed a typo {SECRET}"},
        {"summary": "Half", "status": "partial"},
        {"summary": "Later", "status": "blocked"},
    )
    stats = stats_over(entries).as_dict()
    assert stats["bands"] == {"CRITICAL": 1, "HIGH": 0, "MEDIUM": 1, "LOW": 2}
    assert stats["not_compressed"] == 1 and stats["partial"] == 1
    assert stats["lines_used"] == 3 + 1 + 0.5
    assert stats["redactions"] == {"count": 1, "types": {"github_token": 1}}
