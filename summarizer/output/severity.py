"""A record's own severity line decides its class; numbered source lines are context.

Some reports print each finding as a multi-line record: a headline, then its own severity on a
line of its own, then the location and a numbered source snippet (bandit's ``>> Issue: [B101:...]``
/ ``Severity: Low   Confidence: High`` / ``Location: a.py:36:8`` / ``36<TAB>assert x``). The
severity line is the tool's verdict on the record, whatever words its headline or snippet hold:

* a low one (``low``, ``info``, ``note``, ``warning``, ...) makes the record's location a located
  warning, grouped by (file, code) with counts and locations, and its headline a warning; the
  record's other context lines (its severity, links, snippet) go with it;
* a medium or high one leaves the record a failure, listed whole;
* the snippet's lines (a line number, a tab, the code) are the source the agent has: context, never
  a failure, even when they say ``assert`` or ``raise``.

A severity line belongs to the record it is nearest to: up to ``_ABOVE`` lines above a location
(the headline's block) or ``_BELOW`` lines below a headline.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from summarizer.core.lazyre import lazy
from summarizer.core.records import replace
from summarizer.output.kept import Kept
from summarizer.output.snapshot import Snapshot

__all__ = ["SNIPPET", "by_severity"]

_SEVERITY_LINE = lazy(r"^\s*severity\s*[:=]\s*(?P<level>[a-z]+)\b", re.IGNORECASE)
_LOW = frozenset(
    {"low", "info", "informational", "note", "notice", "hint", "minor", "warning", "warn", "style"}
)
# A source snippet's line: its line number, a tab, the code (bandit, semgrep's text output).
SNIPPET = lazy(r"^\s*\d+\t")
# A rule code in a headline: "[B101:assert_used]", "[E501]".
_CODE = lazy(r"\[(?P<code>[A-Z]+\d+)[\]:]")
_ABOVE = 6
_BELOW = 2


def _level(line: int, levels: dict[int, str]) -> str | None:
    """The severity of the record holding ``line``: the nearest severity line within reach."""
    if line in levels:
        return levels[line]
    for distance in range(1, _ABOVE + 1):
        if distance <= _BELOW and line + distance in levels:
            return levels[line + distance]
        if line - distance in levels:
            return levels[line - distance]
    return None


def _code(line: int, texts: dict[int, str], heads: dict[tuple[str, ...], str]) -> str | None:
    """The rule code of the record whose location is ``line``: from its headline when kept, else
    from the merged headline whose record printed the very same lines above its location (a repeat
    of that headline: same severity, same links)."""
    for above in range(line - 1, line - _ABOVE - 1, -1):
        match = _CODE.search(texts.get(above, ""))
        if match is not None:
            return match.group("code")
    for body, code in heads.items():
        if tuple(texts.get(n, "") for n in range(line - len(body), line)) == body:
            return code
    return None


def _head_bodies(heads: list[Kept], located: list[int], texts: dict[int, str]) -> dict[tuple[str, ...], str]:
    """Each merged headline's record lines between it and its location, with its rule code."""
    bodies: dict[tuple[str, ...], str] = {}
    for head in heads:
        match = _CODE.search(head.text)
        at = bisect_right(located, head.line)
        if match is None or at == len(located) or located[at] - head.line > _ABOVE:
            continue
        body = tuple(texts.get(n, "") for n in range(head.line + 1, located[at]))
        if body and all(body):
            bodies[body] = match.group("code")
    return bodies


def by_severity(snap: Snapshot) -> Snapshot:
    """``snap`` with low records demoted to warnings (the rule code of each demoted location in
    ``record_codes``, for grouping) and snippet lines out of the soft lines."""
    levels = {n: m.group("level").lower() for n, text in snap.context if (m := _SEVERITY_LINE.match(text))}
    soft = tuple(p for p in snap.soft_patterns if not SNIPPET.match(p.sample.decode("utf-8", "replace")))
    if not levels:
        return snap if len(soft) == len(snap.soft_patterns) else replace(snap, soft_patterns=soft)
    coords: list[Kept] = []
    demoted_heads: list[Kept] = []
    for coord in snap.coords:
        level = _level(coord.line, levels) if coord.kind in ("location", "error") else None
        if level in _LOW:
            coord = replace(coord, kind="located_warning" if coord.location else "warning")
            if not coord.location and coord.count > 1:
                demoted_heads.append(coord)
        coords.append(coord)
    texts = dict(snap.context) | {c.line: c.text for c in coords}
    bodies = _head_bodies(demoted_heads, sorted(c.line for c in coords if c.location), texts)
    # Without a code in sight, the record's severity names its group ("severity low").
    codes = {
        c.line: _code(c.line, texts, bodies) or f"severity {_level(c.line, levels)}"
        for c in coords
        if c.kind == "located_warning" and _level(c.line, levels) in _LOW
    }
    # A low record's other lines (its severity, links, snippet) went to its group with it.
    context = tuple((n, text) for n, text in snap.context if _level(n, levels) not in _LOW)
    return replace(
        snap, coords=tuple(coords), soft_patterns=soft, context=context, record_codes=tuple(codes.items())
    )
