"""Passive capture: extracting learnings (pure) and saving them (store). Reference §3.7, cases 36-45."""

from __future__ import annotations

import pytest
from summarizer_engram.capture import extract_learnings, learning_title
from summarizer_engram.store import Store

from summarizer.core.errors import NotFound

THREE = """Done with the auth work.

## Key Learnings:

1. bcrypt cost=12 is the right balance for our server hardware
2. JWT refresh tokens need atomic rotation to avoid race conditions
3. Always validate the audience claim in JWT tokens, not just issuer

## Next Steps
- write the migration for the sessions table
"""

TWO = "## Key Learnings:\n1. bcrypt cost=12 is the right balance\n2. Use atomic rotation for refresh tokens\n"


def test_numbered_items_under_key_learnings_stop_at_the_next_header() -> None:
    """Case 36."""
    items = extract_learnings(THREE)
    assert len(items) == 3
    assert "bcrypt" in items[0]


def test_spanish_header() -> None:
    """Case 37."""
    text = (
        "## Aprendizajes Clave:\n1. El índice compuesto acelera la consulta\n"
        "2. Hay que invalidar la caché al guardar\n"
    )
    assert len(extract_learnings(text)) == 2


def test_bullets_under_a_level_three_header() -> None:
    """Case 38."""
    text = (
        "### Learnings:\n- Connection pools must be sized per worker\n"
        "* Retries need jitter or they stampede\n"
    )
    assert len(extract_learnings(text)) == 2


def test_short_items_are_dropped() -> None:
    """Case 39."""
    text = "## Key Learnings:\n1. too short\n2. bcrypt cost=12 is the right balance here\n3. also short\n"
    assert extract_learnings(text) == ["bcrypt cost=12 is the right balance here"]


def test_no_header_or_only_short_items_extracts_nothing() -> None:
    """Case 40."""
    assert extract_learnings("1. bcrypt cost=12 is the right balance here") == []
    assert extract_learnings("## Key Learnings:\n1. tiny\n2. small\n") == []


def test_last_section_wins_and_falls_back_when_it_is_empty() -> None:
    """Case 41."""
    text = (
        "## Key Learnings:\n1. first section item that is long enough\n\n"
        "## Key Learnings:\n1. the last section item is the one we keep\n"
    )
    assert extract_learnings(text) == ["the last section item is the one we keep"]
    fallback = "## Key Learnings:\n1. first section item that is long enough\n\n## Key Learnings:\n1. short\n"
    assert extract_learnings(fallback) == ["first section item that is long enough"]


def test_markdown_is_cleaned() -> None:
    """Case 42."""
    text = "## Key Learnings:\n1. **Use** `context.Context` in *all* handlers for cancellation\n"
    (item,) = extract_learnings(text)
    assert "**" not in item and "`" not in item and "*" not in item
    assert item == "Use context.Context in all handlers for cancellation"


def test_long_learnings_get_a_60_character_title() -> None:
    """engram titles a captured learning with its first 60 characters."""
    assert learning_title("x" * 61) == "x" * 60 + "..."
    assert learning_title("x" * 60) == "x" * 60


def test_capture_saves_passive_observations_with_the_source_as_tool(store: Store) -> None:
    """Case 43."""
    text = TWO
    result = store.passive_capture("s1", text, project="engram", source="subagent-stop")
    assert (result.extracted, result.saved, result.duplicates) == (2, 2, 0)
    saved = store.recent_observations("engram")
    assert {o.type for o in saved} == {"passive"}
    assert {o.tool_name for o in saved} == {"subagent-stop"}


def test_capture_of_empty_content_saves_nothing(store: Store) -> None:
    """Case 44, first half."""
    result = store.passive_capture("s1", "", project="engram")
    assert (result.extracted, result.saved) == (0, 0)


def test_capture_skips_content_already_stored_under_any_type(store: Store) -> None:
    """Case 44: an identical learning saved earlier as a decision counts as a duplicate."""
    store.save("s1", "Earlier", "bcrypt cost=12 is the right balance", type="decision", project="engram")
    text = TWO
    result = store.passive_capture("s1", text, project="engram")
    assert (result.extracted, result.saved, result.duplicates) == (2, 1, 1)


def test_capture_into_a_missing_session_fails_and_saves_nothing(store: Store) -> None:
    """Case 45; and the capture is one transaction, so no partial save survives."""
    with pytest.raises(NotFound, match="does not exist"):
        store.passive_capture("nope", THREE, project="engram")
    assert store.stats().total_observations == 0
