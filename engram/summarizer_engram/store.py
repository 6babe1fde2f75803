"""The embedded engram store: engram's SQLite file and engram's save/search semantics.

``Store(db_path)`` opens (creating or migrating) an engram database and offers the operations of
engram's ``internal/store`` with the same rules, so the real ``engram`` binary and this store can share
one file. Decisions that differ from engram v1.7, all taken from later engram releases or docs/engram.md:

* content is capped at 50,000 bytes (not 2,000), cut on a UTF-8 boundary, and the cut is reported;
* search OR-joins the quoted terms and weighs title matches 5x content (https://github.com/Gentleman-Programming/engram/pull/526);
* ``save`` reports whether it inserted, upserted a topic or counted a duplicate;
* a missing observation is :class:`NotFound` for get, update and delete alike;
* re-importing an export adds nothing (https://github.com/Gentleman-Programming/engram/issues/531).

All writes are single transactions retried on lock contention (see ``_db``); timestamps are written by
SQLite's ``datetime('now')``, UTC ``YYYY-MM-DD HH:MM:SS``, as engram writes them.
"""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path
from typing import Any

from summarizer.core.errors import InputError, NotFound, StorageError
from summarizer_engram import queries as q
from summarizer_engram._db import Database
from summarizer_engram.capture import extract_learnings, learning_title
from summarizer_engram.context import format_context
from summarizer_engram.models import (
    ExportData,
    ImportResult,
    Observation,
    PassiveCaptureResult,
    Prompt,
    SaveResult,
    SearchResult,
    Session,
    SessionSummary,
    Stats,
    TimelineEntry,
    TimelineResult,
)
from summarizer_engram.normalize import (
    MAX_OBSERVATION_BYTES,
    dedupe_window_expr,
    hash_normalized,
    normalize_scope,
    normalize_topic_key,
    nullable,
    sanitize_fts,
    strip_private,
    truncate_content,
)
from summarizer_engram.schema import backfill, migrate, needs_backfill, observation_columns
from summarizer_engram.transfer import export_rows, import_rows

__all__ = ["Store"]

MAX_SEARCH_RESULTS = 20


def _check_id(value: object, what: str = "observation id") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise InputError(f"invalid {what} {value!r}; pass a positive integer such as 42")
    return value


def _session_missing(session_id: str) -> NotFound:
    return NotFound(
        f"session {session_id!r} does not exist (FOREIGN KEY constraint failed); start it first "
        "with mem_session_start / POST /sessions, or omit session_id to use the default session"
    )


def _migrate(conn: sqlite3.Connection) -> dict[str, int]:
    migrate(conn)
    return observation_columns(conn)


class Store:
    """An engram database on disk (implements :class:`summarizer_engram.backend.MemoryBackend`).

    Args:
        db_path: the SQLite file, usually ``Settings.engram_db`` (``$ENGRAM_DATA_DIR/engram.db``).
        dedupe_window: how long an identical save counts as a duplicate (engram: 15 minutes).
        max_observation_bytes: content cap in UTF-8 bytes before ``... [truncated]`` is appended.
        lock_wait_s: how long a transaction keeps retrying while another process holds the lock.
    """

    def __init__(
        self,
        db_path: Path | str,
        *,
        dedupe_window: timedelta = timedelta(minutes=15),
        max_observation_bytes: int = MAX_OBSERVATION_BYTES,
        lock_wait_s: float = 30.0,
    ) -> None:
        self.path = Path(db_path)
        self.max_observation_bytes = max_observation_bytes
        self._window = dedupe_window_expr(dedupe_window)
        self._db = Database(self.path, lock_wait_s=lock_wait_s)
        try:
            columns = self._db.write(_migrate)
            if self._db.read(needs_backfill):
                self._db.write(backfill)
        except StorageError:
            self._db.close()
            raise
        # Later engram layouts carry a sync_id per row; fill it so their sync code finds our rows.
        self._insert_sql = q.INSERT_OBSERVATION_SYNC if "sync_id" in columns else q.INSERT_OBSERVATION

    def close(self) -> None:
        """Close the database; any later call raises :class:`StorageError`."""
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ── sessions ────────────────────────────────────────────────────────────────────────────────

    def start_session(self, id: str, project: str, directory: str = "") -> None:
        """Create a session, or fill its blank project/directory; never overwrites (engram #25)."""
        if not id:
            raise InputError("session id is empty; pass a session id such as 'claude-2026-05-01'")
        self._db.write(lambda c: c.execute(q.UPSERT_SESSION, (id, project or "", directory or "")))

    def end_session(self, id: str, summary: str = "") -> None:
        """Mark a session ended (with an optional summary); an unknown id is a no-op, as in engram."""
        self._db.write(lambda c: c.execute(q.END_SESSION, (nullable(summary), id)))

    def get_session(self, id: str) -> Session:
        """One session by id; :class:`NotFound` when absent."""
        row = self._db.read(lambda c: c.execute(q.GET_SESSION, (id,)).fetchone())
        if row is None:
            raise NotFound(f"session {id!r} not found; list sessions with recent_sessions()")
        return Session.model_validate(q.as_dict(q.SESSION_FIELDS, row))

    def recent_sessions(self, project: str = "", limit: int = 5) -> list[SessionSummary]:
        """Sessions by latest activity (newest observation, else start), with live observation counts."""
        return self._db.read(lambda c: q.recent_sessions(c, project, limit if limit > 0 else 5))

    # ── observations ────────────────────────────────────────────────────────────────────────────

    def save(
        self,
        session_id: str,
        title: str,
        content: str,
        *,
        type: str = "manual",
        project: str = "",
        scope: str = "project",
        topic_key: str = "",
        tool_name: str = "",
    ) -> SaveResult:
        """Save an observation with engram's ``AddObservation`` rules; see the module docstring.

        A non-empty ``topic_key`` updates the newest live observation with the same
        (topic_key, project, scope) and raises its ``revision_count``; otherwise an identical
        (hash, project, scope, type, title) save within the duplicate window raises
        ``duplicate_count``; otherwise a row is inserted. The session must exist.
        """
        return self._db.write(
            lambda c: self._add(
                c, session_id, type or "manual", title, content, project, scope, topic_key, tool_name
            )
        )

    def _add(
        self,
        conn: sqlite3.Connection,
        session_id: str,
        type_: str,
        title: str,
        content: str,
        project: str,
        scope: str,
        topic_key: str,
        tool_name: str,
    ) -> SaveResult:
        title = strip_private(title)
        body, truncated = truncate_content(strip_private(content), self.max_observation_bytes)
        scope, key, proj = normalize_scope(scope), normalize_topic_key(topic_key), nullable(project)
        digest = hash_normalized(body)
        if key:
            row = conn.execute(q.FIND_TOPIC, (key, proj, scope)).fetchone()
            if row is not None:
                conn.execute(q.UPSERT_TOPIC, (type_, title, body, nullable(tool_name), key, digest, row[0]))
                return SaveResult(id=row[0], action="upserted", truncated=truncated)
        row = conn.execute(q.FIND_DUPLICATE, (digest, proj, scope, type_, title, self._window)).fetchone()
        if row is not None:
            conn.execute(q.BUMP_DUPLICATE, (row[0],))
            return SaveResult(id=row[0], action="deduplicated", truncated=truncated)
        try:
            cur = conn.execute(
                self._insert_sql,
                (session_id, type_, title, body, nullable(tool_name), proj, scope, nullable(key), digest),
            )
        except sqlite3.IntegrityError as exc:
            if "FOREIGN KEY" in str(exc):
                raise _session_missing(session_id) from exc
            raise StorageError(f"engram rejected the observation: {exc}; check title and content") from exc
        return SaveResult(id=int(cur.lastrowid or 0), action="inserted", truncated=truncated)

    def get(self, id: int) -> Observation:
        """A live observation by id (soft-deleted ones are not found), full content."""
        _check_id(id)
        row = self._db.read(lambda c: c.execute(q.GET_OBSERVATION, (id,)).fetchone())
        if row is None:
            raise NotFound(f"observation #{id} not found (never saved or deleted); find ids with search()")
        return q.observation(row)

    def update(self, id: int, **fields: str | None) -> Observation:
        """Change the given fields (type, title, content, project, scope, topic_key) and bump the revision.

        Only keyword arguments that are not ``None`` are applied; ``project=""`` and ``topic_key=""``
        clear the value (NULL), as in engram.
        """
        _check_id(id)
        unknown = set(fields) - {"type", "title", "content", "project", "scope", "topic_key"}
        if unknown:
            raise InputError(
                f"cannot update {sorted(unknown)!r}; updatable: type, title, content, project, "
                "scope, topic_key"
            )
        given = {k: v for k, v in fields.items() if v is not None}
        if not given:
            raise InputError(
                "provide at least one field to update (title, content, type, project, scope, topic_key)"
            )
        return self._db.write(lambda c: self._update(c, id, given))

    def _update(self, conn: sqlite3.Connection, id: int, given: dict[str, str]) -> Observation:
        row = conn.execute(q.GET_OBSERVATION, (id,)).fetchone()
        if row is None:
            raise NotFound(f"observation #{id} not found (never saved or deleted); nothing was updated")
        cur = q.observation(row)
        values: dict[str, Any] = {
            "type": given.get("type", cur.type),
            "title": strip_private(given["title"]) if "title" in given else cur.title,
            "content": truncate_content(strip_private(given["content"]), self.max_observation_bytes)[0]
            if "content" in given
            else cur.content,
            "project": nullable(given["project"]) if "project" in given else cur.project,
            "scope": normalize_scope(given["scope"]) if "scope" in given else cur.scope,
            "topic_key": nullable(normalize_topic_key(given["topic_key"]))
            if "topic_key" in given
            else cur.topic_key,
        }
        conn.execute(
            q.UPDATE_OBSERVATION,
            (
                values["type"],
                values["title"],
                values["content"],
                values["project"],
                values["scope"],
                values["topic_key"],
                hash_normalized(values["content"]),
                id,
            ),
        )
        return q.observation(conn.execute(q.GET_OBSERVATION, (id,)).fetchone())

    def delete(self, id: int, *, hard: bool = False) -> None:
        """Soft-delete (hidden everywhere, kept for export) or, with ``hard``, remove the row."""
        _check_id(id)
        sql = q.HARD_DELETE if hard else q.SOFT_DELETE
        changed = self._db.write(lambda c: c.execute(sql, (id,)).rowcount)
        if not changed:
            raise NotFound(
                f"observation #{id} not found (never saved or already deleted); nothing was deleted"
            )

    def search(
        self, query: str, *, type: str = "", project: str = "", scope: str = "", limit: int = 10
    ) -> list[SearchResult]:
        """Full-text search: quoted terms OR-joined, BM25 ranked, live rows only; ``[]`` without hits.

        ``limit`` defaults to 10 and is capped at 20; ``type``/``project``/``scope`` filter exactly.
        """
        expr = sanitize_fts(query)
        if not expr:
            raise InputError("search query is empty; pass at least one keyword")
        limit = min(limit if limit > 0 else 10, MAX_SEARCH_RESULTS)
        scope = normalize_scope(scope) if scope else ""
        return self._db.read(lambda c: q.search(c, expr, type, project, scope, limit))

    def recent_observations(self, project: str = "", scope: str = "", limit: int = 20) -> list[Observation]:
        """Live observations, newest created first (a topic upsert keeps its original position)."""
        scope = normalize_scope(scope) if scope else ""
        return self._db.read(lambda c: q.recent_observations(c, project, scope, limit if limit > 0 else 20))

    def latest_by_topic(self, prefix: str, *, project: str = "", scope: str = "") -> Observation | None:
        """The most recently updated live observation whose topic_key starts with ``prefix``."""
        key = normalize_topic_key(prefix)
        scope = normalize_scope(scope) if scope else ""
        return self._db.read(lambda c: q.latest_by_topic(c, key, project, scope))

    def timeline(self, observation_id: int, before: int = 5, after: int = 5) -> TimelineResult:
        """An observation with its session neighbours (``before``/``after`` <= 0 mean 5)."""
        _check_id(observation_id)
        return self._db.read(
            lambda c: self._timeline(
                c, observation_id, before if before > 0 else 5, after if after > 0 else 5
            )
        )

    def _timeline(self, conn: sqlite3.Connection, id: int, before: int, after: int) -> TimelineResult:
        row = conn.execute(q.GET_OBSERVATION, (id,)).fetchone()
        if row is None:
            raise NotFound(f"timeline: observation #{id} not found; pick an id from search()")
        focus = q.observation(row)
        srow = conn.execute(q.GET_SESSION, (focus.session_id,)).fetchone()
        entries = [
            TimelineEntry.model_validate(q.as_dict(q.OBS_FIELDS, r))
            for r in conn.execute(q.TIMELINE_BEFORE, (focus.session_id, id, before))
        ]
        later = [
            TimelineEntry.model_validate(q.as_dict(q.OBS_FIELDS, r))
            for r in conn.execute(q.TIMELINE_AFTER, (focus.session_id, id, after))
        ]
        total = conn.execute(q.COUNT_SESSION_OBS, (focus.session_id,)).fetchone()[0]
        session = Session.model_validate(q.as_dict(q.SESSION_FIELDS, srow)) if srow else None
        return TimelineResult(
            focus=focus, before=entries[::-1], after=later, session_info=session, total_in_range=total
        )

    # ── prompts, context, stats ─────────────────────────────────────────────────────────────────

    def add_prompt(self, session_id: str, content: str, project: str = "") -> int:
        """Record a user prompt (private tags stripped, length capped); returns its id."""

        def work(c: sqlite3.Connection) -> int:
            body, _ = truncate_content(strip_private(content), self.max_observation_bytes)
            try:
                return int(c.execute(q.INSERT_PROMPT, (session_id, body, nullable(project))).lastrowid or 0)
            except sqlite3.IntegrityError as exc:
                raise _session_missing(session_id) from exc

        return self._db.write(work)

    def recent_prompts(self, project: str = "", limit: int = 20) -> list[Prompt]:
        """Prompts newest first, optionally for one project."""
        return self._db.read(lambda c: q.recent_prompts(c, project, limit if limit > 0 else 20))

    def search_prompts(self, query: str, project: str = "", limit: int = 10) -> list[Prompt]:
        """Full-text search over prompts (same query rules as :meth:`search`)."""
        expr = sanitize_fts(query)
        if not expr:
            raise InputError("prompt search query is empty; pass at least one keyword")
        return self._db.read(lambda c: q.search_prompts(c, expr, project, limit if limit > 0 else 10))

    def context(self, project: str = "", scope: str = "") -> str:
        """engram's context markdown (5 sessions, 10 prompts, 20 observations); ``""`` when empty."""
        scope = normalize_scope(scope) if scope else ""

        def work(c: sqlite3.Connection) -> str:
            return format_context(
                q.recent_sessions(c, project, 5),
                q.recent_prompts(c, project, 10),
                q.recent_observations(c, project, scope, 20),
            )

        return self._db.read(work)

    def stats(self) -> Stats:
        """Counts of sessions, live observations and prompts; projects newest first."""
        return self._db.read(q.stats)

    # ── passive capture, export/import ──────────────────────────────────────────────────────────

    def passive_capture(
        self, session_id: str, content: str, project: str = "", source: str = ""
    ) -> PassiveCaptureResult:
        """Save each "Key Learnings" item of ``content`` as a ``passive`` observation, skipping known ones.

        An item is known when a live observation of the same project has the same normalised content
        hash, whatever its type, scope or age. All items are saved in one transaction.
        """
        items = extract_learnings(content)
        if not items:
            return PassiveCaptureResult()

        def work(c: sqlite3.Connection) -> PassiveCaptureResult:
            saved = duplicates = 0
            for item in items:
                if c.execute(q.FIND_HASH, (hash_normalized(item), nullable(project))).fetchone():
                    duplicates += 1
                    continue
                self._add(
                    c, session_id, "passive", learning_title(item), item, project, "project", "", source
                )
                saved += 1
            return PassiveCaptureResult(extracted=len(items), saved=saved, duplicates=duplicates)

        return self._db.write(work)

    def export(self) -> ExportData:
        """Every session, observation (soft-deleted included) and prompt."""
        return self._db.read(export_rows)

    def import_data(self, data: ExportData) -> ImportResult:
        """Import an export in one transaction; rows already present are skipped, so re-import is a no-op."""
        return self._db.write(lambda c: import_rows(c, data, self.max_observation_bytes))
