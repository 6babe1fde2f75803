"""Reading one shell word at a time: quotes, escapes and the expansions inside a word.

Split from the command finder in :mod:`summarizer.agents.shell` because the two are separate
concerns: this part knows how a word ends and which parts of it run at expansion time (``$(...)``,
backticks, ``${...}``, ``<(...)``); the finder knows what a command, a pipeline and a list are. A
substitution holds a whole command list, so the reader calls back into the finder through
:meth:`WordReader.parse_list`, which the finder defines.
"""

from __future__ import annotations

from summarizer.agents.shell_tree import Line, Opaque, Pipeline, Word, name_end

__all__ = ["BLANK", "META", "WordReader"]

BLANK = " \t"
META = " \t\n;&|<>()"
_DEPTH = 20


class WordReader:
    """Recursive descent over one string (positions index into it): the word-level half."""

    def __init__(self, src: str, line: Line, depth: int) -> None:
        if depth > _DEPTH:
            raise Opaque("nested too deep")
        self.src, self.line, self.depth, self.i = src, line, depth, 0

    def parse_list(self, stop: str, nested: bool) -> list[Pipeline]:
        """Pipelines up to ``stop``; the command finder defines it (a substitution holds a list)."""
        raise NotImplementedError

    def _skip_blanks(self) -> None:
        src, n = self.src, len(self.src)
        while self.i < n:
            ch = src[self.i]
            if ch in BLANK:
                self.i += 1
            elif ch == "\\" and src[self.i + 1 : self.i + 2] == "\n":
                self.i += 2
            elif ch == "#":
                while self.i < n and src[self.i] != "\n":
                    self.i += 1
            else:
                return

    def _word(self) -> Word:
        src, n = self.src, len(self.src)
        start = self.i
        text: list[str] = []
        dynamic = False
        if src[start : start + 2] in ("<(", ">("):
            self.i += 2
            self._substitution(")")
            return Word(src[start : self.i], src[start : self.i], True, start, self.i)
        while self.i < n:
            ch = src[self.i]
            if ch in META:
                if ch == "(" and self.i > start and src[self.i - 1] in "@?*+!":
                    raise Opaque("extended glob")
                break
            if ch == "\\":
                if self.i + 1 >= n:
                    self.i += 1
                    break
                if src[self.i + 1] != "\n":
                    text.append(src[self.i + 1])
                self.i += 2
            elif ch == "'":
                end = src.find("'", self.i + 1)
                if end < 0:
                    raise Opaque("unbalanced quotes")
                text.append(src[self.i + 1 : end])
                self.i = end + 1
            elif ch == '"':
                dynamic = self._double_quoted(text) or dynamic
            elif ch == "$" or ch == "`":
                text.append(self._dollar_or_backtick())
                dynamic = True
            else:
                if ch in "*?[{~" and (ch != "~" or self.i == start):
                    dynamic = dynamic or ch != "{" or "," in src[self.i : self.i + 64]
                text.append(ch)
                self.i += 1
        return Word("".join(text), src[start : self.i], dynamic, start, self.i)

    def _double_quoted(self, text: list[str]) -> bool:
        src, n = self.src, len(self.src)
        self.i += 1
        dynamic = False
        while True:
            if self.i >= n:
                raise Opaque("unbalanced quotes")
            ch = src[self.i]
            if ch == '"':
                self.i += 1
                return dynamic
            if ch == "\\" and self.i + 1 < n and src[self.i + 1] in '$`"\\\n':
                if src[self.i + 1] != "\n":
                    text.append(src[self.i + 1])
                self.i += 2
            elif ch == "$" or ch == "`":
                text.append(self._dollar_or_backtick())
                dynamic = True
            else:
                text.append(ch)
                self.i += 1

    def _dollar_or_backtick(self) -> str:
        """Read one expansion at ``self.i`` (parsing any command inside); its text as written."""
        src = self.src
        start = self.i
        if src[start] == "`":
            self._backtick()
        elif src.startswith("$((", start):
            self._arithmetic()
        elif src.startswith("$(", start):
            self.i += 2
            self._substitution(")")
        elif src.startswith("${", start):
            self._parameter()
        elif src.startswith("$'", start) or src.startswith('$"', start):
            raise Opaque("$'...' quoting")
        else:
            self.i += 1
            j = name_end(src[self.i : self.i + 256])
            self.i += j if j else (1 if self.i < len(src) and src[self.i] in "@*#?$!-0123456789" else 0)
        return src[start : self.i]

    def _substitution(self, close: str) -> None:
        """A command list up to ``close``, its commands nested; ``self.i`` ends past ``close``."""
        self.depth += 1
        if self.depth > _DEPTH:
            raise Opaque("nested too deep")
        self.parse_list(stop=close, nested=True)
        self.depth -= 1
        self.i += 1

    def _backtick(self) -> None:
        src, n = self.src, len(self.src)
        j = self.i + 1
        body: list[str] = []
        while j < n and src[j] != "`":
            if src[j] == "\\" and j + 1 < n:
                body.append(src[j + 1] if src[j + 1] in "$`\\" else src[j : j + 2])
                j += 2
            else:
                body.append(src[j])
                j += 1
        if j >= n:
            raise Opaque("unbalanced backquote")
        type(self)("".join(body), self.line, self.depth + 1).parse_list(stop="", nested=True)
        self.i = j + 1

    def _arithmetic(self) -> None:
        src = self.src
        end = src.find("))", self.i + 3)
        body = src[self.i + 3 : end] if end >= 0 else ""
        if end < 0 or any(mark in body for mark in ("$(", "`", "'", '"', "${", "(")):
            raise Opaque("arithmetic expansion holding more than numbers and names")
        self.i = end + 2

    def _parameter(self) -> None:
        """``${...}``: commands in its default/alternative words are found; quotes inside are not read."""
        src, n = self.src, len(self.src)
        self.i += 2
        while True:
            if self.i >= n:
                raise Opaque("unbalanced ${")
            ch = src[self.i]
            if ch == "}":
                self.i += 1
                return
            if ch in "'\"":
                raise Opaque("quotes inside ${...}")
            if ch == "\\":
                self.i += 2
            elif ch == "$" or ch == "`":
                self._dollar_or_backtick()
            else:
                self.i += 1
