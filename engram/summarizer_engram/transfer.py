"""Export and import in engram's ``ExportData`` format, with re-import that adds nothing.

engram's baseline import inserted every observation again with a new id, so importing the same export
twice doubled the memory (later fixed with a ``sync_id``:
https://github.com/Gentleman-Programming/engram/issues/531).
The baseline schema has no such id, so rows are recognised by their natural key instead:

* sessions by id (``INSERT OR IGNORE``, as engram);
* observations by (session, type, title, content, project, scope, created_at): two genuinely different
  memories never agree on all of these, and an export round trip preserves all of them;
* prompts by (session, content, created_at).

The import is one transaction: a row whose session is missing aborts it whole, so nothing is half
imported.
"""

from __future__ import annotations

import sqlite3

from summarizer.core.errors import InputError
from summarizer_engram import queries as q
from summarizer_engram.models import ExportData, ImportResult, Observation, Prompt, Session
from summarizer_engram.normalize import (
    hash_normalized,
    normalize_scope,
    normalize_topic_key,
    nullable,
    strip_private,
    truncate_content,
)

__all__ = ["export_rows", "import_rows"]

_EXPORT_OBS = f"SELECT {', '.join(q.OBS_FIELDS)} FROM observations ORDER BY id"
_OBS_EXISTS = """SELECT 1 FROM observations WHERE session_id = ? AND type = ? AND title = ? AND content = ?
  AND ifnull(project, '') = ifnull(?, '') AND scope = ? AND created_at = ? LIMIT 1"""
_IMPORT_OBS = """INSERT INTO observations (session_id, type, title, content, tool_name, project, scope,
  topic_key, normalized_hash, revision_count, duplicate_count, last_seen_at, created_at, updated_at,
  deleted_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"""
_IMPORT_PROMPT = "INSERT INTO user_prompts (session_id, content, project, created_at) VALUES (?, ?, ?, ?)"
_PROMPT_EXISTS = "SELECT 1 FROM user_prompts WHERE session_id = ? AND content = ? AND created_at = ? LIMIT 1"


def export_rows(conn: sqlite3.Connection) -> ExportData:
    """All sessions (by start), observations including soft-deleted (by id) and prompts (by id)."""
    sessions = [
        Session.model_validate(q.as_dict(q.SESSION_FIELDS, r))
        for r in conn.execute(f"SELECT {', '.join(q.SESSION_FIELDS)} FROM sessions ORDER BY started_at, id")
    ]
    observations = [q.observation(r) for r in conn.execute(_EXPORT_OBS)]
    prompts = [
        Prompt.model_validate(q.as_dict(q.PROMPT_FIELDS, r))
        for r in conn.execute(
            "SELECT id, session_id, content, ifnull(project, ''), created_at FROM user_prompts ORDER BY id"
        )
    ]
    now = conn.execute("SELECT datetime('now')").fetchone()[0]
    return ExportData(exported_at=now, sessions=sessions, observations=observations, prompts=prompts)


def _import_observation(conn: sqlite3.Connection, o: Observation, max_bytes: int) -> bool:
    content, _ = truncate_content(strip_private(o.content), max_bytes)
    title, scope = strip_private(o.title), normalize_scope(o.scope)
    exists = conn.execute(_OBS_EXISTS, (o.session_id, o.type, title, content, o.project, scope, o.created_at))
    if exists.fetchone():
        return False
    conn.execute(
        _IMPORT_OBS,
        (
            o.session_id,
            o.type,
            title,
            content,
            o.tool_name,
            nullable(o.project),
            scope,
            nullable(normalize_topic_key(o.topic_key)),
            hash_normalized(content),
            max(o.revision_count, 1),
            max(o.duplicate_count, 1),
            o.last_seen_at,
            o.created_at,
            o.updated_at or o.created_at,
            o.deleted_at,
        ),
    )
    return True


def import_rows(conn: sqlite3.Connection, data: ExportData, max_bytes: int) -> ImportResult:
    """Insert what ``data`` has and the database lacks; raise :class:`InputError` on an orphan row."""
    sessions = observations = prompts = 0
    for s in data.sessions:
        cur = conn.execute(
            "INSERT OR IGNORE INTO sessions (id, project, directory, started_at, ended_at, summary) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (s.id, s.project, s.directory, s.started_at, s.ended_at, s.summary),
        )
        sessions += cur.rowcount
    for i, o in enumerate(data.observations):
        try:
            observations += _import_observation(conn, o, max_bytes)
        except sqlite3.IntegrityError as exc:
            raise InputError(
                f"import observation {i}: {exc} (session {o.session_id!r} is in neither the "
                "export nor the store); nothing was imported"
            ) from exc
    for i, p in enumerate(data.prompts):
        if conn.execute(_PROMPT_EXISTS, (p.session_id, p.content, p.created_at)).fetchone():
            continue
        try:
            conn.execute(_IMPORT_PROMPT, (p.session_id, p.content, p.project, p.created_at))
        except sqlite3.IntegrityError as exc:
            raise InputError(
                f"import prompt {i}: {exc} (session {p.session_id!r} is in neither the export "
                "nor the store); nothing was imported"
            ) from exc
        prompts += 1
    return ImportResult(
        sessions_imported=sessions, observations_imported=observations, prompts_imported=prompts
    )
