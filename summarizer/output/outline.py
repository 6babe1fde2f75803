"""A large source file read whole (``cat``) as an outline: its definitions, bodies folded.

Content to read is never a log: no line of it is an error, and nothing in it is sampled or
merged into patterns. Past :data:`OUTLINE_TOKENS` (estimated), a source file costs the agent
more than the overview it needs to find the part it wants, so it is shown as an outline:

* every definition line (``def``, ``class``, ``function``, ``interface``, ``struct``, ``impl``,
  ``fn``, ``func``, ``type``, ``enum``, methods with modifiers, test blocks), at any depth, and
  every other statement at the file's outermost indentation (constants, ``if __name__ ...``);
  a signature spread over several lines is joined onto one;
* imports folded to a count with their line range; comments, docstrings and closing brackets
  left out;
* each row ``a-b: text`` stands for original lines ``a`` to ``b`` (the row and the body folded
  under it): ``summarizer restore ID --lines a:b`` prints them back, byte-identical.

The rules read indentation and keywords, not a grammar, so they hold for any language with
line-oriented definitions. Explicit slices of a file (``head -N``, ``sed -n a,bp``, ``tail``)
and a file under the threshold are never outlined: the agent asked for exactly those lines.
"""

from __future__ import annotations

from summarizer.core.lazyre import lazy

__all__ = ["OUTLINE_TOKENS", "outline"]

# Estimated tokens (bytes / 2.7) past which a source file is outlined: about 8 KB, 200-250 lines.
OUTLINE_TOKENS = 3_000
# An outline that does not save at least this share of the file is not worth it: the file passes.
_MIN_SAVING = 0.4
_ROW_CHARS = 160
_SIGNATURE_LINES = 8

_DEFINITION = lazy(
    r"^\s*(?:@[\w.]+|#\[|"  # decorators, Rust attributes
    r"(?:(?:export|default|declare|pub(?:\([\w:]+\))?|public|private|protected|internal|static|final"
    r"|abstract|override|virtual|async|unsafe|extern|inline|partial|sealed|open|data|suspend|const)\s+)*"
    r"(?:def|class|function\*?|interface|struct|impl|trait|enum|type|fn|func|module|namespace|protocol"
    r"|extension|object|record|union|macro_rules!|template)(?:\s+[\w$(*&]|\s*<)"
    r"|(?:describe|it|test|suite|context)(?:\.\w+)?\s*\()"
)
# A method in a brace language: modifiers, a name, parameters, an opening brace.
_METHOD = lazy(
    r"^\s+(?:(?:public|private|protected|internal|static|final|abstract|override|virtual|async|readonly"
    r"|get|set|synchronized|native)\s+)*[\w$<>\[\],.? ]*?[A-Za-z_$][\w$]*\s*(?:<[^>()]*>)?\([^;]*\)"
    r"[^;=]*\{\s*$"
)
_CONTROL = lazy(r"^\s*(?:if|else|for|while|switch|catch|try|do|return|with|match)\b")
_IMPORT = lazy(
    r"^(?:import\b|from\s+\S+\s+import\b|#include\b|#import\b|use\s+[\w:{]|using\s+[\w.]+;|require\b"
    r"|(?:const|let|var)\s+[\w{},\s]+=\s*require\(|extern\s+crate\b|package\s+[\w.]+;?$"
    r"|\}\s*from\s)"  # the last line of a multi-line JS import
)
_COMMENT = lazy(r"^\s*(?:#(?![\[!]|include|import|define|if|endif|else)|//|/\*|\*|--\s|;)")
# A line of brackets alone (closing, or a brace opening a C function body on a line of its own).
_CLOSING = lazy(r"^\s*(?:[\]\)}>][\s\]\)}>;,]*|[\[\({]\s*)$")
# A call or signature's opening parenthesis (`def f(`, `fn new(`), not a block (`var (`, `= (`).
_CALL = lazy(r"[\w$>\]]\(")
_TRIPLE = lazy(r'"""|\'\'\'')


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _kind(line: str, in_string: bool) -> str:
    """``def``, ``top``, ``import`` or ``body`` (folded) for one line."""
    if in_string or not line.strip() or _COMMENT.match(line) or _CLOSING.match(line):
        return "body"
    if _indent(line) == 0:
        if _IMPORT.match(line):
            return "import"
        if _TRIPLE.match(line):
            return "body"  # a module docstring's opening
        return "def" if _DEFINITION.match(line) else "top"
    if _DEFINITION.match(line) or (_METHOD.match(line) and not _CONTROL.match(line)):
        return "def"
    return "body"


def _signature(lines: list[str], start: int) -> tuple[str, int]:
    """The row's text (a multi-line signature joined) and the index of its last line."""
    text = lines[start].rstrip()
    depth = text.count("(") + text.count("[") - text.count(")") - text.count("]")
    end = start
    if not _CALL.search(text):
        depth = 0  # a block (`var (`, `X = [`): its lines are the body
    while depth > 0 and end + 1 < len(lines) and end - start < _SIGNATURE_LINES:
        end += 1
        more = lines[end].strip()
        depth += more.count("(") + more.count("[") - more.count(")") - more.count("]")
        text += ("" if text.endswith(("(", "[")) or more.startswith((")", "]")) else " ") + more
    if len(text) > _ROW_CHARS:
        text = text[:_ROW_CHARS] + "…"
    return text, end


def _rows(lines: list[str]) -> list[tuple[int, int, str]]:
    """(first, last, text) of every kept row, 0-based; imports as one row per run."""
    rows: list[tuple[int, int, str]] = []
    in_string = False
    i = 0
    imports: list[int] = []
    while i < len(lines):
        line = lines[i]
        kind = _kind(line, in_string)
        if len(_TRIPLE.findall(line)) % 2:
            in_string = not in_string
        if kind == "import":
            imports.append(i)
        elif kind in ("def", "top"):
            text, end = _signature(lines, i)
            rows.append((i, end, text))
            i = end
        i += 1
    if imports:
        first, last = imports[0], imports[-1]
        rows.append((first, last, f"[{len(imports)} imports]"))
        rows.sort()
    return rows


def _elide(row: str, first: int) -> str:
    """A signature shown before, with its parameters elided: ``def convert(…) -> t.Any:  # = 96``."""
    start = row.find("(")
    depth = 0
    for index in range(max(start, 0), len(row)):
        depth += {"(": 1, ")": -1}.get(row[index], 0)
        if start >= 0 and depth == 0:
            return f"{row[: start + 1]}…{row[index:]}  # = {first}"
    return row


def outline(text: str, restore_id: str, tokens: int) -> str | None:
    """The outline of ``text`` (``tokens`` in), or ``None`` when it would save too little."""
    lines = text.splitlines()
    rows = _rows(lines)
    if not rows:
        return None
    out: list[str] = []
    seen: dict[str, int] = {}
    for index, (first, last, row) in enumerate(rows):
        key = row.strip()
        if key in seen and "(" in key:
            short = _elide(row, seen[key])
            row = short if len(short) + 10 < len(row) else row
        seen.setdefault(key, first + 1)
        # The row stands for its own lines and the body under it, up to the next row.
        stop = rows[index + 1][0] - 1 if index + 1 < len(rows) else len(lines) - 1
        while stop > last and not lines[stop].strip():
            stop -= 1
        end = max(stop, last)
        span = f"{first + 1}" if end == first else f"{first + 1}-{end + 1}"
        out.append(f"{span}: {row}")
    short = restore_id[:12]
    header = [
        f"[summarizer output · content · outline · {len(lines):,} lines · ~{tokens:,} tokens in]",
        f"source text: the definitions, bodies folded; a row 'a-b: text' stands for lines a to b:"
        f" `summarizer restore {short} --lines a:b` prints them",
    ]
    rendered = "\n".join([*header, *out, f"[full output: summarizer restore {short}  ({len(lines)} lines)]"])
    return rendered + "\n" if len(rendered) < len(text) * (1 - _MIN_SAVING) else None
