"""The gate flow: confirmation, idempotency, replacement in place, preflight, escalation, scrubbing."""

from __future__ import annotations

from pathlib import Path

import pytest

from summarizer.bank.entry import content_hash
from summarizer.bank.layout import load_state
from summarizer.core.errors import EscalationRequired, InputError

from .conftest import DATE, JWT, TABLE, TYPO, Gate, snapshot


def test_confirmation_line_counts_bands_and_cross_refs(gate: Gate) -> None:
    """The confirmation line: N compressed, M CRITICAL, P HIGH, K cross-refs (the table is M0001)."""
    report = gate("1", [TABLE, JWT, TYPO])
    assert (
        report.confirmation()
        == "Compression complete: 3 entries compressed (1 CRITICAL, 1 HIGH), 1 cross-refs added"
    )


def test_all_bank_files_are_written(gate: Gate, bank: Path) -> None:
    """A first gate creates the active context, the log, the index, the counters and the ZZ file."""
    gate("1", [TABLE, JWT])
    assert set(snapshot(bank)) == {
        "01-active-context.md",
        "02-progress-log.md",
        "_xref/index.md",
        "_xref/_next_id.json",
        "_bank-state.json",
        ".tmp/ZZ-phase1-context.md",
    }
    log = (bank / "02-progress-log.md").read_text()
    assert f"### {DATE} — 1: hermes" in log and f"### {DATE} — 1: demeter" in log


def test_rerunning_the_same_gate_leaves_every_byte_identical(gate: Gate, bank: Path) -> None:
    """Same key and hash: skip; nothing is rewritten, so every file keeps its bytes and mtime."""
    gate("1", [TABLE, JWT, TYPO])
    before = snapshot(bank)
    mtimes = {p: p.stat().st_mtime_ns for p in bank.rglob("*.md")}
    report = gate("1", [TABLE, JWT, TYPO])
    assert snapshot(bank) == before
    assert {p: p.stat().st_mtime_ns for p in bank.rglob("*.md")} == mtimes
    assert (report.compressed, report.unchanged, report.cross_refs_added, report.written) == (0, 3, 0, ())


def test_a_changed_summary_replaces_its_entry_in_place(gate: Gate, bank: Path) -> None:
    """Same (date, phase, agent), new hash: the entry is replaced where it was, never duplicated."""
    gate("1", [TABLE, JWT, TYPO])
    changed = {
        **JWT,
        "summary": "Added JWT auth endpoint POST /api/auth/login; returns 403 on a locked account.",
    }
    report = gate("1", [TABLE, changed, TYPO])
    assert (report.replaced, report.unchanged) == (1, 2)
    ctx = load_state(bank).active
    agents = [e.agent for e in ctx.entries()]
    assert agents == ["demeter", "hermes", "prometheus"]
    hermes = next(e for e in ctx.entries() if e.agent == "hermes")
    assert hermes.digest == content_hash(DATE, "1", "hermes", changed["summary"])
    assert "403" in " ".join(hermes.lines)
    log = (bank / "02-progress-log.md").read_text()
    assert log.count(f"### {DATE} — 1: hermes") == 1 and "403" in log and "401" not in log


def test_content_hash_is_sha256_of_canonical_json() -> None:
    """First 16 hex of sha256 over the canonical JSON of [date, phase, agent, summary]."""
    import hashlib

    expected = hashlib.sha256(b'["2026-06-20","1","hermes","x \\"y\\""]').hexdigest()[:16]
    assert content_hash("2026-06-20", "1", "hermes", 'x "y"') == expected


def test_in_progress_blocked_escalated_are_flagged_not_written(gate: Gate, bank: Path) -> None:
    """The preflight never compresses in_progress / blocked / escalated entries: flagged, and listed
    under Unfinished (agent, status, reason), never in Completed Phases."""
    entries = [
        {**TYPO, "from_agent": a, "status": s}
        for a, s in (("hermes", "in_progress"), ("demeter", "blocked"), ("aphrodite", "escalated"))
    ]
    report = gate("1", [JWT, *entries])
    assert report.compressed == 1 and report.skipped == 3 and report.unfinished == 3
    assert len([f for f in report.flags if "not compressed" in f]) == 3
    state = load_state(bank)
    assert [e.agent for e in state.active.entries()] == ["hermes"]
    assert sorted((u.agent, u.status) for u in state.active.unfinished) == [
        ("aphrodite", "escalated"),
        ("demeter", "blocked"),
        ("hermes", "in_progress"),
    ]


def test_partial_is_compressed_with_a_warning_and_at_least_medium(gate: Gate, bank: Path) -> None:
    """partial (waiting on API): compressed, marked ⚠️, banded at least MEDIUM."""
    report = gate("1", [{**TYPO, "status": "partial (waiting on API)"}])
    assert report.compressed == 1 and any("partial" in f for f in report.flags)
    entry = load_state(bank).active.entries()[0]
    assert (entry.band, entry.status) == ("MEDIUM", "partial")
    assert "⚠️ partial" in (bank / "01-active-context.md").read_text()


def test_critical_lines_over_100_escalate_and_write_nothing(gate: Gate, bank: Path) -> None:
    """34 CRITICAL entries need 102 lines: escalation with its three options; no file changes."""
    gate("0", [TYPO])
    before = snapshot(bank)
    many = [
        {**TABLE, "from_agent": f"agent{i}", "summary": f"Created table_{i} via migration {TABLE['summary']}"}
        for i in range(34)
    ]
    with pytest.raises(EscalationRequired, match=r"require 102 lines but budget is 100.*split phase"):
        gate("1", many)
    assert snapshot(bank) == before


def test_more_than_five_critical_entries_raise_the_overflow_flag(gate: Gate) -> None:
    """>5 CRITICAL in a phase: 'Phase N has M > 5 CRITICAL entries. Budget risk.'"""
    many = [{**TABLE, "from_agent": f"agent{i}"} for i in range(6)]
    report = gate("1", many)
    assert "Phase 1 has 6 > 5 CRITICAL entries. Budget risk." in report.flags
    assert any("never reduced" in f for f in report.flags)  # 18 lines > the 12-line phase budget


def test_secrets_never_reach_any_bank_file(gate: Gate, bank: Path) -> None:
    """Layer 2: the scrubber runs on every promoted text; the report counts redactions."""
    secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    entry = {**JWT, "summary": JWT["summary"] + f" Token used in CI was {secret}.", "tests": f"ok {secret}"}
    report = gate("1", [entry])
    assert report.redactions >= 2
    for name, data in snapshot(bank).items():
        assert secret.encode() not in data, name


def test_layer1_promotes_no_raw_fields(gate: Gate, bank: Path) -> None:
    """Only structured fields and the rendered lines are stored: not the summary's later sentences."""
    entry = {**TYPO, "summary": "Fixed typo in README. Stack trace: Traceback File x.py line 3 in main"}
    gate("1", [entry])
    for name, data in snapshot(bank).items():
        assert b"Traceback" not in data, name


def test_entries_without_a_date_take_the_request_date(gate: Gate, bank: Path) -> None:
    """No date: the gate's date (the CLI passes --date or today's UTC date)."""
    gate("1", [TYPO], date="2026-07-01")
    assert "### 2026-07-01 — 1: prometheus" in (bank / "02-progress-log.md").read_text()


def test_a_repeated_explicit_id_in_one_batch_is_bad_input(gate: Gate, bank: Path) -> None:
    """Two entries claiming one (date, phase, agent, id) cannot both be stored: nothing written."""
    with pytest.raises(InputError, match="repeats the id 'a'"):
        gate("1", [{**TYPO, "id": "a"}, {**TYPO, "summary": "Another", "id": "a"}])
    assert snapshot(bank) == {}


def test_adr_notes_are_never_touched(gate: Gate, bank: Path) -> None:
    """ADR notes under _notes/ keep their bytes and mtime through gates, trims and sprint close."""
    from summarizer.bank import close_sprint

    adr = bank / "_notes" / "ADR-auth-strategy.md"
    adr.parent.mkdir(parents=True)
    adr.write_text("# ADR: refresh token rotation\n")
    stamp = adr.stat().st_mtime_ns
    many = [{**TYPO, "from_agent": f"a{i}"} for i in range(230)]
    gate("1", many, estimated_phases=1)
    close_sprint(bank, date=DATE)
    assert adr.read_text() == "# ADR: refresh token rotation\n" and adr.stat().st_mtime_ns == stamp


def test_parallel_phases_in_one_batch_get_one_zz_each(gate: Gate, bank: Path) -> None:
    """Entries carrying phases 2a and 2b: separate budgets, ledger rows and ZZ files."""
    report = gate("2", [{**JWT, "phase": "2a"}, {**TABLE, "phase": "2b"}])
    assert report.zz_files == (".tmp/ZZ-phase2a-context.md", ".tmp/ZZ-phase2b-context.md")
    assert [b.phase for b in report.budgets] == ["2a", "2b"]
    assert "# Phase 2a → Phase 3 Context" in (bank / ".tmp/ZZ-phase2a-context.md").read_text()


def test_a_batch_with_nothing_to_compress_says_so_and_lists_the_unfinished_work(
    gate: Gate, bank: Path
) -> None:
    """Only protected entries: nothing compressed, said plainly; the entry is listed under Unfinished."""
    report = gate("1", [{**TYPO, "status": "in_progress (half the files)"}])
    assert report.compressed == 0 and report.skipped == 1
    assert report.lines()[1] == (
        "Nothing to compress: 1 not complete (listed under Unfinished); no entry of Completed Phases changed."
    )
    text = (bank / "01-active-context.md").read_text()
    assert "| default | 1 | 2026-06-20 | prometheus | in_progress | half the files |" in text
    assert "### Phase" not in text


def test_learnings_pending_is_reported(gate: Gate, bank: Path, tmp_path: Path) -> None:
    """The wisdom bridge check: a non-empty learnings.md for the feature is reported."""
    learnings = tmp_path / "learnings"
    assert gate("1", [JWT], feature="auth", learnings=learnings).learnings_pending is False
    (learnings / "auth").mkdir(parents=True)
    (learnings / "auth" / "learnings.md").write_text("- x\n")
    assert gate("2", [TYPO], feature="auth", learnings=learnings).learnings_pending is True
