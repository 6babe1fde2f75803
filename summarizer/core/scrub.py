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
block with the same rule (:func:`_pem_body`: key material continues it, anything else ends it),
so line-by-line and whole-text scrubbing give the same result.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass

from summarizer.core.scrub_patterns import (
    GATE,
    KEYWORDS,
    RULES,
    SESSION_RULE,
    Rule,
    generic_kind,
    plausible_value,
)

__all__ = ["LineScrubber", "Redaction", "scrub"]

PLACEHOLDER_PREFIX = "[REDACTED:"


@dataclass(frozen=True, slots=True)
class Redaction:
    """One secret removed from a text."""

    kind: str
    start: int
    end: int

    @property
    def placeholder(self) -> str:
        """The stable text that replaced the secret."""
        return f"[REDACTED:{self.kind}]"


_PLACEHOLDER = re.compile(r"\[REDACTED:[a-z0-9_]+\]")
_PEM_BEGIN = re.compile(
    r"-----BEGIN (?P<label>(?:[A-Z0-9]+ )*(?:PRIVATE KEY(?: BLOCK)?|CERTIFICATE|CERTIFICATE REQUEST))-----"
)
# A line that can sit inside a PEM body: base64, or an RFC 1421 header such as `Proc-Type: 4,ENCRYPTED`.
_PEM_BODY_LINE = re.compile(r"\s*(?:[A-Za-z0-9+/=]{8,}|[A-Za-z][A-Za-z-]*: [^\s].*)\s*")
# A body line behind a prefix (`2024-05-01 ERROR MIIEow...`, pytest's `E   MIIEow...`): the key part.
_PEM_TAIL = re.compile(r"(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{16,}={0,2}(?=\s*$)")


def _pem_kind(label: str) -> str:
    if "CERTIFICATE" in label:
        return "certificate"
    return "ssh_private_key" if label.startswith(("OPENSSH ", "SSH2 ")) else "private_key"


@dataclass(frozen=True, slots=True)
class _Candidate:
    start: int
    end: int
    priority: int
    kind: str


def _stripped_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The span of ``text[start:end]`` without surrounding whitespace, or None if blank."""
    chunk = text[start:end]
    left = len(chunk) - len(chunk.lstrip())
    right = len(chunk.rstrip())
    return (start + left, start + right) if right > left else None


def _escaped_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Like :func:`_stripped_span`, also trimming literal ``\\n``/``\\r`` escapes at both ends."""
    while start < end and (text[start].isspace() or text.startswith(("\\n", "\\r"), start)):
        start += 1 if text[start].isspace() else 2
    while end > start and (text[end - 1].isspace() or text.endswith(("\\n", "\\r"), start, end)):
        end -= 1 if text[end - 1].isspace() else 2
    return (start, end) if end > start else None


def _pem_body(text: str, start: int, end: int) -> tuple[int, int] | bool:
    """Classify one line of an open PEM block: the key material's span, True (blank), False (not key)."""
    chunk = text[start:end]
    if not chunk.strip():
        return True
    if _PEM_BODY_LINE.fullmatch(chunk):
        return _stripped_span(text, start, end) or True
    if tail := _PEM_TAIL.search(chunk):
        return start + tail.start(), start + tail.end()
    return False


def _pem_candidates(text: str) -> list[_Candidate]:
    out: list[_Candidate] = []
    for m in _PEM_BEGIN.finditer(text):
        kind = _pem_kind(m.group("label"))
        end_marker = f"-----END {m.group('label')}-----"
        line_end = text.find("\n", m.end())
        line_end = len(text) if line_end == -1 else line_end
        stop = text.find(end_marker, m.end(), line_end)
        if stop != -1:
            # Single-line form (JSON with `\n` escapes, or a key pasted on one line): one span.
            if span := _escaped_span(text, m.end(), stop):
                out.append(_Candidate(*span, 0, kind))
            continue
        if span := _stripped_span(text, m.end(), line_end):  # the rest of the BEGIN line
            out.append(_Candidate(*span, 0, kind))
        pos = line_end + 1
        while pos <= len(text) and line_end < len(text):
            line_end = text.find("\n", pos)
            line_end = len(text) if line_end == -1 else line_end
            stop = text.find(end_marker, pos, line_end)
            body = _pem_body(text, pos, line_end if stop == -1 else stop)
            if isinstance(body, tuple):
                out.append(_Candidate(*body, 0, kind))
            # The block ends at its END marker, or (truncated, or not a key after all) at the first
            # line that is not key material: the streaming LineScrubber can decide no later than that.
            if stop != -1 or body is False:
                break
            pos = line_end + 1
    return out


def _rule_candidate(rule: Rule, m: re.Match[str]) -> _Candidate | None:
    if rule.left is not None and m.start() > 0 and rule.left.match(m.string, m.start() - 1):
        return None
    if rule.validate is not None and not rule.validate(m):
        return None
    return _Candidate(m.start("v"), m.end("v"), rule.priority, rule.kind)


_KEY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
_KEY_FORBIDDEN_LEFT = frozenset("/\\:")  # paths (a/secret: x) and Rust paths (auth::token: x)
_GENERIC_TRIGGERS = ("pass", "pwd", "secret", "credential", "token", "key")
_GENERIC_PRIORITY = 20
_NESTED_KEY = re.compile(r"[A-Za-z_][\w.\-]*:")
_COOKIE_HEADER = re.compile(r"(?i)(?:(?<![\w-])(?:set-)?cookie[\"']?[ \t]*:|--cookie[ \t=])[ \t]*[\"']?")
_COOKIE_PAIR = re.compile(r"[ \t]*(?P<n>[^=;\s\"',]+)[ \t]*=[ \t]*(?P<v>[^;\r\n\"']*)")
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


def _cookie_candidates(text: str, pos: int, end: int) -> list[_Candidate]:
    """Every cookie value after a ``Cookie:``/``Set-Cookie:`` header (or curl ``-b``/``--cookie``).

    A cookie carries whatever the site uses to recognise a session, so every value is a secret,
    whatever its name; only ``Set-Cookie`` attributes (``Path=/``, ``Expires=...``) stay.
    """
    out: list[_Candidate] = []
    while pos < end and (m := _COOKIE_PAIR.match(text, pos, end)) is not None:
        value = m.group("v")
        if m.group("n").lower() not in _COOKIE_ATTRIBUTES and len(value.strip()) >= 4:
            span = _stripped_span(text, m.start("v"), m.end("v"))
            if span is not None and plausible_value(value, m.group("n")):
                out.append(_Candidate(*span, 15, "session_cookie"))
        pos = m.end()
        if pos >= end or text[pos] != ";":
            break
        pos += 1
    return out


def _generic_candidate(m: re.Match[str]) -> _Candidate | None:
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
    return _Candidate(m.start(group), m.end(group), _GENERIC_PRIORITY, kind)


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


def _candidates(text: str) -> list[_Candidate]:
    low = text.lower()
    if len(low) != len(text):  # str.lower() can grow some characters ('İ'); offsets must line up
        low = text.translate(_ASCII_LOWER)
    found: list[_Candidate] = _pem_candidates(text) if "-----begin" in low else []
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


def _rule_candidates(text: str, low: str) -> list[_Candidate]:
    found: list[_Candidate] = []
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


def _session_candidates(text: str, low: str) -> list[_Candidate]:
    """Session cookies: by name anywhere, and every value after a cookie header."""
    found: list[_Candidate] = []
    for line_start, line_end in _lines_with(low, SESSION_RULE.triggers):
        for m in SESSION_RULE.pattern.finditer(text, line_start, line_end):
            if (cand := _rule_candidate(SESSION_RULE, m)) is not None and cand.end > cand.start:
                found.append(cand)
    for line_start, line_end in _lines_with(low, ("cookie",)):
        for m in _COOKIE_HEADER.finditer(text, line_start, line_end):
            found += _cookie_candidates(text, m.end(), line_end)
    return found


def _merge(found: list[_Candidate]) -> list[Redaction]:
    """Union overlapping candidates; the most specific (lowest priority number) names the kind."""
    found.sort(key=lambda c: (c.start, c.priority))
    merged: list[Redaction] = []
    current: _Candidate | None = None
    for cand in found:
        if current is not None and cand.start < current.end:
            best = current if current.priority <= cand.priority else cand
            current = _Candidate(current.start, max(current.end, cand.end), best.priority, best.kind)
            continue
        if current is not None:
            merged.append(Redaction(current.kind, current.start, current.end))
        current = cand
    if current is not None:
        merged.append(Redaction(current.kind, current.start, current.end))
    return merged


# Invisible characters that can split a secret without changing how it looks: zero-width and bidi
# controls, the soft hyphen, word joiners. NFKC keeps them, so they are dropped separately.
_INVISIBLE = frozenset(
    "\u00ad\u061c\u180e\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
    "\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff"
)
_HAS_INVISIBLE = re.compile("[" + "".join(sorted(_INVISIBLE)) + "]")
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


@functools.lru_cache(maxsize=8192)
def _fold_char(ch: str) -> str:
    return "" if ch in _INVISIBLE else unicodedata.normalize("NFKC", ch)


class _OffsetMap:
    """Maps offsets in the folded text back to the original: identity runs and folded characters."""

    __slots__ = ("_folded", "_identity", "_original")

    def __init__(self) -> None:
        self._folded: list[int] = [0]
        self._original: list[int] = [0]
        self._identity: list[bool] = [True]

    def add(self, folded: int, original: int, identity: bool) -> None:
        self._folded.append(folded)
        self._original.append(original)
        self._identity.append(identity)

    def _at(self, i: int) -> int:
        k = bisect_right(self._folded, i) - 1
        return self._original[k] + (i - self._folded[k] if self._identity[k] else 0)

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span of the folded ``[start, end)`` (``end > start``)."""
        return self._at(start), self._at(end - 1) + 1


_CHUNK = 1 << 16


def _clean(text: str) -> bool:
    """Nothing to fold: ASCII, or NFKC already and no invisible character (all C-speed checks)."""
    return text.isascii() or (unicodedata.is_normalized("NFKC", text) and not _HAS_INVISIBLE.search(text))


def _dirty_runs(text: str) -> Iterator[re.Match[str]]:
    """The non-ASCII runs of the 64 KiB chunks that need folding (a big log is checked per chunk,
    so a few stray characters do not make the whole text go through the regex scan)."""
    for start in range(0, len(text), _CHUNK):
        end = min(len(text), start + _CHUNK)
        if len(text) <= _CHUNK or not _clean(text[start:end]):
            yield from _NON_ASCII.finditer(text, start, end)


def _fold(text: str) -> tuple[str, _OffsetMap | None]:
    """NFKC per character, invisible characters dropped; ``None`` map when nothing changed.

    ASCII text (nearly every log line) returns at once; other text that is already NFKC and has no
    invisible character costs one C-speed check. Only the rest is folded, character by character
    over its non-ASCII runs, so every folded offset maps back to exactly one original character.
    """
    if _clean(text):
        return text, None
    parts: list[str] = []
    offsets = _OffsetMap()
    folded = cursor = 0
    changed = False
    for run in _dirty_runs(text):
        parts.append(text[cursor : run.start()])
        folded += run.start() - cursor
        for k in range(run.start(), run.end()):
            ch = text[k]
            rep = _fold_char(ch)
            if rep == ch:
                parts.append(ch)
                folded += 1
                continue
            changed = True
            if rep:
                offsets.add(folded, k, False)
                parts.append(rep)
                folded += len(rep)
            offsets.add(folded, k + 1, True)
        cursor = run.end()
    parts.append(text[cursor:])
    return ("".join(parts), offsets) if changed else (text, None)


def _apply(
    text: str, found: list[_Candidate], offsets: _OffsetMap | None
) -> tuple[str, tuple[Redaction, ...]]:
    """Merge the candidates (found in the folded text), map them to ``text`` and replace them."""
    if offsets is not None:
        found = [_Candidate(*offsets.span(c.start, c.end), c.priority, c.kind) for c in found]
    redactions = _merge(found)
    out: list[str] = []
    cursor = 0
    for red in redactions:
        out.append(text[cursor : red.start])
        out.append(red.placeholder)
        cursor = red.end
    out.append(text[cursor:])
    return "".join(out), tuple(redactions)


def scrub(text: str) -> tuple[str, tuple[Redaction, ...]]:
    """Replace secrets in ``text``; return the new text and what was removed (original offsets)."""
    if len(text) < 8:
        return text, ()
    folded, offsets = (text, None) if text.isascii() else _fold(text)
    found = _candidates(folded)
    if not found:
        return text, ()
    return _apply(text, found, offsets)


class LineScrubber:
    """Scrub a text one line at a time, carrying an open PEM block from line to line.

    Call it with each line (with or without its line ending); offsets are into that line. A
    private key split over lines is redacted line by line exactly as :func:`scrub` does for the
    whole text, so streaming and whole-text scrubbing agree.
    """

    def __init__(self) -> None:
        """Start outside any PEM block."""
        self._open: tuple[str, str] | None = None  # (END marker, kind) of the block we are inside

    def __call__(self, line: str) -> tuple[str, tuple[Redaction, ...]]:
        """Scrub one line."""
        if self._open is None and len(line) < 8:
            return line, ()
        folded, offsets = (line, None) if line.isascii() else _fold(line)
        found: list[_Candidate] = []
        if self._open is not None:
            end_marker, kind = self._open
            stop = folded.find(end_marker)
            body = _pem_body(folded, 0, len(folded) if stop == -1 else stop)
            if isinstance(body, tuple):
                found.append(_Candidate(*body, 0, kind))
            if stop != -1 or body is False:
                self._open = None
        if len(line) >= 8:
            found += _candidates(folded)
        if "-----BEGIN" in folded:
            for begin in _PEM_BEGIN.finditer(folded):
                marker = f"-----END {begin.group('label')}-----"
                if marker not in folded[begin.end() :]:
                    self._open = (marker, _pem_kind(begin.group("label")))
        if not found:
            return line, ()
        return _apply(line, found, offsets)
