"""What a team's real batches did to a bank: names that broke headings, reviews and finished work.

Each test reproduces a batch that an earlier version accepted and then mishandled.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from summarizer.bank import close_sprint, run_gate
from summarizer.bank.layout import load_state
from summarizer.bank.markdown import BankFormatError
from summarizer.bank.repair import repair_bank
from summarizer.cli import main
from summarizer.core.errors import InputError

from .conftest import DATE, Gate, snapshot, write_jsonl

LOGIN = {
    "summary": "Added POST /api/login endpoint returning 401 on bad password",
    "from_agent": "hermes",
    "files_changed": ["a.py"],
}
LOGOUT = {
    "summary": "Added POST /api/logout endpoint returning 204",
    "from_agent": "hermes",
    "files_changed": ["b.py"],
}
REVIEW = {
    "summary": "Reviewed the login endpoint: token expiry is unchecked",
    "from_agent": "themis",
    "to_agent": "hermes",
    "verdict": "request_changes",
    "critical_issues": 2,
    "coverage": "81%",
}


def _gate_cli(bank: Path, entries: Path, *extra: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["gate", "--bank", str(bank), "--date", DATE, *extra, str(entries)])
    return result.exit_code, result.stderr


@pytest.mark.parametrize("agent", ["her\nmes", "hermes #2", "hermes [x]", "a|b", "her\x07mes", "→ x"])
def test_an_agent_name_that_could_break_a_heading_is_refused_before_the_bank_exists(
    tmp_path: Path, agent: str
) -> None:
    """Every run exits 2 with one line; the bank is never created, so no later run can fail on it."""
    entries = write_jsonl(tmp_path / "e.jsonl", [LOGIN, LOGOUT, {**LOGIN, "from_agent": agent}])
    for _ in range(3):
        code, err = _gate_cli(tmp_path / "bank", entries, "--phase", "1")
        assert code == 2
        assert err.count("\n") == 1 and "entry 3" in err
    assert not (tmp_path / "bank").exists()


def test_a_next_agent_is_held_to_the_same_rule(gate: Gate) -> None:
    """to_agent names render in entry headers too."""
    with pytest.raises(InputError, match="to_agent 'aphrodite #2'"):
        gate("1", [{**LOGIN, "to_agent": ["aphrodite #2"]}])


def test_names_with_spaces_dots_and_dashes_still_work(gate: Gate, bank: Path) -> None:
    """The rule refuses only what can collide: 'code reviewer', 'qa-bot.v2' are fine."""
    gate("1", [{**LOGIN, "from_agent": "Code Reviewer", "to_agent": ["qa-bot.v2"]}])
    gate("1", [{**LOGIN, "from_agent": "Code Reviewer", "to_agent": ["qa-bot.v2"]}])
    assert "### 2026-06-20 — 1: code reviewer" in (bank / "02-progress-log.md").read_text()


def _duplicate_section(bank: Path) -> int:
    """What a name with a newline left behind: a progress-log section written twice."""
    path = bank / "02-progress-log.md"
    lines = path.read_text().split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("### "))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("### ")), len(lines))
    section = [line for line in lines[start:end] if line]
    path.write_text("\n".join([*lines, "", *section]).rstrip("\n") + "\n")
    written = path.read_text().split("\n")
    return [n for n, text in enumerate(written, start=1) if text == section[0]][1]


def _duplicate_entry(bank: Path) -> None:
    """What 'hermes #2' next to hermes's second subtask left behind: one key stored twice."""
    path = bank / "01-active-context.md"
    lines = path.read_text().split("\n")
    start = next(i for i, line in enumerate(lines) if "· hermes #2 ·" in line)
    end = start + 1
    while lines[end].startswith("  - "):
        end += 1
    path.write_text("\n".join([*lines[:end], *lines[start:end], *lines[end:]]))


def test_repair_removes_the_later_copies_says_where_and_archives_them(gate: Gate, bank: Path) -> None:
    """The strict load names the line and the fix; --repair fixes it, then gates run again."""
    gate("1", [LOGIN, LOGOUT])
    line = _duplicate_section(bank)
    _duplicate_entry(bank)
    with pytest.raises(BankFormatError, match=r"01-active-context.md:\d+: entry key .* gate --repair"):
        load_state(bank)
    report = repair_bank(bank, date=DATE)
    assert len(report.changes) == 2
    assert any(c.startswith(f"02-progress-log.md:{line}: removed a section") for c in report.changes)
    assert any("01-active-context.md:" in c and "'hermes', '#2')" in c for c in report.changes)
    archive = (bank / "_notes/archive/2026-06-compressed-entries.md").read_text()
    assert "hermes #2" in archive and "removed by gate --repair" in archive
    assert load_state(bank).active.entries()[1].who == "hermes #2"
    before = snapshot(bank)
    gate("1", [LOGIN, LOGOUT])
    assert snapshot(bank) == before  # the repaired bank is what the gate would have written
    assert repair_bank(bank, date=DATE).lines() == ["Nothing to repair: the bank loads cleanly."]


def test_repair_on_the_command_line_and_an_unrepairable_line(tmp_path: Path, gate: Gate, bank: Path) -> None:
    """Exit 0 with the changes; what it cannot fix is the strict load's one line (exit 1)."""
    gate("1", [LOGIN, LOGOUT])
    _duplicate_entry(bank)
    result = CliRunner().invoke(main, ["gate", "--repair", "--bank", str(bank), "--date", DATE, "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["written"] == [
        "_notes/archive/2026-06-compressed-entries.md",
        "01-active-context.md",
    ]
    (bank / "_bank-state.json").write_text("{not json")
    result = CliRunner().invoke(main, ["gate", "--repair", "--bank", str(bank)])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"summarizer: {bank}/_bank-state.json:1: invalid JSON")


def test_review_fields_reach_the_zz_row_and_the_verdict_table(gate: Gate, bank: Path) -> None:
    """themis -> * keeps critical_issues and coverage: the one-line row shows them and the subject."""
    gate("1", [{**REVIEW, "summary": "Reviewed typo fix in README", "files_changed": ["README.md"]}])
    zz = (bank / ".tmp/ZZ-phase1-context.md").read_text()
    row = next(line for line in zz.splitlines() if line.startswith("| 2026-06-20 | Themis"))
    assert "Reviewed typo fix in README (critical issues: 2, coverage: 81%)" in row
    assert row.endswith("| REQUEST CHANGES |")  # themis -> * does not keep the status
    active = (bank / "01-active-context.md").read_text()
    assert (
        "| themis | REQUEST CHANGES | Reviewed typo fix in README (critical issues: 2, coverage: 81%) |"
        in active
    )


def test_work_unblocked_in_a_later_phase_leaves_unfinished_and_the_sprint_list(
    gate: Gate, bank: Path
) -> None:
    """Phase 1 blocked, phase 2 complete with its blockers: the bank's unblocked link resolves it."""
    blocked = {
        "summary": "Login page",
        "from_agent": "aphrodite",
        "status": "blocked",
        "blockers": "auth API",
    }
    other = {"summary": "Session store", "from_agent": "demeter", "status": "blocked", "blockers": "redis"}
    gate("1", [LOGIN, blocked, other])
    done = {"summary": "Built the login page; was blocked by the auth API", "from_agent": "aphrodite"}
    gate("2", [{**done, "blockers": "auth API", "files_changed": ["web/Login.tsx"]}], date="2026-06-21")
    assert "| unblocked |" in (bank / "_xref/index.md").read_text()
    unfinished = (bank / "01-active-context.md").read_text().split("## Review Verdicts")[0]
    assert "aphrodite" not in unfinished and "| demeter | blocked | redis |" in unfinished
    unresolved = close_sprint(bank, date="2026-06-22").unresolved
    assert [u.split(" (")[0] for u in unresolved] == ["blocked entry 2026-06-20 — 1: demeter"]


def test_a_review_that_held_its_entry_back_shows_its_verdict_not_a_default_status(
    gate: Gate, bank: Path
) -> None:
    """A NEEDS_REVISION review with no status of its own is not 'complete' under Unfinished."""
    gate("1", [{**REVIEW, "verdict": "NEEDS_REVISION"}])
    unfinished = (bank / "01-active-context.md").read_text().split("## Review Verdicts")[0]
    assert "| themis | REQUEST CHANGES |" in unfinished
    assert "complete" not in unfinished


def test_an_approved_review_artifact_is_not_appended_under_a_request_changes_entry(
    gate: Gate, bank: Path
) -> None:
    """The REVIEW line goes to the sections it agrees with, else to one named after the artifact."""
    (bank / ".tmp").mkdir(parents=True)
    (bank / ".tmp/REVIEW-phase1.md").write_text("# Review\n\n**Verdict:** APPROVED\n\nCritical issues: 0\n")
    gate("1", [REVIEW])
    log = (bank / "02-progress-log.md").read_text()
    sections = {part.split("\n")[0]: part for part in log.split("\n### ")[1:]}
    assert "**Review:**" not in sections["2026-06-20 — 1: themis"]
    assert "**Review:** APPROVED" in sections["2026-06-20 — 1: themis [REVIEW-phase1.md]"]


def test_run_gate_refuses_a_bad_name_from_python_too(bank: Path) -> None:
    """The rule lives in the request, so the Python API cannot bypass it."""
    from summarizer.bank import GateRequest
    from summarizer.phasegate.models import SubtaskSummary

    with pytest.raises(InputError):
        run_gate(
            bank, GateRequest(phase="1", entries=(SubtaskSummary(summary="x", from_agent="a\nb"),), date=DATE)
        )


def test_a_summary_over_the_limit_is_scrubbed_cut_warned_and_its_full_text_archived(
    gate: Gate, bank: Path
) -> None:
    """One flag line; the bank sees the cut text; the archive holds the whole text, scrubbed."""
    tail = "ghp_1234567890abcdefghijABCDEFGHIJ123456 is the last word."
    summary = "Added POST /api/login endpoint. " + "filler words here " * 400 + tail
    report = gate("1", [{**LOGIN, "summary": summary}], max_summary_bytes=2048)
    (flag,) = report.flags
    assert flag.startswith("entry 1 (hermes, phase 1): summary of 7 KB cut to 2 KB")
    archived = flag.rsplit(" ", 1)[1]
    text = (bank / archived).read_text()
    assert "filler words here " * 400 in text and "[REDACTED:github_token] is the last word." in text
    assert "ghp_" not in "".join(p.read_text() for p in bank.rglob("*") if p.is_file())
    assert report.redactions == 1
    before = snapshot(bank)
    assert gate("1", [{**LOGIN, "summary": summary}], max_summary_bytes=2048).unchanged == 1
    assert snapshot(bank) == before


def test_a_summary_within_the_limit_is_untouched(gate: Gate, bank: Path) -> None:
    """No flag and no archive below the limit (256 KB by default)."""
    report = gate("1", [{**LOGIN, "summary": "Added POST /api/login endpoint. " + "words " * 2000}])
    assert report.flags == () and not (bank / "_notes").exists()


def test_the_size_limit_on_the_command_line(tmp_path: Path) -> None:
    """--max-summary-kb sets it; the warning is one FLAG line of the report."""
    entries = write_jsonl(tmp_path / "e.jsonl", [{**LOGIN, "summary": "x " * 4000}])
    code, _ = _gate_cli(tmp_path / "bank", entries, "--phase", "1", "--max-summary-kb", "2")
    assert code == 0
    assert len(list((tmp_path / "bank/_notes/archive/summaries").iterdir())) == 1
