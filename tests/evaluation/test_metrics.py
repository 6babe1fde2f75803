"""Cell metrics: fact matching by kind, hallucinated tokens, band formats."""

from __future__ import annotations

import pytest

from summarizer.evaluation.dataset import Fact
from summarizer.evaluation.metrics import fact_recall, format_problem, hallucinations, matches


@pytest.mark.parametrize(
    ("answer", "found"),
    [
        ("Added POST /api/v1/auth/login returning a token.", True),
        ("The login route /api/v1/auth/login (POST) now rotates.", True),
        ("Added GET /api/v1/auth/login.", False),  # wrong method
        ("Added POST /api/v1/auth/login-v2.", False),  # a longer path is another endpoint
        ("Added POST /api/v1/auth/login/{id}.", False),
        ("Added POST `/api/v1/auth/login`.", True),
    ],
)
def test_an_endpoint_needs_its_method_and_its_exact_path(answer: str, found: bool) -> None:
    """``endpoint`` facts are not plain substrings."""
    assert matches(Fact(kind="endpoint", value="POST /api/v1/auth/login"), answer) is found


def test_status_codes_match_whole_numbers_only() -> None:
    """401 is not hiding in 14012 or in 401.5."""
    fact = Fact(kind="status", value="401")
    assert matches(fact, "a wrong password returns 401.")
    assert not matches(fact, "ticket 14012 fixed")
    assert not matches(fact, "version 401.5")


def test_alternatives_and_case_count_for_other_kinds() -> None:
    """Gotchas match any phrasing listed, case-insensitively, whitespace normalised."""
    fact = Fact(kind="gotcha", value="single-flight", any_of=("in  parallel",))
    assert matches(fact, "Never refresh IN PARALLEL.")
    assert matches(fact, "Use a Single-Flight refresh.")
    assert not matches(fact, "Refresh tokens rotate.")


def test_fact_recall_is_the_share_present_and_names_the_missed() -> None:
    """Two of three facts present."""
    facts = [
        Fact(kind="table", value="refresh_tokens"),
        Fact(kind="status", value="423"),
        Fact(kind="column", value="token_hash"),
    ]
    recall, missed = fact_recall(facts, "refresh_tokens has token_hash")
    assert recall == pytest.approx(2 / 3) and missed == ("status: 423",)
    assert fact_recall([], "anything") == (None, ())


def test_hallucinations_are_concrete_tokens_absent_from_the_input() -> None:
    """Invented paths, identifiers and numbers are caught; words and input tokens are not."""
    source = "summary: Added POST /api/v1/invoices returning 201.\nfiles: backend/routers/invoices.py"
    answer = (
        "Added POST /api/v1/invoices (201) in backend/routers/invoices.py and backend/routers/users.py; "
        "returns 404 via invoice_service and InvoiceEditor on 2026-06-10."
    )
    assert set(hallucinations(answer, source)) == {
        "backend/routers/users.py",
        "404",
        "invoice_service",
        "InvoiceEditor",
        "2026-06-10",
    }
    assert hallucinations("Added POST /api/v1/invoices returning 201.", source) == ()


@pytest.mark.parametrize(
    ("band", "text", "problem"),
    [
        ("CRITICAL", "a\nb\nc", None),
        ("CRITICAL", "a\nb", "CRITICAL needs 3 line(s), got 2"),
        ("HIGH", "a\nb", None),
        ("HIGH", "x" * 241 + "\nb", "a line has 241 characters (cap 240)"),
        ("MEDIUM", "[hermes] — Added pagination. — backend/routers/invoices.py", None),
        ("MEDIUM", "[hermes] — " + "x" * 81 + " — a.py", "MEDIUM sentence has 81 characters (cap 80)"),
        ("MEDIUM", "Added pagination.", "MEDIUM line is not '[agent] — <sentence> — <files>'"),
        ("LOW", "[demeter] — backend/scripts/seed.py", None),
        ("LOW", "backend/scripts/seed.py", "LOW line is not '[agent] — <files>'"),
    ],
)
def test_format_follows_the_band(band: str, text: str, problem: str | None) -> None:
    """CRITICAL 3 lines, HIGH 2, MEDIUM and LOW one line of the documented shape."""
    assert format_problem(text, band) == problem  # type: ignore[arg-type]
