"""Rendering: a coordinate header, then the kept lines in order, then the patterns, then the hint.

Budget order: failure lines are never dropped; then the context around them (the 3 lines before
and the line after each failure, and the rest of its block), folded first when the failures alone
fill the target; then warnings at the detail that fits; then samples, then pattern summaries.
Every kept text is scrubbed (:func:`summarizer.core.scrub.scrub`) when the snapshot is taken,
after the coordinates were extracted from the original, so a secret never reaches the rendering.

Body lines read ``N: text`` for coordinates, ``N| text`` for context and ``N~ text`` for samples
(N is the 1-based line number in the original). Identical messages appear once with
``[×K, lines ...]``; repeated compiler messages are compacted (:mod:`~summarizer.output.compact`),
runs of one file factored and warnings grouped (:mod:`~summarizer.output.grouping`); the header is
:mod:`~summarizer.output.header`. Budgets use :func:`~summarizer.output.kept.estimate_tokens`:
the tokenizer is loaded only to report an exact count.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable

from summarizer.core.records import record, replace
from summarizer.output import testrun
from summarizer.output.compact import Messages, body_line
from summarizer.output.dense import CODES_TITLE, coded_rows, render_codes
from summarizer.output.grouping import (
    factor,
    group_warnings,
    merge_numeric,
    merge_records,
    render_groups,
    source_file,
)
from summarizer.output.header import Verdict, header_lines, restore_hint
from summarizer.output.kept import ERROR_KINDS, Kept, KeptPattern, KeptSample, Rendering, estimate_tokens
from summarizer.output.lines import decode_line, truncate_for_render
from summarizer.output.patterns import PatternStat
from summarizer.output.snapshot import Scrubbed, Snapshot

__all__ = ["Body", "render_snapshot", "restore_hint"]

_SAMPLE_CHARS = 300
_PATTERN_CHARS = 200
_GROUPED_KINDS = {"located_warning", "include"}
# Located warnings are listed in full up to this many; past it they are grouped by (file, code).
_WARNINGS_IN_FULL = 12
# The legend names only the row forms the rendering uses (each clause costs tokens on every call).
_LEGEND_CLAUSES = (
    ("|", "N| = context"),
    ("~", "N~ = sample"),
    ("args", "code + args = that code's message above, with these args, 〃 = as the row above"),
    (
        "@",
        "after '@ file': '[N: ]…x' = 'N: file x', no N = next line, '…(a) (b): m' = one row per location",
    ),
)
# Error records fold by template when they alone would take more characters than this per token of
# the target (about the bytes of a token in dense logs).
_CHARS_PER_TOKEN = 3
_DENSE_SHARE = 20


def _legend(rows: list[str], compactable: bool) -> str:
    used = {"args"} if compactable else set()
    for row in rows:
        if row.startswith("@ "):
            used.add("@")
        number = row[: len(row) - len(row.lstrip("0123456789"))]
        if number and row[len(number) : len(number) + 1] in ("|", "~"):
            used.add(row[len(number)])
    clauses = ["N: = original line N", *(text for mark, text in _LEGEND_CLAUSES if mark in used)]
    return f"--- kept lines ({'; '.join(clauses)}) ---"


_WARNINGS_TITLE = "--- warnings and notes by (file, code): source lines, output lines, one example ---"
_PATTERNS_TITLE = "--- repeating patterns (count, line range, one real sample) ---"


@record
class Body:
    """The body rows (order, text) and the file each coordinate row starts with (for factoring)."""

    rows: list[tuple[float, str]]
    files: dict[float, str]


def _lines_note(snap: Snapshot, coord: Kept, merged: dict[int, str]) -> str:
    entry = snap.entries.get(coord.line)
    note = ""
    if entry and entry.count > 1:
        note = f"  [×{entry.count}, lines {entry.line}…{entry.last_line}]"
    return merged.get(coord.line, note)


def _coordinate_rows(snap: Snapshot, listed: list[Kept], merged: dict[int, str]) -> Body:
    """Tier 1: every coordinate, the frame markers, one line per soft pattern."""
    body = Body([], {})
    seen = Messages()
    for coord in listed:
        entry = snap.entries.get(coord.line)
        full = entry.full_bytes if entry else None
        body.rows.append((coord.line, body_line(coord, _lines_note(snap, coord, merged), seen, full)))
        file = source_file(coord.location)
        # A row indented under the tool's own file heading (pyright's ``  /abs/a.py:3:1 - error``)
        # starts with its file as much as an unindented one.
        if file and coord.text.lstrip().startswith(file) and coord.kind != "frame":
            body.files[coord.line] = file
    taken = {c.line for c in listed}
    # A location printed under its message (``  --> a.py:3:1``) whose message was kept where it was
    # first printed gets that message again right above it: a location never stands alone, nor
    # under another row's message.
    texts = {c.line: c.text for c in listed}
    for coord in listed:
        entry = snap.entries.get(coord.line)
        above = coord.line - 1
        if (
            entry is not None
            and entry.head
            and entry.head != above
            and above not in taken
            and entry.head in texts
        ):
            body.rows.append((above, f"{above}: {texts[entry.head]}"))
            taken.add(above)
    body.rows.extend((n, f"{n}: {text}") for n, text in snap.keys if n not in taken)
    body.rows.extend((after + 0.5, f"   {marker}") for after, marker in snap.frame_markers)
    if snap.http_4xx_more:
        first, last = snap.http_4xx_range
        note = f"[{snap.http_4xx_more:,} further 4xx request lines, lines {first}…{last}; restore]"
        body.rows.append((first, f"{first}: {note}"))
    for stat in snap.soft_patterns:
        if stat.count <= 1 and stat.sample_line in taken:
            continue  # its one line is a coordinate row already (a warning heading its `-->` location)
        body.rows.append((stat.sample_line, f"{stat.sample_line}: {_pattern_note(stat)}{_sample(stat)}"))
    return body


def _sample(stat: PatternStat) -> str:
    text = decode_line(stat.sample)
    return truncate_for_render(text, line_no=stat.sample_line, full_bytes=None, limit=_PATTERN_CHARS)


def _pattern_note(stat: PatternStat) -> str:
    if stat.count <= 1:
        return ""
    return f"[×{stat.count:,} like this, lines {stat.first_line}…{stat.last_line}] "


def _context_rows(snap: Snapshot, body: Body, budget: int, target: int, dense: bool) -> tuple[int, int]:
    """Tier 2: the context around failures: the lines heading each failure, its block's lines (up to
    half a target more), the line right above it, the rest while it fits; (budget, folded).
    ``dense``: the error lines alone exceed the target (warnings never make a report dense: they
    come after the context in the budget order)."""
    taken = {int(order) for order, _ in body.rows}
    rows = [(n, f"{n}| {text}") for n, text in snap.context if n not in taken]
    costs = [estimate_tokens(text) + 1 for _, text in rows]
    # Whole while it fits in what is left or in one more target's worth, unless the error lines alone
    # exceed the target (a dense report): then every error's own line stays and the rest is folded.
    if not dense and sum(costs) <= max(budget, target):
        body.rows.extend(rows)
        return budget - sum(costs), 0
    # The failures alone fill the budget: keep the lines that head each failure's block (its
    # headline, its location) whatever they cost, then the blocks' own lines while they fit; fold
    # the lines before each failure.
    heads = sum(c for (n, _), c in zip(rows, costs, strict=True) if n in snap.heads)
    # A dense report (coordinates are 5% of the lines or more) folds its blocks to its error lines;
    # a few failures in a long log keep their blocks whole (a compiler error's snippet and caret)
    # within one more target's worth.
    if len(snap.coords) * _DENSE_SHARE >= snap.lines:
        allowance = 0 if budget <= 0 else max(budget, target // 2) - heads
    else:
        allowance = max(budget, target) - heads
    kept: set[int] = set()
    for (n, text), cost in zip(rows, costs, strict=True):
        block = n in snap.block_lines and cost <= allowance
        if n in snap.heads or block:
            allowance -= cost if block else 0
            budget -= cost
            body.rows.append((n, text))
            kept.add(n)
    # Then the line right above each failure (the failing variant of a repeated step), while a
    # quarter of a target is left for them.
    allowance = max(allowance, 0) + target // 4
    for (n, text), cost in zip(rows, costs, strict=True):
        if n in snap.above and n not in kept and cost <= allowance:
            allowance -= cost
            budget -= cost
            body.rows.append((n, text))
            kept.add(n)
    return budget, len(rows) - len(kept)


def _near(snap: Snapshot, listed: list[Kept]) -> tuple[tuple[int, str], ...]:
    """The context lines whose nearest coordinate (before or after) is a listed one."""
    lines = sorted(c.line for c in snap.coords)
    shown = {c.line for c in listed}
    out = []
    for n, text in snap.context:
        at = bisect_left(lines, n)
        near = [lines[k] for k in (at - 1, at) if 0 <= k < len(lines)]
        if any(k in shown for k in near):
            out.append((n, text))
    return tuple(out)


def _serving(snap: Snapshot, shown: set[int]) -> tuple[tuple[int, str], ...]:
    """The context lines that serve a shown coordinate: the lines up to 3 above it (or heading its
    block), the line after it and its block's lines; lines that serve only hidden ones go."""
    lines = sorted(c.line for c in snap.coords)
    out = []
    for n, text in snap.context:
        at = bisect_left(lines, n)
        after = lines[at] if at < len(lines) else None
        before = lines[at - 1] if at > 0 else None
        served = [k for k in (before,) if k is not None and (n == k + 1 or n in snap.block_lines)]
        served += [k for k in (after,) if k is not None and (k - n <= 3 or n in snap.heads)]
        if not served or any(k in shown for k in served):
            out.append((n, text))
    return tuple(out)


def _samples(snap: Snapshot, body: Body, budget: int, clean: Scrubbed) -> tuple[list[KeptSample], int]:
    """Tier 4: samples of ordinary lines, evenly spread, as many as fit."""
    taken = {int(order) for order, _ in body.rows}
    candidates = [(n, raw) for n, raw in snap.samples if n not in taken]
    samples: list[KeptSample] = []
    if budget <= 0 or not candidates or snap.collapse:
        return samples, budget
    texts = [
        (n, clean(truncate_for_render(decode_line(raw), line_no=n, full_bytes=None, limit=_SAMPLE_CHARS)))
        for n, raw in candidates
    ]
    costs = [estimate_tokens(t) + 2 for _, t in texts]
    total = sum(costs)
    stride = max(1, -(-total // max(budget // 2, 1))) if total > budget // 2 else 1
    for index in range(0, len(texts), stride):
        if costs[index] > budget:
            break
        n, text = texts[index]
        budget -= costs[index]
        samples.append(KeptSample(line=n, text=text))
        body.rows.append((n, f"{n}~ {text}"))
    return samples, budget


def _pattern_rows(snap: Snapshot, budget: int, clean: Scrubbed) -> tuple[list[KeptPattern], list[str]]:
    """Tier 5: pattern summaries of ordinary lines, most frequent first, while they fit."""
    patterns = [
        KeptPattern(
            p.pattern, p.count, p.first_line, p.last_line, clean(_sample(p)), p.sample_line, soft=True
        )
        for p in snap.soft_patterns
    ]
    lines: list[str] = []
    if snap.collapse:
        return patterns, lines
    for stat in snap.patterns:
        kept = snap.entries.get(stat.first_line)
        if stat.count < 2 or (kept is not None and kept.count >= stat.count):
            continue  # a kept line already says "[×N, lines a…b]" for these repeats
        sample = clean(_sample(stat))
        line = f"×{stat.count:,} lines {stat.first_line}…{stat.last_line}: {sample}"
        cost = estimate_tokens(line) + 1
        if cost > budget:
            break
        budget -= cost
        lines.append(line)
        patterns.append(
            KeptPattern(stat.pattern, stat.count, stat.first_line, stat.last_line, sample, stat.sample_line)
        )
    return patterns, lines


def _footer(snap: Snapshot, folded: int) -> list[str]:
    notes: list[str] = []
    if folded:
        notes.append(f"[{folded:,} context lines around failures folded to fit the budget; restore]")
    if snap.soft_pruned:
        notes.append(
            f"[{snap.soft_pruned:,} further soft lines of rare patterns past the memory cap; restore]"
        )
    if snap.coords_not_listed:
        notes.append(
            f"[{snap.coords_not_listed:,} further distinct coordinates past the memory cap; restore]"
        )
    return notes


def render_snapshot(
    snap: Snapshot,
    clean: Scrubbed,
    verdict: Verdict,
    *,
    target: int,
    count: Callable[[str], int] = estimate_tokens,
    fold_target: int | None = None,
) -> tuple[str, list[KeptPattern], list[KeptSample]]:
    """The rendering's text within ``target`` (estimated) tokens; ``count`` gives nothing but
    the order of the budget's tiers a scale, and is the estimate unless the caller says otherwise.
    ``fold_target`` (default ``target``) decides which failures fold: a re-fit at a tighter target
    shrinks the optional tiers, never the failures the caller's target had room for."""
    fold_target = fold_target or target
    record_codes = dict(snap.record_codes)
    # A note inside a failure's block belongs to that failure: listed with it, never grouped; unless
    # the errors alone exceed the target: then the notes are the rest of the block, and fold.
    errors_alone = count("\n".join(c.text for c in snap.coords if c.kind in ERROR_KINDS)) > fold_target
    grouped = [
        c
        for c in snap.coords
        if c.kind in _GROUPED_KINDS
        and (errors_alone or c.line not in snap.context_lines or c.line in record_codes)
    ]
    groups = group_warnings(grouped, record_codes) if len(grouped) > _WARNINGS_IN_FULL else []
    # By identity: equal rows are distinct coordinates, and `in` on a list of them is quadratic.
    grouped_ids = {id(c) for c in grouped}
    listed = [c for c in snap.coords if id(c) not in grouped_ids] if groups else list(snap.coords)
    listed, merged = merge_numeric(listed)
    listed, merged_records = merge_records(listed, fold_target * _CHARS_PER_TOKEN)
    merged.update(merged_records)
    if merged_records:
        # A folded record's context went with it: its own line is not shown, the lines around it
        # are no one's context (its note names the record's line; restore has them).
        snap = replace(snap, context=_serving(snap, {c.line for c in listed}))
    coded = (
        coded_rows(listed, snap.entries, fold_target * _CHARS_PER_TOKEN)
        if verdict.shape == "diagnostics"
        else None
    )
    if coded is not None:
        # A folded row's block went with it (its context, the soft lines of its snippet).
        listed = coded.listed
        snap = replace(
            snap,
            context=tuple(r for r in _near(snap, listed) if not coded.inside(r[0])),
            soft_patterns=tuple(p for p in snap.soft_patterns if not coded.inside(p.first_line)),
        )
    codes = coded.groups if coded is not None else []
    pytest = verdict.shape == "test" and testrun.is_pytest(snap.coords)
    summary_rows = 0
    if pytest:
        listed, summary_rows = testrun.fold_summary(listed, verdict.failing)
    header = header_lines(snap, verdict, groups)
    hint = restore_hint(verdict.restore_id, snap.lines)
    body = _coordinate_rows(snap, listed, merged)
    error_lines = {c.line for c in listed if c.kind in ERROR_KINDS}
    # Sized with the whole legend: the one printed names only the row forms used, never more.
    legend = _legend(["@ ", "1| ", "1~ "], compactable=True)
    titles = [_WARNINGS_TITLE if groups else "", CODES_TITLE if codes else ""]
    fixed = "\n".join([*header, legend, *(t for _, t in body.rows), *titles, hint])
    budget = target - count(fixed) - 2
    errors = [text for order, text in body.rows if order in error_lines]
    # A report folded by code is dense: its code lines, not the kept rows' snippets, use the budget.
    # So is a log whose error records folded: they alone were past the target.
    dense = (
        bool(codes) or bool(merged_records) or (budget <= 0 and count("\n".join([*header, *errors])) > target)
    )
    # Every rule code's line comes before the context: it is what stands for the folded rows.
    code_lines = render_codes(codes, max(budget, 0), count) if codes else []
    budget -= count("\n".join(code_lines)) + 1 if code_lines else 0
    budget, folded = _context_rows(snap, body, budget, target, dense)
    warnings = [clean(t) for t in render_groups(groups, budget, count)] if groups else []
    budget -= count("\n".join(warnings)) + 1 if warnings else 0
    samples, budget = _samples(snap, body, budget, clean)
    patterns, pattern_lines = _pattern_rows(snap, budget, clean)
    body.rows.sort(key=lambda item: item[0])
    rows = factor([(order, text, body.files.get(order)) for order, text in body.rows])
    rows = [testrun.squeeze_rules(r) for r in rows] if pytest else rows
    compactable = any(c.location and c.kind not in ERROR_KINDS and c.kind != "frame" for c in listed)
    parts = [*header, _legend(rows, compactable), *rows]
    if code_lines:
        parts += [CODES_TITLE, *code_lines]
    if warnings:
        parts += [_WARNINGS_TITLE, *warnings]
    parts += _footer(snap, folded)
    parts += [note for note in (testrun.folded_note(snap, summary_rows),) if note]
    if pattern_lines:
        parts += [_PATTERNS_TITLE, *pattern_lines]
    parts.append(hint)
    return "\n".join(parts) + "\n", patterns, samples


def render(
    snap: Snapshot,
    clean: Scrubbed,
    verdict: Verdict,
    *,
    target: int,
    exact: Callable[[str], int] | None,
    fold_target: int | None = None,
) -> Rendering:
    """The compressed rendering and its envelope; ``exact`` counts the result's tokens if given
    (``fold_target``: see :func:`render_snapshot`)."""
    text, patterns, samples = render_snapshot(snap, clean, verdict, target=target, fold_target=fold_target)
    compressed = exact(text) if exact is not None else estimate_tokens(text)
    return verdict.rendering(
        snap,
        text=text,
        compressed=compressed,
        target=target,
        patterns=tuple(patterns),
        samples=tuple(samples),
        redactions=clean.redactions,
    )
