"""Field masks: lookup order, the themis/mnemosyne rules, MEDIUM/LOW stand-ins, several agents."""

from __future__ import annotations

import pytest

from summarizer.phasegate.masks import (
    ALL_FIELDS,
    DEFAULT_FIELDS,
    apply_mask,
    entry_record,
    mask_for,
    masked_entry,
)
from summarizer.phasegate.models import SubtaskSummary


@pytest.mark.parametrize(
    ("src", "dst", "rule"),
    [
        ("hermes", "aphrodite", "hermes -> aphrodite"),  # exact pair first
        ("demeter", "hermes", "demeter -> hermes"),
        ("hermes", "themis", "* -> themis"),  # * -> themis before hermes -> *
        ("themis", "themis", "* -> themis"),  # * -> themis before themis -> *
        ("themis", "mnemosyne", "* -> mnemosyne"),  # * -> mnemosyne before themis -> *
        ("themis", "hermes", "themis -> *"),  # from -> * when no exact or * -> to rule
        ("hephaestus", "demeter", "hephaestus -> *"),
        ("Prometheus", "HERMES", "prometheus -> *"),  # case-insensitive
        ("hermes", None, "hermes -> *"),
        ("zeus", "aphrodite", "default"),
        (None, None, "default"),
    ],
)
def test_lookup_order(src: str | None, dst: str | None, rule: str) -> None:
    """exact (from, to) -> (* -> themis | mnemosyne) -> (from -> *) -> default."""
    assert mask_for(src, dst).rule == rule


def test_default_set_is_the_specs() -> None:
    """{date, agent, files, summary_semantic, tests, status}."""
    assert mask_for("zeus", "zeus").fields == {
        "date",
        "agent",
        "files",
        "summary_semantic",
        "tests",
        "status",
    }
    assert mask_for("hermes", "aphrodite").fields == DEFAULT_FIELDS


FULL = {
    "summary": "Created the refresh_tokens table with a foreign key to users and hashed tokens for rotation",
    "files": ["backend/migrations/0012.py"],
    "from": "demeter",
    "date": "2026-06-20",
    "tests": "12 passed",
    "status": "complete",
    "coverage": "91%",
    "verdict": "APPROVED",
    "critical_issues": 0,
    "blockers": "schema review",
}


def test_themis_keeps_all_fields() -> None:
    """The reviewer gets every field, the full summary included."""
    entry = SubtaskSummary.model_validate(FULL)
    mask, fields = masked_entry(entry, "CRITICAL", ("a.", "b.", "c."), to="themis")
    assert mask.fields == set(ALL_FIELDS)
    assert set(fields) == set(ALL_FIELDS)
    assert fields["summary"] == FULL["summary"]
    assert fields["summary_semantic"] == "a. b. c."


def test_mnemosyne_keeps_date_agent_status_and_60_chars_of_summary() -> None:
    """The archive record is minimal; the summary is cut on a word boundary."""
    entry = SubtaskSummary.model_validate(FULL)
    _, fields = masked_entry(entry, "HIGH", ("a.", "b."), to="mnemosyne")
    assert set(fields) == {"date", "agent", "summary", "status"}
    summary = str(fields["summary"])
    assert len(summary) <= 60 and summary.endswith("…")
    assert FULL["summary"].startswith(summary[:-1])  # a prefix of the original...
    assert FULL["summary"][len(summary) - 1] == " "  # ...ending on a word boundary


def test_themis_to_any_keeps_review_context() -> None:
    """themis -> *: date, agent, verdict, critical_issues, coverage, files."""
    entry = SubtaskSummary.model_validate({**FULL, "from": "themis"})
    _, fields = masked_entry(entry, "HIGH", ("a.", "b."), to="hermes")
    assert set(fields) == {"date", "agent", "verdict", "critical_issues", "coverage", "files"}


def test_medium_and_low_use_the_rendered_line_as_summary_semantic() -> None:
    """No semantic summary below HIGH: the one-line rendering stands in for it."""
    entry = SubtaskSummary.model_validate(FULL)
    record = entry_record(entry, "MEDIUM", ("[Demeter] — Created the table — x.py",))
    assert record["summary_semantic"] == "[Demeter] — Created the table — x.py"
    _, fields = masked_entry(entry, "LOW", ("[Demeter] — x.py",), to="hermes")
    assert fields["summary_semantic"] == "[Demeter] — x.py"
    assert "summary" not in fields


def test_partial_status_carries_the_warning_sign() -> None:
    """A partial entry's status field reads ``⚠️ partial (reason)``."""
    entry = SubtaskSummary.model_validate({**FULL, "status": "partial (waiting on API)"})
    assert entry_record(entry, "MEDIUM", ("x",))["status"] == "⚠️ partial (waiting on API)"


def test_several_next_agents_get_the_union() -> None:
    """themis + mnemosyne: every field, and the summary is not cut (themis needs it whole)."""
    entry = SubtaskSummary.model_validate(FULL)
    mask, fields = masked_entry(entry, "HIGH", ("a.", "b."), to="themis,mnemosyne")
    assert mask.summary_chars is None and fields["summary"] == FULL["summary"]
    mask, _ = masked_entry(entry, "HIGH", ("a.", "b."), to=["aphrodite", "mnemosyne"])
    assert mask.fields == DEFAULT_FIELDS | {"summary"} and mask.summary_chars == 60


def test_apply_mask_drops_absent_fields_and_keeps_order() -> None:
    """Only present fields, in the canonical order."""
    out = apply_mask({"status": "complete", "agent": "hermes", "extra": 1}, mask_for("hermes", "aphrodite"))
    assert list(out) == ["agent", "status"]
