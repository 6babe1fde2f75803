"""Priority scoring per docs/phase-gate.md: weights, dimensions, rounding, bands, preflight."""

from __future__ import annotations

from decimal import Decimal

import pytest

from summarizer.phasegate.models import SubtaskSummary
from summarizer.phasegate.scoring import (
    DOWNSTREAM,
    band_for,
    blockers_score,
    downstream_relevance,
    file_novelty,
    preflight,
    round_score,
    score_entry,
)

SEED_EXAMPLE = {
    "summary": "Added JWT auth endpoint with refresh token rotation",
    "files_changed": ["backend/routers/auth.py", "backend/services/auth_service.py"],
    "status": "complete",
    "from_agent": "hermes",
    "to_agent": "aphrodite",
}


def entry(**fields: object) -> SubtaskSummary:
    return SubtaskSummary.model_validate(fields)


def test_seed_example_scores_074_high() -> None:
    """The classic worked example, scored by the rules, is 0.74 HIGH."""
    result = score_entry(SubtaskSummary.model_validate(SEED_EXAMPLE))
    assert (result.score, result.priority) == (0.74, "HIGH")
    assert result.dimensions.as_dict() == {
        "impact": 1.0,
        "risk": 1.0,
        "novelty": 0.5,
        "blockers": 0.0,
        "downstream": 0.9,
    }


def test_seed_example_is_not_071_because_auth_sets_impact_to_1() -> None:
    """Why not the hand-computed 0.71: it forgot ``auth`` (impact 1.0); with JWT/endpoint/token alone
    the impact max is 0.9, which gives exactly that 0.71."""
    result = score_entry(SubtaskSummary.model_validate(SEED_EXAMPLE))
    assert "auth" in result.keywords
    assert result.dimensions.impact == 1.0
    without_auth = entry(**{**SEED_EXAMPLE, "summary": "Added JWT endpoint with refresh token rotation"})
    forgotten = score_entry(without_auth)
    assert forgotten.dimensions.impact == 0.9
    assert forgotten.score == 0.71
    assert result.score - forgotten.score == pytest.approx(0.03)  # 0.30 x (1.0 - 0.9)


@pytest.mark.parametrize(
    ("raw", "band"),
    [
        ("0.745", "CRITICAL"),
        ("0.75", "CRITICAL"),
        ("0.7449", "HIGH"),
        ("0.74", "HIGH"),
        ("0.495", "HIGH"),
        ("0.5", "HIGH"),
        ("0.4949", "MEDIUM"),
        ("0.245", "MEDIUM"),
        ("0.25", "MEDIUM"),
        ("0.2449", "LOW"),
        ("0", "LOW"),
        ("1", "CRITICAL"),
    ],
)
def test_band_boundaries_after_half_up_rounding(raw: str, band: str) -> None:
    """Rounding half-up to 2 decimals happens before banding."""
    assert band_for(Decimal(raw)) == band
    assert band_for(float(raw)) == band  # a float 0.745 means the decimal 0.745


def test_round_score_is_half_up_not_bankers() -> None:
    """Python's round() gives 0.12 for 0.125; the rule says half-up."""
    assert round_score("0.125") == Decimal("0.13")
    assert round_score(0.745) == Decimal("0.75")
    assert round(0.745, 2) == 0.74  # the float trap the Decimal path avoids


@pytest.mark.parametrize(
    ("fields", "score", "priority"),
    [
        # foreign key .8/.9/.5 + was blocked .6 + hermes->aphrodite .9 = raw 0.745
        (
            {"summary": "Added foreign key; was blocked by review", "from": "hermes", "to": "aphrodite"},
            0.75,
            "CRITICAL",
        ),
        # schema 1/1/.6 + hermes->demeter .8 = 0.75 exactly
        ({"summary": "Changed the schema", "from": "hermes", "to": "demeter"}, 0.75, "CRITICAL"),
        # constraint .6/.7/.3 + hermes->demeter .8 = raw 0.495
        ({"summary": "Added a unique constraint", "from": "hermes", "to": "demeter"}, 0.5, "HIGH"),
        # token .7/.8/.3 + hermes->mnemosyne .3 = 0.50 exactly
        ({"summary": "Token expiry fixed", "from": "hermes", "to": "mnemosyne"}, 0.5, "HIGH"),
        # CSS .2/.1/.2 + was blocked .6 + hermes->mnemosyne .3 = raw 0.245
        (
            {"summary": "Fixed CSS, was blocked by design", "from": "hermes", "to": "mnemosyne"},
            0.25,
            "MEDIUM",
        ),
        # typo 0/0/0 + unblocks 1.0 + hermes->hermes 1.0 = 0.25 exactly
        (
            {"summary": "Fixed a typo", "unblocks": "phase 3", "from": "hermes", "to": "hermes"},
            0.25,
            "MEDIUM",
        ),
        # typo + unknown downstream .5 = 0.05
        ({"summary": "Fixed a typo"}, 0.05, "LOW"),
    ],
)
def test_real_entries_on_the_band_boundaries(fields: dict[str, object], score: float, priority: str) -> None:
    """Entries whose exact weighted sums sit on 0.745 / 0.75 / 0.495 / 0.5 / 0.245 / 0.25."""
    result = score_entry(entry(**fields))
    assert (result.score, result.priority) == (score, priority)


@pytest.mark.parametrize(
    ("files", "keyword_novelty", "expected"),
    [(4, 0.3, 0.3), (5, 0.3, 0.8), (9, 0.9, 0.9), (10, 0.3, 1.0), (12, 0.0, 1.0), (0, 0.6, 0.6)],
)
def test_file_count_rule_raises_but_never_lowers(files: int, keyword_novelty: float, expected: float) -> None:
    """5+ files -> at least 0.8, 10+ -> 1.0; a keyword's higher novelty (new table 0.9) survives."""
    assert file_novelty(files, keyword_novelty) == expected


def test_file_paths_count_only_through_the_file_count_rule() -> None:
    """``backend/routers/auth.py`` in files_changed does not make the entry an auth entry."""
    result = score_entry(entry(summary="Fixed a typo", files=["backend/routers/auth.py"] * 5))
    assert result.keywords == ("typo",)
    assert result.dimensions.novelty == 0.8


def test_title_is_scanned_with_the_summary() -> None:
    """A keyword only in the title still counts."""
    assert "migration" in score_entry(entry(summary="Done", title="Orders migration")).keywords


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"summary": "x", "unblocks": "Aphrodite login form"}, 1.0),
        ({"summary": "This unblocked the frontend"}, 1.0),
        ({"summary": "x", "blockers": "waited on the schema review"}, 0.6),
        ({"summary": "Done; was blocked by the DB migration"}, 0.6),
        ({"summary": "Finished the work blocked by infra"}, 0.6),
        ({"summary": "x", "blockers": "schema review", "status": "partial"}, 0.0),
        ({"summary": "Nothing about that"}, 0.0),
        ({"summary": "Shipped; not blocked by anything"}, 0.0),
    ],
)
def test_blockers_dimension(fields: dict[str, object], expected: float) -> None:
    """1.0 unblocked others; 0.6 was blocked and is now complete; else 0.0."""
    assert blockers_score(entry(**fields)) == expected


def test_downstream_table_defaults_and_max() -> None:
    """Unknown agents and no next agent give 0.5; several next agents take the max."""
    assert downstream_relevance("hermes", ["aphrodite"]) == 0.9
    assert downstream_relevance("Hermes", ["Aphrodite"]) == 0.9
    assert downstream_relevance("hermes", []) == 0.5
    assert downstream_relevance(None, ["aphrodite"]) == 0.5
    assert downstream_relevance("zeus", ["hermes"]) == 0.5
    assert downstream_relevance("hermes", ["zeus"]) == 0.5
    assert downstream_relevance("aphrodite", ["demeter", "hermes"]) == 0.9
    assert downstream_relevance("hermes", ["mnemosyne", "zeus"]) == 0.5
    assert DOWNSTREAM["themis"]["mnemosyne"] == 0.5
    assert all(DOWNSTREAM[a][a] == 1.0 for a in DOWNSTREAM)


def test_to_override_replaces_the_entrys_next_agents() -> None:
    """``score_entry(e, to=...)`` chooses the pair (the CLI's --to)."""
    e = SubtaskSummary.model_validate(SEED_EXAMPLE)
    assert score_entry(e, to="mnemosyne").dimensions.downstream == 0.3
    assert score_entry(e, to=["demeter", "aphrodite"]).dimensions.downstream == 0.9


@pytest.mark.parametrize("status", ["in_progress", "blocked", "escalated", "needs_revision", "failed"])
def test_protected_statuses_are_flagged_never_compressed(status: str) -> None:
    """The preflight stops compression and says why; the score is still reported."""
    result = score_entry(entry(summary="Added JWT auth", status=status))
    assert result.compress is False
    assert result.flags and status in result.flags[0]
    assert result.priority == result.band


def test_failed_verdict_is_not_compressed() -> None:
    """A NEEDS_REVISION review stays where it is."""
    assert preflight("complete", "NEEDS_REVISION").compress is False
    assert preflight("complete", "APPROVED").compress is True


def test_partial_is_compressed_with_warning_and_at_least_medium() -> None:
    """``partial (waiting on API)`` normalises, compresses, warns and is raised from LOW to MEDIUM."""
    result = score_entry(entry(summary="Fixed a typo", status="partial (waiting on API)"))
    assert (result.band, result.priority) == ("LOW", "MEDIUM")
    assert result.compress and result.warning
    assert result.flags[0].startswith("⚠️") and "waiting on API" in result.flags[0]
    high = score_entry(entry(**{**SEED_EXAMPLE, "status": "partial"}))
    assert high.priority == "HIGH"  # never lowered


def test_as_dict_has_the_cli_contract() -> None:
    """score, priority and dimensions are what --json promises."""
    data = score_entry(SubtaskSummary.model_validate(SEED_EXAMPLE)).as_dict()
    assert data["score"] == 0.74 and data["priority"] == "HIGH"
    assert set(data["dimensions"]) == {"impact", "risk", "novelty", "blockers", "downstream"}
