"""Secret scrubbing: the one scrubber every path calls before text leaves the process or is stored.

Interface (stable): ``scrub(text) -> (scrubbed_text, redactions)``. Each :class:`Redaction` carries
the ``kind``, the ``start``/``end`` offsets into the ORIGINAL string and the stable ``placeholder``
``[REDACTED:<kind>]`` that replaced it. Redactions are sorted and never overlap.

Invariants (tested on a corpus in ``tests/scrub/``):

* Only the secret value is replaced; key names, ``file.py:123`` coordinates, timestamps, recovery
  ids and the line structure stay as they were. A multi-line PEM block is redacted line by line, so
  line numbers in a scrubbed log still point at the same lines.
* Idempotent: ``scrub(scrub(t)[0])`` finds nothing more, because a candidate that touches an
  existing placeholder is dropped.
* Overlapping matches merge into one redaction covering their union (no secret byte can leak out
  of a partial overlap); its kind is that of the most specific rule involved (``ghp_`` beats
  ``token=``).
* Fast on big logs: each rule runs only when one of its trigger strings occurs in the lowercased
  text, so a line with no trigger costs one ``lower()`` and a few substring tests.

For a log processed line by line, use :class:`LineScrubber`, which remembers an open PEM block
across lines (``scrub`` on a lone base64 body line cannot know it belongs to a key).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from summarizer.scrub_patterns import RULES, Rule, generic_kind, plausible_value

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


def _pem_candidates(text: str) -> list[_Candidate]:
    out: list[_Candidate] = []
    for m in _PEM_BEGIN.finditer(text):
        kind = _pem_kind(m.group("label"))
        end_marker = f"-----END {m.group('label')}-----"
        stop = text.find(end_marker, m.end())
        if stop != -1 and "\n" not in text[m.end() : stop]:
            # Single-line form (JSON with `\n` escapes, or a key pasted on one line): one span.
            if span := _stripped_span(text, m.end(), stop):
                out.append(_Candidate(*span, 0, kind))
            continue
        pos = m.end()
        limit = stop if stop != -1 else len(text)
        while pos < limit:
            nl = text.find("\n", pos)
            line_end = limit if nl == -1 or nl > limit else nl
            line = text[pos:line_end]
            # An unterminated block (a truncated log) ends at the first line that is not key material.
            if stop == -1 and pos > m.end() and line.strip() and not _PEM_BODY_LINE.fullmatch(line):
                break
            if span := _stripped_span(text, pos, line_end):
                out.append(_Candidate(*span, 0, kind))
            pos = line_end + 1
    return out


def _rule_candidate(rule: Rule, m: re.Match[str]) -> _Candidate | None:
    if rule.kind != "generic":
        if rule.validate is not None and not rule.validate(m):
            return None
        return _Candidate(m.start("v"), m.end("v"), rule.priority, rule.kind)
    key = m.group("k")
    kind = generic_kind(key.lstrip("-"))
    if kind is None:
        return None
    group = next(g for g in ("dq", "sq", "v") if m.group(g) is not None)
    if not plausible_value(m.group(group), key.lstrip("-")):
        return None
    return _Candidate(m.start(group), m.end(group), rule.priority, kind)


def _candidates(text: str) -> list[_Candidate]:
    low = text.lower()
    found: list[_Candidate] = _pem_candidates(text) if "-----begin" in low else []
    for rule in RULES:
        if not any(trigger in low for trigger in rule.triggers):
            continue
        for m in rule.pattern.finditer(text):
            if (cand := _rule_candidate(rule, m)) is not None and cand.end > cand.start:
                found.append(cand)
    if found and "[redacted:" in low:
        # Idempotency: anything touching an existing placeholder was scrubbed already.
        taken = [(p.start(), p.end()) for p in _PLACEHOLDER.finditer(text)]
        found = [c for c in found if not any(c.start < e and s < c.end for s, e in taken)]
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


def scrub(text: str) -> tuple[str, tuple[Redaction, ...]]:
    """Replace secrets in ``text``; return the new text and what was removed (original offsets)."""
    if len(text) < 8:
        return text, ()
    found = _candidates(text)
    if not found:
        return text, ()
    redactions = _merge(found)
    out: list[str] = []
    cursor = 0
    for red in redactions:
        out.append(text[cursor : red.start])
        out.append(red.placeholder)
        cursor = red.end
    out.append(text[cursor:])
    return "".join(out), tuple(redactions)


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
        if self._open is not None:
            end_marker, kind = self._open
            stop = line.find(end_marker)
            if stop == -1 and line.strip() and not _PEM_BODY_LINE.fullmatch(line.rstrip("\r\n")):
                self._open = None  # not key material after all: a truncated block ended
            else:
                if stop != -1:
                    self._open = None
                span = _stripped_span(line, 0, stop if stop != -1 else len(line))
                if span is None:
                    return line, ()
                red = Redaction(kind, *span)
                return line[: red.start] + red.placeholder + line[red.end :], (red,)
        begin = _PEM_BEGIN.search(line) if "-----BEGIN" in line else None
        if begin is not None and f"-----END {begin.group('label')}-----" not in line[begin.end() :]:
            self._open = (f"-----END {begin.group('label')}-----", _pem_kind(begin.group("label")))
        return scrub(line)
