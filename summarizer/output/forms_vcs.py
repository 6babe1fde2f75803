"""Version-control output in compact form: every path, hash, status and subject, grouped.

* ``git status`` (long form): the paths grouped by section and status (``modified: a b c``), the
  branch lines kept, the ``(use "git ...")`` hints dropped; ``git status -s``/``--porcelain``: the
  paths grouped by their two status letters (a space shown as ``.``).
* ``git log`` (full form, with or without ``--stat``): one row per commit, ``hash date author
  subject``, the body counted, a ``--stat`` folded to its counts (``3 files +10 -2``); a single
  commit (``git show --stat``) keeps its file rows.
* ``git diff --stat``: ``path N`` rows (the bar of ``+``/``-`` dropped) and the totals.
* ``git log --oneline`` (with or without ``--graph``): ``hash subject`` rows, the graph's columns
  and its art-only rows (``|\\``, ``|/``) dropped; past the budget the subjects are cut, then the
  oldest commits keep their hash alone, ten to a row: every hash stays.

A parser returns None unless every line is understood; nothing here calls a line an error, so a
commit message that says "error" stays a subject.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from summarizer.core.lazyre import lazy
from summarizer.core.records import field, record

__all__ = ["Parsed", "log_form", "oneline_form", "porcelain_form", "stat_form", "status_form"]

_SECTION = {
    "Changes to be committed:": "staged",
    "Changes not staged for commit:": "",
    "Untracked files:": "untracked",
    "Unmerged paths:": "unmerged",
    "Ignored files:": "ignored",
}
_HINT = lazy(
    r"^\s+\((?:use|fix|all conflicts|commit or discard)\b.*\)$"
    # Said again by the groups themselves (no "staged" group: nothing added).
    r"|^(?:no changes added to commit|nothing added to commit but untracked files present)\b"
)
_ENTRY = lazy(r"^\t(?:(?P<status>[a-z][a-z ]+?):\s+)?(?P<path>\S.*)$")
_PORCELAIN = lazy(r"^(?P<xy>[ MTADRCU?!]{2}) (?P<path>\S.*)$")
_COMMIT = lazy(r"^commit (?P<hash>[0-9a-f]{7,64})(?P<decor> \(.*\))?$")
# A --oneline row, under a --graph's columns or not: the columns end at the commit's "*".
_ONELINE = lazy(
    r"^(?P<graph>(?:[|\\/_.-] +)*\* +(?:[|\\/_.-] +)*)?(?P<hash>[0-9a-f]{7,64})(?: (?P<subject>.*))?$"
)
# A --graph row that is art only: the columns between commits, where branches fork and merge.
_GRAPH_ART = lazy(r"^[|\\/_. -]*[|\\/][|\\/_. -]*$")
_FIELD = lazy(r"^(?P<key>Author|AuthorDate|Commit|CommitDate|Date|Merge):\s+(?P<value>.*)$")
_GIT_DATE = lazy(r"^\w{3} (?P<mon>\w{3}) (?P<day>\d{1,2}) (?P<time>\d\d:\d\d):\d\d (?P<year>\d{4})")
# Past the budget a long one-line log keeps this many newest commits (a quarter at most) with their
# subjects.
_NEWEST = 100
_MONTHS = {
    m: i
    for i, m in enumerate(
        ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), 1
    )
}
_STAT_ROW = lazy(
    r"^ (?P<path>\S.*?)\s+\|\s+(?P<count>\d+)(?: [+-]*)?$|^ (?P<bin>\S.*?)\s+\|\s+(?P<what>Bin .*)$"
)
_STAT_TOTAL = lazy(
    r"^ (?P<files>\d+) files? changed"
    r"(?:, (?P<ins>\d+) insertions?\(\+\))?(?:, (?P<dels>\d+) deletions?\(-\))?$"
)


@record(frozen=True)
class Parsed:
    """A compact form: its name, a one-line summary and the body lines."""

    name: str
    summary: str
    body: tuple[str, ...]
    # A leaner variant for when this one does not fit (a long git log: hash and subject only).
    shorter: Parsed | None = None
    # Drops more than columns and hints (a search hit's text): never used under the pass-through
    # size, where the original is the alternative.
    lossy: bool = False
    # The least form that keeps every path and line number: used above the pass-through size even
    # over the budget (the engine's rendering would keep the same rows, and their texts, at more).
    last_resort: bool = False


def _quote(path: str) -> str:
    return f'"{path}"' if " " in path and not path.startswith('"') else path


def status_form(lines: list[str]) -> Parsed | None:
    """``git status`` (long form): paths grouped by section and status."""
    if not lines or not lines[0].startswith(("On branch ", "HEAD detached ", "Not currently on any branch")):
        return None
    section: str | None = None
    groups: dict[str, list[str]] = {}
    body: list[str] = []
    for line in lines:
        if not line.strip() or _HINT.match(line):
            continue
        if line in _SECTION:
            section = _SECTION[line]
            continue
        entry = _ENTRY.match(line)
        if entry is not None and section is not None:
            status = entry.group("status") or ""
            key = " ".join(w for w in (section, status) if w) or "listed"
            if key not in groups:
                groups[key] = []
                body.append(key)  # placeholder: filled below, in the order groups first appear
            path = entry.group("path")
            groups[key].append(path if status in ("renamed", "copied") else _quote(path))
            continue
        if line.startswith(("\t", "  ")):
            return None  # an indented line this parser does not know: not a status it can fold
        body.append(line)
    if not groups:
        return None
    out = [f"{k}: {' '.join(groups[k])}" if k in groups else k for k in body]
    paths = sum(len(v) for v in groups.values())
    return Parsed("git status", f"{paths} paths", tuple(out))


def porcelain_form(lines: list[str]) -> Parsed | None:
    """``git status -s`` / ``--porcelain``: paths grouped by their status letters."""
    groups: dict[str, list[str]] = {}
    head: list[str] = []
    for line in lines:
        if line.startswith("## ") and not groups:
            head.append(line[3:])
            continue
        found = _PORCELAIN.match(line)
        if found is None:
            return None
        groups.setdefault(found.group("xy").replace(" ", "."), []).append(found.group("path"))
    if not groups or sum(map(len, groups.values())) < 2:
        return None
    body = [f"branch {h}" for h in head] + [f"{xy}: {' '.join(paths)}" for xy, paths in groups.items()]
    return Parsed(
        "git status", f"{sum(map(len, groups.values()))} paths (XY status, . = unchanged)", tuple(body)
    )


@record
class _Commit:
    hash: str
    decor: str = ""
    fields: dict[str, str] = field(default_factory=dict)
    message: list[str] = field(default_factory=list)
    stat: list[str] = field(default_factory=list)
    total: str = ""


def _short_date(value: str) -> str:
    found = _GIT_DATE.match(value)
    if found is None:
        return value
    month = _MONTHS.get(found.group("mon"), 0)
    return f"{found.group('year')}-{month:02}-{int(found.group('day')):02}"


def _total(found: re.Match[str]) -> str:
    files = found.group("files")
    parts = [f"{files} file{'s' if files != '1' else ''}"]
    parts += [f"+{found.group('ins')}"] if found.group("ins") else []
    parts += [f"-{found.group('dels')}"] if found.group("dels") else []
    return " ".join(parts)


def _stat_row(line: str) -> str | None:
    found = _STAT_ROW.match(line)
    if found is None:
        return None
    if found.group("bin"):
        return f"{found.group('bin')} {found.group('what')}"
    return f"{found.group('path')} {found.group('count')}"


def _read_commit(commit: _Commit, line: str) -> bool:
    """Add one line after the commit line; False when the line is not part of a log entry."""
    field_ = _FIELD.match(line)
    if field_ is not None and not commit.message and not commit.stat:
        commit.fields[field_.group("key")] = field_.group("value")
        return True
    if line.startswith("    ") and not commit.stat:
        commit.message.append(line[4:])
        return True
    total = _STAT_TOTAL.match(line)
    if total is not None:
        commit.total = _total(total)
        return True
    row = _stat_row(line)
    if row is not None:
        commit.stat.append(row)
        return True
    return not line.strip()


def _lean_rows(commits: list[_Commit], hash_chars: int) -> list[str]:
    """One row per commit: its hash (cut to ``hash_chars``) and its subject."""
    return [
        f"{c.hash[:hash_chars]}{c.decor} {next((m.strip() for m in c.message if m.strip()), '')}".rstrip()
        for c in commits
    ]


def _commit_rows(commits: list[_Commit], *, files: bool) -> list[str]:
    authors = {c.fields.get("Author", "").split(" <")[0] for c in commits}
    dates = {_short_date(c.fields.get("Date", "")) for c in commits}
    out: list[str] = []
    for c in commits:
        parts = [c.hash + c.decor]
        if "Merge" in c.fields:
            parts.append(f"merge {c.fields['Merge']}")
        if "Date" in c.fields and (len(dates) > 1 or len(commits) == 1):
            parts.append(_short_date(c.fields["Date"]))
        if len(authors) > 1:
            parts.append(c.fields.get("Author", "").split(" <")[0])
        subject = next((m.strip() for m in c.message if m.strip()), "")
        parts.append(subject)
        rest = sum(1 for m in c.message if m.strip()) - 1
        if rest > 0:
            parts.append(f"[+{rest} message lines]")
        if c.total and not files:
            parts.append(f"· {c.total}")
        out.append(" ".join(p for p in parts if p))
        if files:
            out += [f"  {row}" for row in c.stat]
            if c.total:
                out.append(f"  {c.total}")
    return out


def log_form(lines: list[str]) -> Parsed | None:
    """``git log`` / ``git show --stat`` in the full form: one row per commit."""
    commits: list[_Commit] = []
    for line in lines:
        found = _COMMIT.match(line)
        if found is not None:
            commits.append(_Commit(found.group("hash"), found.group("decor") or ""))
            continue
        if not commits or not _read_commit(commits[-1], line):
            return None
    if not commits:
        return None
    authors = {c.fields.get("Author", "").split(" <")[0] for c in commits}
    summary = f"{len(commits)} commit{'s' if len(commits) > 1 else ''}"
    if len(authors) == 1 and next(iter(authors)):
        summary += f" · author {next(iter(authors))}"
    name = "git log" if len(commits) > 1 else "git show"
    # A variant that drops a --stat's paths or cuts the hashes is lossy: only for a budget the
    # whole form does not fit, never where the original itself is the alternative.
    stat = any(c.stat for c in commits)
    abbreviated = Parsed(
        name, summary + " · hash and subject, hashes cut to 12", tuple(_lean_rows(commits, 12)), lossy=True
    )
    lean = Parsed(
        name, summary + " · hash and subject", tuple(_lean_rows(commits, 64)), abbreviated, lossy=stat
    )
    if stat:
        counted = tuple(_commit_rows(commits, files=False))
        lean = Parsed(name, summary + " · files counted", counted, lean, lossy=True)
    return Parsed(name, summary, tuple(_commit_rows(commits, files=True)), lean)


def stat_form(lines: list[str]) -> Parsed | None:
    """``git diff --stat``: ``path N`` rows and the totals."""
    rows: list[str] = []
    total = ""
    for line in lines:
        found = _STAT_TOTAL.match(line)
        if found is not None:
            total = _total(found)
            continue
        row = _stat_row(line)
        if row is None and line.strip():
            return None
        if row is not None:
            rows.append(row)
    if not rows or not total:
        return None
    return Parsed("git diff --stat", total, tuple(rows))


def _cut(subject: str, chars: int) -> str:
    return subject if len(subject) <= chars else subject[: chars - 1].rstrip() + "…"


def _oneline_levels(name: str, summary: str, rows: list[tuple[str, str]]) -> Parsed:
    """Whole rows; subjects cut; the newest commits with a cut subject and the rest hash only."""
    newest = min(_NEWEST, len(rows) // 4)
    hashes_only = Parsed(
        name,
        summary + f" · newest {newest} with subjects, then hashes only",
        tuple(
            [f"{h} {s}".rstrip() for h, s in rows[:newest]]
            + [" ".join(h for h, _ in rows[i : i + 10]) for i in range(newest, len(rows), 10)]
        ),
        lossy=True,
        last_resort=True,
    )
    cut = Parsed(
        name,
        summary + " · subjects cut to 40",
        tuple(f"{h} {_cut(s, 40)}".rstrip() for h, s in rows),
        hashes_only,
        lossy=True,
    )
    return Parsed(name, summary, tuple(f"{h} {s}".rstrip() for h, s in rows), cut)


def oneline_form(lines: list[str]) -> Parsed | None:
    """``git log --oneline`` (``--graph`` too): every hash, ``hash subject`` rows."""
    rows: list[tuple[str, str]] = []
    graph = False
    lettered = 0
    for line in lines:
        found = _ONELINE.match(line)
        if found is not None:
            graph = graph or found.group("graph") is not None
            lettered += not found.group("hash").isdigit()
            rows.append((found.group("hash"), found.group("subject") or ""))
            continue
        if _GRAPH_ART.match(line) and line.strip():
            graph = True
            continue
        if line.strip():
            return None
    # A hash is hex with a letter in it, mostly: rows of numbers are a numbered log, not commits.
    if len(rows) < 2 or lettered * 2 < len(rows):
        return None
    summary = f"{len(rows)} commits" + (" · graph dropped" if graph else "")
    return _oneline_levels("git log", summary, rows)


PARSERS: tuple[Callable[[list[str]], Parsed | None], ...] = (
    status_form,
    porcelain_form,
    log_form,
    stat_form,
    oneline_form,
)
