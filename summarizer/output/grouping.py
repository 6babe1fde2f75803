"""Budget rules for what is not a failure, and the compact forms that keep every coordinate.

* Located warnings and notes (``a.c:12:5: warning: ... [-Wunused]``) are grouped by (file, code)
  with their source line numbers listed compactly (``a.c [-Wunused] ×3: 12, 45, 78``), so one
  error among thousands of warnings is not buried under them.
* Warnings that differ only in measurements (``... for 30 seconds``, ``... for 31 seconds``) merge
  into one line: the first occurrence in full, the count, the lines and the range of each
  varying number. Errors never merge: each distinct error stays a line of its own.
* Dense runs of coordinates that start with the same file are *factored*: a ``@ <file>`` heading,
  then ``N: …rest`` lines meaning ``N: <file>rest``; a row that is the line right after the
  previous row drops its number (``…rest`` alone). :func:`expand` undoes it exactly, so a reader
  (or the recall check) sees every coordinate whole.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import pairwise

from summarizer.core.lazyre import lazy
from summarizer.core.records import field, record
from summarizer.output.kept import Kept

__all__ = [
    "FACTOR_MARK",
    "INCLUDE_CODE",
    "WarningGroup",
    "expand",
    "factor",
    "group_warnings",
    "merge_numeric",
    "merge_records",
    "render_groups",
    "source_file",
]

FACTOR_MARK = "…"
# The group of a compiler's include trail: folded with the warnings, counted as none of them.
INCLUDE_CODE = "included from"
_FACTOR_RUN = 3
_FILE = lazy(r"^(?P<file>.*?)(?::\[?\d|\(\d)")
_CODE = lazy(r"\[(-W[\w=+-]+|[a-z][\w-]*)\]\s*$|\b(TS\d{4,5})\b|\s{2}([@\w/-]+)\s*$")
_SOURCE_LINE = lazy(r"[:(\[](\d+)")
# A measurement: a standalone number of at most 5 digits (seconds, counts, sizes, clock fields).
# Longer numbers, numbers glued to letters (blk_123, job_7) and dotted quads are identities:
# lines that differ in those are different events and never merge.
_NUM = lazy(r"(?<![\w.])\d{1,5}(?:\.\d+)?(?![\w.])")
# Warnings and refused requests are not failures of the run: their repeats merge. Errors never do.
_MERGED_KINDS = ("warning", "http_4xx")
# A context row of the body ("12| text"): kept near a failure, never one.
_CONTEXT_ROW = lazy(r"^\d+\| (?P<text>.*)$")
_HEADING = lazy(r"^@ (?P<file>.+?)(?: \(\d+ lines\))?$")
_ROW = lazy(r"^(?:(?P<n>\d+): )?" + FACTOR_MARK + "(?P<rest>.*)$")
# A row's location after its file ("(95,8)", ":12:5", ":12") and its message; several locations
# that share the message are listed before it, space-separated.
_LOC = r"(?:\(\d+,\d+\)|:\d+(?::\d+)?)"
_LOCATED = lazy(rf"^(?P<loc>{_LOC})(?P<msg>: .+)$")
_SHARED = lazy(rf"^(?P<locs>{_LOC}(?: {_LOC})+)(?P<msg>: .+)$")
# A search form's row under its "@ file": "N: text" (a hit) or "N- text" (grep -C context).
# A search text cut at its start opens with the factoring mark too, but then a word follows it;
# a factored row's rest opens with its location (…:12:5, …(3,1)).
_SEARCH_ROW = lazy(r"^(?P<n>\d+)(?P<sep>[:-])(?: (?P<text>(?!" + FACTOR_MARK + r"(?!\w)).*))?$")
_SEARCH_ANY = lazy(r"^(?P<n>\d+)(?P<sep>[:-])(?: (?P<text>.*))?$")
# A search form's folded file: its hit line numbers on one row ("12 40 41").
_SEARCH_NUMBERS = lazy(r"^\d+(?: \d+)*$")


def source_file(location: str | None) -> str | None:
    """The file part of a ``file:line[:col]`` / ``file(line,col)`` location."""
    if not location:
        return None
    match = _FILE.match(location)
    return match.group("file") if match else None


@record
class WarningGroup:
    """Located warnings or notes of one (file, code)."""

    file: str
    code: str
    first: Kept
    source_lines: list[str] = field(default_factory=list)
    output_lines: list[int] = field(default_factory=list)
    count: int = 0

    @property
    def diagnostics(self) -> int:
        """Warnings and notes in the group: an include trail ("In file included from a.c:3") is none."""
        return 0 if self.code == INCLUDE_CODE else self.count

    def render(self, max_numbers: int = 40, *, example: bool = True) -> str:
        """``file [code] ×N: 12, 45, 78 (output lines a…b) — e.g. <first message>``."""
        numbers = list(dict.fromkeys(self.source_lines))
        shown = ", ".join(numbers[:max_numbers]) + (
            f", +{len(numbers) - max_numbers} more" if len(numbers) > max_numbers else ""
        )
        span = (
            f"{self.output_lines[0]}…{self.output_lines[-1]}"
            if len(self.output_lines) > 1
            else str(self.output_lines[0])
        )
        line = f"{self.file} [{self.code}] ×{self.count}: {shown} (output lines {span})"
        return f"{line} — e.g. {self.first.line}: {self.first.text[:200]}" if example else line


def render_groups(groups: Sequence[WarningGroup], budget: int, count: Callable[[str], int]) -> list[str]:
    """The warning groups at the most detailed level that fits ``budget`` tokens.

    Levels: every group with 40 line numbers and an example; an example only for a code's first
    group and 12 numbers; one line per code across files; one line in all. Warnings are not
    failures, so they give way to the budget; the restore hint has them all.
    """
    seen: set[str] = set()
    levels: list[list[str]] = [[g.render() for g in groups], []]
    for group in groups:
        levels[1].append(group.render(12, example=group.code not in seen))
        seen.add(group.code)
    by_code: dict[str, list[WarningGroup]] = {}
    for group in groups:
        by_code.setdefault(group.code, []).append(group)
    levels.append([])
    for code, members in by_code.items():
        files = list(dict.fromkeys(g.file for g in members))
        lines = sorted(n for g in members for n in g.output_lines)
        names = ", ".join(files[:6]) + (f", +{len(files) - 6} more" if len(files) > 6 else "")
        levels[2].append(
            f"[{code}] ×{sum(g.count for g in members)} in {len(files)} files ({names});"
            f" output lines {lines[0]}…{lines[-1]}"
            f" — e.g. {members[0].first.line}: {members[0].first.text[:160]}"
        )
    total = sum(g.diagnostics for g in groups)
    codes = len([code for code in by_code if code != INCLUDE_CODE])
    first = min(n for g in groups for n in g.output_lines)
    last = max(n for g in groups for n in g.output_lines)
    levels.append([f"{total:,} warnings/notes in {codes} codes, output lines {first}…{last}; restore"])
    for level in levels:
        if count("\n".join(level)) <= budget:
            return level
    return levels[-1]


def _code(text: str) -> str:
    match = _CODE.search(text)
    if match is None:
        return "note" if " note:" in text else "warning"
    return next(g for g in match.groups() if g)


def group_warnings(coords: Sequence[Kept], codes: Mapping[int, str] | None = None) -> list[WarningGroup]:
    """Group located warnings and notes by (file, code), in order of first appearance; ``codes``
    gives the code of a row whose code is printed elsewhere in its record (by output line)."""
    groups: dict[tuple[str, str], WarningGroup] = {}
    codes = codes or {}
    for coord in coords:
        file = source_file(coord.location) or "?"
        code = codes.get(coord.line) or _code(coord.text)
        key = (file, INCLUDE_CODE if coord.kind == "include" else code)
        group = groups.get(key)
        if group is None:
            group = groups[key] = WarningGroup(file, key[1], coord)
        group.count += coord.count
        group.output_lines.append(coord.line)
        loc = coord.location or ""
        number = _SOURCE_LINE.search(loc[len(file) :])
        if number:
            group.source_lines.append(number.group(1))
    return list(groups.values())


def _template(text: str) -> str:
    return _NUM.sub("#", text)


def merge_numeric(coords: Sequence[Kept], *, min_count: int = 6) -> tuple[list[Kept], dict[int, str]]:
    """Fold warnings that differ only in numbers, when a shape repeats ``min_count`` times or more.

    Returns the coordinates to show and, per kept first occurrence (by line), the note to append:
    ``[×326 like this, lines 12…1980; varying: 30…355]``.
    """
    shapes: dict[str, list[Kept]] = {}
    for coord in coords:
        if coord.kind in _MERGED_KINDS:
            shapes.setdefault(_template(coord.text[:400]), []).append(coord)
    notes: dict[int, str] = {}
    dropped: set[int] = set()
    for members in shapes.values():
        total = sum(c.count for c in members)
        if len(members) < min_count:
            continue
        columns = [_NUM.findall(c.text[:400]) for c in members]
        ranges = []
        for values in zip(*columns, strict=False):
            if len(set(values)) > 1:
                nums = [float(v) for v in values]
                lo, hi = min(nums), max(nums)
                ranges.append(f"{lo:g}…{hi:g}")
        last = max(c.last_line or c.line for c in members)
        varying = f"; varying: {' | '.join(ranges[:6])}" if ranges else ""
        notes[members[0].line] = f"  [×{total:,} like this, lines {members[0].line}…{last}{varying}]"
        dropped.update(c.line for c in members[1:])
    return [c for c in coords if c.line not in dropped], notes


# A record's shape: digits and lower-case hex folded (ids, hashes, numbers), runs of them one mark.
_ID_FOLD = str.maketrans("0123456789abcdef", "################")
_ID_RUNS = lazy(r"#+")
_LOCATION_IN_TEXT = lazy(r"[\w.~+@/\\-]*\w\.[A-Za-z]\w{0,7}:\d+(?::\d+)?")


# A request or trace id: hex with letters and digits (a hash, a UUID's group), 8 or more long.
_REQUEST_ID = lazy(r"(?<![\w-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{8,}(?![\w])")


def _by_request(members: Sequence[Kept]) -> bool:
    """True when every record carries its own request id: the same failure, met by many requests.

    Records that differ only in a name or a number (``volume vol7``, ``state 6``) are different
    failures, each shown whole.
    """
    ids = [tuple(_REQUEST_ID.findall(c.text[:400])) for c in members]
    return all(ids) and len(set(ids)) == len(ids)


def _record_shape(text: str) -> str:
    return _ID_RUNS.sub("#", text[:400].translate(_ID_FOLD))


def _lines_list(lines: list[int], every_line: bool = True) -> str:
    steps = {b - a for a, b in pairwise(lines)}
    if len(lines) > 2 and len(steps) == 1:
        return f"lines {lines[0]}…{lines[-1]} (every {steps.pop()})"
    if every_line or len(lines) <= _LINES_IN_FULL:
        return "lines " + ", ".join(map(str, lines))
    return f"lines {lines[0]}…{lines[-1]} (each one: restore)"


# A fold note past the limit still names up to this many lines one by one.
_LINES_IN_FULL = 3
# Failing records a log repeats per request: error records, and access records with a 4xx/5xx status.
_RECORD_KINDS = frozenset(("error", "http_4xx", "http_5xx"))


# An id inside a record: a standalone number (a connection ``*12``, a pid ``2790#2790``, a request's
# ``/orders/288``), an IPv4 address with its port, a hex request id. Numbers glued to letters
# (``missing9.css``, ``vol7``) name different things and stay part of the message.
_RECORD_ID = lazy(
    r"(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?(?![\w.])"
    r"|(?<![\w-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{8,}(?![\w])"
    r"|(?<![\w.])\d{1,5}(?:\.\d+)?(?![\w.])"
)


def _message_of(coord: Kept) -> str:
    """A record's message: its text with its time and every id masked (see ``_RECORD_ID``)."""
    text = coord.text[:400]
    if coord.timestamp:
        text = text.replace(coord.timestamp, "<time>", 1)
    return _RECORD_ID.sub("#", text)


def _fold_note(members: Sequence[Kept], *, every_line: bool = True) -> str:
    """``[×N like this, lines ...; varying: a…b; at: file:l:c ...]`` for records folded into their first.

    ``every_line=False``: lines at an irregular step read as their range only (restore has each)."""
    columns = [_NUM.findall(c.text[:400].replace(c.timestamp or "\0", "", 1)) for c in members]
    ranges = []
    for values in zip(*columns, strict=False):
        if len(set(values)) > 1:
            nums = [float(v) for v in values]
            ranges.append(f"{min(nums):g}…{max(nums):g}")
    located: dict[str, list[str]] = {}
    for coord in members:
        for found in _LOCATION_IN_TEXT.findall(coord.text):
            file, _, place = found.partition(":")
            if place not in located.setdefault(file, []):
                located[file].append(place)
    total = sum(c.count for c in members)
    varying = f"; varying: {' | '.join(ranges[:6])}" if ranges else ""
    places = "; at: " + "; ".join(f"{f}:{' '.join(p)}" for f, p in located.items()) if located else ""
    # A record met twice word for word was one entry: its last line is known too.
    lines = _lines_list(sorted({n for c in members for n in (c.line, c.last_line or c.line)}), every_line)
    return f"  [×{total:,} like this, {lines}{varying}{places}]"


def merge_records(
    coords: Sequence[Kept], limit: int, *, min_count: int = 6
) -> tuple[list[Kept], dict[int, str]]:
    """Fold error *records* that are one failure met again into their first, when the error
    records alone hold more than ``limit`` characters.

    Two records are the same failure when they differ only in ids (their time, a connection or
    process number, an address, a request id: ``_message_of``), or when every record of one
    template carries its own request id (``_by_request``, at least ``min_count`` of them). A log that
    repeats one failure per request would otherwise print every record whole, far past the target.
    The first stays whole; its note gives the count, every record's line (each one can be restored;
    if the notes still overflow the limit, the longest lists read ``lines 8…301008``, a range to
    restore, unless the lines come at a regular step), the range of each varying number and every
    distinct location the records name (``orbit.js:266:30 240:54``), so no failure's coordinate is
    lost. Records that differ in anything else (``missing9.css``, ``vol7``) stay lines of their
    own; records that fit are all shown whole, and tool output (lines without a timestamp) is never
    folded: there each error line is its own failure.
    """
    records = [c for c in coords if c.kind in _RECORD_KINDS and c.timestamp is not None]
    size = sum(len(c.text) for c in records)
    if size <= limit:
        return list(coords), {}
    groups = _record_groups(records, min_count)
    # Once the records are past the limit, every failure met more than once folds (not only the
    # biggest): the same failure reads the same wherever it is in the log.
    notes = {members[0].line: _fold_note(members) for members in groups}
    dropped = {c.line for members in groups for c in members[1:]}
    listed = [c for c in coords if c.line not in dropped]
    # Still past the limit: the longest line lists give way first, to their range (restore has each
    # line); the records' messages, counts and locations stay.
    shown = sum(len(c.text) for c in listed if c.kind in _RECORD_KINDS) + sum(map(len, notes.values()))
    for members in sorted(groups, key=len, reverse=True):
        if shown <= limit:
            break
        short = _fold_note(members, every_line=False)
        shown -= len(notes[members[0].line]) - len(short)
        notes[members[0].line] = short
    return listed, notes


def _record_groups(records: Sequence[Kept], min_count: int) -> list[list[Kept]]:
    """The records that fold together: those of one message (ids masked); all the records of one
    shape when each carries its own request id (the messages then differ in ids only: a route's
    ``/orbit/486470`` and ``/orbit/37384`` are one failure)."""
    messages: dict[str, list[Kept]] = {}
    for coord in records:
        messages.setdefault(_message_of(coord), []).append(coord)
    shapes: dict[str, list[list[Kept]]] = {}
    for members in messages.values():
        shapes.setdefault(_record_shape(members[0].text), []).append(members)
    groups: list[list[Kept]] = []
    for kinds in shapes.values():
        members = sorted((c for m in kinds for c in m), key=lambda c: c.line)
        if len(kinds) > 1 and len(members) >= min_count and _by_request(members):
            groups.append(members)
        else:
            groups += [m for m in kinds if len(m) > 1]
    return sorted(groups, key=lambda m: m[0].line)


def factor(rows: list[tuple[float, str, str | None]]) -> list[str]:
    """Render body rows ``(order, "N: text", file)``, factoring runs of one file into a group.

    A run of at least three coordinate rows whose text starts with the same file (context rows
    between them, a message's continuation, stay in the run as they are) gets one ``@ file``
    heading and ``N: …rest`` rows; the tool's own heading right above (a context row that is the
    file alone) becomes that heading. Anything else is rendered as it is. Rows on consecutive lines
    with the same message after their location share one row, the message whole
    (``…(95,8) (96,8) (97,8): error TS2339: Property 'set' does not exist ...``).
    """
    out: list[str] = []
    index = 0
    while index < len(rows):
        file = rows[index][2]
        end = _run_end(rows, index) if file else index
        heading = _CONTEXT_ROW.match(out[-1]) if out and file else None
        # Under the tool's own heading, the heading becomes ours: even one row is shorter.
        titled = heading is not None and heading.group("text").strip() == file
        if file and sum(row[2] == file for row in rows[index:end]) >= (1 if titled else _FACTOR_RUN):
            if titled:
                out.pop()
            out.append(f"@ {file}")
            out.extend(_factored(rows[index:end], file))
            index = end
            continue
        out.append(rows[index][1])
        index += 1
    return out


def _run_end(rows: list[tuple[float, str, str | None]], index: int) -> int:
    """The end of the run of ``rows[index]``'s file: its rows and the context rows between them."""
    file, end, probe = rows[index][2], index + 1, index + 1
    while probe < len(rows):
        if rows[probe][2] == file:
            end = probe = probe + 1
        elif rows[probe][2] is None and _CONTEXT_ROW.match(rows[probe][1]):
            probe += 1
        else:
            break
    return end


def _factored(rows: list[tuple[float, str, str | None]], file: str) -> list[str]:
    out: list[str] = []
    previous = -1
    shared: tuple[int, list[str], str] | None = None  # first line number, locations, message
    for _, text, own in rows:
        if own != file:
            # A context row inside the run: as it is, and it ends any shared row.
            if shared:
                out[-1] = out[-1].replace(FACTOR_MARK, FACTOR_MARK + " ".join(shared[1]), 1)
            out.append(text)
            shared, previous = None, -1
            continue
        number, rest = text.split(": ", 1)
        line, rest = int(number), rest.lstrip()[len(file) :]
        located = _LOCATED.match(rest)
        if shared and located and line == previous + 1 and located.group("msg") == shared[2]:
            shared[1].append(located.group("loc"))
            previous = line
            continue
        if shared:
            out[-1] = out[-1].replace(FACTOR_MARK, FACTOR_MARK + " ".join(shared[1]), 1)
        shown = "" if line == previous + 1 else f"{line}: "
        shared = (line, [located.group("loc")], located.group("msg")) if located else None
        out.append(f"{shown}{FACTOR_MARK}{located.group('msg') if located else rest}")
        previous = line
    if shared:
        out[-1] = out[-1].replace(FACTOR_MARK, FACTOR_MARK + " ".join(shared[1]), 1)
    return out


def expand(text: str) -> str:
    """Undo :func:`factor`: every ``[N: ]…rest`` row under ``@ file`` becomes ``N: <file>rest``, and a
    row of several locations becomes one row per location (on consecutive lines).

    A search form's group (:mod:`summarizer.output.forms_search`: ``@ file`` then ``N: text`` hits
    and ``N- text`` context rows, or a row of line numbers) becomes grep's ``file:N:text`` (``file:N:``
    for each folded line number)."""
    out: list[str] = []
    current: str | None = None
    search = False
    number = 0
    lines = text.split("\n")
    for index, line in enumerate(lines):
        heading = _HEADING.match(line)
        if heading is not None:
            current = heading.group("file")
            following = lines[index + 1] if index + 1 < len(lines) else ""
            search = bool(_SEARCH_ROW.match(following) or _SEARCH_NUMBERS.match(following))
            continue
        row = _ROW.match(line)
        if row is not None and current is not None and not search:
            number = int(row.group("n")) if row.group("n") else number + 1
            shared = _SHARED.match(row.group("rest"))
            if shared is None:
                out.append(f"{number}: {current}{row.group('rest')}")
                continue
            locations, message = shared.group("locs").split(" "), shared.group("msg")
            out.extend(f"{number + k}: {current}{loc}{message}" for k, loc in enumerate(locations))
            number += len(locations) - 1
            continue
        hit = _SEARCH_ANY.match(line) if search and current is not None else None
        if hit is not None:
            sep = hit.group("sep")
            out.append(f"{current}{sep}{hit.group('n')}{sep}{hit.group('text') or ''}")
            continue
        if search and current is not None and _SEARCH_NUMBERS.match(line):
            out.extend(f"{current}:{n}:" for n in line.split(" "))
            continue
        if not line[:1].isdigit():
            current = None if not line.startswith("@") else current
        out.append(line)
    return "\n".join(out)
