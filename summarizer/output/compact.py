"""Compact rows for dense compiler output: a repeated message shows its code and what differs.

A location line whose message has the same shape as an earlier one (quoted arguments aside)
keeps its location and its code, and adds only the quoted arguments that differ:
``(9,8): TS2339 'set'`` means "the TS2339 message shown earlier, with 'set'". ``[=N]`` names the
line whose message applies when one code has several shapes; ``〃`` is a trailing argument equal
to the previous row's; a tool's own code at the end (``[arg-type]``) stays on every row.
"""

from __future__ import annotations

from summarizer.core.lazyre import lazy
from summarizer.output.kept import Kept
from summarizer.output.lines import RENDER_LINE_CHARS, truncate_for_render
from summarizer.output.verdicts import ERROR_KINDS

__all__ = ["Messages", "body_line"]

_DITTO = "〃"
_CODED_PREFIX = lazy(r"^\W*(?:fatal )?error ([A-Z]+\d+):$")
_CODE_TAIL = lazy(r"\s+\[[\w-]+\]\s*$")
_QUOTED = lazy(r"'[^']*'|`[^`]*`|\"[^\"]*\"")
_MESSAGE = lazy(r"^(?P<prefix>\W{0,4}(?:(?:fatal )?error|warning)\b[^:]{0,20}:)\s*(?P<rest>.{12,})$")


def _short(arg: str) -> str:
    # Long quoted arguments (absolute paths) keep their informative tail.
    return arg if len(arg) <= 22 else arg[0] + "…" + arg[-18:]


class Messages:
    """Remembers message shapes per location-bearing error, for back-references."""

    def __init__(self) -> None:
        self.first: dict[tuple[str, str], tuple[int, frozenset[str]]] = {}
        self.code_shape: dict[str, str] = {}
        self.last_args: dict[tuple[str, str], list[str]] = {}


def body_line(coord: Kept, entry_note: str, seen: Messages, full_bytes: int | None = None) -> str:
    text = coord.text
    # A failure row's text stays verbatim: the code-and-arguments shorthand is for warnings and notes.
    if coord.location and coord.kind not in ERROR_KINDS and coord.kind != "frame":
        after = text.split(coord.location, 1)[1] if coord.location in text else ""
        match = _MESSAGE.match(after)
        if match:
            rest = match.group("rest").strip()
            prefix = match.group("prefix")
            # The message's shape with its quoted arguments blanked: compiler messages repeat it.
            shape = _QUOTED.sub("'…'", rest)
            first_seen = seen.first.get((prefix, shape))
            if first_seen is not None:
                first, first_args = first_seen
                head = text[: text.index(coord.location) + len(coord.location)]
                # Only the arguments that differ from line `first`; the rest is exactly that message.
                shown = [_short(a) for a in _QUOTED.findall(rest) if a not in first_args]
                previous = seen.last_args.get((prefix, shape), [])
                seen.last_args[(prefix, shape)] = shown
                # A trailing argument equal to the previous row's of this message is a ditto.
                if len(shown) >= 2 and len(previous) == len(shown) and shown[-1] == previous[-1]:
                    shown = [*shown[:-1], _DITTO]
                args = " ".join(shown)
                # When this code only ever had this one shape, the code alone says which message.
                ref = "" if seen.code_shape.get(prefix) == shape else f" [={first}]"
                # The tool's own error code ([arg-type]) names the rule: it stays on every line.
                code = _CODE_TAIL.search(rest)
                tail = code.group().strip() if code and code.group().strip() not in args else ""
                # A repeat names its code alone (": TS2339"); the code's first line has the words.
                short = _CODED_PREFIX.sub(r" \1", prefix)
                return f"{coord.line}: {head}{short}{ref} {args} {tail}".rstrip() + entry_note
            seen.first[(prefix, shape)] = (coord.line, frozenset(_QUOTED.findall(rest)))
            seen.code_shape.setdefault(prefix, shape)
    whole = truncate_for_render(text, line_no=coord.line, full_bytes=full_bytes, limit=RENDER_LINE_CHARS)
    return f"{coord.line}: {whole}{entry_note}"
