"""engram's MCP memory tools as plain functions: ``handler(backend, **arguments) -> (text, is_error)``.

Names, argument names, defaults and reply texts are engram's (baseline ``internal/mcp/mcp.go``), so an
agent configured for engram gets the answers it expects. Arguments are read the way engram's Go
handlers read JSON: a string argument of the wrong type counts as missing, numbers must be JSON
numbers (``7.0`` is 7; ``"7"`` falls back to the default), booleans must be JSON booleans. Every
failure is a ``(message, True)`` result, never an exception, so the MCP layer can return it with
``isError`` set. Descriptions, annotations and profiles for registration live in ``tool_specs``.

Additions over engram, both for the agent's benefit: ``mem_save`` refuses an empty title or content
(engram #132 stored empty memories) and warns when the content was truncated (engram #41).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Mapping
from typing import Any

from summarizer.core.errors import NotFound, SummarizerError
from summarizer_engram.backend import MemoryBackend
from summarizer_engram.normalize import default_session_id, display_truncate, go_quote
from summarizer_engram.topics import suggest_topic_key

__all__ = ["HANDLERS", "Handler", "ToolResult", "int_arg"]

ToolResult = tuple[str, bool]
Handler = Callable[..., ToolResult]

_UPDATABLE = ("title", "content", "type", "project", "scope", "topic_key")


def _str(args: Mapping[str, Any], name: str) -> str:
    value = args.get(name)
    return value if isinstance(value, str) else ""


_INT64 = 1 << 63
MAX_QUERY_CHARS = 2000
"""A search query longer than this is cut (a pasted log as a query made FTS5 OR thousands of terms:
35 s for 200 KB); :func:`~summarizer_engram.normalize.sanitize_fts` also keeps 64 distinct terms."""


def int_arg(args: Mapping[str, Any], name: str, default: int) -> int:
    """A JSON-number argument as int (floats truncated, as Go's ``int(float64)``); else ``default``."""
    value = args.get(name)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return default
    if isinstance(value, float) and not math.isfinite(value):
        return default
    # Range-checked before use: SQLite integers are 64-bit; a 4,000-digit number is not a limit or an id.
    return int(value) if -_INT64 <= value < _INT64 else default


def _bool(args: Mapping[str, Any], name: str) -> bool:
    value = args.get(name)
    return value if isinstance(value, bool) else False


def _ok(text: str) -> ToolResult:
    return text, False


def _err(text: str) -> ToolResult:
    return text, True


def _ensure_session(backend: MemoryBackend, session_id: str, project: str) -> str:
    """Default the session id and create the session; engram ignores a failure here on purpose."""
    session_id = session_id or default_session_id(project)
    # The save that follows reports the real problem (missing session, closed store).
    with contextlib.suppress(SummarizerError):
        backend.start_session(session_id, project, "")
    return session_id


def mem_save(backend: MemoryBackend, /, **args: Any) -> ToolResult:
    """Save an observation; suggests a topic_key when none was given."""
    title, content, project = _str(args, "title"), _str(args, "content"), _str(args, "project")
    type_ = _str(args, "type") or "manual"
    topic_key = _str(args, "topic_key")
    if not title.strip() or not content.strip():
        return _err("Failed to save: title and content are required; pass both as non-empty strings")
    session_id = _ensure_session(backend, _str(args, "session_id"), project)
    try:
        result = backend.save(
            session_id,
            title,
            content,
            type=type_,
            project=project,
            scope=_str(args, "scope") or "project",
            topic_key=topic_key,
        )
    except SummarizerError as exc:
        return _err(f"Failed to save: {exc}")
    text = f"Memory saved: {go_quote(title)} ({type_})"
    if not topic_key:
        text += f"\nSuggested topic_key: {suggest_topic_key(type_, title, content)}"
    if result.truncated:
        text += "\nWarning: content was too long and was truncated; split it into several memories"
    return _ok(text)


def mem_search(backend: MemoryBackend, /, **args: Any) -> ToolResult:
    """Full-text search over memories (the query is cut to :data:`MAX_QUERY_CHARS`)."""
    query = _str(args, "query")[:MAX_QUERY_CHARS]
    try:
        hits = backend.search(
            query,
            type=_str(args, "type"),
            project=_str(args, "project"),
            scope=_str(args, "scope"),
            limit=int_arg(args, "limit", 10),
        )
    except SummarizerError as exc:
        return _err(f"Search error: {exc}. Try simpler keywords.")
    if not hits:
        return _ok(f"No memories found for: {go_quote(query)}")
    parts = [f"Found {len(hits)} memories:\n\n"]
    for i, h in enumerate(hits, 1):
        project = f" | project: {h.project}" if h.project else ""
        parts.append(
            f"[{i}] #{h.id} ({h.type}) — {h.title}\n    {display_truncate(h.content, 300)}\n"
            f"    {h.created_at}{project} | scope: {h.scope}\n\n"
        )
    return _ok("".join(parts))


def mem_get_observation(backend: MemoryBackend, /, **args: Any) -> ToolResult:
    """One observation with its full, untruncated content."""
    id_ = int_arg(args, "id", 0)
    if id_ <= 0:
        return _err("id is required")
    try:
        o = backend.get(id_)
    except NotFound:
        return _err(f"Observation #{id_} not found")
    except SummarizerError as exc:
        return _err(f"Observation #{id_} could not be read: {exc}")
    lines = [f"#{o.id} [{o.type}] {o.title}", o.content, f"Session: {o.session_id}"]
    if o.project:
        lines.append(f"Project: {o.project}")
    lines.append(f"Scope: {o.scope}")
    if o.topic_key:
        lines.append(f"Topic: {o.topic_key}")
    if o.tool_name:
        lines.append(f"Tool: {o.tool_name}")
    lines += [
        f"Duplicates: {o.duplicate_count}",
        f"Revisions: {o.revision_count}",
        f"Created: {o.created_at}",
    ]
    return _ok("\n".join(lines))


def mem_context(backend: MemoryBackend, /, **args: Any) -> ToolResult:
    """Recent sessions, prompts and observations plus global stats (``limit`` is accepted, unused)."""
    try:
        context = backend.context(_str(args, "project"), _str(args, "scope"))
        if not context:
            return _ok("No previous session memories found.")
        stats = backend.stats()
    except SummarizerError as exc:
        return _err(f"Failed to get context: {exc}")
    projects = ", ".join(stats.projects) or "none"
    return _ok(
        f"{context}\n---\nMemory stats: {stats.total_sessions} sessions, "
        f"{stats.total_observations} observations across projects: {projects}"
    )


def mem_session_summary(backend: MemoryBackend, /, **args: Any) -> ToolResult:
    """Save an end-of-session summary as a ``session_summary`` observation."""
    content, project = _str(args, "content"), _str(args, "project")
    if not content.strip():
        return _err("Failed to save session summary: content is required")
    session_id = _ensure_session(backend, _str(args, "session_id"), project)
    try:
        backend.save(
            session_id, f"Session summary: {project}", content, type="session_summary", project=project
        )
    except SummarizerError as exc:
        return _err(f"Failed to save session summary: {exc}")
    return _ok(f"Session summary saved for project {go_quote(project)}")


def mem_session_start(backend: MemoryBackend, /, **args: Any) -> ToolResult:
    """Register the start of a session (fills blanks of an existing one)."""
    id_, project = _str(args, "id"), _str(args, "project")
    try:
        backend.start_session(id_, project, _str(args, "directory"))
    except SummarizerError as exc:
        return _err(f"Failed to start session: {exc}")
    return _ok(f"Session {go_quote(id_)} started for project {go_quote(project)}")


def mem_session_end(backend: MemoryBackend, /, **args: Any) -> ToolResult:
    """Mark a session completed."""
    id_ = _str(args, "id")
    try:
        backend.end_session(id_, _str(args, "summary"))
    except SummarizerError as exc:
        return _err(f"Failed to end session: {exc}")
    return _ok(f"Session {go_quote(id_)} completed")


def mem_save_prompt(backend: MemoryBackend, /, **args: Any) -> ToolResult:
    """Record what the user asked."""
    content, project = _str(args, "content"), _str(args, "project")
    if not content.strip():
        return _err("Failed to save prompt: content is required")
    session_id = _ensure_session(backend, _str(args, "session_id"), project)
    try:
        backend.add_prompt(session_id, content, project)
    except SummarizerError as exc:
        return _err(f"Failed to save prompt: {exc}")
    return _ok(f"Prompt saved: {go_quote(display_truncate(content, 80))}")


def mem_suggest_topic_key(backend: MemoryBackend, /, **args: Any) -> ToolResult:
    """Suggest a stable topic_key (pure; the backend is not touched)."""
    title, content = _str(args, "title"), _str(args, "content")
    if not title.strip() and not content.strip():
        return _err("provide title or content to suggest a topic_key")
    key = suggest_topic_key(_str(args, "type"), title, content)
    if not key:
        return _err("could not suggest topic_key from input")
    return _ok(f"Suggested topic_key: {key}")


def mem_update(backend: MemoryBackend, /, **args: Any) -> ToolResult:
    """Update the given fields of an observation by id."""
    id_ = int_arg(args, "id", 0)
    if id_ <= 0:
        return _err("id is required")
    fields = {name: args[name] for name in _UPDATABLE if isinstance(args.get(name), str)}
    if not fields:
        return _err("provide at least one field to update")
    try:
        o = backend.update(id_, **fields)
    except SummarizerError as exc:
        return _err(f"Failed to update memory: {exc}")
    return _ok(f"Memory updated: #{o.id} {go_quote(o.title)} ({o.type}, scope={o.scope})")


def mem_delete(backend: MemoryBackend, /, **args: Any) -> ToolResult:
    """Soft-delete an observation, or remove it with ``hard_delete``."""
    id_ = int_arg(args, "id", 0)
    if id_ <= 0:
        return _err("id is required")
    hard = _bool(args, "hard_delete")
    try:
        backend.delete(id_, hard=hard)
    except SummarizerError as exc:
        return _err(f"Failed to delete memory: {exc}")
    return _ok(f"Memory #{id_} permanently deleted" if hard else f"Memory #{id_} soft-deleted")


def mem_stats(backend: MemoryBackend, /, **args: Any) -> ToolResult:
    """Counts of sessions, observations, prompts and the projects."""
    try:
        s = backend.stats()
    except SummarizerError as exc:
        return _err(f"Failed to get stats: {exc}")
    projects = ", ".join(s.projects) or "none yet"
    return _ok(
        f"Memory System Stats:\n- Sessions: {s.total_sessions}\n"
        f"- Observations: {s.total_observations}\n- Prompts: {s.total_prompts}\n"
        f"- Projects: {projects}"
    )


def mem_timeline(backend: MemoryBackend, /, **args: Any) -> ToolResult:
    """An observation with what came before and after it in its session."""
    id_ = int_arg(args, "observation_id", 0)
    if id_ <= 0:
        return _err("observation_id is required")
    try:
        t = backend.timeline(id_, int_arg(args, "before", 5), int_arg(args, "after", 5))
    except SummarizerError as exc:
        return _err(f"Timeline error: {exc}")
    out: list[str] = []
    if t.session_info is not None:
        s = t.session_info
        summary = f" — {display_truncate(s.summary, 100)}" if s.summary else ""
        out.append(
            f"Session: {s.project} ({s.started_at}){summary}\n"
            f"Total observations in session: {t.total_in_range}\n\n"
        )
    if t.before:
        out.append("─── Before ───\n")
        out.extend(f"  #{e.id} [{e.type}] {e.title} — {display_truncate(e.content, 150)}\n" for e in t.before)
        out.append("\n")
    f = t.focus
    out.append(
        f">>> #{f.id} [{f.type}] {f.title} <<<\n    {display_truncate(f.content, 500)}\n"
        f"    {f.created_at}\n\n"
    )
    if t.after:
        out.append("─── After ───\n")
        out.extend(f"  #{e.id} [{e.type}] {e.title} — {display_truncate(e.content, 150)}\n" for e in t.after)
    return _ok("".join(out))


def mem_capture_passive(backend: MemoryBackend, /, **args: Any) -> ToolResult:
    """Extract and save the "Key Learnings" items from an agent's output."""
    content = _str(args, "content")
    if not content.strip():
        return _err("content is required — include text with a '## Key Learnings:' section")
    project = _str(args, "project")
    session_id = _str(args, "session_id")
    if not session_id:
        session_id = _ensure_session(backend, "", project)
    try:
        r = backend.passive_capture(session_id, content, project, _str(args, "source") or "mcp-passive")
    except SummarizerError as exc:
        return _err(f"Passive capture failed: {exc}")
    return _ok(f"Passive capture complete: extracted={r.extracted} saved={r.saved} duplicates={r.duplicates}")


HANDLERS: dict[str, Handler] = {
    "mem_save": mem_save,
    "mem_search": mem_search,
    "mem_context": mem_context,
    "mem_session_summary": mem_session_summary,
    "mem_session_start": mem_session_start,
    "mem_session_end": mem_session_end,
    "mem_get_observation": mem_get_observation,
    "mem_suggest_topic_key": mem_suggest_topic_key,
    "mem_capture_passive": mem_capture_passive,
    "mem_save_prompt": mem_save_prompt,
    "mem_update": mem_update,
    "mem_delete": mem_delete,
    "mem_stats": mem_stats,
    "mem_timeline": mem_timeline,
}
