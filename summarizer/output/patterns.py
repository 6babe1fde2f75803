"""Repeating lines: count them per pattern, show each pattern once with one real sample.

Counting happens on the cheap digit-template (see :mod:`summarizer.output.coordinates`) for every
line; only when rendering are templates merged further by :func:`normalise` (hex, quoted strings,
paths, IPs, UUIDs, runs of ``#`` and whitespace), which runs once per distinct template.

Memory is bounded: when the table grows past :data:`MAX_TEMPLATES`, the rarest templates are
folded into anonymous tallies (their count survives, their text does not). Sampling keeps about
one line in 50 of the ordinary lines, evenly spread, and halves itself when it would grow past
its cap, so a gigabyte log holds the same number of samples as a megabyte one.
"""

from __future__ import annotations

import re
from functools import lru_cache

from summarizer.core.lazyre import lazy
from summarizer.core.records import field, record

__all__ = ["MAX_TEMPLATES", "PatternStat", "Sampler", "merge_templates", "normalise"]

MAX_TEMPLATES = 30_000
SAMPLE_EVERY = 50
MAX_SAMPLES = 512

# (literal the pattern needs, pattern, replacement): a pattern runs only on text holding its literal.
_NORMALISERS: tuple[tuple[tuple[str, ...], re.Pattern[str], str], ...] = (
    (
        ("-",),
        lazy(r"\b[0-9a-fA-F#]{8}-[0-9a-fA-F#]{4}-[0-9a-fA-F#]{4}-[0-9a-fA-F#]{4}-[0-9a-fA-F#]{12}\b"),
        "<uuid>",
    ),
    (("0x",), lazy(r"\b0x[0-9a-fA-F#]+\b"), "<hex>"),
    (("#",), lazy(r"\b(?=[0-9a-fA-F#]*#)(?=[0-9a-fA-F#]*[a-fA-F])[0-9a-fA-F#]{6,}\b"), "<hex>"),
    (("'", '"', "`"), lazy(r"'[^'\n]{0,200}'|\"[^\"\n]{0,200}\"|`[^`\n]{0,200}`"), "<str>"),
    (("/", "\\"), lazy(r"(?<![\w.~+@/\\-])(?:[A-Za-z]:)?[\w.~+@-]*[/\\][\w.~+@/\\-]*"), "<path>"),
    (("::",), lazy(r"\b\S+::\S+"), "<id>"),
    (("#",), lazy(r"[#.,:_-]*#[#.,:_-]*"), "#"),
    (("",), lazy(r"\s+"), " "),
)


@lru_cache(maxsize=8192)
def normalise(template: str) -> str:
    """Merge-key of a template: numbers, hex, quoted strings, paths and ids replaced."""
    for needs, pattern, replacement in _NORMALISERS:
        if any(literal in template for literal in needs):
            template = pattern.sub(replacement, template)
    return template.strip()


@record
class PatternStat:
    """Counts for one merged pattern, with the first real line as its sample."""

    pattern: str
    count: int
    first_line: int
    last_line: int
    sample: bytes
    sample_line: int


MERGE_TEMPLATES = 4_000


def merge_templates(
    entries: list[tuple[str, int, int, int, bytes]], cap: int | None = MERGE_TEMPLATES
) -> list[PatternStat]:
    """Merge (template, count, first, last, sample) rows by :func:`normalise`, biggest first.

    Only the ``cap`` most frequent templates are normalised (a regex pass each); the rest are
    rare lines that no summary would have room for. ``cap=None`` merges them all.
    """
    merged: dict[str, PatternStat] = {}
    if cap is not None and len(entries) > cap:
        entries = sorted(entries, key=lambda e: -e[1])[:cap]
    for template, count, first, last, sample in entries:
        key = normalise(template)
        stat = merged.get(key)
        if stat is None:
            merged[key] = PatternStat(key, count, first, last, sample, first)
            continue
        stat.count += count
        if first < stat.first_line:
            stat.first_line, stat.sample, stat.sample_line = first, sample, first
        stat.last_line = max(stat.last_line, last)
    return sorted(merged.values(), key=lambda s: (-s.count, s.first_line))


@record
class Sampler:
    """Keeps about one ordinary line in ``every``, evenly spread and never more than ``cap``.

    The engine fills :attr:`kept` on a line-number grid; past ``cap`` it keeps every other sample
    and doubles ``every``, so the samples stay evenly spread over any input size.
    """

    every: int = SAMPLE_EVERY
    cap: int = MAX_SAMPLES
    kept: list[tuple[int, bytes]] = field(default_factory=list)
