"""The template table's entries and a team's own rules: what the engine stores per line key.

A line's *key* is the line with digits and lower-case hex letters folded to ``#`` (:data:`KEY`, one
``bytes.translate`` per chunk); the rules never see it, they read the digit template (:data:`DIGITS`)
of the key's first line. :class:`TemplateStat` is one key's entry, :class:`RawLines` slices a
chunk's raw lines by the keys' lengths (``translate`` keeps them), and :class:`ExtraRules` applies
a team's ``rules.toml`` patterns to each new key's first line.
"""

from __future__ import annotations

import re
from itertools import accumulate

from summarizer.core.records import record
from summarizer.output import coordinates as co
from summarizer.output.lines import MAX_LINE_BYTES, decode_line

__all__ = [
    "DIGITS",
    "KEY",
    "MAX_TEMPLATE_BYTES",
    "NOISE",
    "PLAIN_CLASS",
    "PLAIN_RECORD",
    "PLAIN_STAT",
    "ExtraRules",
    "RawLines",
    "TemplateStat",
]

DIGITS = bytes.maketrans(b"0123456789", b"##########")
# A line's key in the template table: digits and lower-case hex letters folded to ``#``, so lines
# that differ only in numbers, hex ids, hashes or UUIDs share a key (and one classification). Rules
# never see the key: they read the digit template of the key's first line (see docs/tool-output.md).
KEY = bytes.maketrans(b"0123456789abcdef", b"################")
MAX_TEMPLATE_BYTES = 4096
PLAIN_CLASS = co.LineClass(co.PLAIN)
PLAIN_RECORD = co.LineClass(co.PLAIN, "", 0, True)

# A line a team's noise rule dropped: counted, never sampled, listed or shown as a pattern.
NOISE = 8
_NOISE_CLASS = co.LineClass(NOISE, "noise")
_RULE_FAILURE = co.LineClass(co.COORD, "error")


@record(frozen=True)
class ExtraRules:
    """A team's own failure and noise patterns (``OutputOptions``), decided per new template.

    Failures win: a failure pattern makes the line an error; a noise pattern drops only a line
    that is ordinary, soft or a warning, never one that the built-in rules or a failure pattern
    call a failure (nor a frame, a passing-test count or a header).
    """

    failure: tuple[re.Pattern[str], ...]
    noise: tuple[re.Pattern[str], ...]

    @classmethod
    def compile(cls, failure: tuple[str, ...], noise: tuple[str, ...]) -> ExtraRules | None:
        """The compiled rules, or None when there are none (the common case costs nothing)."""
        if not failure and not noise:
            return None
        return cls(tuple(map(re.compile, failure)), tuple(map(re.compile, noise)))

    def verdict(self, raw: bytes, lc: co.LineClass) -> co.LineClass:
        """The class of a line after the team's rules (``lc``: the built-in one)."""
        line = decode_line(raw[:MAX_LINE_BYTES])
        if any(p.search(line) for p in self.failure):
            return _RULE_FAILURE
        droppable = lc.cls in (co.PLAIN, co.SOFT) or (lc.cls == co.COORD and lc.kind == "warning")
        if droppable and any(p.search(line) for p in self.noise):
            return _NOISE_CLASS
        return lc


class TemplateStat:
    """Per distinct template: its first line, its class and that first real line (counts live in
    :attr:`Engine.counts`, last lines in :attr:`Engine.last`, both updated in C per chunk)."""

    __slots__ = ("_text", "cls", "first", "lc", "sample")

    def __init__(self, n: int, lc: co.LineClass, sample: bytes, text: bytes | None = None) -> None:
        self.first = n
        self.cls = lc.cls
        self.lc = lc
        self.sample = sample
        self._text = text

    def text(self, size: int = MAX_TEMPLATE_BYTES) -> bytes:
        """The digit template of the first line (what the rules and the pattern summaries read)."""
        if self._text is None:
            self._text = self.sample.translate(DIGITS)
        return self._text[:size]


PLAIN_STAT = TemplateStat(0, PLAIN_CLASS, b"")


class RawLines:
    """The raw lines of a chunk, sliced on demand: the line keys give every line's length
    (``translate`` keeps lengths), so the raw text needs no second ``split``."""

    __slots__ = ("_data", "_starts")

    def __init__(self, data: bytes, lengths: list[int]) -> None:
        self._data = data
        # Cumulative lengths without newlines: line i spans [S[i] + i, S[i + 1] + i).
        self._starts = list(accumulate(lengths, initial=0))

    def __len__(self) -> int:
        return len(self._starts) - 1

    def __getitem__(self, index: int) -> bytes:
        return self._data[self._starts[index] + index : self._starts[index + 1] + index]
