"""Key blocks for the scrubber: PEM, OpenSSH and SSH2 private keys and certificates (internal).

A block is redacted from its BEGIN marker to its END marker, line by line (the markers and the line
structure stay, so line numbers in a scrubbed log still point at the same lines). The markers
decide, not the body's alphabet: base64, base64url (``-`` and ``_``) or anything else without
spaces is key material. A body line behind a log prefix (``2026-11-29 ERROR MIIEow…``, pytest's
``E   MIIEow…``) loses its last token of 16+ characters and keeps the prefix. A block whose END
never comes (a truncated log) ends at the first line that is none of these, so the log's next
real line survives; :class:`~summarizer.core.scrub.LineScrubber` walks a stream with the same
rule, so line-by-line and whole-text scrubbing agree.
"""

from __future__ import annotations

import re

from summarizer.core.lazyre import lazy
from summarizer.core.records import record

__all__ = [
    "PEM_BEGIN",
    "Candidate",
    "end_marker",
    "escaped_span",
    "line_stop",
    "pem_body",
    "pem_candidates",
    "pem_kind",
    "pem_open",
    "stripped_span",
]


# A key block opens at its BEGIN marker: PEM (`-----BEGIN RSA PRIVATE KEY-----`, OPENSSH, PGP,
# ENCRYPTED, certificates) or the SSH2 form (`---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----`).
PEM_BEGIN = lazy(
    r"(?P<dashes>-----|---- )BEGIN (?P<label>(?:[A-Z0-9]+ )*(?:PRIVATE KEY(?: BLOCK)?|CERTIFICATE"
    r"|CERTIFICATE REQUEST))(?: ----|-----)"
)
# A body line is the key's, whatever its alphabet (base64, base64url with `-` and `_`, anything
# without spaces): a single token, or an RFC 1421/4716 header (`Proc-Type: 4,ENCRYPTED`,
# `Comment: "..."`). The block markers decide where a key is, not the characters inside it.
_PEM_TOKEN_LINE = lazy(r"\s*(?:\S+|[A-Za-z][A-Za-z-]*: [^\s].*)\s*")
# A body line behind a log prefix (`2024-05-01 ERROR MIIEow...`, pytest's `E   MIIEow...`): the key
# part is the last token, 16 characters or more (prose ends in short words; key lines are 64 wide).
_PEM_TAIL = lazy(r"(?<!\S)\S{16,}(?=\s*$)")


def pem_kind(label: str) -> str:
    if "CERTIFICATE" in label:
        return "certificate"
    return "ssh_private_key" if label.startswith(("OPENSSH ", "SSH2 ")) else "private_key"


def end_marker(begin: re.Match[str]) -> str:
    if begin.group("dashes") == "---- ":
        return f"---- END {begin.group('label')} ----"
    return f"-----END {begin.group('label')}-----"


def pem_open(low: str) -> bool:
    """The cheap test before looking for a BEGIN marker."""
    return "-----begin" in low or "---- begin" in low


@record(frozen=True)
class Candidate:
    """One match: the span in the folded text, its rule's priority (lower wins) and its kind."""

    start: int
    end: int
    priority: int
    kind: str


def stripped_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The span of ``text[start:end]`` without surrounding whitespace, or None if blank."""
    chunk = text[start:end]
    left = len(chunk) - len(chunk.lstrip())
    right = len(chunk.rstrip())
    return (start + left, start + right) if right > left else None


def escaped_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Like :func:`stripped_span`, also trimming literal ``\\n``/``\\r`` escapes at both ends."""
    while start < end and (text[start].isspace() or text.startswith(("\\n", "\\r"), start)):
        start += 1 if text[start].isspace() else 2
    while end > start and (text[end - 1].isspace() or text.endswith(("\\n", "\\r"), start, end)):
        end -= 1 if text[end - 1].isspace() else 2
    return (start, end) if end > start else None


_ANY_END = lazy(r"-----END |---- END ")


def pem_body(text: str, start: int, end: int) -> tuple[int, int] | bool:
    """Classify one line of an open PEM block: the key material's span, True (blank), False (not key)."""
    chunk = text[start:end]
    if not chunk.strip():
        return True
    if _PEM_TOKEN_LINE.fullmatch(chunk):
        return stripped_span(text, start, end) or True
    if tail := _PEM_TAIL.search(chunk):
        return start + tail.start(), start + tail.end()
    return False


def line_stop(text: str, marker: str, pos: int, line_end: int) -> int:
    """Where the block's END marker (or any other END marker: a mislabelled close) starts, or -1."""
    stop = text.find(marker, pos, line_end)
    if stop == -1 and (other := _ANY_END.search(text, pos, line_end)) is not None:
        stop = other.start()
    return stop


def pem_candidates(text: str) -> list[Candidate]:
    out: list[Candidate] = []
    for m in PEM_BEGIN.finditer(text):
        kind = pem_kind(m.group("label"))
        marker = end_marker(m)
        line_end = text.find("\n", m.end())
        line_end = len(text) if line_end == -1 else line_end
        stop = text.find(marker, m.end(), line_end)
        if stop != -1:
            # Single-line form (JSON with `\n` escapes, or a key pasted on one line): one span.
            if span := escaped_span(text, m.end(), stop):
                out.append(Candidate(*span, 0, kind))
            continue
        rest = pem_body(text, m.end(), line_end)  # key material may start on the BEGIN line
        if isinstance(rest, tuple):
            out.append(Candidate(*rest, 0, kind))
        pos = line_end + 1
        while pos <= len(text) and line_end < len(text):
            line_end = text.find("\n", pos)
            line_end = len(text) if line_end == -1 else line_end
            stop = line_stop(text, marker, pos, line_end)
            body = pem_body(text, pos, line_end if stop == -1 else stop)
            if isinstance(body, tuple):
                out.append(Candidate(*body, 0, kind))
            # The block ends at its END marker, or (truncated, or not a key after all) at the first
            # line that is not key material: the streaming LineScrubber can decide no later than that.
            if stop != -1 or body is False:
                break
            pos = line_end + 1
    return out
