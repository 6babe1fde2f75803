"""Pure normalisers shared by the store, the tools and the client: engram's rules, in Python.

Every function here is a value-in/value-out rule taken from engram's store (baseline v1.7, with the
later fixes we adopt, docs/engram.md). Byte limits are *bytes* as in engram (Go slices byte strings), but our
cuts never split a UTF-8 sequence: engram could store half a rune, we never do.

Invariants:
    * ``hash_normalized`` is computed on content *after* privacy stripping and truncation; it is what
      the 15-minute duplicate window and passive capture compare.
    * ``sanitize_fts`` quotes every term and OR-joins them (engram's later default, which fixed the
      zero-recall multi-word queries of the AND-joined baseline); interior quotes are doubled, so no
      user query can produce an FTS5 syntax error except the empty one.
"""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta

__all__ = [
    "MAX_OBSERVATION_BYTES",
    "TRUNCATION_MARKER",
    "classify_tool",
    "dedupe_window_expr",
    "default_session_id",
    "display_truncate",
    "go_quote",
    "hash_normalized",
    "normalize_scope",
    "normalize_topic_key",
    "nullable",
    "sanitize_fts",
    "strip_private",
    "truncate_bytes",
    "truncate_content",
]

# engram v1.7 used 2,000 bytes and silently cut specs in half; v1.8.1 raised it to 50,000
# (https://github.com/Gentleman-Programming/engram/issues/41).
# We take the later limit: a day's compressed session document must fit whole.
MAX_OBSERVATION_BYTES = 50_000
TRUNCATION_MARKER = "... [truncated]"
TOPIC_KEY_MAX_BYTES = 120

_PRIVATE = re.compile(r"<private>.*?</private>", re.IGNORECASE | re.DOTALL)


def strip_private(text: str) -> str:
    """Replace every ``<private>…</private>`` span with ``[REDACTED]`` and trim the result.

    The match is non-greedy, as in engram: a nested tag ends at the first ``</private>``.
    """
    return _PRIVATE.sub("[REDACTED]", text).strip()


def truncate_bytes(text: str, limit: int) -> str:
    """The longest prefix of ``text`` whose UTF-8 encoding fits in ``limit`` bytes (never half a rune)."""
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    return data[:limit].decode("utf-8", errors="ignore")


def truncate_content(text: str, limit: int = MAX_OBSERVATION_BYTES) -> tuple[str, bool]:
    """Cap ``text`` at ``limit`` UTF-8 bytes plus engram's marker; report whether it was cut.

    engram appends ``"... [truncated]"`` after the cut and says nothing; we return the flag so the
    caller can tell the user (that silent loss was https://github.com/Gentleman-Programming/engram/issues/41).
    """
    if len(text.encode("utf-8")) <= limit:
        return text, False
    return truncate_bytes(text, limit) + TRUNCATION_MARKER, True


def display_truncate(text: str, limit: int) -> str:
    """Cut ``text`` to ``limit`` UTF-8 bytes and add ``...``, as engram's display helper does.

    engram v1.7 slices the Go string's bytes (``s[:n]``), so a preview can end in half a character
    (``"…\xc3..."``). We cut at the same byte limit but on a character boundary: ASCII previews are
    byte-identical to engram's, and a multi-byte character at the cut is dropped whole, never split.
    """
    if len(text.encode("utf-8")) <= limit:
        return text
    return truncate_bytes(text, limit) + "..."


def normalize_scope(scope: str | None) -> str:
    """``personal`` stays ``personal``; anything else (empty, unknown, ``PROJECT``) is ``project``."""
    return "personal" if (scope or "").strip().lower() == "personal" else "project"


def normalize_topic_key(topic: str | None) -> str:
    """Lower-case, trim, join whitespace runs with ``-`` and cap at 120 bytes; ``/`` survives."""
    value = (topic or "").strip().lower()
    if not value:
        return ""
    return truncate_bytes("-".join(value.split()), TOPIC_KEY_MAX_BYTES)


def hash_normalized(content: str) -> str:
    """SHA-256 hex of the content with whitespace collapsed and case folded (engram's dedupe hash)."""
    return hashlib.sha256(" ".join(content.split()).lower().encode("utf-8")).hexdigest()


def dedupe_window_expr(window: timedelta) -> str:
    """SQLite modifier for the duplicate window: ``-15 minutes`` for <= 0, never under one minute."""
    if window <= timedelta(0):
        window = timedelta(minutes=15)
    minutes = max(1, int(window.total_seconds() // 60))
    return f"-{minutes} minutes"


def default_session_id(project: str) -> str:
    """The session engram files agent saves under when none is given: ``manual-save[-project]``."""
    return "manual-save" if not project else f"manual-save-{project}"


def nullable(value: str | None) -> str | None:
    """engram stores ``""`` as NULL in nullable text columns."""
    return value if value else None


def sanitize_fts(query: str) -> str:
    """Turn free text into a safe FTS5 expression: each term quoted, terms OR-joined.

    Surrounding quotes are stripped from each term (so ``"fix" auth`` does not double-quote) and interior
    quotes are doubled, FTS5's escape (``hello"world`` used to be a syntax error:
    https://github.com/Gentleman-Programming/engram/issues/574).
    """
    terms: dict[str, None] = {}  # distinct, in order: a repeated word adds nothing to an OR query
    for word in query.split():
        inner = word.strip('"').replace('"', '""')
        terms.setdefault(f'"{inner}"')
        if len(terms) == MAX_FTS_TERMS:
            break
    return " OR ".join(terms)


MAX_FTS_TERMS = 64


_TOOL_TYPES = {
    "write": "file_change",
    "edit": "file_change",
    "patch": "file_change",
    "bash": "command",
    "read": "file_read",
    "view": "file_read",
    "grep": "search",
    "glob": "search",
    "ls": "search",
}


def classify_tool(tool_name: str) -> str:
    """engram's legacy observation type for a raw tool event (``tool_use`` when unknown)."""
    return _TOOL_TYPES.get(tool_name, "tool_use")


_GO_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
}


def go_quote(text: str) -> str:
    """Quote like Go's ``%q`` (``strconv.Quote``), which engram uses in its tool replies."""
    out = ['"']
    for ch in text:
        if ch in _GO_ESCAPES:
            out.append(_GO_ESCAPES[ch])
        elif ch.isprintable() or ch == " ":
            out.append(ch)
        elif ord(ch) < 0x80:
            out.append(f"\\x{ord(ch):02x}")
        elif ord(ch) < 0x10000:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    out.append('"')
    return "".join(out)
