"""Search hits (``grep -rn``, ``rg -n``, ``git grep -n``) grouped by file, every line number kept.

Each file is named once on an ``@ file`` line; its hits follow as ``N: text`` (a context line of
``grep -A/-B/-C`` as ``N- text``). A text loses its leading indentation (a run of adjacent rows, a
hit with its context, keeps its own relative indentation). :func:`summarizer.output.grouping.expand`
turns the rows back into grep's own ``file:N:text``. A hit is a line of some file, never a failure
of the search, whatever it says (``raise InputError(...)``).

When the hits do not fit, the texts are cut first, keeping the match: the words that (nearly) every
hit holds are taken for the match, and each text keeps a window around the first of them
(``…Error("bad header"…``); past that the texts are folded and each file keeps its line numbers on
one row (``@ file`` then ``12 40 41``): every file and every line number stays, and the texts are
one ``summarizer restore`` away.
"""

from __future__ import annotations

import re
from collections import Counter

from summarizer.core.lazyre import lazy
from summarizer.output.forms_vcs import Parsed

__all__ = ["BARE_HIT", "CONTEXT", "HIT", "search_form"]

# path:line:text (a hit) or path-line-text (grep -C context, told apart by a known path).
HIT = lazy(r"^(?P<file>[^\s:]+):(?P<line>\d+):(?P<text>.*)$")
CONTEXT = lazy(r"^(?P<file>[^\s:]+?)-(?P<line>\d+)-(?P<text>.*)$")
# path:text, no line number (rg and grep -r without -n): the path must read as a file's, with an
# extension (src/app.py:, ./README.md:), so that a log's "INFO:root:..." is no hit.
# A located message (bash's x.sh: line 3: ..., dash's x.sh: 3: ..., eslint's compact x.js: line 3,
# col 1, Error - ...) is no hit: a text opening with a number, or "line" and a number, is a location.
# A test id (tests/test_a.py::test_b) is one: its file is said once, each row keeps ":test_b".
BARE_HIT = lazy(
    r"^(?P<file>(?:[^\s:]*/)?[^\s:/]*[^\s:/.]\.[A-Za-z][\w+-]{0,15}):(?!\s?(?:line\s+)?\d)(?P<text>.*)$"
)
# grep -c / -l and binary-file notices are not hit rows: they leave the output as it is.
_NOTICE = lazy(r"^(?:Binary file .* matches|grep: .*|rg: .*)$")
_WORD = lazy(r"\w+")
_WORD_START = lazy(r"(?<!\w)\w")
_CUT = "…"
# Texts are cut to these widths in turn (characters, the cut marks aside) until the form fits;
# the first is the longest line worth reading whole (a minified line is cut even when all fits).
_WIDTHS = (200, 120, 80, 56, 40)
# Then the texts of the first files only (this share of the hits, cut to _PART_WIDTH), the other
# files' line numbers folded; then every file's.
_SHARES = (0.75, 0.5, 0.25, 0.12)
_PART_WIDTH = 56
# A cut this wide or wider keeps what a reader of a small output wants: it is tried there too.
_WIDE = 200
# The words that at least this share of the most common word's hits hold are read as the match.
_MATCH_SHARE = 0.9


class _Group:
    """One file's rows (line number, None without one; ``:`` for a hit or ``-`` for context;
    text), or a notice."""

    def __init__(self, file: str | None, notice: str = "") -> None:
        self.file, self.notice = file, notice
        self.rows: list[tuple[int | None, str, str]] = []


def _row(line: str, files: set[str] | None) -> tuple[str, int | None, str, str] | None:
    """(file, line number, separator, text) for one hit or context line; None for anything else.
    ``files`` None: hits without line numbers."""
    if files is None:
        bare = BARE_HIT.match(line)
        return None if bare is None else (bare.group("file"), None, ":", bare.group("text"))
    found = HIT.match(line)
    if found is not None:
        return found.group("file"), int(found.group("line")), ":", found.group("text")
    found = CONTEXT.match(line)
    if found is not None and found.group("file") in files:
        return found.group("file"), int(found.group("line")), "-", found.group("text")
    return None


def _parse(lines: list[str]) -> list[_Group] | None:
    files: set[str] | None = {found.group("file") for line in lines if (found := HIT.match(line)) is not None}
    if not files:
        files = None  # no line numbers: path:text
    groups: list[_Group] = []
    for line in lines:
        if line == "--" or not line:
            continue
        row = _row(line, files)
        if row is None:
            if not _NOTICE.match(line):
                return None
            groups.append(_Group(None, line))
            continue
        file, number, sep, text = row
        if not groups or groups[-1].file != file:
            groups.append(_Group(file))
        groups[-1].rows.append((number, sep, text))
    return groups


def _dedented(rows: list[tuple[int | None, str, str]]) -> list[str]:
    """The texts without the indentation shared by each run of adjacent lines."""
    out: list[str] = []
    start = 0
    for end in range(1, len(rows) + 1):
        number, previous = (rows[end][0], rows[end - 1][0]) if end < len(rows) else (None, None)
        if number is not None and previous is not None and number == previous + 1:
            continue
        texts = [text.rstrip() for _, _, text in rows[start:end]]
        indents = [len(t) - len(t.lstrip()) for t in texts if t.strip()]
        cut = min(indents, default=0)
        out += [t[cut:] for t in texts]
        start = end
    return out


def _match_words(groups: list[_Group]) -> re.Pattern[str] | None:
    """The words read as the match: those (nearly) every hit holding the most common one holds."""
    seen: Counter[str] = Counter()
    for group in groups:
        for _, sep, text in group.rows:
            if sep == ":":
                seen.update({w.lower() for w in _WORD.findall(text)})
    if not seen:
        return None
    top = seen.most_common(1)[0][1]
    if top < 2:
        return None
    words = sorted((w for w, n in seen.items() if n >= top * _MATCH_SHARE), key=len, reverse=True)
    return re.compile(r"(?i)(?<!\w)(?:" + "|".join(map(re.escape, words)) + r")(?!\w)")


def _window(text: str, width: int, match: re.Pattern[str] | None) -> str:
    """``text`` cut to ``width`` characters around its match (the start when none is found)."""
    if len(text) <= width:
        return text
    found = match.search(text) if match is not None else None
    start = max(0, found.start() - width // 3) if found is not None else 0
    start = min(start, len(text) - width)
    # A cut opens on a word: it reads better, and a factored diagnostic row (…:12: msg) is told
    # from a search row by what follows the mark (grouping.expand).
    if start > 0:
        word = _WORD_START.search(text, start)
        start = word.start() if word is not None else 0
    head = _CUT if start > 0 else ""
    tail = _CUT if start + width < len(text) else ""
    return head + text[start : start + width] + tail


def _body(
    groups: list[_Group], width: int, match: re.Pattern[str] | None, texts_for: int | None = None
) -> tuple[tuple[str, ...], int]:
    """The form's rows and the number of hits shown with their text: texts cut to ``width``;
    past the first ``texts_for`` hits (None: all of them) the texts are folded, and each file's
    hit line numbers go on one row."""
    body: list[str] = []
    shown = 0
    folding = False
    for group in groups:
        if group.file is None:
            body.append(group.notice)
            continue
        body.append(f"@ {group.file}")
        hits = sum(sep == ":" for _, sep, _ in group.rows)
        # The files after a folded one are folded too: the texts shown are those of the top.
        folding = folding or (texts_for is not None and shown + hits > texts_for)
        if folding:
            numbers = [str(n) for n, sep, _ in group.rows if sep == ":" and n is not None]
            body.append(" ".join(numbers) if numbers else f"{hits} hit{'s' if hits > 1 else ''}")
            continue
        shown += hits
        texts = _dedented(group.rows)
        body += [
            _window(t, width, match) if n is None else f"{n}{sep} {_window(t, width, match)}".rstrip()
            for (n, sep, _), t in zip(group.rows, texts, strict=True)
        ]
    return tuple(body), shown


def search_form(lines: list[str]) -> Parsed | None:
    """The hits grouped by file, or None unless every line is a hit, a context row, ``--`` or a
    notice (kept as it is). Leaner variants cut the texts, then fold them."""
    groups = _parse(lines)
    if groups is None:
        return None
    files = {g.file for g in groups if g.file is not None}
    hits = sum(sep == ":" for g in groups for _, sep, _ in g.rows)
    if hits < 2 or len(files) * 2 > hits + 1:
        return None  # one hit per file: grouping saves nothing
    summary = f"{hits} hits in {len(files)} file{'s' if len(files) > 1 else ''}"
    context = any(sep == "-" for g in groups for _, sep, _ in g.rows)
    numbered = any(n is not None for g in groups for n, _, _ in g.rows)
    numbers = "hit line numbers only" if context else "line numbers only" if numbered else "hits counted"
    match = _match_words(groups)
    levels: list[tuple[str, tuple[str, ...], bool]] = []
    for width in _WIDTHS:
        body, _ = _body(groups, width, match)
        note = f" · texts cut to {width} characters" if levels else ""
        if not levels or body != levels[-1][1]:
            levels.append((summary + note, body, width < _WIDE))
    for share in _SHARES:
        body, shown = _body(groups, _PART_WIDTH, match, int(hits * share))
        if shown and body != levels[-1][1]:
            note = f" · texts of the first {shown} hits cut to {_PART_WIDTH} characters, then {numbers}"
            levels.append((summary + note, body, True))
    body, _ = _body(groups, 0, None, 0)
    form = Parsed("search", summary + f" · texts folded: {numbers}", body, lossy=True, last_resort=True)
    for note, body, lossy in reversed(levels):
        form = Parsed("search", note, body, form, lossy=lossy)
    return form
