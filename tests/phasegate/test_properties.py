"""Invariants over arbitrary entries: no crash, bounded output, band rules always hold."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from summarizer.phasegate.facts import extract_facts
from summarizer.phasegate.models import STATUSES, SubtaskSummary
from summarizer.phasegate.scoring import BANDS, band_for, score_entry
from summarizer.phasegate.templates import MAX_LINE, render_lines

AGENTS = st.sampled_from(["hermes", "aphrodite", "demeter", "themis", "mnemosyne", "zeus", ""])
WORDS = st.sampled_from(
    [
        "Added",
        "auth",
        "POST",
        "/api/v1/users",
        "returns",
        "401",
        "table",
        "users",
        "new",
        "column",
        "expires_at",
        "but",
        "must",
        "migration",
        "0012_x",
        "LoginForm",
        "component",
        "was",
        "blocked",
        "by",
        "unblocked",
        "typo",
        "README",
        ".",
        ";",
        "(",
        ")",
        "é",
        "\n",
        "`",
        "ALTER",
        "TABLE",
        "ADD",
    ]
)
TEXT = st.one_of(st.lists(WORDS, min_size=1, max_size=40).map(" ".join), st.text(min_size=1, max_size=300))


@st.composite
def entries(draw: st.DrawFn) -> SubtaskSummary:
    summary = draw(TEXT)
    if not summary.strip():
        summary = "x"
    return SubtaskSummary(
        summary=summary,
        files_changed=tuple(
            draw(st.lists(st.sampled_from(["a.py", "web/B.tsx", "m/0001_x.py"]), max_size=12))
        ),
        status=draw(st.sampled_from(STATUSES)),
        from_agent=draw(AGENTS) or None,
        to_agent=tuple(a for a in draw(st.lists(AGENTS, max_size=3)) if a),
        blockers=draw(st.one_of(st.none(), st.just("review"))),
    )


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(entries())
def test_scoring_and_rendering_invariants(entry: SubtaskSummary) -> None:
    """Score in [0, 1]; band matches the number; partial >= MEDIUM; lines per band, each <= 200."""
    result = score_entry(entry)
    assert 0.0 <= result.score <= 1.0
    assert result.band == band_for(result.score)
    if entry.status == "partial":
        assert BANDS.index(result.priority) <= BANDS.index("MEDIUM")
    else:
        assert result.priority == result.band
    assert result.compress == (entry.status in ("complete", "partial"))
    for band, count in (("CRITICAL", 3), ("HIGH", 2), ("MEDIUM", 1), ("LOW", 1)):
        lines = render_lines(entry, band)  # type: ignore[arg-type]
        assert len(lines) == count
        assert all(0 < len(line) <= MAX_LINE and "\n" not in line for line in lines)


@settings(max_examples=100, deadline=None)
@given(TEXT)
def test_facts_never_crash_and_come_from_the_text(text: str) -> None:
    """Every endpoint path, URL and env var extracted is a substring of the input."""
    facts = extract_facts(text)
    for endpoint in facts.endpoints:
        assert endpoint.split(" ")[-1] in text
    assert all(url in text for url in facts.urls)
    assert all(var in text for var in facts.env_vars)
