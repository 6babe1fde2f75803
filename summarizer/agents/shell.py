"""A small, quote-aware reading of a shell command line: enough to decide whether to wrap it.

Not a shell parser: it splits a command line into its simple commands (at unquoted ``|``,
``||``, ``&&``, ``;``, ``&``, newlines and command substitutions) and those into words (quotes
removed), and notes the constructs that decide how a command may be wrapped: redirections,
heredocs, a trailing ``&``, subshells, leading variable assignments. When unsure it says
"complex", and the callers then choose the cautious branch. The standard library only, without
``re`` or ``shlex``: it runs in the Claude Code hook, before every Bash command.
"""

from __future__ import annotations

__all__ = ["CommandLine", "read_command"]

_OPERATOR_CHARS = "|&;\n"
_GROUPING = "<>()"


class CommandLine:
    """What :func:`read_command` found in one command line."""

    __slots__ = ("background", "broken", "heredoc", "redirect", "segments", "simple", "substitution")

    def __init__(self) -> None:
        self.segments: list[list[str]] = []  # each simple command's words, quotes removed
        self.simple = True  # one simple command, no operators, redirections or subshells
        self.redirect = False
        self.heredoc = False
        self.background = False
        self.substitution = False  # $(...) or `...`: its words are a segment of their own
        self.broken = False  # an unbalanced quote: the shell will complain; leave it alone

    def texts(self) -> list[str]:
        """Each segment as one string (words joined by single spaces)."""
        return [" ".join(words) for words in self.segments if words]

    def programs(self) -> list[list[str]]:
        """Each segment's words from its program name on (leading ``VAR=value`` words dropped)."""
        out = []
        for words in self.segments:
            i = 0
            while i < len(words) - 1 and _is_assignment(words[i]):
                i += 1
            out.append(words[i:])
        return out


def _is_assignment(word: str) -> bool:
    name, equals, _ = word.partition("=")
    return (
        bool(equals)
        and bool(name)
        and (name[0].isalpha() or name[0] == "_")
        and all(c.isalnum() or c == "_" for c in name)
    )


def read_command(command: str) -> CommandLine:
    """Split ``command`` into simple commands and words (see the module docstring)."""
    line = CommandLine()
    words: list[str] = []
    word: list[str] = []
    in_word = False
    quote = ""
    i = 0
    n = len(command)

    def end_word() -> None:
        nonlocal in_word
        if in_word:
            words.append("".join(word))
            word.clear()
            in_word = False

    def end_segment() -> None:
        nonlocal words
        end_word()
        if words:
            line.segments.append(words)
        words = []

    while i < n:
        ch = command[i]
        if quote == "'":
            if ch == "'":
                quote = ""
            else:
                word.append(ch)
            i += 1
            continue
        if quote == '"':
            if ch == '"':
                quote = ""
            elif ch == "\\" and i + 1 < n and command[i + 1] in '"\\$`':
                word.append(command[i + 1])
                i += 1
            elif ch == "`" or (ch == "$" and command[i + 1 : i + 2] == "("):
                line.substitution = True
                line.simple = False
                word.append(ch)
            else:
                word.append(ch)
            i += 1
            continue
        if ch in "'\"":
            quote = ch
            in_word = True
        elif ch == "\\" and i + 1 < n:
            if command[i + 1] != "\n":
                word.append(command[i + 1])
                in_word = True
            i += 1
        elif ch in " \t":
            end_word()
        elif ch == "#" and not in_word:
            while i < n and command[i] != "\n":
                i += 1
            continue
        elif ch in "<>" or (ch == "&" and command[i + 1 : i + 2] == ">"):
            # A redirection (`2>&1`, `&>log`, `>>out`, `<in`, `>&2`): it belongs to this command, so
            # neither its `&` nor its target starts another one, and its fd digits are no argument.
            line.simple = False
            line.redirect = True
            if command[i : i + 2] == "<<" and command[i : i + 3] != "<<<":
                line.heredoc = True
            if in_word and "".join(word).isdigit():
                word.clear()
                in_word = False
            end_word()
            i = _skip_redirection(command, i)
            continue
        elif ch in _OPERATOR_CHARS:
            line.simple = False
            if ch == "&" and command[i + 1 : i + 2] != "&" and command[i - 1 : i] != "&":
                # a lone `&` ends a command that runs in the background
                rest = command[i + 1 :].strip()
                line.background = line.background or not rest or rest.startswith("#")
            end_segment()
        elif ch == "$" and command[i + 1 : i + 2] == "(" and command[i + 2 : i + 3] != "(":
            line.substitution = True
            line.simple = False
            end_segment()
            i += 2
            continue
        elif ch == "`":
            line.substitution = True
            line.simple = False
            end_segment()
        elif ch in _GROUPING:  # ( or ): a subshell's bounds
            line.simple = False
            end_segment()
        else:
            word.append(ch)
            in_word = True
        i += 1
    if quote:
        line.simple = False
        line.broken = True
    end_segment()
    if line.segments and "=" in line.segments[0][0] and not line.segments[0][0].startswith("="):
        line.simple = False  # VAR=value cmd: an assignment, not a program name
    if len(line.segments) != 1:
        line.simple = False
    return line


def _skip_redirection(command: str, i: int) -> int:
    """The index just past the redirection operator at ``i`` and its target word."""
    n = len(command)
    j = i
    while j < n and j - i < 3 and command[j] in "<>&|":
        if command[j] == "|" and command[j - 1 : j] != ">":
            break  # `>|` is one operator; any other `|` is a pipe after the redirection
        j += 1
    while j < n and command[j] in " \t":
        j += 1
    quote = ""
    while j < n:
        ch = command[j]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in " \t" or ch in _OPERATOR_CHARS or ch in _GROUPING:
            break
        j += 1
    return j
