"""A small compiler, linter or type-checker report without its source snippets.

mypy (``--pretty``), ruff (``full``), rustc, gcc, clang and tsc (``--pretty``) print, under each
diagnostic, the source line it is about, a caret or tilde line marking the span, and often a
gutter (``12 |``) and a suggested fix as a diff. The agent has the source; what it needs is the
location, the code and the message. For a report under the pass-through size whose rendering
would not save enough, this form keeps every line verbatim except the snippets:

* caret and tilde marker lines (``^~~~``, ``^^^^^^``);
* gutter lines (``   |``, `` 12 | code``, ``   | |___^``) and the diff rows of a fix shown in a
  gutter (``4 + import shutil``, ``  - import shutil``);
* the indented source line just above a marker line (mypy, gcc);
* blank lines.

Everything else stays, verbatim and in order: the location and message lines and their wrapped
continuations, ``help:``/``note:`` lines, summaries (``Found 6 errors``). The form is used only
when the output has a location line and a snippet (:mod:`summarizer.output.folded` adds the header
and decides whether it saves enough).
"""

from __future__ import annotations

from summarizer.core.lazyre import lazy

__all__ = ["fold_snippets"]

_LOCATION = lazy(r"^\s*(?:-->\s*|::: )?[\w./\\@~+-]+\.\w+(?::\d+|\(\d+,\d+\))")
_MARKER = lazy(r"^\s*(?:\d+\s*)?(?:\|\s*)*[\^~][-~^\s]*(?:\S.*)?$")
_GUTTER = lazy(r"^\s*\d*\s*\|(?:\s|$)")
_FIX_ROW = lazy(r"^\s*\d*\s+[-+]\s")


def _marker(line: str) -> bool:
    """A caret/tilde line: markers first, then (rustc) a short label after them at most."""
    stripped = line.strip().lstrip("0123456789").strip().lstrip("|").strip()
    return bool(stripped) and stripped[0] in "^~" and bool(_MARKER.match(line))


def _snippet_lines(lines: list[str]) -> set[int]:
    dropped: set[int] = set()
    in_gutter = False
    for index, line in enumerate(lines):
        if not line.strip():
            dropped.add(index)
            continue
        if _LOCATION.match(line):
            in_gutter = False
            continue
        if _marker(line) or _GUTTER.match(line) or (in_gutter and _FIX_ROW.match(line)):
            dropped.add(index)
            in_gutter = in_gutter or bool(_GUTTER.match(line))
            # The source line a marker underlines (mypy and gcc print it indented, no gutter).
            above = index - 1
            if (
                _marker(line)
                and above >= 0
                and lines[above][:1].isspace()
                and not _LOCATION.match(lines[above])
            ):
                dropped.add(above)
            continue
        in_gutter = False
    return dropped


def fold_snippets(text: str) -> list[str] | None:
    """The report's lines without its source snippets, or ``None`` when it has none."""
    lines = text.splitlines()
    if not any(_LOCATION.match(line) for line in lines):
        return None
    dropped = _snippet_lines(lines)
    if not any(lines[i].strip() for i in dropped):
        return None  # blank lines alone are no snippets
    return [line for index, line in enumerate(lines) if index not in dropped]
