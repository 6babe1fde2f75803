"""Untrusted data in prompts: scrubbed, fenced by a nonce boundary, look-alikes escaped.

Tool output, web content, summaries written by other agents and transcripts are *data*. They reach
a prompt only through :func:`fence`, which

1. scrubs secrets (``summarizer.scrub.scrub``) so nothing secret leaves the process or is cached;
2. escapes anything inside the data that could pass for a boundary: runs of angle brackets (and
   their Unicode look-alikes such as ``＜`` or ``«``), the marker words ``UNTRUSTED_DATA``, and chat
   role tokens such as ``<|im_start|>``; the escaping is visible (a backslash), so the model still
   sees what the tool printed;
3. wraps the result in ``<<<UNTRUSTED_DATA nonce=... label=...>>>`` /
   ``<<<END_UNTRUSTED_DATA nonce=...>>>`` with a fresh random nonce per prompt.

The system prompt tells the model that nothing between the two boundaries is an instruction. A
hostile payload therefore cannot close the block early: it cannot guess the nonce, and even the exact
boundary text (if it were leaked) is escaped once it sits inside the data.
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from dataclasses import dataclass

from summarizer.scrub import scrub

__all__ = ["Fenced", "Untrusted", "begin_marker", "end_marker", "escape", "fence", "new_nonce"]

# Two or more bracket-like characters in a row: ASCII and the look-alikes NFKC does not fold.
_OPEN_RUN = re.compile(r"[<\uff1c\ufe64\u2039\u00ab\u3008\u27e8\u2329]{2,}")
_CLOSE_RUN = re.compile(r"[>\uff1e\ufe65\u203a\u00bb\u3009\u27e9\u232a]{2,}")
# The marker words with any separator (or none): UNTRUSTED_DATA, untrusted data, Untrusted-Data...
_MARKER = re.compile(r"(?i)untrusted[\W_]{0,3}data")
_ROLE_TOKEN = re.compile(r"<\|([^|<>]{0,40})\|>")


@dataclass(frozen=True, slots=True)
class Untrusted:
    """Marks a prompt value as data: the service scrubs and fences it before rendering."""

    text: str
    label: str = "data"


@dataclass(frozen=True, slots=True)
class Fenced:
    """A scrubbed, fenced block and the scrubbed text it holds (the cache key uses the latter)."""

    block: str
    scrubbed: str
    redactions: int


def new_nonce() -> str:
    """A fresh 128-bit boundary nonce."""
    return secrets.token_hex(16)


def begin_marker(nonce: str, label: str) -> str:
    """The opening boundary line."""
    return f"<<<UNTRUSTED_DATA nonce={nonce} label={label}>>>"


def end_marker(nonce: str) -> str:
    """The closing boundary line."""
    return f"<<<END_UNTRUSTED_DATA nonce={nonce}>>>"


def escape(text: str) -> str:
    """Make every boundary look-alike inside ``text`` visibly inert."""
    # Fold compatibility forms first (fullwidth, small forms) so they meet the same rules.
    text = unicodedata.normalize("NFKC", text)
    text = _ROLE_TOKEN.sub(lambda m: f"<\\|{m.group(1)}\\|>", text)
    text = _OPEN_RUN.sub(lambda m: "".join(f"\\{c}" for c in m.group(0)), text)
    text = _CLOSE_RUN.sub(lambda m: "".join(f"\\{c}" for c in m.group(0)), text)
    return _MARKER.sub(lambda m: m.group(0)[:9] + "\\" + m.group(0)[9:], text)


def _safe_label(label: str) -> str:
    cleaned = re.sub(r"[^a-z0-9_-]", "_", label.lower())[:32]
    return cleaned or "data"


def fence(value: Untrusted, nonce: str) -> Fenced:
    """Scrub ``value``, escape look-alikes and wrap it between the nonce boundaries."""
    scrubbed, redactions = scrub(value.text)
    label = _safe_label(value.label)
    block = f"{begin_marker(nonce, label)}\n{escape(scrubbed)}\n{end_marker(nonce)}"
    return Fenced(block=block, scrubbed=scrubbed, redactions=len(redactions))
