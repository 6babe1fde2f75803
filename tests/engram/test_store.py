"""The embedded store against engram's own test cases (reference §7.1, §7.2, §7.7) and our error rules."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest
from summarizer_engram.models import ExportData
from summarizer_engram.normalize import TRUNCATION_MARKER
from summarizer_engram.store import Store

from summarizer.core.errors import InputError, NotFound, StorageError


def _sql(db: Path, sql: str, *args: object) -> None:
    """Write with a second, raw connection, as another program (engram itself) would."""
    conn = sqlite3.connect(db)
    try:
        conn.execute(sql, args)
        conn.commit()
    finally:
        conn.close()


# ── §7.1 observations, dedupe, topic upsert, scope, delete ──────────────────────────────────────


def test_identical_save_within_the_window_counts_a_duplicate(store: Store) -> None:
    """Case 1: same hash after whitespace/case normalisation → same id, duplicate_count 2."""
    a = store.save(
        "s1", "Fixed tokenizer", "Normalized tokenizer panic on edge case", type="bugfix", project="engram"
    )
    b = store.save(
        "s1", "Fixed tokenizer", "normalized   tokenizer panic on EDGE case", type="bugfix", project="engram"
    )
    assert (a.action, b.action) == ("inserted", "deduplicated")
    assert a.id == b.id
    assert store.get(a.id).duplicate_count == 2


def test_a_save_outside_the_window_is_a_new_row(db_path: Path, store: Store) -> None:
    """The window compares the original created_at: an old identical row is not a duplicate."""
    a = store.save("s1", "T", "same body", project="engram")
    _sql(db_path, "UPDATE observations SET created_at = datetime('now', '-2 hours') WHERE id = ?", a.id)
    assert store.save("s1", "T", "same body", project="engram").id != a.id


def test_scope_filters_search_and_context(store: Store) -> None:
    """Case 2."""
    store.save(
        "s1", "Project auth", "Keep auth middleware in project memory", type="decision", project="engram"
    )
    store.save(
        "s1",
        "Personal note",
        "Use this regex trick later",
        type="decision",
        project="engram",
        scope="personal",
    )
    assert store.search("regex", project="engram", scope="project") == []
    assert len(store.search("regex", project="engram", scope="personal")) == 1
    context = store.context("engram", "personal")
    assert "Personal note" in context and "Project auth" not in context


def test_update_soft_delete_and_hard_delete(store: Store) -> None:
    """Case 3."""
    first = store.save("s1", "first", "first content", project="engram").id
    middle = store.save("s1", "middle", "to be deleted", project="engram").id
    last = store.save("s1", "last", "last content", project="engram").id
    updated = store.update(last, title="last-updated", content="updated content", scope="personal")
    assert (updated.title, updated.scope, updated.revision_count) == ("last-updated", "personal", 2)
    store.delete(middle)
    with pytest.raises(NotFound):
        store.get(middle)
    assert store.search("deleted", project="engram") == []
    assert [e.id for e in store.timeline(first, 5, 5).after] == [last]
    store.delete(last, hard=True)
    with pytest.raises(NotFound):
        store.get(last)
    assert [o.id for o in store.export().observations] == [first, middle]  # soft-deleted rows are exported


def test_topic_key_upsert_updates_the_same_row(store: Store) -> None:
    """Case 4."""
    a = store.save(
        "s1",
        "Auth architecture",
        "Use middleware.",
        type="architecture",
        project="engram",
        topic_key="architecture auth model",
    )
    b = store.save(
        "s1",
        "Auth architecture",
        "Move auth to gateway + middleware chain.",
        type="architecture",
        project="engram",
        topic_key="ARCHITECTURE   AUTH  MODEL",
    )
    assert b.id == a.id and b.action == "upserted"
    o = store.get(a.id)
    assert o.revision_count == 2
    assert o.topic_key == "architecture-auth-model"
    assert "gateway" in o.content


def test_different_topic_keys_do_not_collide(store: Store) -> None:
    """Case 5."""
    a = store.save("s1", "Auth", "a", project="engram", topic_key="architecture/auth")
    b = store.save("s1", "Auth panic", "b", project="engram", topic_key="bug/auth-nil-panic")
    assert a.id != b.id
    assert len(store.recent_observations("engram", "project", 10)) == 2


def test_topic_upsert_boundary_is_project_and_scope(store: Store) -> None:
    """Case 6."""
    ids = {
        store.save("s1", "Auth", "x", project="engram", topic_key="architecture/auth-model").id,
        store.save(
            "s1", "Auth", "x", project="engram", scope="personal", topic_key="architecture/auth-model"
        ).id,
        store.save("s1", "Auth", "x", project="another-project", topic_key="architecture/auth-model").id,
    }
    assert len(ids) == 3


def test_private_tags_and_truncation(db_path: Path) -> None:
    """Case 7, with engram's 2,000-byte baseline limit; clearing project and topic_key stores NULL."""
    with Store(db_path, max_observation_bytes=2000) as store:
        store.start_session("s1", "engram", "/tmp")
        r = store.save(
            "s1",
            "Private <private>secret</private> title",
            "x" * 2100 + " <private>token</private>",
            project="engram",
            topic_key="k",
        )
        o = store.get(r.id)
        assert "[REDACTED]" in o.title and "secret" not in o.title
        assert o.content.endswith(TRUNCATION_MARKER) and r.truncated
        cleared = store.update(r.id, project="", topic_key="")
        assert cleared.project is None and cleared.topic_key is None


def test_search_limit_is_clamped_to_twenty(store: Store) -> None:
    """Case 8, checked on the result size."""
    for i in range(25):
        store.save("s1", f"title {i}", f"body {i}", project="engram")
    assert len(store.search("title", scope="project", limit=9999)) == 20
    assert len(store.search("title")) == 10


def test_multi_word_search_or_joins_terms(store: Store) -> None:
    """Case 71: one matching word is enough (engram's AND-joined baseline found nothing)."""
    store.save(
        "s1", "Auth middleware", "Keep auth middleware in project memory", project="engram", scope="personal"
    )
    assert len(store.search("auth database migration", project="engram", scope="personal")) == 1


def test_title_matches_rank_above_content_matches(store: Store) -> None:
    """Case 72: weighted BM25."""
    body = store.save("s1", "Notes", "we talked about the gateway for a while today", project="engram").id
    title = store.save("s1", "Gateway", "routing notes and other text of similar size", project="engram").id
    assert [h.id for h in store.search("gateway")] == [title, body]


@pytest.mark.parametrize("query", ['hello"world', '"""', "AND", "NOT OR", "col:thing", "a*"])
def test_odd_queries_never_error(store: Store, query: str) -> None:
    """Cases 68 and 73: quotes and FTS operators are data, not syntax."""
    store.save("s1", "hello world", "AND a col:thing", project="engram")
    assert isinstance(store.search(query), list)


def test_empty_query_is_an_input_error(store: Store) -> None:
    """An empty query is refused with a message that says what to pass."""
    with pytest.raises(InputError, match="keyword"):
        store.search("   ")


def test_search_filters_by_type(store: Store) -> None:
    """The type filter is exact."""
    store.save("s1", "Fix panic", "nil panic", type="bugfix", project="engram")
    store.save("s1", "Panic doc", "panic docs", type="manual", project="engram")
    assert [h.type for h in store.search("panic", type="bugfix")] == ["bugfix"]


# ── §7.2 sessions, prompts, stats, timeline, export/import ──────────────────────────────────────


def test_session_upsert_fills_blanks_and_never_overwrites(store: Store) -> None:
    """Cases 11-13."""
    store.start_session("sess-upsert", "", "")
    store.start_session("sess-upsert", "projectA", "/tmp/a")
    s = store.get_session("sess-upsert")
    assert (s.project, s.directory) == ("projectA", "/tmp/a")
    store.start_session("sess-upsert", "projectB", "/tmp/b")
    s = store.get_session("sess-upsert")
    assert (s.project, s.directory) == ("projectA", "/tmp/a")
    store.start_session("p1", "myproject", "")
    store.start_session("p1", "other", "/new/dir")
    assert (store.get_session("p1").project, store.get_session("p1").directory) == ("myproject", "/new/dir")
    store.start_session("p2", "", "/existing/dir")
    store.start_session("p2", "newproject", "")
    p2 = store.get_session("p2")
    assert (p2.project, p2.directory) == ("newproject", "/existing/dir")


def test_end_session(store: Store) -> None:
    """Case 14."""
    store.start_session("s-end", "engram", "/tmp")
    store.end_session("s-end", "finished session")
    s = store.get_session("s-end")
    assert s.ended_at and s.summary == "finished session"
    store.end_session("missing", "whatever")  # no error, as in engram
    store.end_session("s-end", "")
    assert store.get_session("s-end").summary is None


def test_timeline_defaults_and_session_info(store: Store) -> None:
    """Case 15."""
    first = store.save("s1", "first", "one", project="engram").id
    store.save("s1", "second", "two", project="engram")
    t = store.timeline(first, 0, -1)
    assert t.session_info is not None and t.session_info.id == "s1"
    assert t.total_in_range == 2 and len(t.after) == 1


def test_timeline_of_an_orphan_observation(db_path: Path, store: Store) -> None:
    """Case 16: a row whose session is gone (written with FKs off) has no session_info."""
    conn = sqlite3.connect(db_path)
    conn.execute("PRAGMA foreign_keys = OFF")
    conn.execute(
        "INSERT INTO observations (session_id, type, title, content) VALUES ('ghost', 'manual', 't', 'c')"
    )
    conn.commit()
    conn.close()
    t = store.timeline(1)
    assert t.session_info is None and t.total_in_range == 1


def test_timeline_middle(store: Store) -> None:
    """Case 17."""
    ids = [store.save("s1", n, f"{n} content", project="engram").id for n in ("first", "middle", "last")]
    t = store.timeline(ids[1])
    assert [e.id for e in t.before] == [ids[0]] and [e.id for e in t.after] == [ids[2]]


def test_stats_lists_projects_newest_first(db_path: Path, store: Store) -> None:
    """Case 18."""
    a = store.save("s1", "a", "alpha", project="alpha").id
    b = store.save("s1", "b", "beta", project="beta").id
    _sql(db_path, "UPDATE observations SET created_at = '2026-02-01 10:00:00' WHERE id = ?", a)
    _sql(db_path, "UPDATE observations SET created_at = '2026-02-02 10:00:00' WHERE id = ?", b)
    assert store.stats().projects[:2] == ["beta", "alpha"]


def test_sessions_are_ordered_by_latest_activity(db_path: Path, store: Store) -> None:
    """Case 19."""
    store.start_session("s-older", "engram", "/tmp")
    store.start_session("s-newer", "engram", "/tmp")
    _sql(db_path, "UPDATE sessions SET started_at = '2026-02-01 00:00:00' WHERE id = 's-older'")
    _sql(db_path, "UPDATE sessions SET started_at = '2026-02-02 00:00:00' WHERE id = 's-newer'")
    _sql(db_path, "UPDATE sessions SET started_at = '2020-01-01 00:00:00' WHERE id = 's1'")
    oid = store.save("s-older", "late", "activity", project="engram").id
    _sql(db_path, "UPDATE observations SET created_at = '2026-02-03 00:00:00' WHERE id = ?", oid)
    assert [s.id for s in store.recent_sessions()][:2] == ["s-older", "s-newer"]


def test_prompts_with_null_project_read_as_empty(db_path: Path, store: Store) -> None:
    """Case 20."""
    _sql(
        db_path, "INSERT INTO user_prompts (session_id, content, project) VALUES ('s1', 'null project', NULL)"
    )
    assert store.recent_prompts()[0].project == ""
    assert store.search_prompts("null")[0].project == ""
    assert store.export().prompts[0].project == ""


def test_prompt_project_filters(store: Store) -> None:
    """Case 21."""
    store.add_prompt("s1", "alpha prompt", "alpha")
    store.add_prompt("s1", "beta prompt", "beta")
    assert [p.project for p in store.recent_prompts("beta", 1)] == ["beta"]
    assert [p.project for p in store.search_prompts("prompt", "alpha", 0)] == ["alpha"]


def test_long_prompt_is_truncated_not_refused(db_path: Path) -> None:
    """Case 22."""
    with Store(db_path, max_observation_bytes=2000) as store:
        store.start_session("s1", "engram", "/tmp")
        pid = store.add_prompt("s1", "p" * 2025, "engram")
        assert pid > 0 and store.recent_prompts()[0].content.endswith(TRUNCATION_MARKER)
        store.save("s1", "t", "c", project="engram")
        assert len(store.recent_observations("engram")) == 1


def test_export_import_round_trip_and_reimport_adds_nothing(tmp_path: Path, store: Store) -> None:
    """Cases 23 and 74."""
    store.save("s1", "Exported", "content to move", project="engram", topic_key="a/b")
    store.add_prompt("s1", "a prompt", "engram")
    data = store.export()
    with Store(tmp_path / "other.db") as fresh:
        first = fresh.import_data(data)
        assert (first.sessions_imported, first.observations_imported, first.prompts_imported) == (1, 1, 1)
        again = fresh.import_data(ExportData.model_validate_json(data.model_dump_json()))
        assert (again.sessions_imported, again.observations_imported, again.prompts_imported) == (0, 0, 0)
        assert fresh.stats().total_observations == 1
        o = fresh.export().observations[0]
        assert (o.title, o.topic_key, o.created_at) == ("Exported", "a/b", data.observations[0].created_at)


def test_import_of_an_orphan_row_fails_whole(tmp_path: Path, store: Store) -> None:
    """Case 24: the error names the row, and nothing of the import is kept."""
    store.save("s1", "x", "y", project="engram")
    data = store.export()
    orphan = data.model_copy(update={"sessions": []})
    with Store(tmp_path / "other.db") as fresh:
        with pytest.raises(InputError, match="import observation 0"):
            fresh.import_data(orphan)
        assert fresh.stats().total_observations == 0
        store.add_prompt("s1", "p", "engram")
        prompts_only = store.export().model_copy(update={"sessions": [], "observations": []})
        with pytest.raises(InputError, match="import prompt 0"):
            fresh.import_data(prompts_only)


def test_context_is_empty_on_an_empty_store_and_shows_prompts(db_path: Path) -> None:
    """Case 25, with engram's exact section text."""
    with Store(db_path) as store:
        assert store.context() == ""
        store.start_session("s1", "engram", "/tmp")
        store.add_prompt("s1", "how do I rotate tokens?", "engram")
        text = store.context()
    assert text.startswith("## Memory from Previous Sessions\n\n### Recent Sessions\n- **engram** (")
    assert "### Recent User Prompts\n- " in text and text.endswith(": how do I rotate tokens?\n\n")


def test_a_closed_store_raises_storage_errors(store: Store) -> None:
    """Case 26: every call after close is a StorageError that says what to do."""
    store.close()
    for call in (
        lambda: store.get_session("s1"),
        store.recent_sessions,
        lambda: store.search("x"),
        lambda: store.search_prompts("x"),
        store.export,
        lambda: store.timeline(1),
        store.stats,
    ):
        with pytest.raises(StorageError, match="closed"):
            call()


# ── our error rules ─────────────────────────────────────────────────────────────────────────────


def test_missing_and_bad_ids(store: Store) -> None:
    """A missing id is NotFound for get, update and delete; a non-positive id is an InputError."""
    with pytest.raises(NotFound, match="#999"):
        store.get(999)
    with pytest.raises(NotFound):
        store.update(999, title="x")
    with pytest.raises(NotFound):
        store.delete(999)
    for bad in (0, -1, True):
        with pytest.raises(InputError, match="positive integer"):
            store.get(bad)


def test_update_requires_a_known_field(store: Store) -> None:
    """Nothing to change, or an unknown field, is refused before touching the row."""
    oid = store.save("s1", "t", "c", project="engram").id
    with pytest.raises(InputError, match="at least one field"):
        store.update(oid)
    with pytest.raises(InputError, match="updatable"):
        store.update(oid, colour="red")


def test_save_into_a_missing_session_names_the_fix(store: Store) -> None:
    """The FK failure becomes NotFound that says how to create the session."""
    with pytest.raises(NotFound, match="mem_session_start"):
        store.save("no-such-session", "t", "c")


def test_a_corrupt_file_is_a_storage_error_and_is_left_alone(tmp_path: Path) -> None:
    """A non-database file is reported, not overwritten."""
    path = tmp_path / "engram.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StorageError, match="corrupt"):
        Store(path)
    assert path.read_bytes() == b"this is not sqlite" * 100


def test_a_database_locked_too_long_is_a_storage_error(db_path: Path, store: Store) -> None:
    """Another process holding the write lock past every retry: a clear error, and no partial write."""
    with Store(db_path, lock_wait_s=0.2) as impatient:
        holder = sqlite3.connect(db_path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            with pytest.raises(StorageError, match="locked"):
                impatient.save("s1", "t", "c", project="engram")
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert impatient.save("s1", "t", "c", project="engram").action == "inserted"


def test_dedupe_window_option(db_path: Path) -> None:
    """The window is configurable (engram's tests use one hour)."""
    with Store(db_path, dedupe_window=timedelta(minutes=1)) as s:
        s.start_session("s", "p", "")
        assert s.save("s", "t", "c").id == s.save("s", "t", "c").id


def test_latest_by_topic_prefers_the_newest_update(db_path: Path, store: Store) -> None:
    """The session compressor's recovery reads by update time, not by rank."""
    key = "session/engram/compressed/2026-01-0"
    a = store.save("s1", "day 1", "one", project="engram", topic_key=key + "1").id
    b = store.save("s1", "day 2", "two", project="engram", topic_key=key + "2").id
    _sql(db_path, "UPDATE observations SET updated_at = '2026-01-01 00:00:00' WHERE id = ?", b)
    _sql(db_path, "UPDATE observations SET updated_at = '2026-01-05 00:00:00' WHERE id = ?", a)
    latest = store.latest_by_topic("session/engram/compressed/", project="engram")
    assert latest is not None and latest.id == a
    assert store.latest_by_topic("session/other/") is None
    assert store.latest_by_topic("session_engram") is None  # "_" is literal, not a LIKE wildcard


def test_search_fills_the_limit_past_deleted_top_matches(store: Store) -> None:
    """Deleted rows never show, even when they hold the best ranks, and the limit is still filled."""
    best = [store.save("s1", f"alpha {i}", f"alpha alpha note {i}", project="engram").id for i in range(25)]
    rest = {store.save("s1", f"note {i}", f"plain alpha text {i}", project="engram").id for i in range(15)}
    for oid in best:
        store.delete(oid)
    hits = store.search("alpha")
    assert len(hits) == 10 and {h.id for h in hits} <= rest


def test_latest_by_topic_normalises_the_prefix_like_the_save(store: Store) -> None:
    """A project name with capitals and spaces is found by the same spelling it was saved under."""
    store.save("s1", "doc", "body", project="My App", topic_key="session/My App/compressed/2026-01-01")
    found = store.latest_by_topic("session/My App/compressed/", project="My App")
    assert found is not None and found.topic_key == "session/my-app/compressed/2026-01-01"


def test_text_that_is_not_unicode_is_refused_cleanly(store: Store) -> None:
    """A lone surrogate (valid in JSON, not in UTF-8) is an InputError, not a crash, and nothing is saved."""
    for call in (
        lambda: store.save("s1", "t", "bad \ud800 text"),
        lambda: store.add_prompt("s1", "\udfff"),
        lambda: store.search("x\ud800"),
    ):
        with pytest.raises(InputError, match="not valid Unicode"):
            call()
    assert store.stats().total_observations == 0
