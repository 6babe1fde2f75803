"""Cross-references: entity rules, dedupe, counters, ID reuse, decision links."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from summarizer.bank.xref import parse_xref
from summarizer.core.errors import StorageError

from .conftest import TABLE, Gate, snapshot


def _crit(summary: str, agent: str = "hermes", files: list[str] | None = None) -> dict[str, object]:
    # "schema migration" keywords make it CRITICAL whatever else it says
    return {
        "summary": f"Schema migration: {summary}",
        "files_changed": files or ["backend/api/routes.py"],
        "from_agent": agent,
        "to_agent": "aphrodite",
    }


def _index(bank: Path):  # type: ignore[no-untyped-def]
    ids = bank / "_xref/_next_id.json"
    return parse_xref(
        (bank / "_xref/index.md").read_text(),
        ids.read_text() if ids.exists() else None,
        path="i",
        ids_path="n",
    )


def test_endpoints_need_a_method_and_path_or_an_api_path(gate: Gate, bank: Path) -> None:
    """POST /auth/login and /v1/users are endpoints; the bare words delete and route create none."""
    gate("1", [_crit("Added POST /auth/login and /v1/users; delete the old route handler.")])
    names = [(e.ref, e.type, e.name) for e in _index(bank).entities if e.type == "endpoint"]
    assert names == [("E0001", "endpoint", "POST /auth/login"), ("E0002", "endpoint", "/v1/users")]


def test_only_critical_entries_create_entities(gate: Gate, bank: Path) -> None:
    """A HIGH entry naming an endpoint adds no entity (only CRITICAL entries create entities)."""
    report = gate(
        "1",
        [
            {
                "summary": "Added endpoint GET /api/items",
                "files_changed": ["a.py"],
                "from_agent": "hermes",
                "to_agent": "aphrodite",
            }
        ],
    )
    assert report.critical == 0 and _index(bank).entities == []


def test_tables_and_components_get_m_and_c_ids(gate: Gate, bank: Path) -> None:
    """A new table is M0001; a LoginForm component (and its .tsx file) is C0001."""
    gate("1", [TABLE, _crit("Added LoginForm component", "aphrodite", ["web/LoginForm.tsx"])])
    ids = {(e.ref, e.name) for e in _index(bank).entities}
    assert ("M0001", "refresh_tokens table") in ids and ("C0001", "LoginForm") in ids
    assert json.loads((bank / "_xref/_next_id.json").read_text()) == {"C": 2, "D": 1, "E": 1, "M": 2}


def test_the_same_entity_keeps_its_id_across_phases_and_reruns(gate: Gate, bank: Path) -> None:
    """Dedupe by (type, normalised name): 'POST /Auth/Login/' later is still E0001; re-runs add nothing."""
    gate("1", [_crit("Added POST /auth/login")])
    report = gate("2", [_crit("Hardened POST /Auth/Login/ against brute force")])
    assert report.cross_refs_added == 0
    assert [e.ref for e in _index(bank).entities] == ["E0001"]


def test_id_reuse_for_a_different_entity_is_an_error(gate: Gate, bank: Path) -> None:
    """A counter reset by hand would hand E0001 to a second endpoint: error, nothing written."""
    gate("1", [_crit("Added POST /auth/login")])
    (bank / "_xref/_next_id.json").write_text('{"C": 1, "D": 1, "E": 1, "M": 1}\n')
    before = snapshot(bank)
    with pytest.raises(StorageError, match=r"would reuse E0001 .* already gives E0001 to endpoint"):
        gate("2", [_crit("Added DELETE /auth/session")])
    assert snapshot(bank) == before


def test_duplicate_ids_in_the_index_are_a_located_error(tmp_path: Path) -> None:
    """Two rows sharing an ID for different entities: the error names the file and line."""
    text = (
        "# Cross-Reference Index\n\n## By Entity\n\n| Entity ID | Type | Name | Location | Phase | Agent |\n"
        "|---|---|---|---|---|---|\n| E0001 | endpoint | GET /a | a.py | P1 | hermes |\n"
        "| E0001 | endpoint | GET /b | b.py | P1 | hermes |\n"
    )
    with pytest.raises(StorageError, match=r"^idx\.md:8: ID E0001 is already used on line 7"):
        parse_xref(text, None, path="idx.md", ids_path="n")


def test_blocked_then_complete_links_in_decision_links(gate: Gate, bank: Path) -> None:
    """An entry that was blocked and now completes adds an 'unblocked' link with a D id."""
    gate(
        "1",
        [
            {
                "summary": "Wired the login form",
                "files_changed": ["web/login.tsx"],
                "from_agent": "aphrodite",
                "blockers": "waiting on POST /auth/login",
            }
        ],
    )
    links = _index(bank).links
    assert [(link.ref, link.type) for link in links] == [("D0001", "unblocked")]
    assert "waiting on POST /auth/login" in links[0].summary


def test_by_feature_row_accumulates_phases_agents_and_top_priority(gate: Gate, bank: Path) -> None:
    """By Feature: phases and agents accumulate; the highest band seen wins."""
    gate(
        "1",
        [{"summary": "Fixed typo", "files_changed": ["r.md"], "from_agent": "hermes"}],
        feature="auth-jwt",
    )
    gate("2", [TABLE], feature="auth-jwt")
    row = _index(bank).features[0]
    assert (row.feature, row.phases, row.agents, row.priority) == (
        "auth-jwt",
        ("1", "2"),
        ("hermes", "demeter"),
        "CRITICAL",
    )


SEED_INDEX = """# Cross-Reference Index

## By Feature

| Feature | Phase(s) | Agent(s) | Priority | Summary |
|---------|----------|----------|----------|---------|
| auth-jwt | 1, 2 | Hermes, Aphrodite | HIGH | JWT login + refresh token UI |

## By Entity

| Entity ID | Type | Name | Location | Phase | Agent |
|-----------|------|------|----------|-------|-------|
| E0001 | endpoint | POST /auth/login | backend/routers/auth.py:42 | P1 | Hermes |
| M0001 | migration | add refresh_tokens table | backend/migrations/0012_... | P1 | Demeter |

## Decision Links

| Ref ID | Type | Summary | Links To | Phase |
|--------|------|---------|----------|-------|
| D0001 | ADR | Use refresh token rotation instead of opaque tokens | _notes/ADR-auth-strategy.md | P1 |
"""


def test_the_seeds_own_index_loads_and_new_ids_follow_it(gate: Gate, bank: Path) -> None:
    """The documented example index (no counter file): kept row for row; new IDs start after E0001/M0001."""
    (bank / "_xref").mkdir(parents=True)
    (bank / "_xref/index.md").write_text(SEED_INDEX)
    gate("3", [_crit("Added POST /auth/login and DELETE /api/session")], feature="auth-jwt")
    text = (bank / "_xref/index.md").read_text()
    for line in SEED_INDEX.splitlines():
        if line.startswith(("| E0001", "| M0001", "| D0001")):
            assert line in text
    assert "| E0002 | endpoint | DELETE /api/session |" in text
    assert text.count("| endpoint | POST /auth/login |") == 1
    assert "| auth-jwt | 1, 2, 3 | Hermes, Aphrodite | CRITICAL |" in text
