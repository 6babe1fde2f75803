"""engram's MCP handlers (reference §4 and cases 46-61): argument maps in, engram's texts out."""

from __future__ import annotations

from typing import Any

import pytest
from summarizer_engram.store import Store
from summarizer_engram.tool_specs import INSTRUCTIONS, PROFILES, TOOLS, resolve_tools
from summarizer_engram.tools import HANDLERS, int_arg

LEARNINGS = (
    "## Key Learnings:\n1. bcrypt cost=12 is the right balance for us\n"
    "2. Refresh tokens need atomic rotation to be safe\n"
)


def call(store: Store, tool: str, **args: Any) -> tuple[str, bool]:
    """Call a handler the way the MCP server will: by name, with a JSON argument map."""
    return HANDLERS[tool](store, **args)


def test_suggest_topic_key(store: Store) -> None:
    """Case 46."""
    text, err = call(store, "mem_suggest_topic_key", type="architecture", title="Auth model")
    assert not err and "Suggested topic_key: architecture/auth-model" in text
    assert call(store, "mem_suggest_topic_key")[1] is True


def test_save_suggests_a_topic_key_only_when_none_was_given(store: Store) -> None:
    """Case 47, with engram's exact first line."""
    text, err = call(
        store,
        "mem_save",
        title="Auth architecture",
        content="Define boundaries for auth middleware",
        type="architecture",
        project="engram",
    )
    assert not err
    assert text.splitlines()[0] == 'Memory saved: "Auth architecture" (architecture)'
    assert "Suggested topic_key: architecture/auth-architecture" in text
    text, _ = call(
        store,
        "mem_save",
        title="Auth architecture",
        content="v2",
        type="architecture",
        project="engram",
        topic_key="architecture/auth-architecture",
    )
    assert "Suggested topic_key:" not in text


def test_save_creates_the_default_or_the_given_session(store: Store) -> None:
    """Case 48."""
    call(store, "mem_save", title="a", content="b", project="projectA")
    call(store, "mem_save", title="a", content="b", project="projectB")
    assert store.get_session("manual-save-projectA").project == "projectA"
    assert store.get_session("manual-save-projectB").project == "projectB"
    call(store, "mem_save", title="a", content="b", project="myproject", session_id="custom-session-123")
    assert store.get_session("custom-session-123").project == "myproject"
    assert "manual-save-myproject" not in {s.id for s in store.recent_sessions(limit=50)}


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("mem_save_prompt", {"content": "how do I rotate tokens?"}),
        ("mem_session_summary", {"content": "## Goal\nShip auth"}),
        ("mem_capture_passive", {"content": "no learnings here"}),
    ],
)
def test_other_writers_create_the_default_session(store: Store, tool: str, args: dict[str, Any]) -> None:
    """Case 49."""
    _, err = call(store, tool, project="proj", **args)
    assert not err
    assert store.get_session("manual-save-proj").project == "proj"


def test_search_texts(store: Store) -> None:
    """Case 50, with engram's hit layout."""
    call(
        store,
        "mem_save",
        title="Fix panic",
        content="nil map panic in tokenizer",
        type="bugfix",
        project="engram",
    )
    text, err = call(store, "mem_search", query="panic", project="engram", scope="project", limit=5.0)
    assert not err and text.startswith("Found 1 memories:\n\n[1] #1 (bugfix) — Fix panic\n")
    assert "| project: engram | scope: project" in text
    text, err = call(store, "mem_search", query="definitely-no-hit")
    assert not err and text == 'No memories found for: "definitely-no-hit"'
    text, err = call(store, "mem_search")
    assert err and text.startswith("Search error:") and text.endswith("Try simpler keywords.")


def test_update(store: Store) -> None:
    """Case 51."""
    call(store, "mem_save", title="t", content="c", project="engram")
    text, err = call(store, "mem_update", id=1.0, title="renamed")
    assert not err and text == 'Memory updated: #1 "renamed" (manual, scope=project)'
    assert call(store, "mem_update")[1] is True
    text, err = call(store, "mem_update", id=1.0)
    assert err and text == "provide at least one field to update"
    _, err = call(
        store,
        "mem_update",
        id=1.0,
        title="a",
        content="b",
        type="decision",
        project="p",
        scope="personal",
        topic_key="k/x",
    )
    assert not err and store.get(1).scope == "personal"
    text, err = call(store, "mem_update", id=99.0, title="x")
    assert err and text.startswith("Failed to update memory:")


def test_delete(store: Store) -> None:
    """Case 52."""
    call(store, "mem_save", title="t", content="c", project="engram")
    call(store, "mem_save", title="u", content="d", project="engram")
    assert call(store, "mem_delete", id=1.0) == ("Memory #1 soft-deleted", False)
    assert call(store, "mem_delete", id=2.0, hard_delete=True) == ("Memory #2 permanently deleted", False)
    assert call(store, "mem_delete")[1] is True


def test_get_observation(store: Store) -> None:
    """Case 53."""
    assert call(store, "mem_get_observation") == ("id is required", True)
    assert call(store, "mem_get_observation", id=9999.0) == ("Observation #9999 not found", True)
    store.passive_capture("s1", LEARNINGS, project="engram", source="mcp-passive")
    store.update(1, topic_key="architecture/auth-model")
    text, err = call(store, "mem_get_observation", id=1.0)
    assert not err
    assert "Topic: architecture/auth-model" in text and "Tool: mcp-passive" in text
    assert text.endswith("Revisions: 2\nCreated: " + store.get(1).created_at)


def test_context(db_path: Any) -> None:
    """Case 54."""
    with Store(db_path) as empty:
        assert call(empty, "mem_context") == ("No previous session memories found.", False)
        empty.start_session("only", "", "")
        text, err = call(empty, "mem_context")
        assert not err and "projects: none" in text
        call(empty, "mem_save", title="t", content="c", project="engram")
        text, _ = call(empty, "mem_context", project="engram", limit=3.0)
        assert "Memory stats: 2 sessions, 1 observations across projects: engram" in text


def test_stats(db_path: Any) -> None:
    """Case 55."""
    with Store(db_path) as empty:
        text, err = call(empty, "mem_stats")
        assert not err and text == (
            "Memory System Stats:\n- Sessions: 0\n- Observations: 0\n- Prompts: 0\n- Projects: none yet"
        )


def test_timeline(store: Store) -> None:
    """Case 56."""
    assert call(store, "mem_timeline") == ("observation_id is required", True)
    for name in ("first", "middle", "last"):
        call(store, "mem_save", title=name, content=f"{name} content", project="engram", session_id="s1")
    store.end_session("s1", "timeline summary")
    text, err = call(store, "mem_timeline", observation_id=2.0, before=5.0, after=5.0)
    assert not err
    assert text.startswith("Session: engram (")
    assert "— timeline summary\nTotal observations in session: 3" in text
    assert "─── Before ───\n  #1 [manual] first — first content\n" in text
    assert ">>> #2 [manual] middle <<<\n    middle content\n" in text
    assert text.endswith("─── After ───\n  #3 [manual] last — last content\n")


def test_capture_passive(store: Store) -> None:
    """Case 57."""
    text, err = call(store, "mem_capture_passive", content=LEARNINGS, project="engram")
    assert not err and "extracted=2" in text and "saved=2" in text
    assert {o.tool_name for o in store.recent_observations("engram")} == {"mcp-passive"}
    assert call(store, "mem_capture_passive")[1] is True
    text, err = call(store, "mem_capture_passive", content="nothing to learn", project="engram")
    assert not err and "extracted=0" in text and "saved=0" in text
    text, err = call(store, "mem_capture_passive", content=LEARNINGS, session_id="missing-session")
    assert err and text.startswith("Passive capture failed:")


def test_a_closed_store_gives_tool_errors_not_exceptions(store: Store) -> None:
    """Case 58: every handler that touches the store answers with isError."""
    store.close()
    calls: dict[str, dict[str, Any]] = {
        "mem_save": {"title": "t", "content": "c"},
        "mem_search": {"query": "q"},
        "mem_get_observation": {"id": 1.0},
        "mem_context": {},
        "mem_session_summary": {"content": "c", "project": "p"},
        "mem_session_start": {"id": "x", "project": "p"},
        "mem_session_end": {"id": "x"},
        "mem_save_prompt": {"content": "c"},
        "mem_update": {"id": 1.0, "title": "t"},
        "mem_delete": {"id": 1.0},
        "mem_stats": {},
        "mem_timeline": {"observation_id": 1.0},
        "mem_capture_passive": {"content": LEARNINGS},
    }
    for tool, args in calls.items():
        text, err = call(store, tool, **args)
        assert err, (tool, text)


def test_registry_matches_engram() -> None:
    """Case 59."""
    assert set(TOOLS) == set(HANDLERS) and len(TOOLS) == 14
    assert len(PROFILES["agent"]) == 11 and len(PROFILES["admin"]) == 3
    assert not set(PROFILES["agent"]) & set(PROFILES["admin"])
    assert {n for n, s in TOOLS.items() if s.core} == {
        "mem_search",
        "mem_save",
        "mem_context",
        "mem_session_summary",
    }
    assert {n for n, s in TOOLS.items() if s.read_only} == {
        "mem_search",
        "mem_context",
        "mem_get_observation",
        "mem_suggest_topic_key",
        "mem_stats",
        "mem_timeline",
    }
    assert {n for n, s in TOOLS.items() if s.destructive} == {"mem_delete"}
    assert all(s.title for s in TOOLS.values())
    for name in ("mem_save", "mem_search", "mem_context", "mem_session_summary"):
        assert name in INSTRUCTIONS
    schema = TOOLS["mem_timeline"].input_schema()
    assert schema["required"] == ["observation_id"] and schema["properties"]["before"]["type"] == "number"


@pytest.mark.parametrize(
    ("selection", "expected"),
    [
        ("", set(TOOLS)),
        ("all", set(TOOLS)),
        ("agent", set(PROFILES["agent"])),
        ("admin", set(PROFILES["admin"])),
        ("agent,admin", set(TOOLS)),
        ("mem_save,mem_search", {"mem_save", "mem_search"}),
        ("agent,mem_delete", {*PROFILES["agent"], "mem_delete"}),
        ("mem_save,all", set(TOOLS)),
        (" mem_save , mem_search ", {"mem_save", "mem_search"}),
        ("mem_save,,", {"mem_save"}),
        (",,,", set(TOOLS)),
    ],
)
def test_resolve_tools(selection: str, expected: set[str]) -> None:
    """Case 60."""
    assert resolve_tools(selection) == expected
    assert "mem_update" in resolve_tools("agent")


def test_int_arg() -> None:
    """Case 61: JSON numbers only; strings and booleans fall back to the default."""
    assert int_arg({"limit": 7.0}, "limit", 10) == 7
    assert int_arg({}, "limit", 10) == 10
    assert int_arg({"limit": "7"}, "limit", 10) == 10
    assert int_arg({"limit": True}, "limit", 10) == 10


def test_save_refuses_empty_content_and_warns_on_truncation(db_path: Any) -> None:
    """Our additions: no empty memories (engram #132), and a truncation the agent hears about (#41)."""
    with Store(db_path, max_observation_bytes=10) as store:
        assert call(store, "mem_save", title="t", content="   ")[1] is True
        text, err = call(store, "mem_save", title="t", content="x" * 50)
        assert not err and "truncated" in text


def test_string_arguments_of_the_wrong_type_count_as_missing(store: Store) -> None:
    """engram reads strings by type assertion: a number where a string belongs is absent."""
    text, err = call(store, "mem_session_start", id=5, project="p")
    assert err and text.startswith("Failed to start session: session id is empty")
