"""Rendering: a coordinate header, then the kept lines in order, then the patterns, then the hint.

Budget order: coordinates are never dropped; samples fill what is left of the
target, then pattern summaries. Every kept text goes through :func:`summarizer.core.scrub.scrub` here,
after the coordinates were extracted from the original, so a secret never reaches the rendering.

Body lines read ``N: text`` for coordinates and ``N~ text`` for samples (N is the 1-based line
number in the original). Identical messages appear once with ``[×K, lines ...]``; repeated
compiler messages are compacted (:mod:`~summarizer.output.compact`), runs of one file factored and
warnings grouped (:mod:`~summarizer.output.grouping`); the header's verdicts come from
:mod:`~summarizer.output.verdicts`. Nothing is lost: :func:`grouping.expand` restores every row.
"""

from __future__ import annotations

from summarizer.core.scrub import LineScrubber, scrub
from summarizer.core.tokens import count_tokens
from summarizer.output import coordinates as co
from summarizer.output import verdicts
from summarizer.output.classify import Classification
from summarizer.output.compact import Messages, body_line
from summarizer.output.engine import CoordEntry, Engine
from summarizer.output.grouping import factor, group_warnings, merge_numeric, render_groups, source_file
from summarizer.output.lines import decode_line, truncate_for_render
from summarizer.output.models import Coordinate, OutputOptions, OutputResult, PatternSummary, Sample
from summarizer.output.originals import OriginalStore
from summarizer.output.patterns import merge_templates
from summarizer.output.verdicts import all_pass, failing_tests, run_counts_of

__all__ = ["passthrough_result", "render", "restore_hint"]

_SAMPLE_CHARS = 300
_PATTERN_CHARS = 200
_GROUPED_KINDS = {"located_warning", "include"}
# Located warnings are listed in full up to this many; past it they are grouped by (file, code).
_WARNINGS_IN_FULL = 12
_LEGEND = (
    "--- kept lines (N: = original line N; N~ = sample; code + args = that code's message above, with"
    " these args, 〃 = as the row above; after '@ file': '[N: ]…x' = 'N: file x', no N = next line) ---"
)
_WARNINGS_TITLE = "--- warnings and notes by (file, code): source lines, output lines, one example ---"


def _count(text: str, piece: int = 1 << 18) -> int:
    """Token count of a possibly huge rendering, in newline-aligned pieces (bounded memory)."""
    if len(text) <= piece:
        return count_tokens(text)
    total, start = 0, 0
    while start < len(text):
        end = text.find("\n", start + piece)
        end = len(text) if end < 0 else end + 1
        total += count_tokens(text[start:end])
        start = end
    return total


def restore_hint(restore_id: str, lines: int) -> str:
    """The last line of every compressed rendering."""
    return f"[full output: summarizer restore {restore_id}  ({lines} lines)]"


class _Scrubbed:
    """Scrubs texts and counts the redactions."""

    def __init__(self) -> None:
        self.redactions = 0

    def __call__(self, text: str) -> str:
        clean, found = scrub(text)
        self.redactions += len(found)
        return clean


def _lines_note(entry: CoordEntry, lines: list[int] | None) -> str:
    if entry.count == 1:
        return ""
    if lines:
        return f"  [×{entry.count}, lines {', '.join(map(str, lines))}]"
    return f"  [×{entry.count}, lines {entry.line}…{entry.last_line}]"


def _coordinates(engine: Engine, clean: _Scrubbed) -> list[Coordinate]:
    out: list[Coordinate] = []
    # In line order through one LineScrubber: a private key whose BEGIN line and body lines are kept
    # as separate coordinates is still known as key material (each line alone would not be).
    lines = LineScrubber()
    for entry in sorted(engine.coords.values(), key=lambda e: e.line):
        text, found = lines(decode_line(entry.raw))
        text = clean(text)
        clean.redactions += len(found)
        out.append(
            Coordinate(
                kind=entry.kind,
                line=entry.line,
                text=text,
                location=co.find_location(text),
                timestamp=co.find_timestamp(text),
                count=entry.count,
                last_line=entry.last_line if entry.count > 1 else None,
            )
        )
    out.sort(key=lambda c: c.line)
    return out


def render(
    engine: Engine,
    *,
    store_id: str,
    classification: Classification,
    original_tokens: int,
    exact: bool,
    total_bytes: int,
    target: int,
    options: OutputOptions,
    content: bool = False,
) -> OutputResult:
    """Build the compressed rendering and its envelope (``content``: text to read, never errors)."""
    clean = _Scrubbed()
    coords = _coordinates(engine, clean)
    entries = {e.line: e for e in engine.coords.values()}
    rows = {
        kind: [
            (decode_line(t[:300]), engine.counts[t], r.first, engine.last[t], r.sample)
            for t, r in engine.templates.items()
            if (r.cls == co.SOFT) == (kind == "soft") and r.cls in (co.PLAIN, co.SOFT, co.HEADER)
        ]
        for kind in ("soft", "plain")
    }
    # Soft lines are coordinates too: every one of their patterns is shown, so none is capped.
    soft_patterns = merge_templates(rows["soft"], cap=None)
    patterns_all = merge_templates(rows["plain"])
    failing = failing_tests(coords)
    first_error = None if content else verdicts.first_error(coords)
    counts = run_counts_of(coords)
    collapse = all_pass(engine)
    grouped = [c for c in coords if c.kind in _GROUPED_KINDS]
    listed = [c for c in coords if c.kind not in _GROUPED_KINDS]
    groups = group_warnings(grouped) if len(grouped) > _WARNINGS_IN_FULL else []
    if not groups:
        listed = coords
    listed, merged_notes = merge_numeric(listed)

    header: list[str] = [
        f"[summarizer output · {classification} · {engine.line_no:,} lines · {original_tokens:,} tokens in · "
        f"{len(coords):,} coordinates kept]"
    ]
    if options.exit_code is not None:
        header.append(f"exit code: {options.exit_code}")
    failed_count = counts.failed if counts else len(failing)
    if failing or failed_count:
        shown = " · ".join(failing[:40]) + (
            f" · +{len(failing) - 40} more (in the body)" if len(failing) > 40 else ""
        )
        source = f", from {counts.runner}'s summary" if counts else ""
        header.append(f"failing tests ({failed_count}{source}): {shown}".rstrip())
    passed = counts.passed if counts else engine.passed
    if passed:
        header.append(f"passing tests: {passed:,} (counted, not listed)")
    if collapse:
        header.append("all tests passed: only the summary is kept")
    if first_error is not None:
        # The whole line is in the body; the header needs where and what, briefly.
        first_text = first_error.text if len(first_error.text) <= 160 else first_error.text[:160] + "…"
        label = "first warning" if first_error.kind in verdicts.WARNING_KINDS else "first error"
        header.append(f"{label} (line {first_error.line}): {first_text}")
    if groups:
        header.append(
            f"warnings/notes: {sum(g.count for g in groups):,} in {len(groups)} (file, code) groups,"
            " listed after the errors"
        )
    if engine.first_timestamp and engine.last_timestamp:
        (fl, fs), (ll, ls) = engine.first_timestamp, engine.last_timestamp
        header.append(f"time: {fs} (line {fl}) → {ls} (line {ll})")
    if engine.omitted_frames:
        header.append(f"stack frames in 3rd-party code omitted: {engine.omitted_frames:,}")
    if engine.binary_lines:
        header.append(f"binary lines not shown: {engine.binary_lines:,}")
    if engine.noise_lines:
        header.append(f"noise lines dropped by your rules: {engine.noise_lines:,} (restore shows them)")
    hint = restore_hint(store_id, engine.line_no)

    # Tier 1: coordinates (never dropped), frame markers and one line per soft pattern.
    body: list[tuple[float, str]] = []
    files: dict[float, str] = {}
    seen_messages = Messages()
    for coord in listed:
        entry = entries.get(coord.line)
        note = _lines_note(entry, None) if entry else ""
        if entry and 1 < entry.count <= 6:
            note = f"  [×{entry.count}, lines {entry.line}…{entry.last_line}]"
        note = merged_notes.get(coord.line, note)
        full = entry.full_bytes if entry else None
        body.append((coord.line, body_line(coord, note, seen_messages, full)))
        file = source_file(coord.location)
        if file and coord.text.startswith(file) and coord.kind != "frame":
            files[coord.line] = file
    for after, marker in engine.frame_markers:
        body.append((after + 0.5, f"   {marker}"))
    if engine.http_4xx_more:
        first, last = engine.http_4xx_range
        body.append(
            (
                first,
                f"{first}: [{engine.http_4xx_more:,} further 4xx request lines,"
                f" lines {first}…{last}; restore]",
            )
        )
    for stat in soft_patterns:
        sample = clean(
            truncate_for_render(
                decode_line(stat.sample), line_no=stat.sample_line, full_bytes=None, limit=_PATTERN_CHARS
            )
        )
        note = (
            f"[×{stat.count:,} like this, lines {stat.first_line}…{stat.last_line}] "
            if stat.count > 1
            else ""
        )
        body.append((stat.sample_line, f"{stat.sample_line}: {note}{sample}"))
    fixed = "\n".join([*header, _LEGEND, *(t for _, t in body), _WARNINGS_TITLE if groups else "", hint])
    # Counting costs ~1 s per MB; when the coordinates alone are far over budget, bytes/4 decides.
    used = len(fixed) // 4 if len(fixed) > 8 * target else count_tokens(fixed) + 2
    # Warnings are not failures: they take what the failures left, at the detail that fits.
    warning_lines = [clean(t) for t in render_groups(groups, target - used, count_tokens)] if groups else []
    used += count_tokens("\n".join(warning_lines)) + 1 if warning_lines else 0
    budget = target - used

    # Tier 2: samples, evenly spread, as many as fit.
    kept_lines = {int(k) for k, _ in body}
    candidates = [(n, raw) for n, raw in engine.sampler.kept if n not in kept_lines]
    samples: list[Sample] = []
    if budget > 0 and candidates and not collapse:
        texts = [
            (n, clean(truncate_for_render(decode_line(raw), line_no=n, full_bytes=None, limit=_SAMPLE_CHARS)))
            for n, raw in candidates
        ]
        costs = [count_tokens(t) + 4 for _, t in texts]
        total = sum(costs)
        stride = max(1, -(-total // max(budget // 2, 1))) if total > budget // 2 else 1
        for index in range(0, len(texts), stride):
            if costs[index] > budget:
                break
            n, t = texts[index]
            budget -= costs[index]
            samples.append(Sample(line=n, text=t))
            body.append((n, f"{n}~ {t}"))

    # Tier 3: pattern summaries of ordinary lines, most frequent first, while they fit.
    patterns: list[PatternSummary] = [
        PatternSummary(
            pattern=p.pattern,
            count=p.count,
            first_line=p.first_line,
            last_line=p.last_line,
            sample=clean(decode_line(p.sample[:_PATTERN_CHARS])),
            sample_line=p.sample_line,
            soft=True,
        )
        for p in soft_patterns
    ]
    pattern_lines: list[str] = []
    for stat in patterns_all:
        if stat.count < 2 or collapse:
            continue
        kept = entries.get(stat.first_line)
        if kept is not None and kept.count >= stat.count:
            continue  # a kept line already says "[×N, lines a…b]" for these repeats
        sample = clean(
            truncate_for_render(
                decode_line(stat.sample), line_no=stat.sample_line, full_bytes=None, limit=_PATTERN_CHARS
            )
        )
        line = f"×{stat.count:,} lines {stat.first_line}…{stat.last_line}: {sample}"
        cost = count_tokens(line) + 1
        if cost > budget:
            break
        budget -= cost
        pattern_lines.append(line)
        patterns.append(
            PatternSummary(
                pattern=stat.pattern,
                count=stat.count,
                first_line=stat.first_line,
                last_line=stat.last_line,
                sample=sample,
                sample_line=stat.sample_line,
            )
        )

    body.sort(key=lambda item: item[0])
    parts = [
        *header,
        _LEGEND,
    ]
    parts.extend(factor([(order, text, files.get(order)) for order, text in body]))
    if warning_lines:
        parts.append(_WARNINGS_TITLE)
        parts.extend(warning_lines)
    if engine.soft_pruned:
        parts.append(
            f"[{engine.soft_pruned:,} further soft lines of rare patterns past the memory cap; restore]"
        )
    if engine.coords_not_listed:
        parts.append(
            f"[{engine.coords_not_listed:,} further distinct coordinates past the memory cap; restore]"
        )
    if pattern_lines:
        parts.append("--- repeating patterns (count, line range, one real sample) ---")
        parts.extend(pattern_lines)
    parts.append(hint)
    text = "\n".join(parts) + "\n"
    compressed = _count(text)
    return OutputResult(
        classification=classification,
        original_tokens=original_tokens,
        original_tokens_exact=exact,
        compressed_tokens=compressed,
        reduction=round(1 - compressed / max(original_tokens, 1), 4),
        lines=engine.line_no,
        bytes=total_bytes,
        target_tokens=target,
        passthrough=False,
        exit_code=options.exit_code,
        failing_tests=tuple(failing),
        failed_tests=failed_count,
        passed_tests=passed,
        counts_from=counts.runner if counts else None,
        first_error=first_error,
        first_timestamp=engine.first_timestamp[1] if engine.first_timestamp else None,
        last_timestamp=engine.last_timestamp[1] if engine.last_timestamp else None,
        coordinates=tuple(coords),
        coordinates_not_listed=engine.coords_not_listed,
        omitted_frames=engine.omitted_frames,
        patterns=tuple(patterns),
        samples=tuple(samples),
        binary_lines=engine.binary_lines,
        redactions=clean.redactions,
        restore_id=store_id,
        restore_hint=hint,
        text=text,
    )


def passthrough_result(
    store: OriginalStore,
    restore_id: str,
    engine: Engine,
    classification: Classification,
    original_tokens: int,
    exact: bool,
    total_bytes: int,
    options: OutputOptions,
) -> OutputResult:
    """The result for an input small enough to pass through unchanged (scrubbed if it must be)."""
    original = b"".join(store.iter_bytes(restore_id))
    decoded = original.decode("utf-8", "replace")
    text, found = scrub(decoded)
    clean = _Scrubbed()
    coords = _coordinates(engine, clean)
    counts = run_counts_of(coords)
    failing = failing_tests(coords)
    return OutputResult(
        classification=classification,
        original_tokens=original_tokens,
        original_tokens_exact=exact,
        compressed_tokens=original_tokens if not found else count_tokens(text),
        reduction=0.0,
        lines=engine.line_no,
        bytes=total_bytes,
        target_tokens=None,
        passthrough=True,
        exit_code=options.exit_code,
        passed_tests=counts.passed if counts else engine.passed,
        failed_tests=counts.failed if counts else len(failing),
        counts_from=counts.runner if counts else None,
        failing_tests=tuple(failing),
        first_error=verdicts.first_error(coords),
        coordinates=tuple(coords),
        omitted_frames=engine.omitted_frames,
        binary_lines=engine.binary_lines,
        redactions=len(found),
        restore_id=restore_id,
        restore_hint=restore_hint(restore_id, engine.line_no),
        text=text,
    )
