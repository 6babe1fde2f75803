"""Tables in compact form: a header row over aligned rows, each row's first cell a distinct key.

``coverage report``, ``pip list``, ``ps aux``, ``kubectl get``, ``docker ps`` print one: every row
has the same shape, but each is about a different thing (a file, a package, a process), so a table
is data, never repetition to sample. Its form keeps every row:

* whole, the ruler lines (``-----``) dropped (under the pass-through size this rarely saves a quarter,
  so a table there passes through as it is);
* past the budget (a last resort), the header and every row's cells of the columns that vary; a
  column equal on every row is said once in the summary.

A table is told by its shape alone (:func:`is_table`): a first line of column names, then rows
(at least :data:`_MIN_ROWS`) whose cells line up under those names and whose first cells differ on
every row; a few lines after the rows (a ``TOTAL``, a note) are kept as they are.
"""

from __future__ import annotations

from summarizer.core.lazyre import lazy
from summarizer.output.forms_vcs import Parsed

__all__ = ["is_table", "table_form"]

_MIN_ROWS = 5
# A column name: a word, maybe with a %, a dot or a parenthesis (%CPU, Branch, NAME, (s)).
_NAME = lazy(r"^[A-Za-z%#(][\w%#().:/-]*$")
_RULER = lazy(r"^[-=+| ]+$")
_CELL = lazy(r"\S+")
# Share of the rows whose cells must line up under one of the header's names (start or end).
_ALIGNED = 0.9
# Lines after the rows that are not rows (TOTAL, "1 file skipped"): at most this share of the rows.
_OTHER_SHARE = 0.1


def _edges(line: str) -> tuple[set[int], set[int]]:
    cells = list(_CELL.finditer(line))
    return {c.start() for c in cells}, {c.end() for c in cells}


def _header(line: str) -> list[str] | None:
    names = line.split()
    if len(names) < 2 or line[:1].isspace() or not all(_NAME.match(n) for n in names):
        return None
    return names


def _aligned(header: str, rows: list[str]) -> bool:
    """Some column name after the first lines up with a cell (left or right) on nearly every row."""
    names = list(_CELL.finditer(header))[1:]
    edges = [_edges(row) for row in rows]
    for name in names:
        hits = sum(name.start() in starts or name.end() in ends for starts, ends in edges)
        if hits >= _ALIGNED * len(rows):
            return True
    return False


def _split(lines: list[str]) -> tuple[list[str], list[tuple[int, str]]] | None:
    """The rows (ruler lines dropped) and the other lines (numbered) after the header."""
    rows: list[str] = []
    other: list[tuple[int, str]] = []
    keys: set[str] = set()
    for n, line in enumerate(lines[1:], 2):
        if not line.strip() or _RULER.match(line):
            continue
        key = line.split(None, 1)[0]
        if line[:1].isspace() or key in keys or len(line.split()) < 2:
            other.append((n, line))
            continue
        keys.add(key)
        rows.append(line)
    if len(rows) < _MIN_ROWS or len(other) > _OTHER_SHARE * len(rows) + 2:
        return None
    return rows, other


def is_table(lines: list[str]) -> bool:
    """True when ``lines`` are a table: a header of column names over aligned rows with distinct keys."""
    if not lines or _header(lines[0]) is None:
        return False
    split = _split(lines)
    return split is not None and _aligned(lines[0], split[0])


def _varying(header: list[str], rows: list[str]) -> Parsed | None:
    """The header and the columns that vary; None when every column varies."""
    width = len(header)
    cells = [row.split(None, width - 1) for row in rows]
    if any(len(c) != width for c in cells[:-1]) and sum(len(c) == width for c in cells) < 0.9 * len(cells):
        return None
    same = {
        i: cells[0][i]
        for i in range(1, width)
        if all(len(c) > i for c in cells) and len({c[i] for c in cells}) == 1
    }
    if not same:
        return None
    keep = [i for i in range(width) if i not in same]
    said = ", ".join(f"{header[i]} {v}" for i, v in same.items())
    body = ["  ".join(header[i] for i in keep)]
    body += ["  ".join(c[i] for i in keep if i < len(c)) for c in cells]
    return Parsed(
        "table", f"{len(rows)} rows · on every row: {said}", tuple(body), lossy=True, last_resort=True
    )


def table_form(lines: list[str]) -> Parsed | None:
    """The compact form of a table, or None when ``lines`` are not one."""
    header = _header(lines[0]) if lines else None
    split = _split(lines) if header is not None else None
    if header is None or split is None or not _aligned(lines[0], split[0]):
        return None
    rows, other = split
    tail = [f"{n}: {line}" for n, line in other]
    # The padding stays: runs of spaces cost few tokens, and an estimate by bytes would over-rate cutting it.
    whole = [lines[0].rstrip()] + [row.rstrip() for row in rows]
    shorter = _varying(header, rows)
    if shorter is not None:
        shorter = Parsed(
            shorter.name, shorter.summary, shorter.body + tuple(tail), lossy=True, last_resort=True
        )
    summary = f"{len(rows)} rows, first column {header[0]}"
    # When every column varies, the whole rows are the least that keeps them.
    return Parsed("table", summary, tuple(whole + tail), shorter, last_resort=shorter is None)
