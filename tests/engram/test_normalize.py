"""The pure normalisers: engram's rules (reference §3.1, §7.3, §7.7)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from summarizer_engram.normalize import (
    TRUNCATION_MARKER,
    classify_tool,
    dedupe_window_expr,
    default_session_id,
    display_truncate,
    go_quote,
    hash_normalized,
    normalize_scope,
    normalize_topic_key,
    sanitize_fts,
    strip_private,
    truncate_content,
)


def test_private_tags_become_redacted_and_the_result_is_trimmed() -> None:
    """Private spans, case-insensitive and multi-line, are replaced; the ends are trimmed."""
    assert strip_private("  a <PRIVATE>x\ny</private> b  ") == "a [REDACTED] b"


def test_nested_private_tags_end_at_the_first_close() -> None:
    """The match is non-greedy, as engram's: the tail after the first close survives."""
    assert strip_private("<private>a<private>b</private>c</private>") == "[REDACTED]c</private>"


def test_truncation_reports_the_cut_and_never_splits_a_character() -> None:
    """A cut inside a multi-byte character backs off to the previous boundary and says so."""
    text, cut = truncate_content("é" * 10, limit=5)
    assert cut is True
    assert text == "éé" + TRUNCATION_MARKER
    text.encode("utf-8")  # valid UTF-8 by construction; would raise on a lone surrogate


def test_content_at_the_limit_is_not_truncated() -> None:
    """Exactly ``limit`` bytes is kept whole and not flagged."""
    assert truncate_content("x" * 10, limit=10) == ("x" * 10, False)


def test_scope_normalisation() -> None:
    """Only ``personal`` survives; everything else is ``project``."""
    assert normalize_scope(" Personal ") == "personal"
    assert [normalize_scope(v) for v in ("", "PROJECT", "global", None)] == ["project"] * 4


def test_topic_key_normalisation_keeps_slashes_and_joins_whitespace() -> None:
    """Case and whitespace runs are normalised; ``/`` is kept (reference case 4)."""
    assert normalize_topic_key("ARCHITECTURE   AUTH  MODEL") == "architecture-auth-model"
    assert normalize_topic_key(" Architecture/Auth-Model ") == "architecture/auth-model"
    assert normalize_topic_key("   ") == ""


def test_topic_key_is_capped_at_120_bytes() -> None:
    """Reference case 32."""
    assert len(normalize_topic_key("k" * 200)) == 120


def test_hash_ignores_case_and_whitespace_but_not_words() -> None:
    """The dedupe hash equates reformatted text only."""
    assert hash_normalized("Normalized tokenizer panic") == hash_normalized("normalized   TOKENIZER\npanic")
    assert hash_normalized("a b") != hash_normalized("a c")


def test_dedupe_window_expression() -> None:
    """Reference case 34: zero means 15 minutes, never under one minute."""
    assert dedupe_window_expr(timedelta(0)) == "-15 minutes"
    assert dedupe_window_expr(timedelta(seconds=20)) == "-1 minutes"
    assert dedupe_window_expr(timedelta(hours=1)) == "-60 minutes"


def test_default_session_ids() -> None:
    """Reference case 49."""
    assert default_session_id("") == "manual-save"
    assert default_session_id("engram") == "manual-save-engram"
    assert default_session_id("my-app") == "manual-save-my-app"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", ""),
        ("   ", ""),
        ("auth", '"auth"'),
        ("fix auth bug", '"fix" OR "auth" OR "bug"'),
        ('"fix" auth', '"fix" OR "auth"'),
        ("a   b", '"a" OR "b"'),
        ('hello"world', '"hello""world"'),
    ],
)
def test_fts_sanitiser_quotes_each_term_and_or_joins(query: str, expected: str) -> None:
    """Reference case 70 (engram's sanitize_fts_test.go), plus the interior-quote escape of #574."""
    assert sanitize_fts(query) == expected


def test_display_truncate_cuts_at_engrams_byte_limit() -> None:
    """Reference case 61; the limit is in UTF-8 bytes, as engram slices Go strings."""
    assert display_truncate("this is long", 4) == "this..."
    assert display_truncate("short", 10) == "short"
    assert display_truncate("a" * 299 + "é" * 5, 300) == "a" * 299 + "..."  # engram: "a"*299 + "\xc3..."
    assert display_truncate("é" * 150, 300) == "é" * 150  # 300 bytes exactly: whole


def test_display_truncate_never_splits_a_character() -> None:
    """Every cut of a multi-byte text is valid UTF-8 within the byte limit."""
    text = "naïve café 🚀 日本語テキスト" * 20
    for limit in range(1, 120):
        cut = display_truncate(text, limit)
        assert cut.endswith("...") and len(cut[:-3].encode("utf-8")) <= limit
        assert text.startswith(cut[:-3])


@pytest.mark.parametrize(
    ("tool", "kind"),
    [
        ("write", "file_change"),
        ("patch", "file_change"),
        ("bash", "command"),
        ("read", "file_read"),
        ("glob", "search"),
        ("unknown", "tool_use"),
    ],
)
def test_classify_tool(tool: str, kind: str) -> None:
    """Reference case 35."""
    assert classify_tool(tool) == kind


def test_go_quote_escapes_like_go() -> None:
    """engram's replies quote with Go's %q: quotes, backslashes and control characters are escaped."""
    assert go_quote('say "hi"\\n') == '"say \\"hi\\"\\\\n"'
    assert go_quote("a\nb\tc\x01") == '"a\\nb\\tc\\x01"'
    assert go_quote("café ✓") == '"café ✓"'


def test_the_store_imports_neither_litellm_nor_httpx() -> None:
    """The embedded path stays light: no litellm (3 s), and httpx only when a URL is configured."""
    import subprocess
    import sys

    code = (
        "import sys, summarizer_engram, summarizer_engram.tools, summarizer_engram.tool_specs; "
        "print(sorted(m for m in ('litellm', 'httpx') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
