"""Deterministic renderings: band shapes, agent-pair variants, gotchas, and no invented details."""

from __future__ import annotations

import pytest

from summarizer.phasegate.facts import extract_facts
from summarizer.phasegate.models import SubtaskSummary
from summarizer.phasegate.templates import MAX_LINE, render_entry, render_lines, variant_for


def entry(**fields: object) -> SubtaskSummary:
    return SubtaskSummary.model_validate(fields)


HERMES = entry(
    summary="Added POST /auth/login and POST /auth/refresh with JWT rotation. Expired tokens return 401. "
    "Refresh tokens are stored hashed, so there is no raw token access after issue.",
    files=["backend/routers/auth.py", "backend/services/auth_service.py"],
    **{"from": "hermes", "to": "aphrodite"},
)
DEMETER = entry(
    summary="Created `refresh_tokens` table with FK to `users`, hashed token, expires_at. "
    "Migration 0012_refresh_tokens adds a unique index on (user_id, token_hash).",
    files=["backend/migrations/0012_refresh_tokens.py"],
    **{"from": "demeter", "to": "hermes"},
)


def test_low_is_agent_and_files() -> None:
    """``[Agent] — <files>``."""
    assert render_lines(HERMES, "LOW") == (
        "[Hermes] — backend/routers/auth.py, backend/services/auth_service.py",
    )


def test_medium_is_agent_first_sentence_files() -> None:
    """``[Agent] — <first sentence <= 80 chars> — <files>``."""
    (line,) = render_lines(HERMES, "MEDIUM")
    agent, sentence, files = line.split(" — ")
    assert agent == "[Hermes]"
    assert sentence == "Added POST /auth/login and POST /auth/refresh with JWT rotation"
    assert len(sentence) <= 80
    assert files == "backend/routers/auth.py, backend/services/auth_service.py"


def test_medium_cuts_a_long_first_sentence_on_a_word_boundary() -> None:
    """A first sentence over 80 characters ends with an ellipsis at a word boundary."""
    long = entry(summary="word " * 40, files=["a.py"], agent="hermes")
    sentence = render_lines(long, "MEDIUM")[0].split(" — ")[1]
    assert len(sentence) <= 80 and sentence.endswith("…") and "wor…" not in sentence


def test_many_files_are_abbreviated() -> None:
    """More than three files: the first three and a count."""
    many = entry(summary="Tidied.", files=[f"f{i}.py" for i in range(7)], agent="hermes")
    assert render_lines(many, "LOW") == ("[Hermes] — f0.py, f1.py, f2.py +4 more",)


def test_hermes_to_aphrodite_critical_carries_endpoints_codes_and_gotcha() -> None:
    """3 lines: what (with status code 401 added), why for Aphrodite, the trade-off sentence."""
    what, why, gotcha = render_lines(HERMES, "CRITICAL")
    assert what == "Added POST /auth/login and POST /auth/refresh with JWT rotation (status 401)."
    assert why == "Aphrodite must call the changed API and handle its status codes."
    assert gotcha == "Refresh tokens are stored hashed, so there is no raw token access after issue."


def test_high_carries_the_gotcha_on_its_why_line() -> None:
    """HIGH has no third line, so the trade-off rides on the why line (one sentence, dash-joined)."""
    what = render_lines(HERMES, "CRITICAL")[0]
    assert render_lines(HERMES, "HIGH") == (
        what,
        "Aphrodite must call the changed API and handle its status codes — refresh tokens are stored "
        "hashed, so there is no raw token access after issue.",
    )
    plain = entry(summary="Added the login endpoint.", **{"from": "hermes", "to": "aphrodite"})
    assert render_lines(plain, "HIGH")[1] == render_lines(plain, "CRITICAL")[1]  # no gotcha: unchanged


def test_demeter_to_hermes_carries_tables_columns_and_migration() -> None:
    """Columns and the migration id that the first sentence lacks are added to the what line."""
    what = render_lines(DEMETER, "HIGH")[0]
    assert "refresh_tokens" in what
    assert "user_id" in what and "token_hash" in what and "0012_refresh_tokens" in what
    assert what.count("expires_at") == 1  # already in the first sentence: not repeated


def test_the_pair_decides_what_is_carried() -> None:
    """The same entry sent to Mnemosyne carries nothing extra; to Themis its tests and coverage."""
    to_archive = render_lines(HERMES, "HIGH", to="mnemosyne")
    assert to_archive[0] == "Added POST /auth/login and POST /auth/refresh with JWT rotation."
    assert to_archive[1] == "Mnemosyne archives it as a minimal record."
    review = entry(summary="Added login.", tests="14 passed", coverage="91%", files=["a.py"], agent="hermes")
    to_review = render_lines(review, "HIGH", to="themis")
    assert to_review[0] == "Added login (tests 14 passed; coverage 91%)."  # files stay in their own field


def test_themis_to_any_carries_verdict_issues_coverage() -> None:
    """Themis -> *: verdict, critical issues count, coverage."""
    review = entry(
        summary="Reviewed the auth module.",
        verdict="APPROVED",
        critical_issues=0,
        coverage="87%",
        **{"from": "themis", "to": "hermes"},
    )
    what, why = render_lines(review, "HIGH")
    assert what == "Reviewed the auth module (verdict APPROVED; critical issues 0; coverage 87%)."
    assert why == "Hermes gets the review outcome before building on it."


def test_no_details_falls_back_to_the_riskiest_category() -> None:
    """The classic example names no path or code: the why line explains the auth risk instead."""
    seed = entry(
        summary="Added JWT auth endpoint with refresh token rotation", agent="hermes", to="aphrodite"
    )
    what, why, gotcha = render_lines(seed, "CRITICAL")
    assert what == "Added JWT auth endpoint with refresh token rotation."
    assert why.startswith("For Aphrodite: auth and security behaviour changed")
    assert gotcha.startswith("No trade-off recorded; the main risk is the auth and security change")


def test_partial_entries_start_with_the_warning_sign() -> None:
    """Every band marks a partial entry."""
    partial = entry(summary="Half of the login form.", status="partial (API pending)", agent="aphrodite")
    for band in ("CRITICAL", "HIGH", "MEDIUM", "LOW"):
        assert render_lines(partial, band)[0].startswith("⚠️ ")


@pytest.mark.parametrize("band", ["CRITICAL", "HIGH", "MEDIUM", "LOW"])
def test_lines_are_bounded_and_deterministic(band: str) -> None:
    """At most 200 characters a line; the same input renders the same text."""
    huge = entry(
        summary="Added " + "POST /api/v1/x " * 60 + ". But it is slow.", agent="hermes", to="aphrodite"
    )
    lines = render_lines(huge, band)  # type: ignore[arg-type]
    assert all(len(line) <= MAX_LINE for line in lines)
    assert lines == render_lines(huge, band)  # type: ignore[arg-type]
    assert len(lines) == {"CRITICAL": 3, "HIGH": 2, "MEDIUM": 1, "LOW": 1}[band]


@pytest.mark.parametrize("item", [HERMES, DEMETER])
def test_templates_invent_no_path_or_url(item: SubtaskSummary) -> None:
    """Every path, URL and endpoint in the output is in the input (what LLM answers are held to)."""
    text = render_entry(item, "CRITICAL")
    source = extract_facts(item.summary + " " + " ".join(item.files_changed), item.files_changed)
    out = extract_facts(text)
    assert set(out.paths) <= set(source.paths)
    assert set(out.urls) <= set(source.urls)
    assert set(out.endpoints) <= set(source.endpoints)


def test_variant_lookup_order() -> None:
    """exact pair, then * -> themis / mnemosyne, then from -> *, then the default."""
    assert variant_for("hermes", "aphrodite").pair == "hermes -> aphrodite"
    assert variant_for("themis", "mnemosyne").pair == "* -> mnemosyne"
    assert variant_for("themis", "hermes").pair == "themis -> *"
    assert variant_for("zeus", None).pair == "* -> *"


def test_contract_details_survive_a_long_first_sentence() -> None:
    """The first sentence is cut (to no less than 80 chars) so the endpoint and codes still fit."""
    long = entry(
        summary="Reworked the whole orders module so that every handler validates its input, logs context, "
        "retries transient failures and records idempotency keys for every payment attempt we make. "
        "It returns 409 on duplicate keys and 422 on bad input via POST /api/v1/orders.",
        **{"from": "hermes", "to": "aphrodite"},
    )
    what = render_lines(long, "HIGH")[0]
    assert len(what) <= MAX_LINE
    assert what.endswith("(POST /api/v1/orders; status 409, 422).")
    assert "…" in what and what.startswith("Reworked the whole orders module")
