"""Listings read as listings: ``ls -l``/``-la``/``-R``, ``find -ls``, ``tar -tv``, ``du`` and bare paths.

A listing row is parsed into its name and the few facts worth keeping (kind, size, an unusual mode,
an unusual owner, a link's target); the date, inode, block and link-count columns are dropped. Two
forms come out of it (docs/tool-output.md, "Listings, version control and search"):

* :func:`compact_listing`: every name, grouped by directory, one row per entry (``name 4.1K``,
  ``dir/``, ``link -> target``), the owner shared by most rows said once;
* :class:`ListingTally`: a big listing summarised as a listing, in bounded memory: rows per kind,
  per directory and per extension, the first and the last rows, and every line that is not a row
  (``find: '/root': Permission denied``), which is where a listing's failures are.

A file name is a name whatever words it holds (``libgpg-error0``, ``Fail.pm``): nothing here ever
calls a row an error.
"""

from __future__ import annotations

import re
from collections import Counter, deque
from collections.abc import Iterable
from itertools import compress
from operator import itemgetter, methodcaller, not_

from summarizer.core.lazyre import lazy
from summarizer.core.records import record

__all__ = ["ListingTally", "Row", "compact_listing", "parse_row"]

_DATE = (
    r"(?:[A-Z][a-z]{2}\s+\d{1,2}\s+(?:\d{1,2}:\d{2}|\d{4})"  # ls, find -ls: "Dec  2 01:10", "Jun 24  2025"
    r"|\d{4}-\d\d-\d\d(?:\s+\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:\s+[+-]\d{4})?)?)"  # tar, ls --full-time
)
# ls -l and find -ls (inode and blocks first): mode, links, owner, group, size, date, name.
_LONG = lazy(
    r"^\s*(?:\d+\s+\d+\s+)?(?P<kind>[-dlcbpsDL?])(?P<perm>[rwxsStTl-]{9})[.+@]?\s+\d+\s+"
    r"(?P<owner>\S+)\s+(?:(?P<group>\S+)\s+)?(?P<size>\d+(?:,\s*\d+)?|[\d.,]+[KMGTPk]?)\s+"
    + _DATE
    + r"\s(?P<name>.+)$"
)
# tar -tv: mode, owner/group, size, date, name.
_TAR = lazy(
    r"^(?P<kind>[-dlhcbp])(?P<perm>[rwxsStT-]{9})\s+(?P<owner>\S+/\S+)\s+(?P<size>\d+(?:,\d+)?)\s+"
    + _DATE
    + r"\s(?P<name>.+)$"
)
# du: size, a tab, the path.
_DU = lazy(r"^(?P<size>\d+(?:[.,]\d+)?[KMGTPk]?)\t(?P<name>.+)$")
# A bare path or name (find, ls -1, git ls-files, grep -l): no tab, no colon (a message, a hit).
_BARE = lazy(r"^(?!\s)(?P<name>[^\s:\t][^:\t]{0,4095})$")
# ls -R: "dir:" above the entries of dir; "total N" above the rows of ls -l.
_SECTION = lazy(r"^(?P<dir>\S(?:.*\S)?):$")
_TOTAL = lazy(r"^total \d+(?:[.,]\d+)?[KMGTPk]?$")
# The extension, past a version tail: libz.so.1.2.13 is a .so, app.log.1 a .log.
_EXT = lazy(r"(\.[A-Za-z][A-Za-z0-9_+-]{0,9})(?:\.\d[\w.-]*)?$")
_KIND_WORD = {"-": "files", "d": "dirs", "l": "links", "?": "entries"}
# A whole chunk of rows at once, in C: (kind, name) of every ls -l / find -ls row; every bare path.
_LONG_ROWS = lazy(
    r"(?m)^[ \t]*(?:\d+[ \t]+\d+[ \t]+)?([-dlcbpsDL?])[rwxsStTl-]{9}[.+@]?[ \t]+\d+[ \t]+"
    r"\S+[ \t]+(?:\S+[ \t]+)?(?:\d+(?:,[ \t]*\d+)?|[\d.,]+[KMGTPk]?)[ \t]+"
    + _DATE.replace(r"\s", "[ \t]")
    + r" ([^\n]*)$"
)
_BARE_ROWS = lazy(r"(?m)^([^\s:][^:\t\n]*)$")
_RPARTITION_SLASH = methodcaller("rpartition", "/")
_RPARTITION_DOT = methodcaller("rpartition", ".")
_NOT = not_


@record(frozen=True)
class Row:
    """One listing row: what is kept of it."""

    name: str
    kind: str = "?"
    size: str | None = None
    mode: str | None = None
    owner: str | None = None
    target: str | None = None

    @property
    def directory(self) -> str:
        """The directory part of the name, with its slash ("" for a bare name)."""
        cut = self.name.rstrip("/").rfind("/")
        return self.name[: cut + 1] if cut >= 0 else ""

    @property
    def base(self) -> str:
        """The name without its directory."""
        return self.name[len(self.directory) :]

    @property
    def extension(self) -> str:
        """The extension (``.py``), ``/`` for a directory, ``""`` for none."""
        if self.kind == "d":
            return "/"
        found = _EXT.search(self.base)
        return found.group(1) if found and found.start() > 0 else ""


def _split_link(name: str, kind: str) -> tuple[str, str | None]:
    if kind in ("l", "h"):
        for arrow in (" -> ", " link to "):
            if arrow in name:
                left, right = name.split(arrow, 1)
                return left, right
    return name, None


def parse_row(line: str) -> Row | None:
    """The listing row ``line`` is, or None (a bare name is tried last: see :func:`parse_bare`)."""
    found = _LONG.match(line) or _TAR.match(line)
    if found is not None:
        kind = found.group("kind")
        name, target = _split_link(found.group("name"), kind)
        groups = found.groupdict()
        owner = groups["owner"] if not groups.get("group") else f"{groups['owner']}:{groups['group']}"
        return Row(name, kind, found.group("size"), found.group("perm"), owner.replace("/", ":"), target)
    du = _DU.match(line)
    if du is not None:
        return Row(du.group("name"), "?", du.group("size"))
    return None


def parse_bare(line: str) -> Row | None:
    """A bare path or name (``find``, ``ls``); directories are known only by a trailing slash."""
    found = _BARE.match(line)
    if found is None:
        return None
    name = found.group("name")
    return Row(name, "d" if name.endswith("/") and len(name) > 1 else "?")


def human(size: str | None) -> str:
    """A byte count as ls -h would print it (``47.1K``); other sizes unchanged."""
    if size is None or not size.isdigit():
        return size or ""
    value = float(size)
    for unit in ("B", "K", "M", "G", "T"):
        if value < 1024 or unit == "T":
            return f"{int(value)}B" if unit == "B" else f"{value:.1f}{unit}"
        value /= 1024
    return size  # pragma: no cover - the loop always returns


def _quoted(name: str) -> str:
    return f"'{name}'" if " " in name or not name else name


def _entry(row: Row, owner: str | None, modes: dict[str, str], *, show_size: bool) -> str:
    name = _quoted(row.base if row.base else row.name)
    if row.kind == "d" and not name.endswith("/"):
        name += "/"
    parts = [name]
    if row.target is not None:
        parts.append(f"-> {row.target}")
    elif show_size and row.kind != "d" and row.size is not None:
        # Bytes (ls, find -ls, tar) read better as ls -h does; du counts blocks: as printed.
        parts.append(human(row.size) if row.mode is not None else row.size)
    if row.mode is not None and row.mode != modes.get(row.kind, row.mode):
        parts.append(row.kind + row.mode)
    if row.owner is not None and row.owner != owner:
        parts.append(row.owner)
    return " ".join(parts)


def compact_listing(rows: list[Row], sections: dict[int, str]) -> tuple[str, list[str]]:
    """(summary, body lines): every entry, grouped by directory, the usual owner said once.

    ``sections`` maps a row's index to the ``ls -R`` directory it is listed under."""
    # "." and ".." are not entries of the directory (os.listdir leaves them out too).
    rows = [r for r in rows if r.name not in (".", "..")]
    owners = Counter(r.owner for r in rows if r.owner is not None)
    # A mode is shown where it differs from the most common one of its kind (an executable).
    modes = {
        kind: Counter(r.mode for r in rows if r.kind == kind and r.mode is not None).most_common(1)[0][0]
        for kind in {r.kind for r in rows if r.mode is not None}
    }
    owner = owners.most_common(1)[0][0] if owners else None
    kinds = Counter(r.kind for r in rows)
    with_meta = any(r.size is not None for r in rows)
    groups: dict[str, list[Row]] = {}
    current = ""
    for index, row in enumerate(rows):
        current = sections.get(index, current)
        groups.setdefault(current + row.directory if current else row.directory, []).append(row)
    body: list[str] = []
    for directory, members in groups.items():
        if with_meta:
            if directory:
                body.append(f"@ {directory}")
            body.extend(_entry(r, owner, modes, show_size=True) for r in members)
        else:
            # Bare names: a directory's entries on one line, as `ls` shows them.
            names = " ".join(_entry(r, None, modes, show_size=False) for r in members)
            body.append(f"{directory} {names}" if directory else names)
    counted = [f"{kinds[k]} {_KIND_WORD[k]}" for k in ("d", "-", "l") if kinds[k]]
    summary = f"{len(rows)} entries" + (f" ({', '.join(counted)})" if counted and with_meta else "")
    if len(groups) > 1:
        summary += f" in {len(groups)} directories"
    if owner is not None:
        summary += f" · owner {owner}"
    return summary, body


class ListingTally:
    """A listing summarised in bounded memory: kinds, directories, extensions, first and last rows."""

    def __init__(
        self, keep_rows: int = 5, max_dirs: int = 20_000, max_other: int = 400, name_chars: int = 0
    ) -> None:
        self.keep_rows, self.max_dirs, self.max_other = keep_rows, max_dirs, max_other
        # The first names in listing order, (directory, name, kind), up to what a summary can show.
        self.name_chars = name_chars
        self.names: list[tuple[str, str, str]] = []
        self.names_used = 0
        self.rows = 0
        self.lines = 0
        self.kinds: Counter[str] = Counter()
        self.dirs: Counter[str] = Counter()
        self.exts: Counter[str] = Counter()
        self.first: list[tuple[int, str]] = []
        self.last: deque[tuple[int, str]] = deque(maxlen=keep_rows)
        self.other: list[tuple[int, str]] = []
        self.other_more = 0
        self.dirs_more = 0
        self.skipped = 0
        self._section = ""

    def add_chunk(self, n0: int, text: str | None, lines_in: int, kept: dict[int, str]) -> None:
        """Count the lines of ``text`` (line ``n0 + 1`` first): a chunk of rows of one format is
        counted in C; anything else (a line that is not a row, ls -R) line by line. ``text`` None:
        a chunk of ``lines_in`` lines left out of the sample. ``kept`` lines (the engine's
        coordinates, already listed) are not counted."""
        if text is None:
            self.skipped += lines_in
            self.lines = n0 + lines_in
            return
        lines = text.split("\n")
        if any(n0 < k <= n0 + len(lines) for k in kept) or not self._fast(n0, lines, text):
            self._by_runs(n0, lines, text, kept)
        self.lines = n0 + len(lines)

    def _by_runs(self, n0: int, lines: list[str], text: str, kept: dict[int, str]) -> None:
        """Rows of one format still counted in C, a run at a time; the lines between the runs
        (kept lines, ls -R headings, "total N", lines that are not rows) one by one."""
        found = {m.start(): m for m in _LONG_ROWS.finditer(text)}
        long = bool(found)
        if not long:
            found = {m.start(): m for m in _BARE_ROWS.finditer(text)}
        run: list[int] = []
        matches: list[re.Match[str]] = []
        at = 0
        for index, line in enumerate(lines):
            match = found.get(at)
            at += len(line) + 1
            n = n0 + index + 1
            if match is not None and n not in kept:
                run.append(index)
                matches.append(match)
                continue
            self._flush(n0, lines, run, matches, long)
            run, matches = [], []
            # A kept row (a failure's context) is shown with the kept lines and still counted.
            if n not in kept or parse_row(line) is not None or parse_bare(line) is not None:
                self.add(n, line)
        self._flush(n0, lines, run, matches, long)

    def _flush(
        self, n0: int, lines: list[str], run: list[int], matches: list[re.Match[str]], long: bool
    ) -> None:
        if not run:
            return
        kinds = [m.group(1) for m in matches] if long else ["?"] * len(matches)
        names = [m.group(2) if long else m.group(1) for m in matches]
        self._count(n0 + run[0], lines[run[0] : run[-1] + 1], kinds, names)

    def _fast(self, n0: int, lines: list[str], text: str) -> bool:
        long = _LONG_ROWS.findall(text)
        if len(long) == len(lines):
            kinds = list(map(itemgetter(0), long))
            names = list(map(itemgetter(1), long))
        else:
            names = _BARE_ROWS.findall(text)
            if len(names) != len(lines) or not text:
                return False
            kinds = ["?"] * len(names)
        self._count(n0, lines, kinds, names)
        return True

    def _count(self, n0: int, lines: list[str], kinds: list[str], names: list[str]) -> None:
        """Count ``lines`` (line ``n0 + 1`` first), all rows: their kinds and names given."""
        for index in [i for i, kind in enumerate(kinds) if kind == "l"]:
            names[index] = names[index].split(" -> ", 1)[0]
        self.kinds.update(kinds)
        parts = list(map(_RPARTITION_SLASH, names))
        if self.names_used < self.name_chars:
            self._keep_names(parts, kinds)
        self._count_dirs(map(itemgetter(0), parts))
        self._count_exts(kinds, list(map(itemgetter(2), parts)))
        self.rows += len(lines)
        self.lines = n0 + len(lines)
        for offset, line in enumerate(lines[: max(self.keep_rows - len(self.first), 0)], 1):
            self.first.append((n0 + offset, line))
        start = max(len(self.first) - n0, len(lines) - self.keep_rows, 0)
        self.last.extend((n0 + i + 1, lines[i]) for i in range(start, len(lines)))

    def _keep_names(self, parts: list[tuple[str, str, str]], kinds: list[str]) -> None:
        """Keep the names of a chunk's rows (``rpartition("/")`` of each) while they fit."""
        section = self._section
        for (folder, slash, base), kind in zip(parts, kinds, strict=True):
            if self.names_used >= self.name_chars:
                return
            if base in (".", "..") or not base:
                continue
            folder = (section + folder + slash if folder or slash else section).rstrip("/")
            self.names.append((folder, base, kind))
            self.names_used += len(base) + 1

    def _count_dirs(self, folders: Iterable[str]) -> None:
        """Rows per directory (``rpartition``'s head: no trailing slash), new ones up to the cap."""
        if self._section:
            section = self._section
            folders = ((section + f if f else section).rstrip("/") for f in folders)
        if len(self.dirs) < self.max_dirs:
            self.dirs.update(folders)
            return
        counted = Counter(folders)
        known = {d: c for d, c in counted.items() if d in self.dirs}
        self.dirs.update(known)
        self.dirs_more += sum(counted.values()) - sum(known.values())

    def _count_exts(self, kinds: list[str], bases: list[str]) -> None:
        """Rows per extension: the base's last dot part, looked at closer only when it is a version."""
        split = list(map(_RPARTITION_DOT, bases))
        dotted = compress(
            zip(kinds, map(bool, map(itemgetter(0), split)), map(itemgetter(2), split), strict=True),
            map(itemgetter(1), split),
        )
        counted = Counter(dotted)
        plain = Counter(compress(kinds, map(_NOT, map(itemgetter(1), split))))
        for kind, count in plain.items():
            self.exts["/" if kind == "d" else ""] += count
        versions = {tail for (_, stem, tail) in counted if tail[:1].isdigit()}
        if versions:
            for kind, base in zip(kinds, bases, strict=True):
                if kind != "d" and base.rpartition(".")[2] in versions:
                    self.exts[Row(base, kind).extension] += 1
        for (kind, stem, tail), count in counted.items():
            if kind == "d":
                self.exts["/"] += count
            elif not stem:
                self.exts[""] += count  # a dot file: .bashrc
            elif not tail[:1].isdigit():
                self.exts["." + tail] += count

    def add(self, n: int, line: str, *, kept: bool = False) -> None:
        """Count line ``n`` (1-based) of the listing; a ``kept`` line (one the engine kept as a
        coordinate, such as an eslint file heading above its errors) is shown whatever it is."""
        self.lines = n
        if not line.strip() or _TOTAL.match(line):
            return
        row = None if kept else parse_row(line)
        if row is None and not kept:
            section = _SECTION.match(line)
            if section is not None:
                self._section = section.group("dir").rstrip("/") + "/"
                return
            row = parse_bare(line)
        if kept or row is None:
            if len(self.other) < self.max_other:
                self.other.append((n, line))
            else:
                self.other_more += 1
            return
        self.rows += 1
        self.kinds[row.kind] += 1
        directory = (self._section + row.directory if self._section else row.directory).rstrip("/")
        if directory in self.dirs or len(self.dirs) < self.max_dirs:
            self.dirs[directory] += 1
        else:
            self.dirs_more += 1
        self.exts[row.extension] += 1
        if self.names_used < self.name_chars:
            self._keep_names([row.name.rstrip("/").rpartition("/")], [row.kind])
        if len(self.first) < self.keep_rows:
            self.first.append((n, line))
        else:
            self.last.append((n, line))
