"""The SQL of the store, kept in one place, and the row → model readers.

Each statement mirrors the one engram runs for the same operation, so both programs agree on what a
duplicate, a topic match or a project filter is. Two comparison styles are deliberate, as in engram:
dedupe and upsert compare ``ifnull(project,'') = ifnull(?,'')`` (no project matches no project), while
filters use a plain ``project = ?`` and are only applied when a project is given.

Functions here take an open connection and run inside the caller's transaction.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from summarizer_engram.models import Observation, Prompt, SearchResult, SessionSummary, Stats

__all__ = [
    "OBS_FIELDS",
    "SESSION_FIELDS",
    "as_dict",
    "latest_by_topic",
    "observation",
    "recent_observations",
    "recent_prompts",
    "recent_sessions",
    "search",
    "search_prompts",
    "stats",
]

OBS_FIELDS = (
    "id",
    "session_id",
    "type",
    "title",
    "content",
    "tool_name",
    "project",
    "scope",
    "topic_key",
    "revision_count",
    "duplicate_count",
    "last_seen_at",
    "created_at",
    "updated_at",
    "deleted_at",
)
SESSION_FIELDS = ("id", "project", "directory", "started_at", "ended_at", "summary")
PROMPT_FIELDS = ("id", "session_id", "content", "project", "created_at")
_OBS = ", ".join(f"o.{name}" for name in OBS_FIELDS)
_LIVE = "o.deleted_at IS NULL"

UPSERT_SESSION = """INSERT INTO sessions (id, project, directory) VALUES (?, ?, ?)
ON CONFLICT(id) DO UPDATE SET
  project = CASE WHEN sessions.project = '' THEN excluded.project ELSE sessions.project END,
  directory = CASE WHEN sessions.directory = '' THEN excluded.directory ELSE sessions.directory END"""
END_SESSION = "UPDATE sessions SET ended_at = datetime('now'), summary = ? WHERE id = ?"
GET_SESSION = f"SELECT {', '.join(SESSION_FIELDS)} FROM sessions WHERE id = ?"

# The unary ``+`` keeps SQLite from answering these lookups through idx_obs_scope / idx_obs_deleted /
# idx_obs_type: without ANALYZE statistics it picked idx_obs_scope, a scan of the whole scope (1 ms per
# save at a few hundred rows, linear after). ``INDEXED BY`` would do the same but fails outright on a
# file whose index differs; this only steers the planner to idx_obs_topic and idx_obs_dedupe.
_LIVE_NOINDEX = "+o.deleted_at IS NULL"
FIND_TOPIC = f"""SELECT id FROM observations o
WHERE topic_key = ? AND ifnull(project, '') = ifnull(?, '') AND +scope = ? AND {_LIVE_NOINDEX}
ORDER BY datetime(updated_at) DESC, datetime(created_at) DESC LIMIT 1"""
UPSERT_TOPIC = """UPDATE observations SET type = ?, title = ?, content = ?, tool_name = ?, topic_key = ?,
  normalized_hash = ?, revision_count = revision_count + 1, last_seen_at = datetime('now'),
  updated_at = datetime('now') WHERE id = ?"""
FIND_DUPLICATE = f"""SELECT id FROM observations o
WHERE normalized_hash = ? AND ifnull(project, '') = ifnull(?, '') AND +scope = ? AND +type = ? AND title = ?
  AND {_LIVE_NOINDEX} AND datetime(created_at) >= datetime('now', ?)
ORDER BY created_at DESC LIMIT 1"""
BUMP_DUPLICATE = """UPDATE observations SET duplicate_count = duplicate_count + 1,
  last_seen_at = datetime('now'), updated_at = datetime('now') WHERE id = ?"""
_INSERT_COLS = """session_id, type, title, content, tool_name, project, scope, topic_key, normalized_hash,
  revision_count, duplicate_count, last_seen_at, updated_at"""
INSERT_OBSERVATION = f"""INSERT INTO observations ({_INSERT_COLS})
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, 1, datetime('now'), datetime('now'))"""
INSERT_OBSERVATION_SYNC = f"""INSERT INTO observations ({_INSERT_COLS}, sync_id)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, 1, datetime('now'), datetime('now'),
  'obs-' || lower(hex(randomblob(16))))"""
FIND_HASH = f"""SELECT id FROM observations o
WHERE normalized_hash = ? AND ifnull(project, '') = ifnull(?, '') AND {_LIVE_NOINDEX} LIMIT 1"""

GET_OBSERVATION = f"SELECT {_OBS} FROM observations o WHERE o.id = ? AND {_LIVE}"
UPDATE_OBSERVATION = """UPDATE observations SET type = ?, title = ?, content = ?, project = ?, scope = ?,
  topic_key = ?, normalized_hash = ?, revision_count = revision_count + 1, updated_at = datetime('now')
WHERE id = ? AND deleted_at IS NULL"""
SOFT_DELETE = """UPDATE observations SET deleted_at = datetime('now'), updated_at = datetime('now')
WHERE id = ? AND deleted_at IS NULL"""
HARD_DELETE = "DELETE FROM observations WHERE id = ?"
TIMELINE_BEFORE = f"""SELECT {_OBS} FROM observations o WHERE o.session_id = ? AND o.id < ? AND {_LIVE}
ORDER BY o.id DESC LIMIT ?"""
TIMELINE_AFTER = f"""SELECT {_OBS} FROM observations o WHERE o.session_id = ? AND o.id > ? AND {_LIVE}
ORDER BY o.id ASC LIMIT ?"""
COUNT_SESSION_OBS = "SELECT COUNT(*) FROM observations o WHERE o.session_id = ? AND +o.deleted_at IS NULL"
INSERT_PROMPT = "INSERT INTO user_prompts (session_id, content, project) VALUES (?, ?, ?)"

# Title matches weigh 5x content, other columns nothing (engram PR #526). Weights beyond the table's
# columns are ignored and missing ones default to 1, so later FTS layouts work unchanged.
_BM25 = "bm25(observations_fts, 5.0, 1.0, 0.0, 0.0, 0.0)"


def as_dict(fields: Sequence[str], row: Sequence[Any]) -> dict[str, Any]:
    """Pair column names with a result row."""
    return dict(zip(fields, row, strict=False))


def observation(row: Sequence[Any]) -> Observation:
    """An :class:`Observation` from a row selected with ``OBS_FIELDS``."""
    return Observation.model_validate(as_dict(OBS_FIELDS, row))


def _filters(pairs: Sequence[tuple[str, str]]) -> tuple[str, list[Any]]:
    used = [(column, value) for column, value in pairs if value]
    return "".join(f" AND {column} = ?" for column, _ in used), [value for _, value in used]


def search(
    conn: sqlite3.Connection, expr: str, type_: str, project: str, scope: str, limit: int
) -> list[SearchResult]:
    """Ranked live observations matching the FTS5 expression ``expr``.

    Without filters, the best few candidates are ranked inside FTS5 first and only those are joined
    (joining every match of a common word cost twice the plain FTS5 query at 100k rows); if deleted rows
    or few matches leave fewer than ``limit``, the full join runs (cheap when matches are few). With
    filters, the full join runs directly.
    """
    where, args = _filters((("o.type", type_), ("o.project", project), ("o.scope", scope)))
    if not where:
        fetch = limit * 2 + 10
        sql = (
            f"SELECT {_OBS}, c.rank FROM (SELECT rowid AS id, {_BM25} AS rank FROM observations_fts "
            f"WHERE observations_fts MATCH ? ORDER BY rank LIMIT ?) c "
            f"JOIN observations o ON o.id = c.id WHERE {_LIVE} ORDER BY c.rank LIMIT ?"
        )
        rows = conn.execute(sql, (expr, fetch, limit)).fetchall()
        if len(rows) == limit:  # short: deleted rows among the candidates, or few matches (cheap either way)
            return [_hit(r) for r in rows]
    sql = (
        f"SELECT {_OBS}, {_BM25} AS rank FROM observations_fts fts "
        f"JOIN observations o ON o.id = fts.rowid "
        f"WHERE observations_fts MATCH ? AND {_LIVE}{where} ORDER BY rank LIMIT ?"
    )
    return [_hit(r) for r in conn.execute(sql, (expr, *args, limit)).fetchall()]


def _hit(row: Sequence[Any]) -> SearchResult:
    return SearchResult.model_validate({**as_dict(OBS_FIELDS, row), "rank": row[-1]})


def recent_observations(conn: sqlite3.Connection, project: str, scope: str, limit: int) -> list[Observation]:
    """Live observations newest-created first, optionally filtered by project and scope."""
    where, args = _filters((("o.project", project), ("+o.scope", scope)))
    # Not through idx_obs_deleted or idx_obs_scope (every live row, then a sort): walk idx_obs_created
    # newest first and stop at ``limit``.
    sql = f"SELECT {_OBS} FROM observations o WHERE {_LIVE_NOINDEX}{where} ORDER BY o.created_at DESC LIMIT ?"
    return [observation(r) for r in conn.execute(sql, (*args, limit))]


def latest_by_topic(conn: sqlite3.Connection, prefix: str, project: str, scope: str) -> Observation | None:
    """Newest-updated live observation whose topic_key starts with ``prefix``."""
    where, args = _filters((("o.project", project), ("o.scope", scope)))
    # A range on the BINARY-collated key is an exact prefix test that can use idx_obs_topic.
    sql = (
        f"SELECT {_OBS} FROM observations o WHERE {_LIVE_NOINDEX} AND o.topic_key >= ? "
        f"AND o.topic_key < ?{where} ORDER BY datetime(o.updated_at) DESC, o.id DESC LIMIT 1"
    )
    row = conn.execute(sql, (prefix, prefix + "\U0010ffff", *args)).fetchone()
    return observation(row) if row else None


def recent_sessions(conn: sqlite3.Connection, project: str, limit: int) -> list[SessionSummary]:
    """Sessions ordered by their newest live observation (or start time), with observation counts.

    engram's single GROUP BY over every observation took about 2 s at 100k rows. Same order, found
    cheaply: walk observations newest first until ``limit`` sessions are seen (no other session's
    newest observation can be later), add the sessions without live observations by start time, take
    the newest ``limit`` of both, and count observations for those only.
    """
    projects = dict(conn.execute("SELECT id, project FROM sessions").fetchall())
    activity: dict[str, str] = {}
    walk = conn.execute(
        f"SELECT o.session_id, o.created_at FROM observations o WHERE {_LIVE_NOINDEX} "
        "ORDER BY o.created_at DESC"
    )
    for session_id, created_at in walk:
        wanted = session_id in projects and (not project or projects[session_id] == project)
        if wanted and session_id not in activity:
            activity[session_id] = created_at
            if len(activity) >= limit:
                break
    where = " AND s.project = ?" if project else ""
    idle = conn.execute(
        f"SELECT s.id, s.started_at FROM sessions s WHERE NOT EXISTS (SELECT 1 FROM observations o "
        f"WHERE o.session_id = s.id AND {_LIVE_NOINDEX}){where} ORDER BY s.started_at DESC LIMIT ?",
        (project, limit) if project else (limit,),
    )
    for session_id, started_at in idle:
        activity.setdefault(session_id, started_at)
    chosen = sorted(activity.items(), key=lambda item: item[1], reverse=True)[:limit]
    fields = ("id", "project", "started_at", "ended_at", "summary", "observation_count")
    sql = (
        f"SELECT s.id, s.project, s.started_at, s.ended_at, s.summary, (SELECT COUNT(*) "
        f"FROM observations o WHERE o.session_id = s.id AND {_LIVE_NOINDEX}) "
        "FROM sessions s WHERE s.id = ?"
    )
    return [
        SessionSummary.model_validate(as_dict(fields, conn.execute(sql, (sid,)).fetchone()))
        for sid, _ in chosen
    ]


def _prompt(row: Sequence[Any]) -> Prompt:
    return Prompt.model_validate(as_dict(PROMPT_FIELDS, row))


def recent_prompts(conn: sqlite3.Connection, project: str, limit: int) -> list[Prompt]:
    """Prompts newest first; a NULL project reads as ``""``."""
    where = " WHERE project = ?" if project else ""
    sql = (
        f"SELECT id, session_id, content, ifnull(project, ''), created_at FROM user_prompts{where} "
        "ORDER BY created_at DESC, id DESC LIMIT ?"
    )
    return [_prompt(r) for r in conn.execute(sql, (project, limit) if project else (limit,))]


def search_prompts(conn: sqlite3.Connection, expr: str, project: str, limit: int) -> list[Prompt]:
    """Prompts matching the FTS5 expression, best first."""
    where = " AND p.project = ?" if project else ""
    sql = (
        "SELECT p.id, p.session_id, p.content, ifnull(p.project, ''), p.created_at FROM prompts_fts fts "
        f"JOIN user_prompts p ON p.id = fts.rowid WHERE prompts_fts MATCH ?{where} "
        "ORDER BY fts.rank LIMIT ?"
    )
    args = (expr, project, limit) if project else (expr, limit)
    return [_prompt(r) for r in conn.execute(sql, args)]


def stats(conn: sqlite3.Connection) -> Stats:
    """Whole-store counts; ``projects`` holds projects with live observations, most recent first."""
    sessions = conn.execute("SELECT COUNT(*) FROM sessions").fetchone()[0]
    observations = conn.execute(f"SELECT COUNT(*) FROM observations o WHERE {_LIVE}").fetchone()[0]
    prompts = conn.execute("SELECT COUNT(*) FROM user_prompts").fetchone()[0]
    return Stats(
        total_sessions=sessions,
        total_observations=observations,
        total_prompts=prompts,
        projects=_projects_by_recency(conn),
    )


def _projects_by_recency(conn: sqlite3.Connection) -> list[str]:
    """Projects with live observations, the most recently active first.

    engram groups every observation (1 s at 100k rows); walking newest first and stopping once every
    project of the (index-only) distinct list has been seen gives the same order, usually early.
    """
    known = {r[0] for r in conn.execute("SELECT DISTINCT project FROM observations WHERE project NOT NULL")}
    ordered: list[str] = []
    seen: set[str] = set()
    walk = conn.execute(
        f"SELECT o.project FROM observations o WHERE {_LIVE_NOINDEX} "
        "AND +o.project IS NOT NULL ORDER BY o.created_at DESC"
    )
    for (project,) in walk:
        if project not in seen:
            seen.add(project)
            ordered.append(project)
            if len(seen) == len(known):
                break
    return ordered
