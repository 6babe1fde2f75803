"""SubtaskSummary at the boundary: aliases, status normalisation, unknown keys."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from summarizer.phasegate.models import SubtaskSummary, normalise_status


@pytest.mark.parametrize(
    ("raw", "status", "note"),
    [
        ("partial (waiting on API)", "partial", "waiting on API"),
        ("In Progress", "in_progress", None),
        ("in-progress", "in_progress", None),
        ("done", "complete", None),
        ("Complete: all green", "complete", "all green"),
        ("blocked — infra", "blocked", "infra"),
        ("needs revision", "needs_revision", None),
        ("PARTIAL(x)", "partial", "x"),
    ],
)
def test_status_strings_are_normalised(raw: str, status: str, note: str | None) -> None:
    """Free-form statuses map to one of the seven; the reason is kept as a note."""
    assert normalise_status(raw) == (status, note)


def test_unknown_status_is_an_error_listing_the_choices() -> None:
    """A status we cannot read is not silently 'complete'."""
    with pytest.raises(ValueError, match="use one of complete, partial"):
        normalise_status("shipped-ish")


def test_aliases_from_to_agent_files() -> None:
    """The common batch shape (from/to/agent) and a comma-separated files string are accepted."""
    e = SubtaskSummary.model_validate(
        {"summary": "x", "from": "Hermes", "to": "Aphrodite, Demeter", "files": "a.py, b.py"}
    )
    assert (e.from_agent, e.to_agent, e.files_changed) == (
        "hermes",
        ("aphrodite", "demeter"),
        ("a.py", "b.py"),
    )
    assert SubtaskSummary.model_validate({"summary": "x", "agent": "demeter"}).agent == "demeter"


def test_unknown_keys_are_errors_naming_the_key() -> None:
    """A misspelt files_chaged must not score as zero files."""
    with pytest.raises(ValidationError, match="files_chaged"):
        SubtaskSummary.model_validate({"summary": "x", "files_chaged": ["a.py"]})


def test_summary_is_required_and_the_model_is_frozen() -> None:
    """No summary, no entry; a validated entry cannot be mutated."""
    with pytest.raises(ValidationError, match="summary"):
        SubtaskSummary.model_validate({"files": ["a.py"]})
    e = SubtaskSummary(summary="x")
    with pytest.raises(ValidationError):
        e.summary = "y"  # type: ignore[misc]
