"""The cold-path reader agrees with the pydantic model on everything it accepts."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from summarizer.core.errors import InputError
from summarizer.phasegate.entry_rules import LightEntry, light_entry
from summarizer.phasegate.models import SubtaskSummary
from summarizer.phasegate.service import entry_from_mapping, score_one

DATASET = Path(__file__).parents[2] / "evals" / "datasets" / "phase_gate.jsonl"
KEYS = [*SubtaskSummary.model_fields, "from", "to", "agent", "files", "id", "bogus"]
SPACE = st.sampled_from([" ", "\t", "\n", "\xa0", "\u2003", "\x1c", "\x1f", "\u3000", "\ufeff", ""])
WORD = st.sampled_from(
    [
        "Hermes",
        "aphrodite",
        "auth",
        "a.py",
        "b.py",
        "partial",
        "partial (waiting on API)",
        "In Progress",
        "done: shipped",
        "blocked - db",
        "complete",
        "wip",
        "shipped",
        "2026-01-02",
        "2026-1-2",
        "٢٠٢٦-٠١-٠٢",
        "subtask",
        "SUBTASK",
        "a.py, b.py",
        "x,,y",
        "",
        "\x1b[31mred",
        "é",
    ]
)
TEXT = st.builds(lambda a, w, b: a + w + b, SPACE, WORD, SPACE) | st.text(max_size=12)
SCALAR = st.none() | st.booleans() | st.integers(-3, 2**64) | st.floats(allow_nan=True) | TEXT
VALUE = SCALAR | st.lists(SCALAR, max_size=3) | st.tuples(TEXT) | st.dictionaries(TEXT, SCALAR, max_size=2)


def model_fields_of(data: dict[str, Any]) -> dict[str, Any] | None:
    try:
        return SubtaskSummary.model_validate(data).model_dump()
    except (ValueError, TypeError):
        return None


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(KEYS), VALUE, max_size=8), TEXT)
def test_what_the_cold_path_accepts_the_model_reads_identically(data: dict[str, Any], summary: str) -> None:
    data.setdefault("summary", summary)
    light = light_entry(data)
    if light is not None:
        assert dataclasses.asdict(light) == model_fields_of(data)


@settings(max_examples=500, deadline=None)
@given(
    st.fixed_dictionaries(
        {"summary": st.sampled_from(["Added JWT auth", "fixed typo", "Migrated users table"])},
        optional={
            "files_changed": st.lists(st.sampled_from(["a.py", "web/B.tsx"]), max_size=6),
            "status": st.sampled_from(["complete", "partial (api)", "In Progress", "done"]),
            "from": st.sampled_from(["hermes", "Demeter"]),
            "to_agent": st.sampled_from(["aphrodite", ["themis", "zeus"]]),
            "phase": st.sampled_from([1, "2a"]),
            "date": st.just("2026-11-29"),
            "critical_issues": st.integers(0, 5),
            "tests": st.sampled_from(["12 passed", ["a", "b"]]),
        },
    )
)
def test_plain_entries_take_the_cold_path(data: dict[str, Any]) -> None:
    """The shapes agents write are not left to pydantic (that would make the cold path pointless)."""
    light = light_entry(data)
    assert light is not None
    assert dataclasses.asdict(light) == model_fields_of(data)


def test_every_dataset_entry_takes_the_cold_path_and_scores_the_same() -> None:
    rows = [json.loads(line)["subtask_summary"] for line in DATASET.read_text().splitlines() if line.strip()]
    assert len(rows) >= 10
    for row in rows:
        light = light_entry(row)
        assert light is not None, row
        assert score_one(light) == score_one(entry_from_mapping(row))


@pytest.mark.parametrize(
    "data",
    [
        {"summary": "x", "bogus": 1},  # an unknown key: the model names it
        {"summary": "  "},  # empty after stripping
        {"files": ["a.py"]},  # no summary
        {"summary": "x", "status": "shipped"},  # an unknown status word
        {"summary": "x", "critical_issues": True},  # bool is not a count
        {"summary": "x", "critical_issues": "3"},  # the model coerces; only it decides
        {"summary": "x", "date": "٢٠٢٦-٠١-٠٢"},  # non-ASCII digits
        {"summary": "\x1cx"},  # whitespace to Python, not to pydantic-core
        {"summary": "x", "to_agent": 5},
        ["summary", "x"],
    ],
)
def test_doubtful_input_is_left_to_the_model(data: Any) -> None:
    assert light_entry(data) is None


def test_light_entry_has_exactly_the_model_fields() -> None:
    assert [f.name for f in dataclasses.fields(LightEntry)] == list(SubtaskSummary.model_fields)
    assert LightEntry(summary="x").agent == SubtaskSummary(summary="x").agent == "unknown"


def test_a_non_list_to_agent_is_a_one_field_error() -> None:
    """It used to escape pydantic as a TypeError traceback."""
    with pytest.raises(InputError, match=r"to_agent.*expected an agent name or a list of names"):
        entry_from_mapping({"summary": "x", "to_agent": 5})
