"""A bank written by the previous version (markers in the markdown) migrates on its first gate."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from summarizer.bank import GateRequest, run_gate
from summarizer.bank.layout import load_state
from summarizer.cli.gate import parse_entries

from .conftest import snapshot

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def old_bank(tmp_path: Path) -> Path:
    """A copy of ``fixtures/v1_bank`` (written by the previous gate, see fixtures/README.md)."""
    return Path(shutil.copytree(FIXTURES / "v1_bank", tmp_path / "bank"))


def _gate(bank: Path, phase: str, date: str) -> None:
    batch = FIXTURES / "v1_bank_batches" / f"phase{phase}.jsonl"
    entries = parse_entries(batch.read_text(), source=str(batch))
    run_gate(bank, GateRequest(phase=phase, entries=entries, date=date, feature="auth-jwt"))


def test_old_rows_load_with_their_keys_and_hashes(old_bank: Path) -> None:
    """Markers are read: six entries, subtask #1 each, the hashes the old gate stored."""
    entries = load_state(old_bank).active.entries()
    assert [(e.phase, e.agent, e.subtask) for e in entries] == [
        ("1", "demeter", "#1"),
        ("1", "hephaestus", "#1"),
        ("1", "prometheus", "#1"),
        ("2", "hermes", "#1"),
        ("2", "themis", "#1"),
        ("2", "aphrodite", "#1"),
    ]
    assert entries[0].digest == "78d7372d3f22b8a8"


def test_the_first_gate_migrates_and_the_rerun_is_byte_identical(old_bank: Path) -> None:
    """Re-gating the phases moves the markers to the sidecar (nothing is re-compressed: same hashes),
    the markdown keeps every entry; gating them again changes no byte."""
    _gate(old_bank, "2", "2026-06-21")
    first = snapshot(old_bank)
    _gate(old_bank, "1", "2026-06-20")  # only its ZZ file changes: the new hand-off layout
    migrated = snapshot(old_bank)
    assert {n for n in migrated if migrated[n] != first.get(n)} == {".tmp/ZZ-phase1-context.md"}
    for name in ("01-active-context.md", "02-progress-log.md"):
        assert "<!--" not in migrated[name].decode(), name
    assert "_bank-state.json" in migrated
    state = load_state(old_bank)
    assert len(state.active.entries()) == 6 and len([s for s in state.log.sections if s.digest]) == 6
    assert [r.estimated_phases for r in state.active.ledger] == [4, 4]  # the recorded plan, no flag given
    _gate(old_bank, "2", "2026-06-21")
    _gate(old_bank, "1", "2026-06-20")
    assert snapshot(old_bank) == migrated


def test_migration_keeps_the_visible_text_and_adds_the_verdict(old_bank: Path) -> None:
    """The entries read as before (without markers); the Themis review now shows its verdict."""
    before = (old_bank / "01-active-context.md").read_text()
    _gate(old_bank, "2", "2026-06-21")
    after = (old_bank / "01-active-context.md").read_text()
    assert (
        re.sub(r" <!-- bank:.*? -->", "", before)
        .split("## Completed Phases")[1]
        .replace("· themis → hermes · complete", "· themis → hermes · complete · APPROVED")
        == after.split("## Completed Phases")[1]
    )
    assert "| auth-jwt | 2 | 2026-06-21 | themis | APPROVED |" in after
