"""Contract-fact extraction: endpoints, codes, tables, columns, migrations, components, gotchas."""

from __future__ import annotations

import pytest

from summarizer.phasegate.facts import extract_facts, gotcha_sentence, sentences, shorten


def test_seed_zz_example_hermes() -> None:
    """The documented ZZ example: two endpoints with their methods."""
    f = extract_facts("Added POST /auth/login and POST /auth/refresh endpoints with JWT rotation.")
    assert f.endpoints == ("POST /auth/login", "POST /auth/refresh")


def test_seed_zz_example_demeter() -> None:
    """Table, foreign key and columns from the documented Demeter entry; a function call is no column."""
    f = extract_facts(
        "Created `refresh_tokens` table with FK to `users`, hashed token, expires_at, revoked_at. "
        "Hermes needs the TokenService to call `create_refresh_token()`."
    )
    assert f.tables == ("refresh_tokens",)
    assert f.foreign_keys == ("users",)
    assert f.columns == ("expires_at", "revoked_at")


@pytest.mark.parametrize(
    ("text", "endpoints"),
    [
        ("GET /api/v1/users/{id} returns the user", ("GET /api/v1/users/{id}",)),
        ("the client calls /api/orders now", ("/api/orders",)),
        ("mounted under /v2/billing/invoices.", ("/v2/billing/invoices",)),
        ("Fixed the delete route handler", ()),
        ("edited backend/api/users.py", ()),
        ("DELETE /sessions/:id revokes", ("DELETE /sessions/:id",)),
        ("see https://example.com/api/v1/x", ()),
    ],
)
def test_endpoint_rule(text: str, endpoints: tuple[str, ...]) -> None:
    """A method with a path, or a path under /api/ /v1/ /v2/; bare words and file paths are not."""
    assert extract_facts(text).endpoints == endpoints


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("returns 401 on a bad password", ("401",)),
        ("responds 201 Created", ("201",)),
        ("GET /x returns 200 OK or 404/410.", ("200", "404", "410")),
        ("auto-refresh on 401", ("401",)),
        ("Processed 500 rows and 302 tests", ()),
        ("file.py:404 and version 1.200.3", ()),
        ("HTTP 429 with Retry-After", ("429",)),
    ],
)
def test_status_codes_need_http_context(text: str, codes: tuple[str, ...]) -> None:
    """Known HTTP codes in HTTP context only."""
    assert extract_facts(text).status_codes == codes


def test_sql_and_migrations() -> None:
    """CREATE/ALTER TABLE, ADD COLUMN, migration ids from text and from migration files."""
    f = extract_facts(
        "Migration 0012_add_sessions: CREATE TABLE sessions; ALTER TABLE users ADD COLUMN deleted_at.",
        files=["backend/migrations/0013_backfill.py", "backend/migrations/__init__.py"],
    )
    assert f.tables == ("sessions", "users")
    assert "deleted_at" in f.columns
    assert f.migrations == ("0012_add_sessions", "0013_backfill")


def test_components_from_words_and_ui_files() -> None:
    """PascalCase + component/page/widget, ``Login page``, and .tsx/.vue stems."""
    f = extract_facts(
        "New LoginForm component and Login page; widget UserMenu.",
        files=["src/Dashboard.tsx", "src/api.ts", "src/Card.vue"],
    )
    assert f.components == ("LoginForm", "Login page", "UserMenu", "Dashboard", "Card")


def test_env_vars_paths_urls() -> None:
    """Env vars are UPPER_SNAKE; paths and URLs are kept separately (for answer validation)."""
    f = extract_facts("Set DATABASE_URL and ${JWT_SECRET} in deploy/prod.env; docs at https://x.io/a.")
    assert f.env_vars == ("DATABASE_URL", "JWT_SECRET")
    assert f.paths == ("deploy/prod.env",)
    assert f.urls == ("https://x.io/a",)


@pytest.mark.parametrize(
    ("text", "gotcha"),
    [
        (
            "Added login. Refresh tokens are hashed, so there is no raw access. Rotate on every use.",
            "Refresh tokens are hashed, so there is no raw access.",
        ),
        (
            "Added login. Note: tokens must be rotated on every use.",
            "Note: tokens must be rotated on every use.",
        ),
        ("Switched to argon2 instead of bcrypt for new hashes", None),
        ("Added the index but it locks the table while building", "But it locks the table while building"),
        ("Added JWT auth endpoint with refresh token rotation", None),
        (
            "Changed the envelope. Helpers reading detail[0].msg will break.",
            "Helpers reading detail[0].msg will break.",
        ),
        (
            "Added pagination. Note next_cursor is null on the last page.",
            "Note next_cursor is null on the last page.",
        ),
        ("Added the list. Sorting by date needs an index.", "Sorting by date needs an index."),
        (
            "Added login. It works. However the cookie is not httpOnly yet.",
            "However the cookie is not httpOnly yet.",
        ),
    ],
)
def test_gotcha_sentence_by_trade_off_markers(text: str, gotcha: str | None) -> None:
    """Later sentences with markers win; a single sentence yields its clause from the marker on."""
    assert gotcha_sentence(text) == gotcha


def test_sentences_and_shorten() -> None:
    """Sentence split keeps abbreviations and file names; shorten cuts on a word boundary."""
    assert sentences("Edited auth.py, e.g. login. Then tests.\n- bullet") == [
        "Edited auth.py, e.g. login.",
        "Then tests.",
        "bullet",
    ]
    cut = shorten("Added JWT auth endpoint with refresh token rotation", 30)
    assert cut == "Added JWT auth endpoint with…"
    assert len(shorten("x" * 100, 10)) == 10
    assert shorten("short", 60) == "short"


def test_contract_terms_flatten_without_paths() -> None:
    """contract_terms is what a summary must keep: no paths or URLs."""
    f = extract_facts("POST /api/login returns 401; edit api/x.py")
    assert f.contract_terms() == ("POST /api/login", "401")


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("The query took 200 ms on 500 rows", ()),
        ("returns 500 errors on timeout", ("500",)),
        ("Login now returns 200 with a token, or 401.", ("200", "401")),
    ],
)
def test_counted_nouns_are_not_status_codes(text: str, codes: tuple[str, ...]) -> None:
    """A number followed by a unit or a counted noun is a quantity, not an HTTP status."""
    assert extract_facts(text).status_codes == codes


def test_qualified_columns_and_any_url_scheme() -> None:
    """``orders.user_id`` in a schema sentence is a column; ``redis://`` is a URL, not a path."""
    f = extract_facts(
        "Added an index on orders.user_id; calls db.session.commit(). Cache at redis://cache:6379/0"
    )
    assert f.columns == ("orders.user_id",)
    assert f.urls == ("redis://cache:6379/0",)
    assert extract_facts("Edited config.py in the migration").columns == ()


@pytest.mark.parametrize(
    ("text", "tables"),
    [
        ("Created the refresh_tokens table with FK to users.", ("refresh_tokens",)),
        ("Created the orders table.", ("orders",)),
        ("Created billing.invoice_items table for line items.", ("billing.invoice_items",)),
        ('Added the "billing"."invoice_items" table.', ("billing.invoice_items",)),
        ("Added the `audit_log` table.", ("audit_log",)),
        ('create table "user_sessions" (id int)', ("user_sessions",)),
        ("CREATE TABLE IF NOT EXISTS billing.invoice_items (id int)", ("billing.invoice_items",)),
        ("Create Table [dbo].[Orders] (id int)", ("dbo.Orders",)),
        ("create temporary table scratch_rows (id int)", ("scratch_rows",)),
        ("Edited config.py table", ()),
        ("Fixed the table of contents", ()),
    ],
)
def test_table_names_in_every_spelling(text: str, tables: tuple[str, ...]) -> None:
    """snake_case, dotted, quoted, backticked and bracketed names, CREATE TABLE in any case."""
    f = extract_facts(text)
    assert f.tables == tables
    assert not set(f.columns) & {part for t in tables for part in t.split(".")}


@pytest.mark.parametrize(
    ("text", "columns"),
    [
        ('Added nullable column "expires_at" to the refresh_tokens table', ("expires_at",)),
        ("Added column `is_active` to users", ("is_active",)),
    ],
)
def test_quoted_and_backticked_columns(text: str, columns: tuple[str, ...]) -> None:
    """A column named in quotes or backticks is found without its quotes."""
    assert extract_facts(text).columns == columns
