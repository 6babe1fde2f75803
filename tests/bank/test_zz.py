"""The ZZ hand-off artifact: the documented format, masks per downstream agent, state-driven content."""

from __future__ import annotations

from pathlib import Path

from summarizer.bank.zz import next_phase_label

from .conftest import JWT, TABLE, TYPO, Gate


def _zz(bank: Path, phase: str = "1") -> str:
    return (bank / ".tmp" / f"ZZ-phase{phase}-context.md").read_text()


def test_zz_follows_the_seed_layout(gate: Gate, bank: Path) -> None:
    """Heading, From/To, Budget block, CRITICAL expanded, HIGH 2-line, STANDARD table, cross-references."""
    gate("1", [TABLE, JWT, TYPO])
    text = _zz(bank)
    order = [
        "# Phase 1 → Phase 2 Context",
        "**From:** @demeter, @hermes, @prometheus (Phase 1)",
        "**To:** @aphrodite, @hermes (Phase 2)",
        "## Budget\n- Allocated: 12 lines\n- Used: 5.5 lines\n- Carried: 1 lines",
        "## Priority Entries",
        "### CRITICAL (expanded)",
        "**Agent:** Demeter | **Score:** 0.82",
        "**What changed:** Created refresh_tokens table",
        "**Gotcha:** Must run before the auth endpoint ships.",
        "### HIGH (2-line)",
        "**Agent:** Hermes | **Score:** 0.74",
        "**To next agent:** Aphrodite",
        "### STANDARD (1-line)",
        "| Date | Agent | Summary | Status |",
        "| 2026-06-20 | Prometheus | LOW: [Prometheus] — README.md | complete |",
        "## Cross-References",
        "| M0001 | migration | refresh_tokens table | backend/migrations/0012_refresh_tokens.py |",
    ]
    positions = [text.index(part) for part in order]
    assert positions == sorted(positions)


def test_zz_for_themis_keeps_every_field_and_for_mnemosyne_only_the_minimum(gate: Gate, bank: Path) -> None:
    """* -> themis: coverage and verdict appear; * -> mnemosyne: 60-char summary, no files or tests."""
    full = {**JWT, "to_agent": "themis", "coverage": "91%", "verdict": "APPROVED"}
    gate("1", [full])
    text = _zz(bank)
    assert "**Coverage:** 91%" in text and "**Verdict:** APPROVED" in text and "**Files:**" in text
    gate("2", [{**JWT, "to_agent": "mnemosyne"}])
    text = _zz(bank, "2")
    assert "**Files:**" not in text and "**Tests:**" not in text and "**What changed:**" not in text
    summary = next(line for line in text.splitlines() if line.startswith("**Summary:**"))
    assert len(summary.removeprefix("**Summary:** ")) <= 61 and summary.endswith("…")


def test_a_second_gate_of_the_same_phase_keeps_both_agents_in_the_zz(gate: Gate, bank: Path) -> None:
    """The ZZ is rendered from the bank's state for the phase, not from the last batch alone."""
    gate("1", [TABLE])
    gate("1", [JWT])
    text = _zz(bank)
    assert "**Agent:** Demeter" in text and "**Agent:** Hermes" in text


def test_next_phase_label() -> None:
    """2 -> 3, parallel 2a -> 3, non-numeric -> next."""
    assert [next_phase_label(p) for p in ("2", "2a", "10", "beta")] == ["3", "3", "11", "next"]
