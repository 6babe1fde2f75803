"""Real phases: several subtasks per agent, a remembered phase plan, and a readable active context."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from summarizer.bank.layout import load_state

from .conftest import DATE, JWT, TABLE, TYPO, Gate, snapshot

FIVE = [
    {"summary": s, "files_changed": [f"backend/{n}.py"], "from_agent": "hermes", "to_agent": "aphrodite"}
    for n, s in (
        ("login", "Added POST /api/auth/login; returns 401 on a bad password."),
        ("refresh", "Added POST /api/auth/refresh with token rotation."),
        ("logout", "Added POST /api/auth/logout that revokes the refresh token."),
        ("me", "Added GET /api/auth/me returning the current user."),
        ("helpers", "Renamed helper functions in utils"),
    )
]


def _rows(bank: Path) -> list[tuple[str, str, str]]:
    return [(e.agent, e.subtask, e.digest) for e in load_state(bank).active.entries()]


def test_five_subtasks_of_one_agent_give_five_rows_and_rerun_byte_identical(gate: Gate, bank: Path) -> None:
    """One agent, five subtasks in a phase: five rows (#1..#5), five log sections; re-run: no byte changes."""
    report = gate("2", FIVE)
    assert report.compressed == 5
    assert [(a, t) for a, t, _ in _rows(bank)] == [("hermes", f"#{n}") for n in range(1, 6)]
    log = (bank / "02-progress-log.md").read_text()
    assert f"### {DATE} — 2: hermes\n" in log and f"### {DATE} — 2: hermes #5\n" in log
    before = snapshot(bank)
    again = gate("2", FIVE)
    assert (again.compressed, again.unchanged, again.written) == (0, 5, ())
    assert snapshot(bank) == before


def test_an_edited_subtask_replaces_its_own_row_in_place(gate: Gate, bank: Path) -> None:
    """The third summary edited: only row #3 changes, at its place; the others keep their bytes."""
    gate("2", FIVE)
    before = _rows(bank)
    edited = [dict(e) for e in FIVE]
    edited[2]["summary"] = "Added POST /api/auth/logout; it now also clears the session cookie."
    report = gate("2", edited)
    assert (report.replaced, report.unchanged) == (1, 4)
    after = _rows(bank)
    assert [r[:2] for r in after] == [r[:2] for r in before]
    assert [a == b for a, b in zip(before, after, strict=True)] == [True, True, False, True, True]
    assert "clears the session cookie" in (bank / "01-active-context.md").read_text()


def test_a_rerun_without_one_entry_removes_exactly_its_row(gate: Gate, bank: Path) -> None:
    """Dropping the 3rd entry removes row #3 only (archived in full); #4 and #5 keep their keys."""
    gate("2", FIVE)
    before = _rows(bank)
    report = gate("2", [*FIVE[:2], *FIVE[3:]])
    assert report.removed == (f"{DATE} — 2: hermes #3",) and report.compressed == 0
    assert _rows(bank) == [r for r in before if r[1] != "#3"]
    assert "logout" not in (bank / "01-active-context.md").read_text()
    assert f"### {DATE} — 2: hermes #3" not in (bank / "02-progress-log.md").read_text()
    archive = (bank / "_notes/archive/2026-06-compressed-entries.md").read_text()
    assert "dropped: its batch no longer lists it" in archive and "logout" in archive


def test_reordering_a_batch_changes_nothing_and_other_agents_are_untouched(gate: Gate, bank: Path) -> None:
    """Rows are found again by content hash; a batch never touches the rows of agents it does not list."""
    gate("2", [*FIVE, TABLE])
    before = snapshot(bank)
    gate("2", list(reversed(FIVE)))
    assert snapshot(bank) == before


def test_explicit_ids_key_the_rows(gate: Gate, bank: Path) -> None:
    """``id``/``subtask`` fields name the rows: shown as ``hermes [login]``; editing one replaces it."""
    entries: list[dict[str, Any]] = [{**FIVE[0], "id": "login"}, {**FIVE[1], "subtask": "refresh"}]
    gate("2", entries)
    assert [(a, t) for a, t, _ in _rows(bank)] == [("hermes", "login"), ("hermes", "refresh")]
    text = (bank / "01-active-context.md").read_text()
    assert "· hermes [login] → aphrodite ·" in text
    report = gate(
        "2", [{**entries[0], "summary": "Added POST /api/auth/login with 429 on abuse."}, entries[1]]
    )
    assert (report.replaced, report.unchanged) == (1, 1)


def test_the_phase_plan_survives_three_gates_without_the_flag(gate: Gate, bank: Path) -> None:
    """Recorded by the first gate (4 phases, 25 lines); phases 2 and 3 and a re-run of 2 reuse it."""
    r1 = gate("1", [TABLE], feature="auth", estimated_phases=4)
    r2 = gate("2", [JWT], feature="auth")
    r3 = gate("3", [TYPO], feature="auth")
    r2_again = gate("2", [JWT], feature="auth")
    assert [b.per_phase for r in (r1, r2, r3, r2_again) for b in r.budgets] == [25, 25, 25, 25]
    assert [n.source for r in (r1, r2, r3) for n in r.plans] == ["recorded", "bank", "bank"]
    assert r2_again.written == ()
    assert "Phase plan (auth): 4 estimated phases, 25 lines per phase (from the bank)" in r3.lines()


def test_a_different_estimate_is_an_explicit_change_with_old_and_new_budget(gate: Gate, bank: Path) -> None:
    """--estimated-phases 6 after 4: the report names the change (4 → 6, 25 → 16 lines); later gates use 6."""
    gate("1", [TABLE], feature="auth", estimated_phases=4)
    report = gate("2", [JWT], feature="auth", estimated_phases=6)
    assert report.plans[0].source == "changed"
    assert (
        "Phase plan (auth) CHANGED at phase 2: 4 → 6 estimated phases, per-phase budget 25 → 16 lines"
        in report.lines()
    )
    assert gate("3", [TYPO], feature="auth").budgets[0].per_phase == 16


def test_a_gate_with_nothing_new_says_so_plainly(gate: Gate) -> None:
    """A re-run whose entries are all in the bank: the second line says nothing was compressed and why."""
    gate("1", [JWT, TYPO])
    lines = gate("1", [JWT, TYPO]).lines()
    assert (
        lines[1]
        == "Nothing to compress: 2 already in the bank unchanged; no entry of Completed Phases changed."
    )


def test_reviews_and_unfinished_work_reach_the_zz_and_the_active_context(gate: Gate, bank: Path) -> None:
    """A REQUEST CHANGES review (with its reviewer) and an in_progress entry are in the ZZ, read first,
    and in the active context; the approved review's verdict shows on its row too."""
    review = {"summary": "Reviewed the login endpoint.", "from_agent": "themis", "verdict": "request changes"}
    approved = {"summary": "Reviewed the table.", "from_agent": "themis", "id": "t", "verdict": "approved"}
    wip = {
        "summary": "Rate limiting on login",
        "from_agent": "hermes",
        "status": "in_progress (waiting on redis)",
    }
    gate("2", [JWT, TABLE, review, approved, wip])
    zz = (bank / ".tmp/ZZ-phase2-context.md").read_text()
    assert "| 2 | hermes | in_progress | waiting on redis |" in zz
    assert "| themis | REQUEST CHANGES | Reviewed the login endpoint. |" in zz
    assert "| themis [t] | APPROVED | Reviewed the table. |" in zz
    assert zz.index("## Unfinished") < zz.index("## Review Verdicts") < zz.index("## Priority Entries")
    active = (bank / "01-active-context.md").read_text()
    assert active.index("## Unfinished") < active.index("## Review Verdicts") < active.index("## Completed")
    assert "| default | 2 | 2026-06-20 | hermes | in_progress | waiting on redis |" in active
    assert "| default | 2 | 2026-06-20 | themis | REQUEST CHANGES | Reviewed the login endpoint. |" in active
    assert "· themis · complete · REQUEST CHANGES" in active


def test_unfinished_work_leaves_the_list_when_the_agent_reports_it_done(gate: Gate, bank: Path) -> None:
    """The next batch of the same agent and phase without the in_progress entry clears its row."""
    wip = {"summary": "Rate limiting on login", "from_agent": "hermes", "status": "in_progress"}
    gate("2", [JWT, wip])
    assert len(load_state(bank).active.unfinished) == 1
    gate("2", [JWT, {**wip, "status": "complete"}])
    assert load_state(bank).active.unfinished == []


def test_unfinished_and_reviews_survive_the_c7_trim(gate: Gate, bank: Path) -> None:
    """Over 100 budget-lines the trim removes LOW entries, never the Unfinished or Review Verdicts rows."""
    wip = {
        "summary": "Rate limiting on login",
        "from_agent": "hermes",
        "status": "blocked",
        "blockers": "redis",
    }
    review = {"summary": "Reviewed typo fixes.", "from_agent": "themis", "verdict": "request changes"}
    gate("1", [wip, review, *({**TYPO, "from_agent": f"l{i}"} for i in range(230))], estimated_phases=1)
    state = load_state(bank)
    assert [(u.agent, u.reason) for u in state.active.unfinished] == [("hermes", "redis")]
    assert [r.verdict for r in state.active.reviews] == ["REQUEST CHANGES"]
    zz = (bank / ".tmp/ZZ-phase1-context.md").read_text()
    assert "| 1 | hermes | blocked | redis |" in zz


def test_a_snake_case_table_is_a_new_table_with_its_cross_reference(gate: Gate, bank: Path) -> None:
    """ "Created the refresh_tokens table" is a new table: CRITICAL, and M0001 names it."""
    entry = {
        "summary": "Created the refresh_tokens table with a foreign key to users.",
        "files_changed": ["backend/models/token.py"],
        "from_agent": "demeter",
        "to_agent": "hermes",
    }
    report = gate("1", [entry])
    assert (report.critical, report.cross_refs_added) == (1, 1)
    assert "| M0001 | migration | refresh_tokens table |" in (bank / "_xref/index.md").read_text()


def test_sprint_close_reports_the_unfinished_work_as_unresolved(gate: Gate, bank: Path) -> None:
    """--close-sprint lists every Unfinished row as unresolved (the rows stay in the active context)."""
    from summarizer.bank import close_sprint

    gate("2", [JWT, {"summary": "Rate limiting", "from_agent": "hermes", "status": "blocked (redis)"}])
    closed = close_sprint(bank, date=DATE)
    assert closed.unresolved == (f"blocked entry {DATE} — 2: hermes (redis)",)
    assert len(load_state(bank).active.unfinished) == 1
