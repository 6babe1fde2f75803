"""Secret scrubbing: the one scrubber every path calls before text leaves the process or is stored.

Interface (stable): ``scrub(text) -> (scrubbed_text, redactions)``. Each :class:`Redaction` carries
the ``kind``, the ``start``/``end`` offsets into the ORIGINAL string and the stable ``placeholder``
``[REDACTED:<kind>]`` that replaced it. Redactions are sorted and never overlap.

Invariants (tested on a corpus in ``tests/core/``):

* Matching runs on a folded copy of the text: NFKC (fullwidth ``ｇｈｐ＿`` is ``ghp_``) with
  zero-width and bidi controls removed, so a secret cannot hide behind look-alike or invisible
  characters. Offsets are mapped back: they, and the untouched text around each placeholder, are
  the original's.
* Only the secret value is replaced; key names, ``file.py:123`` coordinates, timestamps, recovery
  ids and the line structure stay as they were. A multi-line PEM block is redacted line by line, so
  line numbers in a scrubbed log still point at the same lines. The block may start anywhere in a
  line (a traceback, a log prefix); body lines may carry a log prefix, which stays.
* Idempotent: ``scrub(scrub(t)[0])`` finds nothing more, because a candidate that touches an
  existing placeholder is dropped.
* Overlapping matches merge into one redaction covering their union (no secret byte can leak out
  of a partial overlap); its kind is that of the most specific rule involved (``ghp_`` beats
  ``token=``).
* Fast on big logs: each rule runs only when one of its trigger strings occurs in the lowercased
  text, so a line with no trigger costs one ``lower()`` and a few substring tests.

For a log processed line by line, use :class:`LineScrubber`, which remembers an open PEM block
across lines (``scrub`` on a lone base64 body line cannot know it belongs to a key). Both walk a
block with the same rule (:func:`pem_body`: key material continues it, anything else ends it),
so line-by-line and whole-text scrubbing give the same result.
"""

from __future__ import annotations

import re

from summarizer.core.lazyre import lazy
from summarizer.core.records import record
from summarizer.core.scrub_fold import OffsetMap, fold
from summarizer.core.scrub_patterns import (
    GATE,
    KEYWORDS,
    RULES,
    SESSION_RULE,
    Rule,
    b64_text,
    generic_kind,
    plausible_value,
)
from summarizer.core.scrub_pem import (
    PEM_BEGIN,
    Candidate,
    end_marker,
    line_stop,
    pem_body,
    pem_candidates,
    pem_kind,
    pem_open,
    stripped_span,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeVar

    from pydantic import BaseModel

    _M = TypeVar("_M", bound=BaseModel)

__all__ = [
    "ChunkScrubber",
    "KeyBlocks",
    "KnownSecrets",
    "LineScrubber",
    "Redaction",
    "scrub",
    "scrub_model",
    "scrub_value",
]

PLACEHOLDER_PREFIX = "[REDACTED:"


@record(frozen=True)
class Redaction:
    """One secret removed from a text."""

    kind: str
    start: int
    end: int

    @property
    def placeholder(self) -> str:
        """The stable text that replaced the secret."""
        return f"[REDACTED:{self.kind}]"


_PLACEHOLDER = lazy(r"\[REDACTED:[a-z0-9_]+\]")


def _rule_candidate(rule: Rule, m: re.Match[str]) -> Candidate | None:
    if rule.left is not None and m.start() > 0 and rule.left.match(m.string, m.start() - 1):
        return None
    if rule.validate is not None and not rule.validate(m):
        return None
    return Candidate(m.start("v"), m.end("v"), rule.priority, rule.kind)


_KEY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
_KEY_FORBIDDEN_LEFT = frozenset("/\\:")  # paths (a/secret: x) and Rust paths (auth::token: x)
_GENERIC_TRIGGERS = ("pass", "pwd", "secret", "credential", "token", "key")
_GENERIC_PRIORITY = 20
_NESTED_KEY = lazy(r"[A-Za-z_][\w.\-]*:")
_COOKIE_HEADER = lazy(r"(?i)(?:(?<![\w-])(?:set-)?cookie[\"']?[ \t]*:|--cookie[ \t=])[ \t]*[\"']?")
_COOKIE_PAIR = lazy(r"[ \t]*(?P<n>[^=;\s\"',]+)[ \t]*=[ \t]*(?P<v>[^;\r\n\"']*)")
# Set-Cookie attributes: their values are not secrets.
_COOKIE_ATTRIBUTES = frozenset(
    (
        "path",
        "domain",
        "expires",
        "max-age",
        "samesite",
        "secure",
        "httponly",
        "priority",
        "partitioned",
        "version",
        "comment",
    )
)


def _cookie_candidates(text: str, pos: int, end: int) -> list[Candidate]:
    """Every cookie value after a ``Cookie:``/``Set-Cookie:`` header (or curl ``-b``/``--cookie``).

    A cookie carries whatever the site uses to recognise a session, so every value is a secret,
    whatever its name; only ``Set-Cookie`` attributes (``Path=/``, ``Expires=...``) stay.
    """
    out: list[Candidate] = []
    while pos < end and (m := _COOKIE_PAIR.match(text, pos, end)) is not None:
        value = m.group("v")
        if m.group("n").lower() not in _COOKIE_ATTRIBUTES and len(value.strip()) >= 4:
            span = stripped_span(text, m.start("v"), m.end("v"))
            if span is not None and plausible_value(value, m.group("n")):
                out.append(Candidate(*span, 15, "session_cookie"))
        pos = m.end()
        if pos >= end or text[pos] != ";":
            break
        pos += 1
    return out


def _generic_candidate(m: re.Match[str]) -> Candidate | None:
    """``<key><sep><value>`` where the key ends in a keyword; found by walking back from it."""
    text = m.string
    start = m.start()
    while start > 0 and text[start - 1] in _KEY_CHARS:
        start -= 1
    key = text[start : m.end("kw")].lstrip("-")
    before = start - 1
    if quote := m.group("q"):
        if before < 0 or text[before] != quote:
            return None
        before -= 1
    if before >= 0 and text[before] in _KEY_FORBIDDEN_LEFT:
        return None
    if before >= 1 and text[before - 1 : before + 1] == "${":
        return None  # ${DB_PASSWORD:-default}: a shell default, not an assignment
    kind = generic_kind(key)
    if kind is None:
        return None
    group = next(g for g in ("dq", "sq", "v") if m.group(g) is not None)
    if group == "v" and _NESTED_KEY.fullmatch(m.group("v")):
        return None  # `credential: db.password: "x"`: the value is the next key; that one is matched
    if not plausible_value(m.group(group), key, min_len=3 if group == "v" else 1):
        return None
    return Candidate(m.start(group), m.end(group), _GENERIC_PRIORITY, kind)


_SHORT = 2048  # below this, a rule runs over the whole text once instead of line by line


def _lines_with(low: str, triggers: tuple[str, ...]) -> list[tuple[int, int]]:
    """The (start, end) spans of the lines of ``low`` that contain any trigger."""
    if len(low) <= _SHORT:
        return [(0, len(low))] if any(t in low for t in triggers) else []
    spans: set[tuple[int, int]] = set()
    for trigger in triggers:
        i = low.find(trigger)
        while i != -1:
            line_start = low.rfind("\n", 0, i) + 1
            line_end = low.find("\n", i)
            line_end = len(low) if line_end == -1 else line_end
            spans.add((line_start, line_end))
            i = low.find(trigger, line_end)
    return sorted(spans)


_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


def _gate(low: str) -> bool:
    # A plain loop: measurably faster than any() over a generator on the per-line hot path.
    for trigger in GATE:  # noqa: SIM110
        if trigger in low:
            return True
    return False


def _candidates(text: str) -> list[Candidate]:
    low = text.lower()
    if len(low) != len(text):  # str.lower() can grow some characters ('İ'); offsets must line up
        low = text.translate(_ASCII_LOWER)
    found: list[Candidate] = pem_candidates(text) if pem_open(low) else []
    if found or _gate(low):
        found += _rule_candidates(text, low)
        found += _session_candidates(text, low)
    elif "sess" in low or "cookie" in low or ".sid" in low:  # SESSION_GATE, spelled out: hot path
        found += _session_candidates(text, low)
    if found and "[redacted:" in low:
        # Idempotency: anything touching an existing placeholder was scrubbed already.
        taken = [(p.start(), p.end()) for p in _PLACEHOLDER.finditer(text)]
        found = [c for c in found if not any(c.start < e and s < c.end for s, e in taken)]
    return found


def _rule_candidates(text: str, low: str) -> list[Candidate]:
    found: list[Candidate] = []
    # Every rule stays within a line, so it only runs on the lines holding one of its triggers:
    # a big log costs one lower() and a few C-speed substring scans per trigger.
    cache: dict[tuple[str, ...], list[tuple[int, int]]] = {}
    for rule in RULES:
        spans = cache.get(rule.triggers)
        if spans is None:
            spans = cache[rule.triggers] = _lines_with(low, rule.triggers)
        for line_start, line_end in spans:
            for m in rule.pattern.finditer(text, line_start, line_end):
                if (cand := _rule_candidate(rule, m)) is not None and cand.end > cand.start:
                    found.append(cand)
    for line_start, line_end in _lines_with(low, _GENERIC_TRIGGERS):
        pos = line_start
        # Overlapping search: in `credential: db.password: "x"` the second key starts inside the
        # first match, which finditer would skip.
        while (hit := KEYWORDS.search(text, pos, line_end)) is not None:
            if (cand := _generic_candidate(hit)) is not None and cand.end > cand.start:
                found.append(cand)
            pos = hit.end("kw")
    return found


def _session_candidates(text: str, low: str) -> list[Candidate]:
    """Session cookies: by name anywhere, and every value after a cookie header."""
    found: list[Candidate] = []
    for line_start, line_end in _lines_with(low, SESSION_RULE.triggers):
        for m in SESSION_RULE.pattern.finditer(text, line_start, line_end):
            if (cand := _rule_candidate(SESSION_RULE, m)) is not None and cand.end > cand.start:
                found.append(cand)
    for line_start, line_end in _lines_with(low, ("cookie",)):
        for m in _COOKIE_HEADER.finditer(text, line_start, line_end):
            found += _cookie_candidates(text, m.end(), line_end)
    return found


def _merge(found: list[Candidate]) -> list[Redaction]:
    """Union overlapping candidates; the most specific (lowest priority number) names the kind."""
    found.sort(key=lambda c: (c.start, c.priority))
    merged: list[Redaction] = []
    current: Candidate | None = None
    for cand in found:
        if current is not None and cand.start < current.end:
            best = current if current.priority <= cand.priority else cand
            current = Candidate(current.start, max(current.end, cand.end), best.priority, best.kind)
            continue
        if current is not None:
            merged.append(Redaction(current.kind, current.start, current.end))
        current = cand
    if current is not None:
        merged.append(Redaction(current.kind, current.start, current.end))
    return merged


def _folded(text: str) -> tuple[str, OffsetMap | None]:
    # The hot path: an ASCII line with no `%` has nothing to fold (two C-speed checks).
    return (text, None) if text.isascii() and "%" not in text else fold(text)


def _apply(text: str, found: list[Candidate], offsets: OffsetMap | None) -> tuple[str, tuple[Redaction, ...]]:
    """Merge the candidates (found in the folded text), map them to ``text`` and replace them."""
    if offsets is not None:
        found = [Candidate(*offsets.span(c.start, c.end), c.priority, c.kind) for c in found]
    redactions = _merge(found)
    out: list[str] = []
    cursor = 0
    for red in redactions:
        out.append(text[cursor : red.start])
        out.append(red.placeholder)
        cursor = red.end
    out.append(text[cursor:])
    return "".join(out), tuple(redactions)


# A base64 run long enough to hold `KEY=value` text (a `.env` file, a kubeconfig key, a PEM block).
_BASE64_RUN = lazy(r"(?<![A-Za-z0-9+/_\-])[A-Za-z0-9+/]{24,}={0,2}(?![A-Za-z0-9+/=_\-])")
_DECODED_MARKS = ("=", ":", "-----")
_NESTING = 2  # base64 inside base64 inside a text: deep enough for real configs, bounded for hostile ones


def _encoded_candidates(text: str, depth: int) -> list[Candidate]:
    """Base64 runs that decode to text holding a secret (`.env` blobs, Kubernetes Secret data)."""
    found: list[Candidate] = []
    for m in _BASE64_RUN.finditer(text):
        decoded = b64_text(m.group())
        if decoded is None or not any(mark in decoded for mark in _DECODED_MARKS):
            continue
        if _scrub_found(decoded, depth + 1):
            found.append(Candidate(m.start(), m.end(), 5, "encoded_secret"))
    return found


# A value shorter than this is not searched for elsewhere (`password: "x"` must not redact every x).
_COPY_MIN = 6
_COPY_BOUNDED = 8  # below this length a copy must stand alone: `abc123` inside a longer word is not it


def _occurrences(text: str, value: str, cand: Candidate, taken: set[tuple[int, int]]) -> list[Candidate]:
    out: list[Candidate] = []
    pos = text.find(value)
    while pos != -1:
        end = pos + len(value)
        alone = len(value) >= _COPY_BOUNDED or not (
            (pos > 0 and text[pos - 1].isalnum()) or (end < len(text) and text[end].isalnum())
        )
        if alone and (pos, end) not in taken:
            out.append(Candidate(pos, end, cand.priority, cand.kind))
        pos = text.find(value, end)
    return out


def _copies(text: str, found: list[Candidate]) -> list[Candidate]:
    """Every other occurrence of a value already known to be secret, with that value's kind."""
    out: list[Candidate] = []
    taken = {(c.start, c.end) for c in found}
    for cand in found:
        value = text[cand.start : cand.end]
        if len(value) >= _COPY_MIN and not value.startswith(PLACEHOLDER_PREFIX):
            out += _occurrences(text, value, cand, taken)
    return out


def _scrub_found(folded: str, depth: int) -> list[Candidate]:
    found = _candidates(folded)
    if depth < _NESTING and len(folded) >= 24:
        found += _encoded_candidates(folded, depth)
    if found:
        found += _copies(folded, found)
    return found


def scrub(text: str) -> tuple[str, tuple[Redaction, ...]]:
    """Replace secrets in ``text``; return the new text and what was removed (original offsets).

    Once a value is known to be secret, every copy of it in ``text`` goes too (an error message
    that quotes the password before naming it).
    """
    if len(text) < 8:
        return text, ()
    folded, offsets = _folded(text)
    found = _scrub_found(folded, 0)
    if not found:
        return text, ()
    return _apply(text, found, offsets)


_KNOWN_MAX = 64  # values a LineScrubber remembers; each one costs a substring test per later line


class LineScrubber:
    """Scrub a text one line at a time, carrying an open PEM block from line to line.

    Call it with each line (with or without its line ending); offsets are into that line. A
    private key split over lines is redacted line by line exactly as :func:`scrub` does for the
    whole text, so streaming and whole-text scrubbing agree.
    """

    def __init__(self) -> None:
        """Start outside any PEM block."""
        self._open: tuple[str, str] | None = None  # (END marker, kind) of the block we are inside
        self._known: dict[str, str] = {}  # secret values seen so far -> kind

    def __call__(self, line: str) -> tuple[str, tuple[Redaction, ...]]:
        """Scrub one line."""
        if self._open is None and len(line) < 8:
            return line, ()
        folded, offsets = _folded(line)
        found = self._block_line(folded)
        if len(line) >= 8:
            found += _scrub_found(folded, 0)
        if self._known:
            found += self._known_copies(folded, found)
        if not found:
            return line, ()
        self._remember(folded, found)
        return _apply(line, found, offsets)

    def _known_copies(self, folded: str, found: list[Candidate]) -> list[Candidate]:
        """Copies of values earlier lines named as secret (a password quoted again further down)."""
        taken = {(c.start, c.end) for c in found}
        out: list[Candidate] = []
        for value, kind in self._known.items():
            if value in folded:
                out += _occurrences(folded, value, Candidate(0, 0, 50, kind), taken)
        return out

    def _remember(self, folded: str, found: list[Candidate]) -> None:
        for cand in found:
            value = folded[cand.start : cand.end]
            if (
                len(self._known) < _KNOWN_MAX
                and cand.priority > 0  # key blocks are not quoted elsewhere; keep the memory small
                and len(value) >= _COPY_MIN
                and not value.startswith(PLACEHOLDER_PREFIX)
            ):
                self._known.setdefault(value, cand.kind)

    @property
    def closed(self) -> bool:
        """True outside a key block."""
        return self._open is None

    def _block_line(self, folded: str) -> list[Candidate]:
        """The open block's key material on this line; opens a block whose END is not on it."""
        found: list[Candidate] = []
        if self._open is not None:
            closing, kind = self._open
            stop = line_stop(folded, closing, 0, len(folded))
            body = pem_body(folded, 0, len(folded) if stop == -1 else stop)
            if isinstance(body, tuple):
                found.append(Candidate(*body, 0, kind))
            if stop != -1 or body is False:
                self._open = None
        if "BEGIN " in folded:
            for begin in PEM_BEGIN.finditer(folded):
                marker = end_marker(begin)
                if marker not in folded[begin.end() :]:
                    self._open = (marker, pem_kind(begin.group("label")))
        return found

    def blocks_only(self, line: str) -> str:
        """``line`` with only key-block material redacted (the PEM state advances as in ``__call__``).

        The cheap pass a compressor runs over every input line before it reads them: a line that is
        not in a block and holds no BEGIN marker costs one substring test.
        """
        if self._open is None and "BEGIN " not in line:
            return line
        folded, offsets = _folded(line)
        found = self._block_line(folded)
        if pem_open(folded.lower()):
            found += pem_candidates(folded)
        return _apply(line, found, offsets)[0] if found else line


_GRAM = 8  # a run of this many characters shared with a known secret is a fragment of it
_TOKEN = lazy(r"[^\s;,'\"()\[\]{}<>]+")


class KnownSecrets:
    """The secret values found in one text, to redact their copies and fragments in other texts.

    Made from a source (an eval case's input); applied to what is written about it (a missed fact
    quoted in a report, a line of it): an exact copy of a value, a token equal to one, or any run
    of 8+ characters shared with one is replaced by that value's placeholder.
    """

    def __init__(self, source: str) -> None:
        """Scrub ``source`` once and index the values found (original and folded spellings)."""
        folded, offsets = _folded(source)
        found = _scrub_found(folded, 0) if len(source) >= 8 else []
        self._kinds: dict[str, str] = {}
        for cand in found:
            self._kinds[folded[cand.start : cand.end]] = cand.kind
            start, end = offsets.span(cand.start, cand.end) if offsets else (cand.start, cand.end)
            self._kinds[source[start:end]] = cand.kind
        self._kinds = {
            v: k for v, k in self._kinds.items() if len(v) >= 4 and not v.startswith(PLACEHOLDER_PREFIX)
        }
        self._grams: dict[str, str] = {}
        for value, kind in self._kinds.items():
            for i in range(len(value) - _GRAM + 1):
                self._grams.setdefault(value[i : i + _GRAM], kind)

    def __bool__(self) -> bool:
        """True when the source held any secret."""
        return bool(self._kinds)

    def _token(self, m: re.Match[str]) -> str:
        kind = self._kinds.get(m.group())
        return m.group() if kind is None else f"[REDACTED:{kind}]"

    def redact(self, text: str) -> str:
        """``text`` without any copy, equal token or 8+ character fragment of a known value."""
        if not self._kinds:
            return text
        text = _TOKEN.sub(self._token, text)
        out: list[str] = []
        i = cursor = 0
        while i + _GRAM <= len(text):
            kind = self._grams.get(text[i : i + _GRAM])
            if kind is None:
                i += 1
                continue
            end = i + _GRAM
            while end < len(text) and text[end + 1 - _GRAM : end + 1] in self._grams:
                end += 1
            out += [text[cursor:i], f"[REDACTED:{kind}]"]
            i = cursor = end
        return "".join([*out, text[cursor:]])


def scrub_value(value: Any, known: KnownSecrets | None = None) -> Any:
    """``value`` (JSON-like: dicts, lists, tuples, strings) with every string scrubbed, keys included;
    copies and fragments of the ``known`` secrets go too."""
    if isinstance(value, str):
        clean = scrub(value)[0]
        return known.redact(clean) if known else clean
    if isinstance(value, dict):
        return {scrub_value(k, known): scrub_value(v, known) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(scrub_value(v, known) for v in value)
    return value


def scrub_model(model: _M, *, context: str = "") -> _M:
    """A copy of a pydantic model whose every string field is scrubbed, for writing it out.

    ``context`` is the text the model was made from (an eval case's source): a value that is
    secret there is redacted here too, even where it stands alone (a missed fact, a quoted line).
    """
    known = KnownSecrets(context) if context else None
    return type(model).model_validate(scrub_value(model.model_dump(mode="json"), known))


class KeyBlocks:
    """Redact private-key blocks in a byte stream of complete lines, before a compressor reads it.

    A compressor folds repeated lines (two keys' identical BEGIN lines become one ``[×2]`` row) and
    keeps only some lines, so a scrubber that sees only what is kept cannot know that a lone body
    line is key material. This pass sees every line in order; a chunk with no open block and no
    ``BEGIN`` costs one C-speed substring test. Line count and every other byte stay as they were.
    """

    def __init__(self) -> None:
        """Start outside any block."""
        self._lines = LineScrubber()

    def __call__(self, data: bytes) -> bytes:
        """``data`` (whole lines, ``\n``-separated) with key material replaced by placeholders."""
        if self._lines.closed and b"BEGIN " not in data:
            return data
        lines = data.split(b"\n")
        for i, raw in enumerate(lines):
            if self._lines.closed and b"BEGIN " not in raw:
                continue
            text = raw.decode("utf-8", "surrogateescape")
            clean = self._lines.blocks_only(text)
            if clean is not text:
                lines[i] = clean.encode("utf-8", "surrogateescape")
        return b"\n".join(lines)


_CARRY_MAX = 1 << 20  # a line longer than this is scrubbed in pieces (bounded memory)


class ChunkScrubber:
    """Scrub a byte stream chunk by chunk, for printing an input that could not be compressed.

    Chunks are cut at line ends (a line is never scrubbed in halves unless it is over 1 MiB), key
    blocks are followed across chunks (:class:`KeyBlocks`), and each piece of whole lines is
    scrubbed as one text. Invalid UTF-8 passes through byte for byte. ``redactions`` counts what
    was replaced.
    """

    def __init__(self) -> None:
        """Start at the beginning of a stream."""
        self._blocks = KeyBlocks()
        self._carry = b""
        self.redactions = 0

    def feed(self, block: bytes) -> bytes:
        """The scrubbed bytes of the complete lines ``block`` finishes (the rest is held)."""
        data = self._carry + block
        cut = data.rfind(b"\n") + 1
        if cut == 0 and len(data) <= _CARRY_MAX:
            self._carry = data
            return b""
        cut = cut or len(data)
        self._carry = data[cut:]
        return self._scrub(data[:cut])

    def finish(self) -> bytes:
        """The scrubbed rest of the stream (its last line had no newline)."""
        rest, self._carry = self._carry, b""
        return self._scrub(rest) if rest else b""

    def _scrub(self, data: bytes) -> bytes:
        blocked = self._blocks(data)
        clean, found = scrub(blocked.decode("utf-8", "surrogateescape"))
        self.redactions += len(found) + (blocked is not data)
        return clean.encode("utf-8", "surrogateescape") if found else blocked
