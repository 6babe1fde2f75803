"""Small markdown pieces the bank files share: sections, pipe tables and located errors.

The bank files are the state, and people edit them by hand, so parsing is lenient about what it
does not own (unknown sections and lines are kept verbatim) and strict about what it does (a table
row with the wrong number of cells is an error naming the file and the line).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from summarizer.core.errors import StorageError

__all__ = [
    "BankFormatError",
    "Section",
    "around_table",
    "cell",
    "read_bank_text",
    "render_table",
    "split_sections",
    "table_rows",
    "uncell",
]

_SEP_ROW = re.compile(r"^\|\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")


class BankFormatError(StorageError):
    """An existing bank file cannot be parsed; the message names the file and line."""

    def __init__(self, path: Path | str, line: int | None, problem: str) -> None:
        where = f"{path}:{line}" if line else str(path)
        super().__init__(
            f"{where}: {problem}; fix that line by hand (or restore the file from git) and re-run"
        )


def read_bank_text(path: Path) -> str | None:
    """The file's text, ``None`` when it does not exist; invalid UTF-8 is a located error."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError as exc:
        raise BankFormatError(path, None, "is a directory where a file is expected") from exc
    except NotADirectoryError as exc:
        raise BankFormatError(path, None, "a parent of this path is a file, not a directory") from exc
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise BankFormatError(path, line, f"invalid UTF-8 (byte {exc.start})") from exc


@dataclass(frozen=True, slots=True)
class Section:
    """A ``## `` section: its heading text (``None`` for the preamble), lines and 1-based start."""

    title: str | None
    lines: tuple[str, ...]
    start: int


def split_sections(text: str) -> list[Section]:
    """Split markdown into the preamble and ``## `` sections, keeping every line.

    Lines inside fenced code blocks never start a section.
    """
    sections: list[Section] = []
    title: str | None = None
    start = 1
    current: list[str] = []
    fenced = False
    for number, line in enumerate(text.split("\n"), start=1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if not fenced and line.startswith("## "):
            sections.append(Section(title, tuple(current), start))
            title, start, current = line[3:].strip(), number, []
            continue
        current.append(line)
    sections.append(Section(title, tuple(current), start))
    return sections


def cell(value: str) -> str:
    """Make ``value`` safe inside one table cell (pipes escaped, newlines folded)."""
    return " ".join(value.replace("\\", "\\\\").replace("|", "\\|").split())


def uncell(value: str) -> str:
    """Reverse :func:`cell`."""
    out: list[str] = []
    escaped = False
    for char in value:
        if escaped:
            out.append(char)
            escaped = False
        elif char == "\\":
            escaped = True
        else:
            out.append(char)
    return "".join(out).strip()


def _split_row(line: str) -> list[str]:
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    cells: list[str] = []
    current: list[str] = []
    escaped = False
    for char in body:
        if escaped:
            current.append(char)
            escaped = False
        elif char == "\\":
            current.append(char)
            escaped = True
        elif char == "|":
            cells.append(uncell("".join(current)))
            current = []
        else:
            current.append(char)
    cells.append(uncell("".join(current)))
    return cells


def table_rows(section: Section, columns: Sequence[str], *, path: Path | str) -> list[tuple[int, list[str]]]:
    """Parse the first pipe table in ``section``: ``(line number, cells)`` for each data row.

    The header must name ``columns`` (case-insensitive); a data row with another cell count is a
    :class:`BankFormatError` naming the line.
    """
    rows: list[tuple[int, list[str]]] = []
    header_seen = False
    expected = [c.lower() for c in columns]
    for offset, line in enumerate(section.lines, start=1):
        number = section.start + offset
        stripped = line.strip()
        if not stripped.startswith("|"):
            if header_seen and rows and stripped:
                break  # the table ended; prose after it is kept by the caller
            continue
        if _SEP_ROW.match(stripped):
            continue
        cells = _split_row(stripped)
        if not header_seen:
            if [c.lower() for c in cells] != expected:
                raise BankFormatError(
                    path, number, f"table header must be | {' | '.join(columns)} |, found {stripped!r}"
                )
            header_seen = True
            continue
        if len(cells) != len(columns):
            raise BankFormatError(
                path, number, f"table row has {len(cells)} cells, expected {len(columns)}: {stripped!r}"
            )
        rows.append((number, cells))
    return rows


def render_table(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """A pipe table as lines (header, separator, one line per row); cells are escaped."""
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("-" * (len(c) + 2) for c in columns) + "|"]
    lines.extend("| " + " | ".join(cell(v) for v in row) + " |" for row in rows)
    return lines


def around_table(section: Section) -> tuple[list[str], list[str]]:
    """The lines before the section's first table line and after its last one (kept verbatim)."""
    lines = list(section.lines)
    table = [i for i, line in enumerate(lines) if line.strip().startswith("|")]
    if not table:
        return lines, []
    return lines[: table[0]], lines[table[-1] + 1 :]
