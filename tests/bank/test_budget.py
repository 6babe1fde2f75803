"""Budgets across phases (carryover persisted in the bank) and the C7 trim."""

from __future__ import annotations

from pathlib import Path

import pytest

from summarizer.bank.layout import load_state
from summarizer.bank.ledger import carryover, per_phase_budget
from summarizer.core.errors import EscalationRequired

from .conftest import JWT, TABLE, TYPO, Gate, snapshot

MEDIUM = {"summary": "Renamed helper functions in utils", "files_changed": ["a.py"], "from_agent": "hermes"}


def _critical(agent: str) -> dict[str, object]:
    return {**TABLE, "from_agent": agent}


def _high(agent: str) -> dict[str, object]:
    return {**JWT, "from_agent": agent, "to_agent": "themis"}


def test_budget_formulas() -> None:
    """per-phase = max(5, floor(100 / N)); carryover = floor(0.2 x unused), nothing when over."""
    assert [per_phase_budget(n) for n in (1, 3, 8, 20, 40)] == [100, 33, 12, 5, 5]
    assert [carryover(12, 4), carryover(13, 5.5), carryover(13, 14), carryover(12, 11.5)] == [1, 1, 0, 0]


def test_three_phase_feature_end_to_end_with_carryover(gate: Gate, bank: Path) -> None:
    """8 planned phases (12 lines each). P1 uses 4 -> carries 1 (not 8). P2 gets 13, its HIGH
    entry is expanded, uses 5.5 -> carries 1. P3 gets 13, 4 CRITICAL + 2 HIGH need 14: HIGH stay 1-line,
    CRITICAL is never reduced, the overrun is flagged and nothing carries."""
    r1 = gate("1", [_critical("demeter"), MEDIUM], feature="auth")
    r2 = gate("2", [_critical("hermes"), _high("aphrodite"), TYPO], feature="auth")
    r3 = gate(
        "3", [*(_critical(a) for a in ("c1", "c2", "c3", "c4")), _high("h1"), _high("h2")], feature="auth"
    )
    figures = [
        (b.per_phase, b.carry_in, b.allocated, b.used, b.carryover) for r in (r1, r2, r3) for b in r.budgets
    ]
    assert figures == [(12, 0, 12, 4.0, 1), (12, 1, 13, 5.5, 1), (12, 1, 13, 14.0, 0)]
    assert any("uses 14 budget-lines of its 13" in f for f in r3.flags)
    ctx = load_state(bank).active
    costs = {(e.phase, e.agent): e.cost for e in ctx.entries()}
    assert costs[("2", "aphrodite")] == 2.0 and costs[("3", "h1")] == costs[("3", "h2")] == 1.0
    assert all(costs[("3", a)] == 3.0 for a in ("c1", "c2", "c3", "c4"))
    assert "| auth | 2 | 8 | 12 | 1 | 13 | 5.5 | 1 |" in (bank / "01-active-context.md").read_text()
    zz2 = (bank / ".tmp/ZZ-phase2-context.md").read_text()
    assert "- Allocated: 13 lines\n- Used: 5.5 lines\n- Carried: 1 lines" in zz2


def test_the_active_context_of_the_three_phase_feature_has_no_marker_lines(gate: Gate, bank: Path) -> None:
    """Every line of 01-active-context.md is one a person would write: no HTML comments, no JSON."""
    gate("1", [_critical("demeter"), MEDIUM], feature="auth")
    gate("2", [_critical("hermes"), _high("aphrodite"), TYPO], feature="auth")
    gate("3", [*(_critical(a) for a in ("c1", "c2", "c3", "c4")), _high("h1"), _high("h2")], feature="auth")
    text = (bank / "01-active-context.md").read_text()
    for line in text.splitlines():
        assert "<!--" not in line and "-->" not in line and '{"' not in line, line
    assert len(load_state(bank).active.entries()) == 11  # every entry is still recognised


def test_rerunning_an_earlier_phase_keeps_its_recorded_carry_in(gate: Gate, bank: Path) -> None:
    """The carry-in is fixed the first time a phase is gated, so a re-run is byte-identical."""
    gate("1", [MEDIUM], feature="f")
    gate("2", [TYPO], feature="f")
    before = snapshot(bank)
    report = gate("2", [TYPO], feature="f")
    assert report.budgets[0].carry_in == 2 and snapshot(bank) == before  # floor(0.2 x 11)


def test_a_second_gate_of_a_phase_budgets_around_stored_entries(gate: Gate, bank: Path) -> None:
    """Entries already stored keep their cost; a later agent's HIGH entry gets what is left."""
    gate("1", [*(_critical(a) for a in ("a", "b", "c"))])  # 9 of 12
    report = gate("1", [_high("h1"), _high("h2")])  # 3 left: both 1-line minimum, one upgraded
    assert report.budgets[0].used == 12.0
    ctx = load_state(bank).active
    assert sorted(e.cost for e in ctx.entries() if e.band == "HIGH") == [1.0, 2.0]


def test_c7_trim_archives_first_then_removes_low_and_cuts_medium(gate: Gate, bank: Path) -> None:
    """Over 100 budget-lines: LOW removed (lowest score, oldest first), then MEDIUM cut to filename-only;
    every trimmed entry is in the archive in full, and the log line is reported."""
    gate("1", [{**MEDIUM, "from_agent": f"m{i}"} for i in range(60)], estimated_phases=1)
    report = gate("2", [{**TYPO, "from_agent": f"l{i}"} for i in range(100)], estimated_phases=1)
    archive = bank / "_notes/archive/2026-06-compressed-entries.md"
    assert report.trim is not None
    assert report.trim.startswith(
        "C7 trim: removed 20 low-priority entries, archived to _notes/archive/2026-06-compressed-entries.md"
    )
    ctx = load_state(bank).active
    assert sum(e.cost for e in ctx.entries()) == 100
    assert sum(e.band == "LOW" for e in ctx.entries()) == 80
    assert not any(e.trimmed for e in ctx.entries())  # removing LOW was enough: MEDIUM untouched
    archived = archive.read_text()
    assert archived.count("**LOW 0.13**") == 20
    # equal scores and dates: the smallest key goes first
    kept = sorted(e.agent for e in ctx.entries() if e.band == "LOW")
    assert "l0" not in kept


def test_c7_cuts_medium_when_low_is_not_enough_and_never_touches_high(gate: Gate, bank: Path) -> None:
    """120 MEDIUM lines: 40 cut to 0.5 (filename-only) to reach 100; the originals go to the archive."""
    gate("1", [{**MEDIUM, "from_agent": f"m{i}"} for i in range(120)], estimated_phases=1)
    ctx = load_state(bank).active
    cut = [e for e in ctx.entries() if e.trimmed]
    assert len(cut) == 40 and all(
        e.cost == 0.5 and e.lines == (f"[{e.agent.capitalize()}] — a.py",) for e in cut
    )
    assert sum(e.cost for e in ctx.entries()) == 100
    archived = (bank / "_notes/archive/2026-06-compressed-entries.md").read_text()
    assert archived.count("**MEDIUM 0.38**") == 40 and "cut to filename-only" in archived


def test_critical_and_high_over_the_cap_are_reported_not_dropped(gate: Gate, bank: Path) -> None:
    """30 CRITICAL (90 lines) then 10 expanded HIGH (20): 110 lines, C7 cannot trim them: flagged, kept."""
    gate("1", [_critical(f"c{i}") for i in range(30)], estimated_phases=1)
    report = gate("2", [_high(f"h{i}") for i in range(10)], estimated_phases=1)
    assert any("never dropped" in f for f in report.flags)
    ctx = load_state(bank).active
    assert len(ctx.entries()) == 40 and sum(e.cost for e in ctx.entries()) == 110


def test_critical_lines_over_the_section_total_escalate(gate: Gate, bank: Path) -> None:
    """CRITICAL alone above 100 lines across phases: the gate adding them escalates, nothing written;
    re-running an accepted gate still passes."""
    gate("1", [_critical(f"a{i}") for i in range(20)], estimated_phases=1)
    before = snapshot(bank)
    with pytest.raises(EscalationRequired, match="require 105 lines but budget is 100"):
        gate("2", [_critical(f"b{i}") for i in range(15)], estimated_phases=1)
    assert snapshot(bank) == before
    gate("1", [_critical(f"a{i}") for i in range(20)], estimated_phases=1)
    assert snapshot(bank) == before
