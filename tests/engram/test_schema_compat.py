"""File-level compatibility with engram: we open what engram wrote, and engram can trust what we write.

The schema below is typed by hand from engram v1.7's ``migrate()`` (reference §2.1), as the engram
binary would create it, independently of ``summarizer_engram.schema``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from summarizer_engram.store import Store

ENGRAM_V17_SCHEMA = """
CREATE TABLE sessions (
    id TEXT PRIMARY KEY, project TEXT NOT NULL, directory TEXT NOT NULL,
    started_at TEXT NOT NULL DEFAULT (datetime('now')), ended_at TEXT, summary TEXT);
CREATE TABLE observations (
    id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, type TEXT NOT NULL,
    title TEXT NOT NULL, content TEXT NOT NULL, tool_name TEXT, project TEXT,
    scope TEXT NOT NULL DEFAULT 'project', topic_key TEXT, normalized_hash TEXT,
    revision_count INTEGER NOT NULL DEFAULT 1, duplicate_count INTEGER NOT NULL DEFAULT 1,
    last_seen_at TEXT, created_at TEXT NOT NULL DEFAULT (datetime('now')),
    updated_at TEXT NOT NULL DEFAULT (datetime('now')), deleted_at TEXT,
    FOREIGN KEY (session_id) REFERENCES sessions(id));
CREATE INDEX idx_obs_session ON observations(session_id);
CREATE INDEX idx_obs_type ON observations(type);
CREATE INDEX idx_obs_project ON observations(project);
CREATE INDEX idx_obs_created ON observations(created_at DESC);
CREATE INDEX idx_obs_scope ON observations(scope);
CREATE INDEX idx_obs_topic ON observations(topic_key, project, scope, updated_at DESC);
CREATE INDEX idx_obs_deleted ON observations(deleted_at);
CREATE INDEX idx_obs_dedupe ON observations(normalized_hash, project, scope, type, title, created_at DESC);
CREATE VIRTUAL TABLE observations_fts USING fts5(title, content, tool_name, type, project,
    content='observations', content_rowid='id');
CREATE TABLE user_prompts (
    id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, content TEXT NOT NULL, project TEXT,
    created_at TEXT NOT NULL DEFAULT (datetime('now')), FOREIGN KEY (session_id) REFERENCES sessions(id));
CREATE INDEX idx_prompts_session ON user_prompts(session_id);
CREATE INDEX idx_prompts_project ON user_prompts(project);
CREATE INDEX idx_prompts_created ON user_prompts(created_at DESC);
CREATE VIRTUAL TABLE prompts_fts USING fts5(content, project, content='user_prompts', content_rowid='id');
CREATE TABLE sync_chunks (chunk_id TEXT PRIMARY KEY, imported_at TEXT NOT NULL DEFAULT (datetime('now')));
CREATE TRIGGER obs_fts_insert AFTER INSERT ON observations BEGIN
    INSERT INTO observations_fts(rowid, title, content, tool_name, type, project)
    VALUES (new.id, new.title, new.content, new.tool_name, new.type, new.project);
END;
CREATE TRIGGER obs_fts_delete AFTER DELETE ON observations BEGIN
    INSERT INTO observations_fts(observations_fts, rowid, title, content, tool_name, type, project)
    VALUES ('delete', old.id, old.title, old.content, old.tool_name, old.type, old.project);
END;
CREATE TRIGGER obs_fts_update AFTER UPDATE ON observations BEGIN
    INSERT INTO observations_fts(observations_fts, rowid, title, content, tool_name, type, project)
    VALUES ('delete', old.id, old.title, old.content, old.tool_name, old.type, old.project);
    INSERT INTO observations_fts(rowid, title, content, tool_name, type, project)
    VALUES (new.id, new.title, new.content, new.tool_name, new.type, new.project);
END;
CREATE TRIGGER prompt_fts_insert AFTER INSERT ON user_prompts BEGIN
    INSERT INTO prompts_fts(rowid, content, project) VALUES (new.id, new.content, new.project);
END;
CREATE TRIGGER prompt_fts_delete AFTER DELETE ON user_prompts BEGIN
    INSERT INTO prompts_fts(prompts_fts, rowid, content, project)
    VALUES ('delete', old.id, old.content, old.project);
END;
CREATE TRIGGER prompt_fts_update AFTER UPDATE ON user_prompts BEGIN
    INSERT INTO prompts_fts(prompts_fts, rowid, content, project)
    VALUES ('delete', old.id, old.content, old.project);
    INSERT INTO prompts_fts(rowid, content, project) VALUES (new.id, new.content, new.project);
END;
"""

ENGRAM_ROWS = """
INSERT INTO sessions (id, project, directory, started_at)
VALUES ('go-1', 'engram', '/src/engram', '2026-03-01 09:00:00');
INSERT INTO observations (session_id, type, title, content, project, scope, topic_key, normalized_hash,
    revision_count, duplicate_count, last_seen_at, created_at, updated_at)
VALUES ('go-1', 'architecture', 'Auth model', 'JWT in the gateway, sessions in redis', 'engram', 'project',
        'architecture/auth-model', NULL, 3, 1, '2026-03-01 09:05:00', '2026-03-01 09:05:00',
        '2026-03-01 10:00:00');
INSERT INTO observations (session_id, type, title, content, project, created_at, updated_at)
VALUES ('go-1', 'bugfix', 'Fixed tokenizer panic', 'nil map in the tokenizer', 'engram',
        '2026-03-01 09:10:00', '2026-03-01 09:10:00');
INSERT INTO user_prompts (session_id, content, project) VALUES ('go-1', 'fix the tokenizer', 'engram');
"""


def _engram_db(path: Path, schema: str = ENGRAM_V17_SCHEMA, rows: str = ENGRAM_ROWS) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    conn.executescript("PRAGMA journal_mode = WAL;" + schema + rows)
    conn.close()


def _check_integrity(path: Path) -> None:
    """What engram relies on: SQLite and FTS5 integrity, FK consistency, and the FTS index in sync."""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        for fts in ("observations_fts", "prompts_fts"):
            conn.execute(f"INSERT INTO {fts}({fts}) VALUES('integrity-check')")  # raises if out of sync
        total = conn.execute("SELECT COUNT(*) FROM observations").fetchone()[0]
        indexed = conn.execute("SELECT COUNT(*) FROM observations_fts").fetchone()[0]
        assert indexed == total
    finally:
        conn.close()


def test_we_read_search_and_upsert_into_a_database_engram_wrote(db_path: Path) -> None:
    """A v1.7 file filled by engram: our store reads it, finds it, and upserts its topic in place."""
    _engram_db(db_path)
    with Store(db_path) as store:
        assert store.get_session("go-1").project == "engram"
        hits = store.search("tokenizer panic", project="engram")
        assert hits[0].title == "Fixed tokenizer panic"
        assert store.search_prompts("tokenizer")[0].session_id == "go-1"
        r = store.save(
            "go-1",
            "Auth model",
            "JWT at the edge, sessions in postgres",
            type="architecture",
            project="engram",
            topic_key="Architecture/Auth-Model",
        )
        assert (r.id, r.action) == (1, "upserted")
        o = store.get(1)
        assert o.revision_count == 4 and o.created_at == "2026-03-01 09:05:00" and "postgres" in o.content
        assert store.search("postgres")[0].id == 1 and store.search("redis") == []
        assert "[architecture] **Auth model**" in store.context("engram")
    _check_integrity(db_path)


def test_opening_does_not_change_an_engram_schema(db_path: Path) -> None:
    """Our migration is a no-op on engram's own layout: same tables, columns, indexes and triggers."""
    _engram_db(db_path, rows="")

    def layout() -> list[tuple[str, str]]:
        conn = sqlite3.connect(db_path)
        rows = conn.execute("SELECT type, name FROM sqlite_master ORDER BY type, name").fetchall()
        conn.close()
        return rows

    before = layout()
    Store(db_path).close()
    assert layout() == before


def test_what_we_write_satisfies_engrams_schema(tmp_path: Path) -> None:
    """Our file has engram's columns (types, NOT NULL, defaults, keys) and keeps the FTS index in sync."""
    ours, theirs = tmp_path / "ours.db", tmp_path / "theirs.db"
    _engram_db(theirs, rows="")
    with Store(ours) as store:
        store.start_session("s", "p", "/d")
        ids = [
            store.save("s", f"t{i}", f"content {i}", project="p", topic_key="k/a" if i < 2 else "").id
            for i in range(5)
        ]
        store.update(ids[2], content="changed", project="")
        store.delete(ids[3])
        store.delete(ids[4], hard=True)
        store.add_prompt("s", "a prompt")
        store.passive_capture("s", "## Key Learnings:\n1. a learning that is long enough\n", project="p")
        store.end_session("s", "done")
    for table in ("sessions", "observations", "user_prompts", "sync_chunks"):
        info = [sqlite3.connect(p).execute(f"PRAGMA table_info({table})").fetchall() for p in (ours, theirs)]
        assert info[0] == info[1], table
    _check_integrity(ours)
    conn = sqlite3.connect(ours)
    stamps = conn.execute("SELECT created_at, updated_at FROM observations").fetchall()
    conn.close()
    assert all(len(s) == 19 and s[10] == " " for row in stamps for s in row)  # 'YYYY-MM-DD HH:MM:SS'


def test_legacy_observations_without_primary_key_are_migrated(db_path: Path) -> None:
    """Case 9: ids NULL, 7, 7 become three unique positive ids; search works; new rows get new ids."""
    legacy = """
    CREATE TABLE sessions (id TEXT PRIMARY KEY, project TEXT NOT NULL, directory TEXT NOT NULL,
        started_at TEXT NOT NULL DEFAULT (datetime('now')), ended_at TEXT, summary TEXT);
    INSERT INTO sessions (id, project, directory) VALUES ('s1', 'engram', '/tmp/engram');
    CREATE TABLE observations (id INT, session_id TEXT, type TEXT, title TEXT, content TEXT, tool_name TEXT,
        project TEXT, created_at TEXT);
    INSERT INTO observations
    VALUES (NULL, 's1', 'manual', 'legacy one', 'legacy content a', NULL, 'engram', '2025-01-01 00:00:00');
    INSERT INTO observations
    VALUES (7, 's1', 'manual', 'legacy two', 'legacy content b', NULL, 'engram', '2025-01-01 00:00:01');
    INSERT INTO observations VALUES (7, 's1', '', '', 'legacy content c', NULL, 'engram', '');
    """
    _engram_db(db_path, schema=legacy, rows="")
    with Store(db_path) as store:
        rows = store.export().observations
        assert len(rows) == 3 and len({o.id for o in rows}) == 3 and all(o.id > 0 for o in rows)
        assert {o.type for o in rows} == {"manual"} and "Untitled observation" in {o.title for o in rows}
        assert len(store.search("legacy")) == 3
        new = store.save("s1", "new", "fresh", project="engram").id
        assert new not in {o.id for o in rows}
    _check_integrity(db_path)


def test_migration_is_idempotent(db_path: Path) -> None:
    """Case 10: opening again changes nothing and keeps the data."""
    with Store(db_path) as store:
        store.start_session("s", "p", "")
        store.save("s", "t", "c")
    for _ in range(2):
        with Store(db_path) as store:
            assert store.stats().total_observations == 1
    _check_integrity(db_path)


LATER_LAYOUT = ENGRAM_V17_SCHEMA.replace(
    "last_seen_at TEXT, created_at", "last_seen_at TEXT, sync_id TEXT, created_at"
).replace(
    "type, project,\n    content='observations'", "type, project, topic_key,\n    content='observations'"
)


def test_a_later_engram_layout_is_left_as_is_and_kept_in_sync(db_path: Path) -> None:
    """Later engram files (sync_id, topic_key in the FTS, their own triggers) work without double indexing."""
    schema = LATER_LAYOUT
    for old, new in (
        ("tool_name, type, project)", "tool_name, type, project, topic_key)"),
        ("new.type, new.project)", "new.type, new.project, new.topic_key)"),
        ("old.type, old.project)", "old.type, old.project, old.topic_key)"),
        ("prompt_fts_", "user_prompt_fts_"),
    ):
        schema = schema.replace(old, new)
    _engram_db(db_path, schema=schema, rows="")
    with Store(db_path) as store:
        store.start_session("s", "p", "")
        oid = store.save("s", "Gateway", "routing", topic_key="arch/gateway").id
        store.add_prompt("s", "hello prompt")
        assert store.search("gateway")[0].id == oid
        assert len(store.search_prompts("hello")) == 1
    conn = sqlite3.connect(db_path)
    sync_id = conn.execute("SELECT sync_id FROM observations").fetchone()[0]
    triggers = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'")}
    conn.close()
    assert sync_id and sync_id.startswith("obs-")
    assert not {"prompt_fts_insert"} & triggers  # no second feeder next to user_prompt_fts_insert
    _check_integrity(db_path)


def test_old_files_missing_later_columns_get_them_and_become_searchable(db_path: Path) -> None:
    """A file from before scope/topic_key/updated_at/... and before FTS is upgraded in place and indexed."""
    cols = (
        "id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, type TEXT NOT NULL, "
        "title TEXT NOT NULL, content TEXT NOT NULL, tool_name TEXT, project TEXT, "
        "created_at TEXT NOT NULL DEFAULT (datetime('now'))"
    )
    old = ENGRAM_V17_SCHEMA.split("CREATE TABLE observations (")[0] + f"CREATE TABLE observations ({cols});"
    rows = (
        "INSERT INTO sessions (id, project, directory) VALUES ('s', 'p', '');"
        "INSERT INTO observations (session_id, type, title, content) "
        "VALUES ('s', 'manual', 'old row', 'body');"
    )
    _engram_db(db_path, schema=old, rows=rows)
    with Store(db_path) as store:
        o = store.get(1)
        assert (o.scope, o.updated_at, o.revision_count) == ("project", o.created_at, 1)
        assert store.search("old")[0].id == 1
        assert store.save("s", "old row", "body v2", topic_key="t/x").action == "inserted"
    conn = sqlite3.connect(db_path)
    columns = {c[1] for c in conn.execute("PRAGMA table_info(observations)")}
    conn.close()
    assert {
        "scope",
        "topic_key",
        "normalized_hash",
        "revision_count",
        "duplicate_count",
        "last_seen_at",
        "updated_at",
        "deleted_at",
    } <= columns
    _check_integrity(db_path)


def test_opening_repairs_values_engram_forbids(db_path: Path) -> None:
    """engram's start-up back-fills run when a row needs them: '' topic keys, NULL prompt projects, counts."""
    rows = (
        ENGRAM_ROWS
        + """
    INSERT INTO observations (session_id, type, title, content, topic_key, revision_count, duplicate_count,
        updated_at) VALUES ('go-1', 'manual', 'odd', 'odd row', '', 0, -1, '');
    INSERT INTO user_prompts (session_id, content, project) VALUES ('go-1', 'no project', NULL);
    """
    )
    _engram_db(db_path, rows=rows)
    with Store(db_path):
        pass
    conn = sqlite3.connect(db_path)
    odd = conn.execute(
        "SELECT topic_key, revision_count, duplicate_count, updated_at = created_at "
        "FROM observations WHERE title = 'odd'"
    ).fetchone()
    null_prompts = conn.execute("SELECT COUNT(*) FROM user_prompts WHERE project IS NULL").fetchone()[0]
    conn.close()
    assert odd == (None, 1, 1, 1) and null_prompts == 0
    _check_integrity(db_path)
