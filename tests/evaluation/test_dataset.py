"""Datasets: the shipped files are valid and big enough; bad files fail with the line to fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from summarizer.core.errors import InputError, NotFound
from summarizer.evaluation.dataset import PhaseGateCase, SessionCase, ToolOutputCase, case_hash, load_dataset

AGENTS = {"hermes", "aphrodite", "demeter", "themis", "hephaestus", "prometheus", "mnemosyne"}


def test_shipped_phase_gate_cases_cover_the_agent_pairs(datasets_dir: Path) -> None:
    """At least 40 cases, each with facts, across every agent of the pantheon."""
    ds = load_dataset(datasets_dir / "phase_gate.jsonl")
    cases = [c for c in ds.cases if isinstance(c, PhaseGateCase)]
    assert len(cases) == len(ds.cases) >= 40
    assert all(c.facts for c in cases)
    seen = {c.subtask_summary.from_agent for c in cases} | {c.next_agent for c in cases}
    assert seen >= AGENTS
    kinds = {f.kind for c in cases for f in c.facts}
    assert {"endpoint", "status", "table", "column", "gotcha"} <= kinds


def test_shipped_sessions_inline_their_transcripts(datasets_dir: Path) -> None:
    """At least 30 sessions; transcript files are read and must-recover facts are given."""
    ds = load_dataset(datasets_dir / "session.jsonl")
    cases = [c for c in ds.cases if isinstance(c, SessionCase)]
    assert len(cases) >= 30
    for case in cases:
        assert case.transcript and case.transcript.count("\n") >= 5
        assert {f.kind for f in case.facts} & {"decision", "failure", "file"}
    kinds = {f.kind for c in cases for f in c.facts}
    assert kinds >= {"goal", "instruction", "next_step", "decision", "failure", "file", "question"}


def test_shipped_tool_output_cases_point_at_evaldata_folders(datasets_dir: Path) -> None:
    """Every evaldata folder is a case, relative to a root given at run time."""
    ds = load_dataset(datasets_dir / "tool_output.jsonl")
    assert all(isinstance(c, ToolOutputCase) and not Path(c.folder).is_absolute() for c in ds.cases)
    assert {c.format for c in ds.cases} == {"gen", "loghub"}


def test_a_bad_line_names_the_file_line_and_field(tmp_path: Path) -> None:
    """The error says where to fix it."""
    path = tmp_path / "bad.jsonl"
    good = {"id": "a", "kind": "phase_gate", "subtask_summary": {"summary": "x"}}
    bad = {"id": "b", "kind": "phase_gate", "subtask_summary": {"summary": "x", "files_chaged": []}}
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad.jsonl:2: subtask_summary.*files_chaged"):
        load_dataset(path)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json\n", "invalid JSON"),
        ('{"id": "a", "kind": "session", "transcript": "x"}\n' * 2, "duplicate case id 'a'"),
        ('{"id": "a", "kind": "session"}\n', "needs 'transcript' or 'transcript_file'"),
        ("\n", "has no cases"),
    ],
)
def test_malformed_datasets_are_input_errors(tmp_path: Path, content: str, message: str) -> None:
    """Malformed JSON, duplicates, missing transcripts and empty files are refused clearly."""
    path = tmp_path / "d.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        load_dataset(path)


def test_a_missing_dataset_is_not_found(tmp_path: Path) -> None:
    """NotFound names the path."""
    with pytest.raises(NotFound, match=r"nope\.jsonl"):
        load_dataset(tmp_path / "nope.jsonl")


def test_case_hash_changes_with_the_transcript_file(tmp_path: Path) -> None:
    """Editing a transcript file changes its case's hash (so its cells re-run)."""
    (tmp_path / "t.jsonl").write_text('{"role": "user", "content": "hi"}\n', encoding="utf-8")
    path = tmp_path / "d.jsonl"
    path.write_text('{"id": "s", "kind": "session", "transcript_file": "t.jsonl"}\n', encoding="utf-8")
    before = case_hash(load_dataset(path).cases[0])
    (tmp_path / "t.jsonl").write_text('{"role": "user", "content": "hello"}\n', encoding="utf-8")
    assert case_hash(load_dataset(path).cases[0]) != before


@pytest.mark.parametrize("name", ["phase_gate", "session"])
def test_every_shipped_fact_is_recoverable_from_its_input(datasets_dir: Path, name: str) -> None:
    """A fact absent from the input could only be recalled by inventing it: the dataset forbids that."""
    from summarizer.evaluation.metrics import matches
    from summarizer.evaluation.resolve import resolve_all

    cases = resolve_all([load_dataset(datasets_dir / f"{name}.jsonl")], None)
    absent = [(c.id, f.value) for c in cases for f in c.facts if not matches(f, c.source)]
    assert absent == []
