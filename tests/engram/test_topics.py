"""Topic-key suggestion (reference §3.6 and cases 27-33)."""

from __future__ import annotations

import pytest
from summarizer_engram.topics import infer_family, normalize_segment, suggest_topic_key


@pytest.mark.parametrize(
    ("type_", "title", "content", "key"),
    [
        ("Architecture", "  Auth Model  ", "ignored", "architecture/auth-model"),
        (
            "bugfix",
            "",
            "Fix nil panic in auth middleware on empty token",
            "bug/fix-nil-panic-in-auth-middleware-on-empty",
        ),
        ("manual", "", "Fix regression in auth login flow", "bug/fix-regression-in-auth-login-flow"),
        ("", "ADR: Split API gateway boundary", "", "architecture/adr-split-api-gateway-boundary"),
        ("decision", "decision", "", "decision/general"),
        ("bugfix", "bug-auth-panic", "", "bug/auth-panic"),
        ("manual", "!!!", "...", "topic/general"),
        ("architecture", "Auth <private>secret</private> model", "", "architecture/auth-redacted-model"),
    ],
)
def test_suggest_topic_key(type_: str, title: str, content: str, key: str) -> None:
    """Cases 27-31: family from type or text, segment from title or the first eight content words."""
    assert suggest_topic_key(type_, title, content) == key


def test_segment_is_capped_at_100_and_drops_non_ascii() -> None:
    """Case 32 and engram's ASCII-only segments."""
    assert len(normalize_segment("abc" * 50)) == 100
    assert normalize_segment("Migración") == "migraci-n"


@pytest.mark.parametrize(
    ("type_", "text", "family"),
    [
        ("architecture", "", "architecture"),
        ("bugfix", "", "bug"),
        ("decision", "", "decision"),
        ("pattern", "", "pattern"),
        ("config", "", "config"),
        ("discovery", "", "discovery"),
        ("learning", "", "learning"),
        ("session_summary", "", "session"),
        ("", "this caused a crash regression", "bug"),
        ("", "new boundary design", "architecture"),
        ("", "we chose this tradeoff", "decision"),
        ("", "naming convention for handlers", "pattern"),
        ("", "docker env setup", "config"),
        ("", "root cause found", "discovery"),
        ("", "key learning from this issue", "learning"),
        ("Custom Type", "", "custom-type"),
        ("manual", "", "topic"),
    ],
)
def test_infer_family(type_: str, text: str, family: str) -> None:
    """Case 33: the type table first, then substring tests in engram's order."""
    assert infer_family(type_, text, "") == family
