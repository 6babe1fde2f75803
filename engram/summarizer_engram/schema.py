"""engram's baseline SQLite schema and the migrations that bring older files up to it.

The DDL reproduces engram v1.7's ``migrate()`` (tables, indexes, external-content FTS5 tables and their
sync triggers), so the real engram binary opens a file we created as one of its own, and we open its
files. Every step is idempotent and additive: ``CREATE ... IF NOT EXISTS``, columns added only when
missing, triggers created only when absent. Later engram layouts (extra columns such as ``sync_id``,
an FTS table with a ``topic_key`` column, more tables) are left exactly as they are: our queries name
only baseline columns and let whatever triggers exist keep the FTS index in sync.

Legacy layouts handled, as engram does:
    * ``observations`` whose ``id`` is not the primary key (early releases): rebuilt with unique
      positive ids (a NULL or repeated id gets a fresh one) and a rebuilt FTS index;
    * tables missing the columns added after the first release (``scope``, ``topic_key``, ...);
    * NULL/empty values those columns forbid today (scope, counts, ``updated_at``, prompt project).
"""

from __future__ import annotations

import sqlite3

__all__ = ["BASELINE_DDL", "TRIGGERS_DDL", "backfill", "migrate", "needs_backfill", "observation_columns"]

_OBSERVATIONS_TABLE = """CREATE TABLE IF NOT EXISTS {name} (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT    NOT NULL,
    type       TEXT    NOT NULL,
    title      TEXT    NOT NULL,
    content    TEXT    NOT NULL,
    tool_name  TEXT,
    project    TEXT,
    scope      TEXT    NOT NULL DEFAULT 'project',
    topic_key  TEXT,
    normalized_hash TEXT,
    revision_count INTEGER NOT NULL DEFAULT 1,
    duplicate_count INTEGER NOT NULL DEFAULT 1,
    last_seen_at TEXT,
    created_at TEXT    NOT NULL DEFAULT (datetime('now')),
    updated_at TEXT    NOT NULL DEFAULT (datetime('now')),
    deleted_at TEXT,
    FOREIGN KEY (session_id) REFERENCES sessions(id)
)"""

_OBSERVATIONS_FTS = """CREATE VIRTUAL TABLE IF NOT EXISTS observations_fts USING fts5(
    title, content, tool_name, type, project, content='observations', content_rowid='id'
)"""

BASELINE_DDL: tuple[str, ...] = (
    """CREATE TABLE IF NOT EXISTS sessions (
    id         TEXT PRIMARY KEY,
    project    TEXT NOT NULL,
    directory  TEXT NOT NULL,
    started_at TEXT NOT NULL DEFAULT (datetime('now')),
    ended_at   TEXT,
    summary    TEXT
)""",
    _OBSERVATIONS_TABLE.format(name="observations"),
    "CREATE INDEX IF NOT EXISTS idx_obs_session ON observations(session_id)",
    "CREATE INDEX IF NOT EXISTS idx_obs_type ON observations(type)",
    "CREATE INDEX IF NOT EXISTS idx_obs_project ON observations(project)",
    "CREATE INDEX IF NOT EXISTS idx_obs_created ON observations(created_at DESC)",
    _OBSERVATIONS_FTS,
    """CREATE TABLE IF NOT EXISTS user_prompts (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT    NOT NULL,
    content    TEXT    NOT NULL,
    project    TEXT,
    created_at TEXT    NOT NULL DEFAULT (datetime('now')),
    FOREIGN KEY (session_id) REFERENCES sessions(id)
)""",
    "CREATE INDEX IF NOT EXISTS idx_prompts_session ON user_prompts(session_id)",
    "CREATE INDEX IF NOT EXISTS idx_prompts_project ON user_prompts(project)",
    "CREATE INDEX IF NOT EXISTS idx_prompts_created ON user_prompts(created_at DESC)",
    """CREATE VIRTUAL TABLE IF NOT EXISTS prompts_fts USING fts5(
    content, project, content='user_prompts', content_rowid='id'
)""",
    """CREATE TABLE IF NOT EXISTS sync_chunks (
    chunk_id    TEXT PRIMARY KEY,
    imported_at TEXT NOT NULL DEFAULT (datetime('now'))
)""",
)

# Columns added after the first release; ALTER TABLE cannot add a NOT NULL column without a default,
# hence engram's ``DEFAULT ''`` for updated_at (backfilled from created_at below).
_ADDED_COLUMNS: tuple[tuple[str, str], ...] = (
    ("scope", "TEXT NOT NULL DEFAULT 'project'"),
    ("topic_key", "TEXT"),
    ("normalized_hash", "TEXT"),
    ("revision_count", "INTEGER NOT NULL DEFAULT 1"),
    ("duplicate_count", "INTEGER NOT NULL DEFAULT 1"),
    ("last_seen_at", "TEXT"),
    ("updated_at", "TEXT NOT NULL DEFAULT ''"),
    ("deleted_at", "TEXT"),
)

_LATE_INDEXES: tuple[str, ...] = (
    "CREATE INDEX IF NOT EXISTS idx_obs_scope ON observations(scope)",
    "CREATE INDEX IF NOT EXISTS idx_obs_topic ON observations(topic_key, project, scope, updated_at DESC)",
    "CREATE INDEX IF NOT EXISTS idx_obs_deleted ON observations(deleted_at)",
    "CREATE INDEX IF NOT EXISTS idx_obs_dedupe ON observations"
    "(normalized_hash, project, scope, type, title, created_at DESC)",
)

_BACKFILLS: tuple[str, ...] = (
    "UPDATE observations SET scope = 'project' WHERE scope IS NULL OR scope = ''",
    "UPDATE observations SET topic_key = NULL WHERE topic_key = ''",
    "UPDATE observations SET revision_count = 1 WHERE revision_count IS NULL OR revision_count < 1",
    "UPDATE observations SET duplicate_count = 1 WHERE duplicate_count IS NULL OR duplicate_count < 1",
    "UPDATE observations SET updated_at = created_at WHERE updated_at IS NULL OR updated_at = ''",
    "UPDATE user_prompts SET project = '' WHERE project IS NULL",
)

_OBS_COLS = "title, content, tool_name, type, project"
_OBS_NEW = "new.title, new.content, new.tool_name, new.type, new.project"
_OBS_OLD = "old.title, old.content, old.tool_name, old.type, old.project"

TRIGGERS_DDL: dict[tuple[str, str], tuple[str, ...]] = {
    ("observations", "observations_fts"): (
        f"""CREATE TRIGGER obs_fts_insert AFTER INSERT ON observations BEGIN
    INSERT INTO observations_fts(rowid, {_OBS_COLS}) VALUES (new.id, {_OBS_NEW});
END""",
        f"""CREATE TRIGGER obs_fts_delete AFTER DELETE ON observations BEGIN
    INSERT INTO observations_fts(observations_fts, rowid, {_OBS_COLS}) VALUES ('delete', old.id, {_OBS_OLD});
END""",
        f"""CREATE TRIGGER obs_fts_update AFTER UPDATE ON observations BEGIN
    INSERT INTO observations_fts(observations_fts, rowid, {_OBS_COLS}) VALUES ('delete', old.id, {_OBS_OLD});
    INSERT INTO observations_fts(rowid, {_OBS_COLS}) VALUES (new.id, {_OBS_NEW});
END""",
    ),
    ("user_prompts", "prompts_fts"): (
        """CREATE TRIGGER prompt_fts_insert AFTER INSERT ON user_prompts BEGIN
    INSERT INTO prompts_fts(rowid, content, project) VALUES (new.id, new.content, new.project);
END""",
        """CREATE TRIGGER prompt_fts_delete AFTER DELETE ON user_prompts BEGIN
    INSERT INTO prompts_fts(prompts_fts, rowid, content, project)
    VALUES ('delete', old.id, old.content, old.project);
END""",
        """CREATE TRIGGER prompt_fts_update AFTER UPDATE ON user_prompts BEGIN
    INSERT INTO prompts_fts(prompts_fts, rowid, content, project)
    VALUES ('delete', old.id, old.content, old.project);
    INSERT INTO prompts_fts(rowid, content, project) VALUES (new.id, new.content, new.project);
END""",
    ),
}


def observation_columns(conn: sqlite3.Connection) -> dict[str, int]:
    """Column name → ``pk`` flag of ``observations`` (empty if the table does not exist)."""
    return {str(row[1]): int(row[5]) for row in conn.execute("PRAGMA table_info(observations)")}


def _has_sync_triggers(conn: sqlite3.Connection, table: str, fts: str) -> bool:
    """True when some trigger on ``table`` already feeds ``fts`` (ours, engram's, or a later name)."""
    row = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type='trigger' AND tbl_name=? AND sql LIKE ?",
        (table, f"%{fts}%"),
    ).fetchone()
    return row is not None


def _rebuild_legacy_observations(conn: sqlite3.Connection) -> None:
    """Give an ``observations`` table without an integer primary key real, unique ids."""
    conn.execute("DROP TABLE IF EXISTS observations_migrated")
    conn.execute(_OBSERVATIONS_TABLE.format(name="observations_migrated"))
    # The first row holding an id keeps it; NULL and repeated ids get fresh ones from AUTOINCREMENT.
    conn.execute("""INSERT INTO observations_migrated (id, session_id, type, title, content, tool_name,
        project, scope, topic_key, normalized_hash, revision_count, duplicate_count, last_seen_at,
        created_at, updated_at, deleted_at)
    SELECT CASE WHEN id IS NULL THEN NULL
                WHEN ROW_NUMBER() OVER (PARTITION BY id ORDER BY rowid) = 1 THEN CAST(id AS INTEGER)
                ELSE NULL END,
        session_id, COALESCE(NULLIF(type, ''), 'manual'), COALESCE(NULLIF(title, ''), 'Untitled observation'),
        COALESCE(content, ''), tool_name, project,
        CASE WHEN scope IS NULL OR scope = '' THEN 'project' ELSE scope END, NULLIF(topic_key, ''),
        normalized_hash,
        CASE WHEN revision_count IS NULL OR revision_count < 1 THEN 1 ELSE revision_count END,
        CASE WHEN duplicate_count IS NULL OR duplicate_count < 1 THEN 1 ELSE duplicate_count END,
        last_seen_at, COALESCE(NULLIF(created_at, ''), datetime('now')),
        COALESCE(NULLIF(updated_at, ''), NULLIF(created_at, ''), datetime('now')), deleted_at
    FROM observations ORDER BY rowid""")
    conn.execute("DROP TABLE observations")
    conn.execute("ALTER TABLE observations_migrated RENAME TO observations")
    for name in ("obs_fts_insert", "obs_fts_update", "obs_fts_delete"):
        conn.execute(f"DROP TRIGGER IF EXISTS {name}")
    conn.execute("DROP TABLE IF EXISTS observations_fts")
    conn.execute(_OBSERVATIONS_FTS)
    conn.execute(
        f"INSERT INTO observations_fts(rowid, {_OBS_COLS}) "
        f"SELECT id, {_OBS_COLS} FROM observations WHERE deleted_at IS NULL"
    )


_NEEDS_BACKFILL = """SELECT EXISTS (SELECT 1 FROM observations WHERE scope IS NULL OR scope = ''
  OR topic_key = '' OR revision_count IS NULL OR revision_count < 1 OR duplicate_count IS NULL
  OR duplicate_count < 1 OR updated_at IS NULL OR updated_at = '')
  OR EXISTS (SELECT 1 FROM user_prompts WHERE project IS NULL)"""


def needs_backfill(conn: sqlite3.Connection) -> bool:
    """Whether any row holds a value engram's later columns forbid (one read-only scan).

    engram runs its five back-fill UPDATEs on every open: five full scans under the write lock, 350 ms
    at 100k rows. Probing first in a read transaction keeps the common case (nothing to fix) off the
    write lock, which matters when several agents open the file at once.
    """
    return bool(conn.execute(_NEEDS_BACKFILL).fetchone()[0])


def backfill(conn: sqlite3.Connection) -> None:
    """Repair values from files written before a column existed (engram's start-up UPDATEs)."""
    for statement in _BACKFILLS:
        conn.execute(statement)


def _tables(conn: sqlite3.Connection) -> set[str]:
    return {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def migrate(conn: sqlite3.Connection) -> None:
    """Create or upgrade the schema in place (not the row back-fills: see :func:`backfill`).

    Call inside one write transaction; safe to repeat.
    """
    existed = _tables(conn)
    for statement in BASELINE_DDL:
        conn.execute(statement)
    columns = observation_columns(conn)
    for name, definition in _ADDED_COLUMNS:
        if name not in columns:
            conn.execute(f"ALTER TABLE observations ADD COLUMN {name} {definition}")
    columns = observation_columns(conn)
    if "id" in columns and columns["id"] != 1:
        _rebuild_legacy_observations(conn)
    for statement in _LATE_INDEXES:
        conn.execute(statement)
    # A file from before full-text search has rows the new index has never seen (engram leaves them
    # unsearchable); fill a freshly created index from its content table.
    for fts in ("observations_fts", "prompts_fts"):
        if fts not in existed:
            conn.execute(f"INSERT INTO {fts}({fts}) VALUES('rebuild')")
    # A second set of triggers would index every row twice, so any existing feeder counts.
    for (table, fts), statements in TRIGGERS_DDL.items():
        if not _has_sync_triggers(conn, table, fts):
            for statement in statements:
                conn.execute(statement)
