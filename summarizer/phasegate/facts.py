"""Contract facts extracted from a summary by pattern: the details a next agent must not lose.

One pure function, :func:`extract_facts`, finds what the variant table (docs/phase-gate.md) asks each agent
pair to carry: endpoints (``POST /auth/login``, or a path under ``/api/``, ``/v1/``, ``/v2/``), HTTP status
codes, table / column / foreign-key names, migration ids, component names, environment variables,
plus the file paths and URLs a text mentions and its *gotcha* sentence (the one carrying a trade-off
marker). It is shared by the offline templates, the cross-reference index, the validation of LLM
answers and the fact-recall eval, so its API is a contract: :class:`Facts` only ever gains fields.

Rules chosen (also in docs/phase-gate.md):

* An endpoint needs an upper-case HTTP method followed by a path, or a path that starts with
  ``/api/``, ``/v1/`` or ``/v2/`` and is not part of a file path. The bare words "delete" or "route"
  create none; ``backend/api/users.py`` is a file, not an endpoint.
* A status code counts only in HTTP context: after a word such as *returns*, *status*, *HTTP*, *on*,
  *with*, or before a reason phrase (``401 Unauthorized``); codes joined by ``/``, ``,``, *or*,
  *and* share the context. "Processed 500 rows" has none.
* Tables are named after (or before) the word table, or by ``CREATE/ALTER/DROP TABLE`` in any
  case; a name may be snake_case, dotted (``billing.invoice_items``), "quoted", `backticked` or
  [bracketed], each part of a dotted name quoted on its own; the quotes are dropped.
* Columns are snake_case identifiers in a sentence about tables/columns/migrations/fields, named
  next to the word column, or added by ``ADD COLUMN``; a name followed by ``(`` is a function.
* Components are PascalCase names next to component/page/widget (``LoginForm component``), a
  capitalised word before *page* (``Login page``), or the stem of a ``.tsx/.jsx/.vue/.svelte`` file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import PurePosixPath

__all__ = ["Facts", "extract_facts", "gotcha_sentence", "sentences", "shorten"]

_METHOD_PATH = re.compile(r"\b(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+`?(/[\w\-./{}:<>*~%]*)")
_API_PATH = re.compile(r"(?<![\w./\-])/(?:api|v1|v2)/[\w\-./{}:<>*~%]*")
_FILE_EXT = re.compile(
    r"\.(?:py|pyi|ts|tsx|js|jsx|mjs|go|rs|java|kt|rb|php|cs|vue|svelte|md|json|ya?ml|toml|sql|sh|html|css)$"
)
_KNOWN_CODES = frozenset(
    {
        100,
        101,
        200,
        201,
        202,
        204,
        206,
        301,
        302,
        303,
        304,
        307,
        308,
        400,
        401,
        402,
        403,
        404,
        405,
        406,
        408,
        409,
        410,
        411,
        412,
        413,
        414,
        415,
        418,
        422,
        423,
        424,
        425,
        426,
        428,
        429,
        431,
        451,
        500,
        501,
        502,
        503,
        504,
        505,
        507,
    }
)
_CODE_GROUP = re.compile(
    r"(?<![\w.:$/#-])([1-5]\d\d)((?:\s*(?:/|,|\bor\b|\band\b|\|)\s*[1-5]\d\d)*)(?![\w%$]|[.:]\d)"
)
_CODE_BEFORE = re.compile(
    r"(?:\bhttp|\bstatus(?:es)?|\bcodes?|\breturns?|\breturned|\breturning|\bresponds?(?: with)?"
    r"|\bresponded(?: with)?|\bresponses?|\bon|\bwith|\bgives?|\bgot|\bsends?|\braises?|\bthrows?"
    r"|\berrors?|\bthe|\ba|->|→|=>|:|\()\W{0,3}$",
    re.IGNORECASE,
)
_REASON_AFTER = re.compile(
    r"\s*(?:OK\b|Created|Accepted|No Content|Moved|Found|See Other|Not Modified|Redirect|Bad Request"
    r"|Unauthori[sz]ed|Payment Required|Forbidden|Not Found|Method Not Allowed|Not Acceptable|Timeout"
    r"|Conflict|Gone|Precondition|Payload Too Large|Unsupported|Unprocessable|Locked|Too Many Requests"
    r"|Internal Server Error|Not Implemented|Bad Gateway|Service Unavailable|Gateway Timeout"
    r"|response|error|status)",
    re.IGNORECASE,
)
# "took 200 ms on 500 rows": a number followed by a unit or a counted noun is no status code.
_UNIT_AFTER = re.compile(
    r"\s*(?:ms|s|sec|secs|seconds?|minutes?|min|rows?|items?|records?|lines?|files?|tests?|users?|requests?"
    r"|entries|entry|bytes?|[kmg]i?b|%|px|times|calls|chars|characters|tokens)\b",
    re.IGNORECASE,
)
# A table name as written: snake_case, dotted (billing.invoice_items), "quoted", `backticked` or
# [bracketed], each part of a dotted name possibly quoted on its own ("billing"."invoice_items").
_PART = r"(?:`[^`\s]+`|\"[^\"\s]+\"|\[[^\]\s]+\]|[A-Za-z_][\w$]*)"
_IDENT = _PART + r"(?:\." + _PART + r")*"
_LOWER_IDENT = (
    r"(?:`[^`\s]+`|\"[^\"\s]+\"|\[[^\]\s]+\]|[a-z_][a-z0-9_]*)"
    r"(?:\.(?:`[^`\s]+`|\"[^\"\s]+\"|\[[^\]\s]+\]|[a-z_][a-z0-9_]*))*"
)
_SQL_TABLE = re.compile(
    r"\b(?:create|alter|drop|truncate)\s+(?:temp(?:orary)?\s+)?table\s+(?:if\s+(?:not\s+)?exists\s+)?("
    + _IDENT
    + ")",
    re.IGNORECASE,
)
_TABLE_AFTER = re.compile(r"\btables?\s+(" + _LOWER_IDENT + ")", re.IGNORECASE)
_TABLE_BEFORE = re.compile(r"(?<![\w.`\"\]])(" + _LOWER_IDENT + r")\s+tables?\b")
_FK = re.compile(
    r"\b(?:fk|foreign\s+keys?)\s+(?:to|on|into|referencing|references|->|→)\s+[`\"']?([A-Za-z_]\w*)"
    r"|\breferences\s+[`\"']?([A-Za-z_]\w*)\s*\(",
    re.IGNORECASE,
)
_COLUMN_AFTER = re.compile(
    r"\b(?:add\s+column|columns?|fields?)\s+(?:if\s+not\s+exists\s+)?(`[A-Za-z_]\w*`|\"[A-Za-z_]\w*\"|[a-z_][a-z0-9_]*)",
    re.IGNORECASE,
)
_COLUMN_BEFORE = re.compile(r"(`[A-Za-z_]\w*`|\"[A-Za-z_]\w*\"|\b[a-z_][a-z0-9_]*)\s+(?:columns?|fields?)\b")
_ALTER_ADD = re.compile(r"\balter\s+table\s+\w+\s+add\s+(?!column\b)[`\"']?([A-Za-z_]\w*)", re.IGNORECASE)
_SNAKE = re.compile(r"(?<![\w./\-`])`?([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`?(?![\w/(\-]|\.\w)")
_SCHEMA_CONTEXT = re.compile(
    r"\b(?:tables?|columns?|fields?|migrat\w*|schemas?|fks?|foreign|(?:re)?index\w*|indices|constraint\w*)\b",
    re.I,
)
# table.column in a schema sentence ("index on orders.user_id"); not file.ext, not obj.method(
_QUALIFIED = re.compile(r"(?<![\w/.`])`?([a-z][a-z0-9_]*\.[a-z][a-z0-9_]*)`?(?![\w(/]|\.\w)")
_MIGRATION_ID = re.compile(r"(?<![\w/])(\d{3,14}_[a-z0-9_]+)\b")
_MIGRATION_WORD = re.compile(
    r"\bmigrations?\s+(?:version\s+|revision\s+|id\s+|#)?`?((?=[\w.\-]*\d)[\w.\-]*\w)`?", re.IGNORECASE
)
_COMPONENT_NAMED = re.compile(
    r"\b([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[A-Z][a-z0-9]+)\s+(component|page|widget)s?\b"
    r"|\b(?:component|widget)\s+`?([A-Z][A-Za-z0-9]+)`?",
)
_UI_EXT = (".tsx", ".jsx", ".vue", ".svelte")
_ENV_VAR = re.compile(r"(?<![\w$])\$?\{?([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\}?(?!\w)")
_URL = re.compile(r"\b[a-z][a-z0-9+.\-]{1,20}://[^\s<>\"'`)\]]+")
_PATH = re.compile(
    r"(?<![\w/:.])(?:\.{0,2}/)?(?:[\w.\-]+/)+[\w.\-]+|(?<![\w/.\-])[\w\-]+\.(?:py|pyi|ts|tsx|js|jsx|go|rs|"
    r"java|rb|vue|svelte|sql|md|json|ya?ml|toml|sh|css|html)\b"
)
_LETTER = re.compile(r"[A-Za-z]")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9`\"'(\[*])|\s*\n+\s*(?:[-*•]\s+)?")
_GOTCHA_STRONG = re.compile(
    r"\b(?:gotcha|caveat|trade-?off|however|beware|careful|warning|note|nb|important|pitfall|breaking"
    r"|instead|rather than|workaround|must not|never|do not|don't|cannot|can't|only after|only if"
    r"|requires?|must|needs?|will break|breaks?|avoid)\b",
    re.IGNORECASE,
)
_GOTCHA_WEAK = re.compile(
    r"\b(?:but|though|although|except|unless|until|so|because|not|no|no longer|without|only|always"
    r"|null|deferred|postponed|todo|follow-up|later)\b",
    re.I,
)
# In the first sentence (the "what" line) only a contrasting conjunction starts a separate gotcha clause.
_GOTCHA_CLAUSE = re.compile(
    r"\b(?:but|however|though|although|except|unless|caveat|gotcha|trade-?off|note:|beware|careful)", re.I
)
_STOP = frozenset(
    {
        "a",
        "an",
        "the",
        "new",
        "this",
        "that",
        "these",
        "those",
        "its",
        "their",
        "our",
        "your",
        "each",
        "every",
        "any",
        "some",
        "all",
        "no",
        "of",
        "for",
        "with",
        "to",
        "in",
        "on",
        "at",
        "by",
        "from",
        "into",
        "and",
        "or",
        "as",
        "is",
        "was",
        "are",
        "were",
        "be",
        "been",
        "join",
        "lookup",
        "pivot",
        "hash",
        "temp",
        "temporary",
        "same",
        "one",
        "two",
        "which",
        "what",
        "when",
        "where",
        "it",
        "data",
        "main",
        "existing",
        "old",
        "other",
        "given",
        "db",
        "database",
        "sql",
    }
)


@dataclass(frozen=True, slots=True)
class Facts:
    """Contract facts of one text, each tuple in first-seen order without duplicates."""

    endpoints: tuple[str, ...] = ()
    status_codes: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()
    columns: tuple[str, ...] = ()
    foreign_keys: tuple[str, ...] = ()
    migrations: tuple[str, ...] = ()
    components: tuple[str, ...] = ()
    env_vars: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    urls: tuple[str, ...] = ()
    gotcha: str | None = None

    def as_dict(self) -> dict[str, object]:
        """JSON-ready mapping of every field."""
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(self).items()}

    def contract_terms(self) -> tuple[str, ...]:
        """Every extracted contract term (no paths, URLs or gotcha): what a summary should keep."""
        seen = (
            self.endpoints
            + self.status_codes
            + self.tables
            + self.columns
            + self.foreign_keys
            + self.migrations
            + self.components
            + self.env_vars
        )
        return _unique(seen)


def _unique(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(i for i in items if i))


def _clean_path(path: str) -> str:
    return path.rstrip(".,;:)`'\"")


def _name(raw: str) -> str:
    """``"billing"."invoice_items"`` and `` `billing`.`invoice_items` `` are ``billing.invoice_items``."""
    if raw[:1] in "`\"'[" or ".`" in raw or '."' in raw or ".[" in raw:
        return ".".join(
            part.strip("`\"'[]") for part in re.findall(r"`[^`]*`|\"[^\"]*\"|\[[^\]]*\]|[^.]+", raw)
        )
    return raw.strip("`\"'")


def sentences(text: str) -> list[str]:
    """Split text into sentences (at ``. ! ?`` followed by a capital, and at line breaks/bullets)."""
    return [s.strip() for s in _SENTENCE_END.split(text.strip()) if s and s.strip()]


def shorten(text: str, limit: int, ellipsis: str = "…") -> str:
    """Cut ``text`` to at most ``limit`` characters on a word boundary, ending with ``ellipsis``.

    A text that fits is returned unchanged; a single word longer than the limit is cut hard.
    """
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    room = max(limit - len(ellipsis), 1)
    cut = text[: room + 1]
    space = cut.rfind(" ")
    head = cut[:space] if space > 0 else text[:room]
    return head.rstrip(" ,;:-—") + ellipsis


def gotcha_sentence(text: str) -> str | None:
    """The sentence carrying a trade-off marker (however, must, instead of, note:, but, ...), or None.

    A later sentence with a strong marker wins; otherwise a later sentence with a weak marker
    (but, though, unless, not, only, ...); failing both, the first sentence's clause from a
    contrasting conjunction on ("But the refresh token is single-use"), because the first sentence
    itself is already the "what" line. ``None`` when there is no trade-off to report.
    """
    parts = sentences(text)
    for pattern in (_GOTCHA_STRONG, _GOTCHA_WEAK):
        for sentence in parts[1:]:
            if pattern.search(sentence):
                return sentence
    if parts:
        match = _GOTCHA_CLAUSE.search(parts[0])
        if match and match.start() > 0:
            clause = parts[0][match.start() :].strip(" ,;—-")
            return clause[0].upper() + clause[1:]
    return None


def _status_codes(text: str) -> list[str]:
    found: list[str] = []
    last_end = -100
    for match in _CODE_GROUP.finditer(text):
        before = text[max(0, match.start() - 30) : match.start()]
        after = text[match.end() : match.end() + 30]
        # "200 OK or 404": a code shortly after an accepted one, in the same clause, shares its context.
        gap = text[max(0, last_end) : match.start()]
        follows = match.start() - last_end <= 25 and not re.search(r"[.;!?]\s", gap)
        if _UNIT_AFTER.match(after) or not (
            follows or _CODE_BEFORE.search(before) or _REASON_AFTER.match(after)
        ):
            continue
        last_end = match.end()
        codes = [match.group(1), *re.findall(r"[1-5]\d\d", match.group(2))]
        found.extend(c for c in codes if int(c) in _KNOWN_CODES)
    return found


def _endpoints(text: str) -> list[str]:
    found: list[str] = []
    starts: set[int] = set()  # where a method's path starts: the bare-path pass skips those
    for match in _METHOD_PATH.finditer(text):
        path = _clean_path(match.group(2))
        if path and not _FILE_EXT.search(path):
            found.append(f"{match.group(1)} {path}")
            starts.add(match.start(2))
    for match in _API_PATH.finditer(text):
        if match.start() in starts:
            continue
        path = _clean_path(match.group(0))
        if not _FILE_EXT.search(path):
            found.append(path)
    return found


def _tables(text: str) -> tuple[list[str], list[str]]:
    tables = [_name(m.group(1)) for m in _SQL_TABLE.finditer(text)]
    for rx in (_TABLE_AFTER, _TABLE_BEFORE):
        for m in rx.finditer(text):
            raw = m.group(1)
            name = _name(raw)
            if name.lower() in _STOP or _FILE_EXT.search(name):
                continue
            # A bare word is a table name only if it looks like one: snake_case, dotted, quoted or a plural.
            quoted = raw[:1] in '`"['
            if quoted or "_" in name or "." in name or (name.endswith("s") and len(name) > 3):
                tables.append(name)
    fks = [_name(m.group(1) or m.group(2)) for m in _FK.finditer(text)]
    return tables, fks


def _columns(text: str, tables: Sequence[str]) -> list[str]:
    cols: list[str] = []
    for rx in (_COLUMN_AFTER, _COLUMN_BEFORE):
        for m in rx.finditer(text):
            name = _name(m.group(1))
            looks_named = m.group(1).startswith("`") or "_" in name or rx is _COLUMN_AFTER
            if looks_named and name.lower() not in _STOP:
                cols.append(name)
    cols.extend(m.group(1) for m in _ALTER_ADD.finditer(text))
    # the parts of a dotted table name are not columns ("billing"."invoice_items")
    skip = set(tables) | {part for t in tables if "." in t for part in t.split(".")}
    for sentence in sentences(text):
        if _SCHEMA_CONTEXT.search(sentence):
            cols.extend(
                m.group(1)
                for m in _SNAKE.finditer(sentence)
                if m.group(1) not in skip and not _MIGRATION_ID.fullmatch(m.group(1))
            )
            cols.extend(
                m.group(1)
                for m in _QUALIFIED.finditer(_URL.sub(" ", sentence))
                if not _FILE_EXT.search(m.group(1))
            )
    return [c for c in cols if c not in skip and c.upper() != c]


def _migrations(text: str, files: Sequence[str]) -> list[str]:
    found = [m.group(1) for m in _MIGRATION_ID.finditer(text)]
    found.extend(m.group(1) for m in _MIGRATION_WORD.finditer(text))
    for path in files:
        p = PurePosixPath(path)
        if any(part in {"migrations", "versions", "migrate"} for part in p.parts[:-1]) and p.stem not in {
            "__init__",
            "env",
            "script",
        }:
            found.append(p.stem)
    return found


def _components(text: str, files: Sequence[str]) -> list[str]:
    found: list[str] = []
    for m in _COMPONENT_NAMED.finditer(text):
        if m.group(3):
            found.append(m.group(3))
        elif m.group(2).lower() == "page" and not re.search(r"[A-Z].*[A-Z]", m.group(1)):
            found.append(f"{m.group(1)} page")
        elif m.group(1).lower() not in _STOP:
            found.append(m.group(1))
    found.extend(PurePosixPath(f).stem for f in files if f.endswith(_UI_EXT))
    return found


def extract_facts(text: str, files: Sequence[str] = ()) -> Facts:
    """Extract the contract facts of ``text`` (and of the changed ``files``, for migrations/components).

    >>> f = extract_facts("Added POST /auth/login; returns 401 on a bad password. Must rotate tokens.")
    >>> f.endpoints, f.status_codes, f.gotcha
    (('POST /auth/login',), ('401',), 'Must rotate tokens.')
    """
    tables, fks = _tables(text)
    tables_u = _unique(tables)
    return Facts(
        endpoints=_unique(_endpoints(text)),
        status_codes=_unique(_status_codes(text)),
        tables=tables_u,
        columns=_unique(_columns(text, tables_u + _unique(fks))),
        foreign_keys=_unique(fks),
        migrations=_unique(_migrations(text, files)),
        components=_unique(_components(text, files)),
        env_vars=_unique(m.group(1) for m in _ENV_VAR.finditer(text)),
        paths=_unique(
            p for m in _PATH.finditer(_URL.sub(" ", text)) if _LETTER.search(p := _clean_path(m.group(0)))
        ),
        urls=_unique(_clean_path(m.group(0)) for m in _URL.finditer(text)),
        gotcha=gotcha_sentence(text),
    )
