"""The .tmp/ artifacts at the gate, sprint close and the wisdom bridge."""

from __future__ import annotations

from pathlib import Path

import pytest

from summarizer.bank import close_sprint, injection_block
from summarizer.core.errors import NotFound

from .conftest import DATE, JWT, TYPO, Gate


def _tmp(bank: Path, name: str, text: str) -> Path:
    path = bank / ".tmp" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_impl_and_approved_review_are_archived_and_deleted(gate: Gate, bank: Path) -> None:
    """C2/C3: an Impl line in the agent's section, a **Review:** line, a Decision Links row; then deleted."""
    impl = _tmp(bank, "IMPL-phase1-hermes.md", "# IMPL\nraw stdout that must not be promoted\n")
    review = _tmp(
        bank,
        "REVIEW-phase1.md",
        "# Review\nVerdict: APPROVED\nCritical issues: 0\nCoverage: 87%\n"
        "## Decision\nUse refresh token rotation instead of opaque tokens, see _notes/ADR-auth.md\n",
    )
    report = gate("1", [JWT])
    assert not impl.exists() and not review.exists()
    assert report.deleted == (".tmp/IMPL-phase1-hermes.md", ".tmp/REVIEW-phase1.md")
    log = (bank / "02-progress-log.md").read_text()
    assert "- Impl: IMPL-phase1-hermes.md archived" in log
    assert "**Review:** APPROVED — REVIEW-phase1.md (critical issues: 0, coverage: 87%)" in log
    assert "raw stdout" not in log
    index = (bank / "_xref/index.md").read_text()
    assert (
        "| D0001 | ADR | Use refresh token rotation instead of opaque tokens, see _notes/ADR-auth.md |"
        in index
    )


def test_review_lines_are_not_repeated_on_rerun(gate: Gate, bank: Path) -> None:
    """A **Review:** line already in the section is skipped."""
    _tmp(bank, "REVIEW-phase1.md", "Verdict: APPROVED\n")
    gate("1", [JWT])
    _tmp(bank, "REVIEW-phase1.md", "Verdict: APPROVED\n")
    gate("1", [JWT])
    assert (bank / "02-progress-log.md").read_text().count("**Review:**") == 1


@pytest.mark.parametrize("verdict", ["NEEDS_REVISION", "FAILED", "(pending)"])
def test_reviews_not_approved_stay_and_are_flagged(gate: Gate, bank: Path, verdict: str) -> None:
    """REVIEW with NEEDS_REVISION / FAILED (or no verdict): skipped, left in .tmp/, flagged."""
    review = _tmp(bank, "REVIEW-phase1.md", f"Verdict: {verdict}\n")
    report = gate("1", [JWT])
    assert review.exists() and any("REVIEW-phase1.md" in f for f in report.flags)


def test_disc_rules(gate: Gate, bank: Path) -> None:
    """DISC: REQUEST CHANGES flagged and kept; DISCARD deleted unarchived; approved archived and deleted."""
    changes = _tmp(bank, "DISC-phase1-a.md", "User: REQUEST CHANGES\n")
    discard = _tmp(bank, "DISC-phase1-b.md", "User: DISCARD\n")
    approved = _tmp(bank, "DISC-phase1-c.md", "User: APPROVED\n")
    report = gate("1", [JWT])
    assert changes.exists() and not discard.exists() and not approved.exists()
    assert any("REQUEST CHANGES" in f for f in report.flags)
    log = (bank / "02-progress-log.md").read_text()
    assert "DISC-phase1-c.md approved" in log and "DISC-phase1-b.md" not in log


def test_unrecognised_artifacts_and_other_phases_are_left_alone(gate: Gate, bank: Path) -> None:
    """Unknown files are flagged and kept; another phase's IMPL is not this gate's business."""
    unknown = _tmp(bank, "notes.txt", "x")
    other = _tmp(bank, "IMPL-phase2-hermes.md", "x")
    report = gate("1", [JWT])
    assert unknown.exists() and other.exists()
    assert any("unrecognised .tmp/ artifact 'notes.txt'" in f for f in report.flags)
    assert not any("IMPL-phase2" in f for f in report.flags)


def test_plan_is_archived_only_at_the_final_phase(gate: Gate, bank: Path) -> None:
    """C4: the active PLAN stays; with --final it becomes a ## Plans row and leaves .tmp/."""
    plan = _tmp(bank, "PLAN-auth.md", "# Plan\n")
    other = _tmp(bank, "PLAN-billing.md", "# Plan\n")
    gate("1", [JWT], feature="auth")
    assert plan.exists()
    gate("2", [TYPO], feature="auth", final=True)
    assert not plan.exists() and other.exists()  # another feature's plan is not this gate's
    assert f"| {DATE} | auth | PLAN-auth.md | complete |" in (bank / "01-active-context.md").read_text()


def test_zz_files_survive_gates_and_go_at_sprint_close(gate: Gate, bank: Path, tmp_path: Path) -> None:
    """Gates never delete ZZ files; sprint close removes them, archives xref + learnings, flags leftovers."""
    learnings = tmp_path / "learnings"
    (learnings / "auth").mkdir(parents=True)
    (learnings / "auth" / "learnings.md").write_text("- Rotate refresh tokens on every use\n")
    gate("1", [JWT], feature="auth")
    gate("2", [{**TYPO, "status": "partial"}], feature="auth")
    _tmp(bank, "REVIEW-phase9.md", "Verdict: FAILED\n")
    assert (bank / ".tmp/ZZ-phase1-context.md").exists()
    report = close_sprint(bank, date=DATE, learnings=learnings)
    assert report.zz_removed == ("ZZ-phase1-context.md", "ZZ-phase2-context.md")
    assert not list((bank / ".tmp").glob("ZZ-*"))
    assert not (learnings / "auth" / "learnings.md").exists()
    assert "Rotate refresh tokens" in (bank / "_notes/archive/2026-06-learnings.md").read_text()
    assert "Sprint close 2026-06-20" in (bank / "_notes/archive/2026-06-xref-index.md").read_text()
    assert any("REVIEW-phase9.md" in u for u in report.unresolved)
    assert any("partial entry" in u for u in report.unresolved)
    assert (bank / "_xref/index.md").exists()  # IDs survive the sprint boundary


def test_injection_block_has_learnings_and_zz(gate: Gate, bank: Path, tmp_path: Path) -> None:
    """The wisdom bridge: learnings (or '(none recorded)') then the ZZ content, under their headings."""
    learnings = tmp_path / "learnings"
    gate("1", [JWT], feature="auth")
    block = injection_block(bank, "1", feature="auth", learnings=learnings)
    assert block.startswith(
        "## Previous Wave Learnings\n(none recorded)\n\n## Compressed Context (Phase 1 → Phase 2)\n"
    )
    assert "# Phase 1 → Phase 2 Context" in block and block.endswith(
        "Apply these learnings and context to your implementation.\n"
    )
    (learnings / "auth").mkdir(parents=True)
    (learnings / "auth" / "learnings.md").write_text("Use httpOnly cookies.\n")
    assert "## Previous Wave Learnings\nUse httpOnly cookies.\n" in injection_block(
        bank, "1", feature="auth", learnings=learnings
    )
    with pytest.raises(NotFound, match="no ZZ artifact for phase '7'"):
        injection_block(bank, "7")
