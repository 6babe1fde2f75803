"""The folded copy of a text the scrubber matches on, and the map from its offsets back (internal).

Folding undoes the spellings that hide a secret without changing what it means:

* NFKC per character (fullwidth ``ｇｈｐ＿`` is ``ghp_``, ``ﬁ`` is ``fi``);
* zero-width and bidi controls, the soft hyphen and word joiners dropped (NFKC keeps them);
* percent-encoding of printable ASCII decoded (``token%3Dghp_…`` is ``token=ghp_…``), so a token
  in a query string or a URL-encoded redirect is found like a plain one.

Every folded character maps back to exactly one original span (one character, or the three of a
``%XX``), so redactions found in the folded copy replace the original characters and nothing else.
ASCII text without ``%`` (nearly every log line) is returned at once.
"""

from __future__ import annotations

import functools
import unicodedata
from bisect import bisect_right
from collections.abc import Iterator

from summarizer.core.lazyre import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

__all__ = ["OffsetMap", "fold"]

# Invisible characters that can split a secret without changing how it looks: zero-width and bidi
# controls, the soft hyphen, word joiners. NFKC keeps them, so they are dropped separately.
_INVISIBLE = frozenset(
    "\u00ad\u061c\u180e\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
    "\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff"
)
_HAS_INVISIBLE = lazy("[" + "".join(sorted(_INVISIBLE)) + "]")
_NON_ASCII = lazy(r"[^\x00-\x7f]+")
_PERCENT = lazy(r"%[2-7][0-9A-Fa-f]")  # printable ASCII only: %20-%7F
_DIRTY = lazy(r"[^\x00-\x7f]+|%[2-7][0-9A-Fa-f]")


@functools.lru_cache(maxsize=8192)
def _fold_char(ch: str) -> str:
    return "" if ch in _INVISIBLE else unicodedata.normalize("NFKC", ch)


class OffsetMap:
    """Maps offsets in the folded text back to the original: identity runs and folded characters."""

    __slots__ = ("_folded", "_identity", "_original", "_width")

    def __init__(self) -> None:
        """An empty map (identity from offset 0)."""
        self._folded: list[int] = [0]
        self._original: list[int] = [0]
        self._identity: list[bool] = [True]
        self._width: list[int] = [1]

    def add(self, folded: int, original: int, identity: bool, width: int = 1) -> None:
        """From ``folded`` on: identity, or one folded character standing for ``width`` original ones."""
        self._folded.append(folded)
        self._original.append(original)
        self._identity.append(identity)
        self._width.append(width)

    def _at(self, i: int, *, end: bool) -> int:
        k = bisect_right(self._folded, i) - 1
        if self._identity[k]:
            return self._original[k] + (i - self._folded[k]) + (1 if end else 0)
        return self._original[k] + (self._width[k] if end else 0)

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span of the folded ``[start, end)`` (``end > start``)."""
        return self._at(start, end=False), self._at(end - 1, end=True)


_CHUNK = 1 << 16


def _clean(text: str) -> bool:
    """Nothing to fold: ASCII, or NFKC already and no invisible character (all C-speed checks)."""
    return text.isascii() or (unicodedata.is_normalized("NFKC", text) and not _HAS_INVISIBLE.search(text))


def _dirty_runs(text: str) -> Iterator[re.Match[str]]:
    """The runs to fold: percent escapes anywhere, and the non-ASCII runs of the 64 KiB chunks that
    need folding (a big log is checked per chunk, so a few stray characters do not make the whole
    text go through the regex scan)."""
    percent = "%" in text
    for start in range(0, len(text), _CHUNK):
        end = min(len(text), start + _CHUNK)
        if len(text) <= _CHUNK or not _clean(text[start:end]):
            yield from (_DIRTY if percent else _NON_ASCII).finditer(text, start, end)
        elif percent:
            yield from _PERCENT.finditer(text, start, end)


def _needs_folding(text: str) -> bool:
    if "%" in text and _PERCENT.search(text):
        return True
    return not _clean(text)


def fold(text: str) -> tuple[str, OffsetMap | None]:
    """The folded copy of ``text``; ``None`` map when nothing changed."""
    if not _needs_folding(text):
        return text, None
    parts: list[str] = []
    offsets = OffsetMap()
    folded = cursor = 0
    changed = False
    for run in _dirty_runs(text):
        parts.append(text[cursor : run.start()])
        folded += run.start() - cursor
        cursor = run.end()
        if run.group().startswith("%"):
            changed = True
            offsets.add(folded, run.start(), False, 3)
            parts.append(chr(int(run.group()[1:], 16)))
            folded += 1
            offsets.add(folded, run.end(), True)
            continue
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
    parts.append(text[cursor:])
    return ("".join(parts), offsets) if changed else (text, None)
