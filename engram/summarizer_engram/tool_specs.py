"""How engram presents its memory tools to an agent: descriptions, input schemas, annotations, profiles.

The MCP server registers each :data:`TOOLS` entry with its handler from ``tools.HANDLERS``. The
input schema is engram's (names, types, required), and so are the annotations: read-only tools are
marked so, ``mem_delete`` is the only destructive one, and all but the four core tools are
``defer_loading`` candidates for clients with tool search. ``resolve_tools`` reproduces engram's
``--tools`` flag (``agent``, ``admin``, ``all`` or names, comma-separated).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

__all__ = ["INSTRUCTIONS", "PROFILES", "TOOLS", "ToolSpec", "resolve_tools"]

INSTRUCTIONS = (
    "Engram provides persistent memory that survives across sessions and context compactions. Search these "
    "tools when you need to: save decisions, bugs, architecture choices, or discoveries to memory; recall or "
    "search past work from previous sessions; manage coding session lifecycle (start, end, summarize); "
    "recover context after compaction. Key tools: mem_save, mem_search, mem_context, mem_session_summary, "
    "mem_get_observation, mem_suggest_topic_key."
)

SESSION_SUMMARY_FORMAT = """## Goal
[One sentence: what were we building/working on in this session]

## Instructions
[User preferences, constraints, or context discovered during this session. Skip if nothing notable.]

## Discoveries
- [Technical finding, gotcha, or learning 1]
- [Technical finding 2]

## Accomplished
- ✅ [Completed task 1 — with key implementation details]
- 🔲 [Identified but not yet done — for next session]

## Relevant Files
- path/to/file.ts — [what it does or what changed]"""

ParamType = Literal["string", "number", "boolean"]


class ToolSpec(BaseModel):
    """One MCP tool as engram declares it."""

    model_config = ConfigDict(frozen=True)
    name: str
    title: str
    description: str
    params: dict[str, tuple[ParamType, str]]
    required: tuple[str, ...] = ()
    read_only: bool = False
    destructive: bool = False
    core: bool = False
    profile: Literal["agent", "admin"] = "agent"

    def input_schema(self) -> dict[str, Any]:
        """The JSON schema of the tool's arguments."""
        props = {k: {"type": t, "description": d} for k, (t, d) in self.params.items()}
        return {"type": "object", "properties": props, "required": list(self.required)}


_S: ParamType = "string"
_N: ParamType = "number"
_B: ParamType = "boolean"

_ALL = (
    ToolSpec(
        name="mem_save",
        title="Save Memory",
        core=True,
        required=("title", "content"),
        description=(
            "Save an important observation to persistent memory. Call this PROACTIVELY after completing "
            "significant work: a decision, a bug fix, an architecture choice, a discovery, a pattern, "
            "a config change. FORMAT for content: **What**: what was done **Why**: the reason "
            "**Where**: files or paths "
            "**Learned**: gotchas or edge cases. TITLE should be short and searchable."
        ),
        params={
            "title": (_S, "Short, searchable title (e.g. 'JWT auth middleware')"),
            "content": (_S, "Structured content using **What**, **Why**, **Where**, **Learned**"),
            "type": (
                _S,
                "Category: decision, architecture, bugfix, pattern, config, discovery, learning "
                "(default: manual)",
            ),
            "session_id": (_S, "Session ID to associate with (default: manual-save-{project})"),
            "project": (_S, "Project name"),
            "scope": (_S, "Scope for this observation: project (default) or personal"),
            "topic_key": (
                _S,
                "Optional topic identifier for upserts (e.g. architecture/auth-model). Reuses and "
                "updates the latest observation in same project+scope.",
            ),
        },
    ),
    ToolSpec(
        name="mem_search",
        title="Search Memory",
        core=True,
        read_only=True,
        required=("query",),
        description="Search your persistent memory across all sessions. Use this to find past "
        "decisions, bugs fixed, patterns used, files changed, or any context from previous coding "
        "sessions.",
        params={
            "query": (_S, "Search query - natural language or keywords"),
            "type": (
                _S,
                "Filter by type: tool_use, file_change, command, file_read, search, "
                "manual, decision, architecture, bugfix, pattern",
            ),
            "project": (_S, "Filter by project name"),
            "scope": (_S, "Filter by scope: project (default) or personal"),
            "limit": (_N, "Max results (default: 10, max: 20)"),
        },
    ),
    ToolSpec(
        name="mem_context",
        title="Get Memory Context",
        core=True,
        read_only=True,
        description="Get recent memory context from previous sessions. Shows recent sessions and "
        "observations to understand what was done before.",
        params={
            "project": (_S, "Filter by project (omit for all projects)"),
            "scope": (_S, "Filter observations by scope: project (default) or personal"),
            "limit": (_N, "Number of observations to retrieve (default: 20)"),
        },
    ),
    ToolSpec(
        name="mem_session_summary",
        title="Save Session Summary",
        core=True,
        required=("content", "project"),
        description="Save a comprehensive end-of-session summary. Call "
        "this when a session is ending or when significant work is complete. FORMAT:\n\n"
        + SESSION_SUMMARY_FORMAT,
        params={
            "content": (
                _S,
                "Full session summary using the Goal/Instructions/Discoveries/Accomplished/Files format",
            ),
            "session_id": (_S, "Session ID (default: manual-save-{project})"),
            "project": (_S, "Project name"),
        },
    ),
    ToolSpec(
        name="mem_session_start",
        title="Start Session",
        required=("id", "project"),
        description="Register the start of a new coding session.",
        params={
            "id": (_S, "Unique session identifier"),
            "project": (_S, "Project name"),
            "directory": (_S, "Working directory"),
        },
    ),
    ToolSpec(
        name="mem_session_end",
        title="End Session",
        required=("id",),
        description="Mark a coding session as completed with an optional summary.",
        params={"id": (_S, "Session identifier to close"), "summary": (_S, "Summary of what was done")},
    ),
    ToolSpec(
        name="mem_get_observation",
        title="Get Observation",
        read_only=True,
        required=("id",),
        description="Get the full content of a specific observation by ID. Use when you need the "
        "complete, untruncated content of an observation found via mem_search or mem_timeline.",
        params={"id": (_N, "The observation ID to retrieve")},
    ),
    ToolSpec(
        name="mem_suggest_topic_key",
        title="Suggest Topic Key",
        read_only=True,
        description="Suggest a stable topic_key for memory upserts. Use this before mem_save when you "
        "want evolving topics (like architecture decisions) to update a single observation over time.",
        params={
            "type": (_S, "Observation type/category, e.g. architecture, decision, bugfix"),
            "title": (_S, "Observation title (preferred input for stable keys)"),
            "content": (_S, "Observation content used as fallback if title is empty"),
        },
    ),
    ToolSpec(
        name="mem_capture_passive",
        title="Capture Learnings",
        required=("content",),
        description="Extract and save structured learnings from text output. Use this at the end of a "
        "task to capture knowledge automatically. Looks for sections like '## Key Learnings:' or "
        "'## Aprendizajes Clave:' and extracts numbered or bulleted items. Duplicates are skipped.",
        params={
            "content": (_S, "The text output containing a '## Key Learnings:' section"),
            "session_id": (_S, "Session ID (default: manual-save-{project})"),
            "project": (_S, "Project name"),
            "source": (_S, "Source identifier (e.g. 'subagent-stop', 'session-end')"),
        },
    ),
    ToolSpec(
        name="mem_save_prompt",
        title="Save User Prompt",
        required=("content",),
        description="Save a user prompt to persistent memory. Use this to record what the user asked, "
        "their intent, questions and requests, so future sessions have context about the user's goals.",
        params={
            "content": (_S, "The user's prompt text"),
            "session_id": (_S, "Session ID to associate with (default: manual-save-{project})"),
            "project": (_S, "Project name"),
        },
    ),
    ToolSpec(
        name="mem_update",
        title="Update Memory",
        required=("id",),
        description="Update an existing observation by ID. Only provided fields are changed.",
        params={
            "id": (_N, "Observation ID to update"),
            "title": (_S, "New title"),
            "content": (_S, "New content"),
            "type": (_S, "New type/category"),
            "project": (_S, "New project value"),
            "scope": (_S, "New scope: project or personal"),
            "topic_key": (_S, "New topic key (normalized internally)"),
        },
    ),
    ToolSpec(
        name="mem_delete",
        title="Delete Memory",
        destructive=True,
        profile="admin",
        required=("id",),
        description="Delete an observation by ID. Soft-delete by default; set hard_delete=true for "
        "permanent deletion.",
        params={
            "id": (_N, "Observation ID to delete"),
            "hard_delete": (_B, "If true, permanently deletes the observation"),
        },
    ),
    ToolSpec(
        name="mem_stats",
        title="Memory Stats",
        read_only=True,
        profile="admin",
        params={},
        description="Show memory system statistics: total sessions, observations, and projects tracked.",
    ),
    ToolSpec(
        name="mem_timeline",
        title="Memory Timeline",
        read_only=True,
        profile="admin",
        required=("observation_id",),
        description="Show chronological context around a specific "
        "observation: what happened before and after it in the same session.",
        params={
            "observation_id": (_N, "The observation ID to center the timeline on"),
            "before": (_N, "Number of observations to show before the focus (default: 5)"),
            "after": (_N, "Number of observations to show after the focus (default: 5)"),
        },
    ),
)

TOOLS: dict[str, ToolSpec] = {spec.name: spec for spec in _ALL}
PROFILES: dict[str, tuple[str, ...]] = {
    "agent": tuple(s.name for s in _ALL if s.profile == "agent"),
    "admin": tuple(s.name for s in _ALL if s.profile == "admin"),
}


def resolve_tools(selection: str) -> set[str]:
    """Tool names for engram's ``--tools`` value: ``""``/``all`` → all; profiles expand; names kept."""
    tokens = [t.strip() for t in selection.split(",") if t.strip()]
    if not tokens or "all" in tokens:
        return set(TOOLS)
    chosen: set[str] = set()
    for token in tokens:
        chosen.update(PROFILES.get(token, (token,)))
    return chosen
