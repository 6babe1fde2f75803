"""A frozen view of the engine's state at the end of the stream: what the rendering reads.

The rendering never touches the :class:`~summarizer.output.engine.Engine` itself: it reads this
snapshot, taken once, with every kept text already decoded and scrubbed, so its functions are
plain functions of their inputs.
"""

from __future__ import annotations

import re

from summarizer.core.lazyre import lazy
from summarizer.core.records import record, replace
from summarizer.core.scrub import LineScrubber, scrub
from summarizer.output import coordinates as co
from summarizer.output.engine import DIGITS, CoordEntry, Engine
from summarizer.output.kept import Kept
from summarizer.output.lines import decode_line
from summarizer.output.patterns import PatternStat, merge_templates
from summarizer.output.verdicts import all_pass

__all__ = ["Scrubbed", "Snapshot", "take", "without_hunk_errors"]


class Scrubbed:
    """Scrubs texts and counts the redactions."""

    def __init__(self) -> None:
        self.redactions = 0

    def __call__(self, text: str) -> str:
        clean, found = scrub(text)
        self.redactions += len(found)
        return clean


@record(frozen=True)
class Snapshot:
    """What the rendering needs, read once from the engine."""

    lines: int
    coords: tuple[Kept, ...]
    entries: dict[int, CoordEntry]
    context: tuple[tuple[int, str], ...]
    heads: frozenset[int]
    context_lines: frozenset[int]
    block_lines: frozenset[int]
    keys: tuple[tuple[int, str], ...]
    soft_patterns: tuple[PatternStat, ...]
    patterns: tuple[PatternStat, ...]
    samples: tuple[tuple[int, bytes], ...]
    frame_markers: tuple[tuple[int, str], ...]
    http_4xx_more: int
    http_4xx_range: tuple[int, int]
    first_timestamp: tuple[int, str] | None
    last_timestamp: tuple[int, str] | None
    omitted_frames: int
    binary_lines: int
    noise_lines: int
    soft_pruned: int
    coords_not_listed: int
    passed: int
    collapse: bool
    # Lines of test source folded around a pytest run's failures (summarizer.output.testrun).
    source_folded: int = 0
    above: frozenset[int] = frozenset()
    # The rule code of each location a low severity line demoted to a warning (by output line):
    # the code is printed on its record's headline, not on it (summarizer.output.severity).
    record_codes: tuple[tuple[int, str], ...] = ()


def _coordinates(engine: Engine, clean: Scrubbed) -> tuple[Kept, ...]:
    out: list[Kept] = []
    # In line order through one LineScrubber: a private key whose BEGIN line and body lines are kept
    # as separate coordinates is still known as key material (each line alone would not be).
    lines = LineScrubber()
    for entry in sorted(engine.coords.values(), key=lambda e: e.line):
        text, found = lines(decode_line(entry.raw))
        text = clean(text)
        clean.redactions += len(found)
        out.append(
            Kept(
                kind=entry.kind,
                line=entry.line,
                text=text,
                location=co.find_location(text),
                timestamp=co.find_timestamp(text),
                count=entry.count,
                last_line=entry.last_line if entry.count > 1 else None,
            )
        )
    return tuple(out)


def _pattern_rows(engine: Engine, soft: bool) -> list[tuple[str, int, int, int, bytes]]:
    return [
        (decode_line(r.text(300)), engine.counts[t], r.first, engine.last[t], r.sample)
        for t, r in engine.templates.items()
        if (r.cls == co.SOFT) == soft and r.cls in (co.PLAIN, co.SOFT, co.HEADER)
    ]


def _keys(engine: Engine, clean: Scrubbed, key: re.Pattern[str]) -> tuple[tuple[int, str], ...]:
    """Every row that matches ``key`` (a commit line, a status row), at its first occurrence: one
    per table entry, and every commit line (their keys fold the hash, so the engine lists them)."""
    rows = {r.first: r.sample for r in engine.templates.values() if key.match(decode_line(r.text(200)))}
    seen = set(rows.values())
    for n, raw in engine.key_rows:
        if n in rows or (raw in seen and not raw.startswith(_HUNK_HEADERS)):
            continue  # a commit line seen before; a diff's header each time (another file's hunk)
        if key.match(decode_line(raw[:200].translate(DIGITS))):
            seen.add(raw)
            rows[n] = raw
    return tuple((n, clean(decode_line(raw))) for n, raw in sorted(rows.items()))


def take(
    engine: Engine, clean: Scrubbed, *, patterns: bool = True, key: re.Pattern[str] | None = None
) -> Snapshot:
    """The snapshot of ``engine`` (finished); ``patterns=False`` skips the pattern merge; ``key``
    names the rows a compact form keeps, every one (version-control output's hashes and paths)."""
    coords = _coordinates(engine, clean)
    # A context line that repeats a kept coordinate (a frame seen twice) is that row's [×N].
    kept = {c.line for c in coords}
    texts = {e.raw for e in engine.coords.values()}
    context = tuple(
        (n, clean(decode_line(raw)))
        for n, raw in sorted(engine.context.items())
        if n not in kept and raw not in texts
    )
    return Snapshot(
        lines=engine.line_no,
        coords=coords,
        entries={e.line: e for e in engine.coords.values()},
        context=context,
        heads=frozenset(engine.ctx.heads),
        context_lines=frozenset(engine.context),
        block_lines=frozenset(engine.ctx.body),
        keys=_keys(engine, clean, key) if key is not None else (),
        # Soft lines are coordinates too: every one of their patterns is shown, so none is capped.
        soft_patterns=tuple(merge_templates(_pattern_rows(engine, True), cap=None)) if patterns else (),
        patterns=tuple(merge_templates(_pattern_rows(engine, False))) if patterns else (),
        samples=tuple(engine.sampler.kept),
        frame_markers=tuple(engine.frame_markers),
        http_4xx_more=engine.http_4xx_more,
        http_4xx_range=engine.http_4xx_range,
        first_timestamp=engine.first_timestamp,
        last_timestamp=engine.last_timestamp,
        omitted_frames=engine.omitted_frames,
        binary_lines=engine.binary_lines,
        noise_lines=engine.noise_lines,
        soft_pruned=engine.soft_pruned,
        coords_not_listed=engine.coords_not_listed,
        passed=engine.passed,
        collapse=all_pass(engine),
        above=frozenset(engine.ctx.above),
    )


_HUNK_HEADERS = (b"@@ ", b"diff ")
# The lines of a diff's hunks: the text being changed, context or added or removed.
_HUNK_LINE = lazy(r"^(?:[-+ ]|@@ )")


def without_hunk_errors(snap: Snapshot) -> Snapshot:
    """``snap`` of content with a diff's hunk headers, less the hunk lines that an error word made
    failures: a diff is text to read (``raise Error`` added is no failure). Its file and hunk
    headers are kept rows; lines outside the hunks (git's own ``fatal:``) stay failures."""
    if not any(text.startswith("@@ ") for _, text in snap.keys):
        return snap
    coords = tuple(c for c in snap.coords if not _HUNK_LINE.match(c.text))
    context = tuple((n, text) for n, text in snap.context if not _HUNK_LINE.match(text))
    soft = tuple(p for p in snap.soft_patterns if not _HUNK_LINE.match(decode_line(p.sample[:1])))
    return replace(snap, coords=coords, context=context, soft_patterns=soft)
