"""The keyword map of the priority scoring engine: one data table of concepts, with test vectors.

The phase gate scores an entry from the keywords its summary mentions. Raw substring matching gets that
wrong in both directions (``author`` is not ``auth``, ``controller`` is not ``role``, ``lifestyle``
is not ``style``), so every keyword here is a *concept*: a set of word forms plus, for the multi-word
keywords, a phrase pattern.

How text is matched (the contract the test vectors pin down):

* The text is lower-cased and split into words at every character that is not a letter or a digit
  (``auth_service.py`` gives ``auth``, ``service``, ``py``; ``POST /api/v1`` gives ``post``, ``api``,
  ``v1``). camelCase identifiers stay one word, so ``AuthService`` matches nothing: a rule chosen
  because splitting case would also split acronyms like ``OAuth`` into ``o`` + ``auth``.
* A concept's ``words`` regex must match a whole word (``re.fullmatch``). That is what makes
  ``API`` and ``CSS`` whole words and ``deprecat`` a stem (``deprecat\\w*``).
* A concept's ``phrase`` regex is searched in the words joined by single spaces, for keywords of
  several words (``new table``, ``foreign key``).
* A concept's ``raw`` regex is searched, case-sensitively unless it says ``(?i:...)``, in the
  original text: it recognises shapes that words lose, such as an endpoint written ``POST /v1/rank``
  (upper-case method + path) or a table named ``refresh_tokens``, ``billing.invoice_items``,
  ``"audit_log"`` or `` `audit_log` `` (the word split would make that several words).

Each word's concepts are computed once and memoised, so scoring a large batch costs about one dict
lookup per word. The vectors on each row (``matches`` / ``rejects``) are asserted by the tests;
add a row with its vectors, never a bare regex.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["CONCEPTS", "Concept", "concept", "find_concepts", "words_of"]


@dataclass(frozen=True, slots=True)
class Concept:
    """One row of the keyword map: the keyword, its three dimension scores and its forms."""

    name: str
    impact: float
    risk: float
    novelty: float
    category: str
    words: str | None = None  # regex that must fullmatch one lower-cased word
    phrase: str | None = None  # regex searched in the space-joined lower-cased words
    needs: tuple[str, ...] = ()  # the phrase is tried only if one of these words occurs (speed)
    raw: str | None = None  # case-sensitive regex on the original text (``POST /path`` shapes)
    raw_needs: str = ""  # the raw regex runs only if the lower-cased text contains this (speed)
    matches: tuple[str, ...] = ()  # texts that must match this concept (test vectors)
    rejects: tuple[str, ...] = ()  # texts that must not


_NEW = r"(?:new|create|creates|created|creating|add|adds|added|adding|introduce|introduced)"
# A table or column name as people write it: snake_case, dotted (billing.invoice_items), "quoted",
# `backticked` or [bracketed], each part of a dotted name possibly quoted on its own.
_PART = r"(?:`[^`\s]+`|\"[^\"\s]+\"|\[[^\]\s]+\]|[A-Za-z_][\w$]*)"
_IDENT = _PART + r"(?:\." + _PART + r")*"

# Order follows the keyword table of docs/phase-gate.md; rows below "typo ... docstring" are our additions.
# fmt: off
CONCEPTS: tuple[Concept, ...] = (
    Concept("schema", 1.0, 1.0, 0.6, "schema/migration", words=r"schemas?|schemata",
            matches=("Changed the user schema", "schemas updated"), rejects=("schematic diagram",)),
    Concept("migration", 1.0, 1.0, 0.4, "schema/migration",
            words=r"migrations?|migrate|migrates|migrated|migrating",
            matches=("Added migration 0012", "migrated the orders data"), rejects=("emigrant list",)),
    Concept("auth", 1.0, 1.0, 0.5, "auth/security",
            words=r"(?:re|un|pre)?auth(?:n|z|s|entication|enticated?|enticates|enticating|enticator"
                  r"|ori[sz](?:e|ed|es|ing|ation|ations|er|ers))?",
            matches=("auth", "authn flow", "authz rules", "authentication", "authorize", "authorized",
                     "authorization header", "backend/routers/auth.py", "Unauthorized returns 401",
                     "Authorised users only"),
            rejects=("author", "authored the doc", "authors list", "AuthService class", "OAuth login")),
    Concept("login", 1.0, 1.0, 0.4, "auth/security",
            words=r"login|logins|logout|logon|signin|signon|sso",
            matches=("Login page", "fixed logout", "SSO via okta"), rejects=("logging config", "blogin")),
    Concept("permission", 0.8, 1.0, 0.5, "auth/security",
            words=r"permissions?|permissioned|rbac|acls?",
            matches=("checks permissions", "RBAC matrix"), rejects=("permissive parser",)),
    Concept("role", 0.8, 0.8, 0.4, "auth/security", words=r"roles?",
            matches=("admin role", "roles table"),
            rejects=("controller", "rollout plan", "payroll", "enrolled", "roleplayer")),
    Concept("JWT", 0.8, 1.0, 0.4, "auth/security", words=r"jwts?|jwks",
            matches=("JWT", "signed jwts"), rejects=("jwtoken",)),
    Concept("OAuth", 0.8, 1.0, 0.5, "auth/security", words=r"oauth2?|oidc|openid",
            matches=("OAuth login", "oauth2 flow"), rejects=("auth only",)),
    Concept("password", 0.7, 1.0, 0.3, "auth/security", words=r"passwords?|passwd|passphrases?",
            matches=("password reset", "Passwords hashed"), rejects=("passage", "passed")),
    Concept("encrypt", 0.7, 1.0, 0.5, "auth/security", words=r"(?:en|de|re)crypt\w*|cipher\w*",
            matches=("encrypt at rest", "encrypted", "encryption key", "decryption"),
            rejects=("crypto", "script")),
    Concept("token", 0.7, 0.8, 0.3, "auth/security",
            words=r"tokens?|tokeni[sz](?:e|ed|es|er|ers|ing|ation)",
            matches=("token", "refresh tokens", "tokenize input", "tokenized"), rejects=("tokenism",)),
    Concept("security", 0.8, 1.0, 0.4, "auth/security",
            words=r"security|secure|secured|securely|insecure|vulnerabilit(?:y|ies)|csrf|xss|cve|injections?|sqli",
            matches=("security fix", "secure cookie", "XSS hole", "SQL injection in search"),
            rejects=("securities", "dependency-injected")),
    Concept("new table", 1.0, 0.8, 0.9, "schema/migration",
            phrase=_NEW + r" (?:\w+ ){0,2}?tables?\b|\btable (?:created|added)\b",
            needs=("table", "tables"),
            # Identifiers are split into words above, so "the refresh_tokens table" is 4 words; the
            # raw pattern sees a snake_case, dotted, quoted or backticked name as one.
            raw=r"(?i:\bcreate\s+(?:temp(?:orary)?\s+)?table\b|" + _NEW
                + r"\s+(?:(?:the|a|an|new)\s+){0,2}" + _IDENT + r"\s+tables?\b|\btables?\s+" + _IDENT
                + r"\s+(?:was\s+|is\s+)?(?:created|added)\b)",
            raw_needs="table",
            matches=("Added new table sessions", "new refresh tokens table", "CREATE TABLE users",
                     "created the orders table", "Created the refresh_tokens table",
                     "created billing.invoice_items table", "Added the `audit_log` table",
                     'added "user_sessions" table', "create table if not exists billing.invoice_items",
                     "Create Table orders", "CREATE TABLE `audit_log` (id int)",
                     'Created the "billing"."invoice_items" table', "table audit_log was created"),
            rejects=("table of contents", "editable table", "added index to users table",
                     "Updated the refresh_tokens table", "dropped the billing.invoice_items table",
                     "ALTER TABLE users ADD deleted_at", "truncate table sessions")),
    Concept("new column", 0.7, 0.8, 0.6, "schema/migration",
            phrase=_NEW + r" (?:\w+ ){0,2}?columns?\b|\balter table \w+ add\b|\bcolumn (?:created|added)\b",
            needs=("column", "columns", "alter"),
            # "Added invoices.due_date": a new table.column, unless it is a file name (utils.py).
            raw=r"\b(?:[Aa]dd(?:s|ed|ing)?|[Nn]ew|[Cc]reat(?:e|es|ed|ing)|[Ii]ntroduc(?:e|es|ed|ing))\s+"
                r"(?:(?:an?|the|nullable|optional|required)\s+){0,2}`?[a-z][a-z0-9_]*\."
                r"(?!(?:py|pyi|ts|tsx|js|jsx|mjs|md|json|ya?ml|toml|sql|sh|go|rs|rb|java|kt|css|scss|html|vue"
                r"|svelte|txt|cfg|ini|lock|env|csv|log)\b)[a-z][a-z0-9_]*\b(?!\.\w|\(|`?\s+tables?\b)"
                r"|(?i:" + _NEW + r"\s+(?:(?:an?|the|new|nullable|optional|required)\s+){0,2}" + _IDENT
                + r"\s+columns?\b)",
            raw_needs="",
            matches=("new column expires_at", "added nullable column expires_at",
                     "ALTER TABLE users ADD deleted_at", "Added invoices.due_date (date, nullable)",
                     "adds a nullable `customers.tax_id`",
                     "Added the billing.invoice_items.amount_cents column",
                     'Added the "expires_at" column', "added a `revoked_at` column"),
            rejects=("column chart", "columnist", "added utils.py", "Added config.yaml and main.go",
                     "added db.session.commit() calls", "Added billing.invoice_items table",
                     "Renamed the expires_at column")),
    Concept("index", 0.5, 0.6, 0.3, "database",
            words=r"(?:re)?index(?:es|ed|ing)?|indices",
            matches=("index", "indexes", "indices", "indexed", "reindex", "reindexing"),
            rejects=("indexical", "windex")),
    Concept("foreign key", 0.8, 0.9, 0.5, "database", words=r"fks?",
            phrase=r"\bforeign keys?\b", needs=("foreign",),
            matches=("foreign key to users", "FK on user_id", "foreign keys"), rejects=("foreign keyboard",)),
    Concept("constraint", 0.6, 0.7, 0.3, "database", words=r"constraints?|constrained",
            matches=("unique constraint",), rejects=("unconstrainedly",)),
    Concept("endpoint", 0.9, 0.6, 0.5, "api", words=r"endpoints?",
            raw=r"\b(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) +/[\w{:<]|(?<![\w./-])/v\d+/\w",
            raw_needs="/",
            matches=("endpoint", "new endpoints", "exposed POST /v1/rank", "serves /v2/users"),
            rejects=("end point", "a blog post / comment", "see docs/v1/notes.md")),
    Concept("route", 0.8, 0.5, 0.4, "api",
            words=r"routes?|routed|routing|routers?|reroute[sd]?",
            matches=("route", "routes", "routing", "router", "routers", "backend/routers/auth.py"),
            rejects=("routine", "grouted", "outer")),
    Concept("API", 0.8, 0.5, 0.4, "api", words=r"apis?",
            matches=("API", "REST APIs", "/api/v1/users"), rejects=("rapid", "capital", "apiary")),
    Concept("service", 0.7, 0.4, 0.4, "architecture", words=r"services?|microservices?",
            matches=("auth_service.py", "new service"), rejects=("serviceable", "servicing")),
    Concept("new file", 0.6, 0.3, 0.8, "structure", phrase=_NEW + r" (?:\w+ ){0,1}?files?\b",
            needs=("file", "files"),
            matches=("new file for helpers", "added 3 files", "created a file"),
            rejects=("file upload", "profile added")),
    Concept("refactor", 0.5, 0.7, 0.6, "code-quality", words=r"refactor\w*",
            matches=("refactor", "refactored", "refactoring"), rejects=("factor",)),
    Concept("rename", 0.4, 0.6, 0.3, "code-quality", words=r"renam(?:e|ed|es|ing)",
            matches=("rename", "renamed column"), rejects=("renamer", "name")),
    Concept("delete", 0.5, 0.7, 0.2, "code-quality",
            words=r"delet(?:e|es|ed|ing|ion|ions)",
            matches=("delete", "deletes", "deleted", "deletion", "soft-deleted rows"),
            rejects=("deleterious", "delegate")),
    Concept("deprecat", 0.4, 0.4, 0.3, "code-quality", words=r"deprecat\w*",
            matches=("deprecate", "deprecated", "deprecation", "deprecating"), rejects=("depreciate",)),
    Concept("config", 0.5, 0.6, 0.3, "infrastructure", words=r"(?:re|mis)?config\w*",
            matches=("config", "configs", "configuration", "reconfigured"), rejects=("conflict",)),
    Concept("Docker", 0.7, 0.6, 0.3, "infrastructure", words=r"docker\w*|containeri[sz]\w*",
            matches=("Docker", "Dockerfile", "dockerized", "docker-compose"), rejects=("dock",)),
    Concept("deploy", 0.8, 0.8, 0.2, "infrastructure", words=r"(?:re)?deploy\w*",
            matches=("deploy", "deployed", "deployment", "redeploy"), rejects=("employ",)),
    Concept("CSS", 0.2, 0.1, 0.2, "style", words=r"css|scss",
            matches=("CSS", "fixed css", "main.css"), rejects=("access", "cssx")),
    Concept("style", 0.2, 0.1, 0.2, "style", words=r"styles?|styled|styling|stylesheets?",
            matches=("style", "styles", "styled", "stylesheet"), rejects=("lifestyle", "stylus")),
    Concept("typo", 0.0, 0.0, 0.0, "trivial", words=r"typos?",
            matches=("typo", "typos"), rejects=("typography",)),
    Concept("comment", 0.1, 0.0, 0.0, "trivial", words=r"comments?|commented|commenting",
            matches=("comment", "comments", "commented"), rejects=("commentary", "commentator")),
    Concept("README", 0.2, 0.0, 0.1, "documentation", words=r"readmes?",
            matches=("README", "README.md"), rejects=("read me",)),
    Concept("docstring", 0.2, 0.0, 0.1, "documentation", words=r"docstrings?",
            matches=("docstring", "docstrings"), rejects=("docs string",)),
    # Our additions: contract-breaking words the original map has no row for, and UI components
    # (the variant table's Aphrodite rows name them; the original keyword map has no UI row).
    Concept("component", 0.6, 0.4, 0.5, "ui", words=r"components?|widgets?",
            matches=("The AttachmentDropzone component", "new widgets"), rejects=("componentry",)),
    Concept("breaking change", 1.0, 1.0, 0.5, "api",
            phrase=r"\bbreaking (?:changes?|api)\b|\bbackwards? incompatible\b",
            needs=("breaking", "incompatible"),
            matches=("breaking change to /users", "backward incompatible"), rejects=("breaking news",)),
    Concept("webhook", 0.7, 0.6, 0.5, "api", words=r"webhooks?",
            matches=("new webhook",), rejects=("hook",)),
    Concept("secret", 0.7, 1.0, 0.3, "auth/security", words=r"secrets?|credentials?|apikeys?",
            phrase=r"\bapi keys?\b", needs=("key", "keys"),
            matches=("rotated secrets", "API key", "credentials"), rejects=("secretary",)),
)
# fmt: on

_BY_NAME = {c.name: c for c in CONCEPTS}
_ORDER = {c.name: i for i, c in enumerate(CONCEPTS)}
_WORD_CONCEPTS = tuple(c for c in CONCEPTS if c.words)
# One alternation with a group per concept: a single fullmatch both rejects the (vast majority of)
# words that match nothing and names the concept of those that do. Word patterns are disjoint (a
# test checks every vector), so the first group that matches is the only one; compiling one pattern
# instead of one per concept also halves the import cost, which `summarizer score` pays each run.
_ANY_WORD = re.compile("|".join(f"(?P<g{i}>{c.words})" for i, c in enumerate(_WORD_CONCEPTS)))
_RAW_CONCEPTS = tuple((c, re.compile(c.raw), c.raw_needs) for c in CONCEPTS if c.raw)
_PHRASE_CONCEPTS = tuple((c, re.compile(c.phrase), frozenset(c.needs)) for c in CONCEPTS if c.phrase)
_WORD = re.compile(r"[^\W_]+")  # letters and digits; underscore and punctuation separate words
_PLACEHOLDER = re.compile(r"\[REDACTED:[^\]]*\]")
_NONE: frozenset[str] = frozenset()


def concept(name: str) -> Concept:
    """Return the row named ``name`` (as in the keyword table, e.g. ``"auth"``, ``"new table"``)."""
    return _BY_NAME[name]


def words_of(text: str) -> list[str]:
    """Split ``text`` into lower-cased words the way the matcher sees them."""
    return _WORD.findall(text.lower())


@lru_cache(maxsize=65536)
def _concepts_of_word(word: str) -> frozenset[str]:
    match = None if word.isdigit() else _ANY_WORD.fullmatch(word)
    if match is None or match.lastgroup is None:
        return _NONE
    return frozenset((_WORD_CONCEPTS[int(match.lastgroup[1:])].name,))


def find_concepts(text: str) -> tuple[Concept, ...]:
    """Return the concepts ``text`` mentions, in table order, each once.

    Scrubber placeholders (``[REDACTED:jwt]``) are ignored: a redacted secret must not score as
    the keyword its type happens to be named after.

    >>> [c.name for c in find_concepts("Added JWT auth endpoint with refresh token rotation")]
    ['auth', 'JWT', 'token', 'endpoint']
    """
    if "[REDACTED:" in text:
        text = _PLACEHOLDER.sub(" ", text)
    words = words_of(text)
    unique = set(words)
    lowered = text.lower()
    found_raw = {c.name for c, rx, needs in _RAW_CONCEPTS if needs in lowered and rx.search(text)}
    found: set[str] = found_raw
    for word in unique:
        found |= _concepts_of_word(word)
    joined: str | None = None
    for c, rx, needs in _PHRASE_CONCEPTS:
        if c.name in found or (needs and needs.isdisjoint(unique)):
            continue
        if joined is None:
            joined = " ".join(words)
        if rx.search(joined):
            found.add(c.name)
    return tuple(_BY_NAME[name] for name in sorted(found, key=_ORDER.__getitem__))
