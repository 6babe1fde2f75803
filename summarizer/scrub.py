"""Secret scrubbing. PROVISIONAL: a minimal version; the full pattern table replaces it.

Interface (stable): ``scrub(text) -> (scrubbed_text, redactions)`` where each :class:`Redaction`
carries the ``kind``, the ``start``/``end`` offsets into the ORIGINAL string and the stable
``placeholder`` (``[REDACTED:<kind>]``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Redaction", "scrub"]


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


_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("github_token", re.compile(r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}\b")),
    ("openai_key", re.compile(r"\bsk-[A-Za-z0-9_\-]{20,}\b")),
    ("aws_access_key", re.compile(r"\bAKIA[0-9A-Z]{16}\b")),
)


def scrub(text: str) -> tuple[str, tuple[Redaction, ...]]:
    """Replace secrets in ``text``; return the new text and what was removed (original offsets)."""
    found: list[Redaction] = []
    for kind, pattern in _PATTERNS:
        found.extend(Redaction(kind, m.start(), m.end()) for m in pattern.finditer(text))
    found.sort(key=lambda r: r.start)
    out: list[str] = []
    cursor = 0
    kept: list[Redaction] = []
    for red in found:
        if red.start < cursor:
            continue
        out.append(text[cursor : red.start])
        out.append(red.placeholder)
        cursor = red.end
        kept.append(red)
    out.append(text[cursor:])
    return "".join(out), tuple(kept)
