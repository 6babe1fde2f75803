"""A shell tokenizer that finds every command a Bash line can run, or says it cannot.

The agent hooks rewrite a command line only when they can name every simple command in it: the
top-level ones, and the ones hidden in command substitutions (``$(...)`` and backticks, in any
quoting), in ``${...}`` expansions, in process substitutions (``<(...)``, ``>(...)``), in
here-strings, and in the strings given to ``eval`` and ``sh -c``. :func:`parse` returns them all
(:attr:`Line.commands`), or raises :class:`Opaque` with the reason the line is beyond it:
heredocs, functions, compound commands (``if``, ``for``, ``{ }``, subshells, ``[[ ]]``),
arithmetic holding a substitution, ``${...}`` with quotes inside, unbalanced quotes, an ``eval``
or ``sh -c`` whose text is only known at run time. A caller that gets :class:`Opaque` leaves the
line alone, so reading too little can only cost a rewrite, never a permission.

Why not ``bashlex``: importing it takes about 150 ms, several times a whole ``python -c pass``,
and the hook runs before every command; it also misses commands inside ``${X:-$(cmd)}``. The
tests parse the same lines with it as a second opinion. The standard library only, without ``re``
or ``shlex``, for the same start-up reason.
"""

from __future__ import annotations

__all__ = ["SHELLS", "Line", "Opaque", "Pipeline", "Redirect", "Simple", "Word", "parse", "skip_wrappers"]

_BLANK = " \t"
_META = " \t\n;&|<>()"
_RESERVED = frozenset(
    [
        "if",
        "then",
        "else",
        "elif",
        "fi",
        "do",
        "done",
        "case",
        "esac",
        "while",
        "until",
        "for",
        "in",
        "function",
        "select",
        "coproc",
        "{",
        "}",
        "!",
        "[[",
        "]]",
        "((",
        "))",
    ]
)
SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "busybox"})
_DEPTH = 20


class Opaque(Exception):
    """The line holds something :func:`parse` does not read; the reason is the message."""


class Word:
    """One shell word: ``text`` with quotes removed (expansions kept as written), ``raw`` as typed."""

    __slots__ = ("dynamic", "end", "raw", "start", "text")

    def __init__(self, text: str, raw: str, dynamic: bool, start: int, end: int) -> None:
        self.text, self.raw, self.dynamic, self.start, self.end = text, raw, dynamic, start, end

    def __repr__(self) -> str:
        return f"Word({self.text!r})"


class Redirect:
    """A redirection: its operator (``>``, ``2>&``, ``<<<`` ...) and its target word."""

    __slots__ = ("op", "target")

    def __init__(self, op: str, target: Word) -> None:
        self.op, self.target = op, target


class Simple:
    """One simple command: leading assignments, words, redirections, and where it sits."""

    __slots__ = ("assigns", "end", "nested", "redirects", "start", "words")

    def __init__(self, start: int, nested: bool) -> None:
        self.assigns: list[Word] = []
        self.words: list[Word] = []
        self.redirects: list[Redirect] = []
        self.start = self.end = start
        self.nested = nested  # inside a substitution, an eval or an `sh -c` string

    @property
    def argv(self) -> list[str]:
        """The words (quotes removed), program first."""
        return [w.text for w in self.words]

    def text(self, assigns: bool = True) -> str:
        """The command as rule patterns see it: words joined by single spaces."""
        return " ".join(w.text for w in (self.assigns if assigns else []) + self.words)

    def __repr__(self) -> str:
        return f"Simple({self.text()!r})"


class Pipeline:
    """Commands joined by ``|``, and the operator that follows (``&&``, ``||``, ``;``, ``&`` or ``""``)."""

    __slots__ = ("commands", "op")

    def __init__(self, commands: list[Simple], op: str) -> None:
        self.commands, self.op = commands, op


class Line:
    """A parsed command line: its top-level pipelines and every simple command it can run."""

    __slots__ = ("commands", "pipelines", "source")

    def __init__(self, source: str) -> None:
        self.source = source
        self.pipelines: list[Pipeline] = []
        self.commands: list[Simple] = []  # top-level and nested, in the order they were read

    @property
    def background(self) -> bool:
        """Does any top-level pipeline end with ``&``?"""
        return any(p.op == "&" for p in self.pipelines)

    @property
    def nested(self) -> list[Simple]:
        """The commands inside substitutions, ``eval`` and ``sh -c`` strings."""
        return [c for c in self.commands if c.nested]


def parse(source: str) -> Line:
    """Every simple command ``source`` can run (see the module docstring); :class:`Opaque` if unsure."""
    line = Line(source)
    parser = _Parser(source, line, depth=0)
    line.pipelines = parser.parse_list(stop="", nested=False)
    if not line.commands:
        raise Opaque("empty")
    return line


def _name_end(raw: str) -> int:
    """Length of a leading shell variable name in ``raw`` (0 when none)."""
    if not raw or not (raw[0].isalpha() or raw[0] == "_"):
        return 0
    i = 1
    while i < len(raw) and (raw[i].isalnum() or raw[i] == "_"):
        i += 1
    return i


def _is_assignment(raw: str) -> bool:
    i = _name_end(raw)
    if not i:
        return False
    if raw[i : i + 1] == "[" or raw[i : i + 2] == "=(":
        raise Opaque("array assignment")
    return raw[i : i + 1] == "=" or raw[i : i + 2] == "+="


class _Parser:
    """Recursive descent over one string; positions index into it."""

    def __init__(self, src: str, line: Line, depth: int) -> None:
        if depth > _DEPTH:
            raise Opaque("nested too deep")
        self.src, self.line, self.depth, self.i = src, line, depth, 0

    # --- lists, pipelines, commands ------------------------------------------------------------

    def _skip_blanks(self) -> None:
        src, n = self.src, len(self.src)
        while self.i < n:
            ch = src[self.i]
            if ch in _BLANK:
                self.i += 1
            elif ch == "\\" and src[self.i + 1 : self.i + 2] == "\n":
                self.i += 2
            elif ch == "#":
                while self.i < n and src[self.i] != "\n":
                    self.i += 1
            else:
                return

    def parse_list(self, stop: str, nested: bool) -> list[Pipeline]:
        """Pipelines up to ``stop`` (``")"``) or the end of the string."""
        src, n = self.src, len(self.src)
        out: list[Pipeline] = []
        while True:
            self._skip_blanks()
            if self.i < n and src[self.i] == "\n":
                self.i += 1
                continue
            if self.i >= n or (stop and src[self.i] == stop):
                if stop and self.i >= n:
                    raise Opaque("unbalanced parenthesis")
                return out
            commands = self._pipeline(nested)
            self._skip_blanks()
            op = ""
            two = src[self.i : self.i + 2]
            if two in ("&&", "||"):
                op, self.i = two, self.i + 2
            elif two == ";;" or two == ";&":
                raise Opaque("case clause")
            elif self.i < n and src[self.i] in ";&\n":
                op, self.i = src[self.i], self.i + 1
            elif self.i < n and not (stop and src[self.i] == stop):
                raise Opaque(f"unexpected {src[self.i]!r}")
            out.append(Pipeline(commands, "\n" if op == "\n" else op))
            if op in ("&&", "||"):
                self._skip_blanks()
                while self.i < n and src[self.i] == "\n":
                    self.i += 1
                    self._skip_blanks()
                if self.i >= n or (stop and src[self.i] == stop):
                    raise Opaque(f"nothing after {op}")

    def _pipeline(self, nested: bool) -> list[Simple]:
        src = self.src
        commands = [self._command(nested)]
        while True:
            self._skip_blanks()
            if src[self.i : self.i + 1] == "|" and src[self.i : self.i + 2] != "||":
                self.i += 2 if src[self.i : self.i + 2] == "|&" else 1
                self._skip_blanks()
                while src[self.i : self.i + 1] == "\n":
                    self.i += 1
                    self._skip_blanks()
                commands.append(self._command(nested))
            else:
                return commands

    def _command(self, nested: bool) -> Simple:
        src, n = self.src, len(self.src)
        self._skip_blanks()
        cmd = Simple(self.i, nested)
        while True:
            self._skip_blanks()
            if self.i >= n:
                break
            ch = src[self.i]
            if ch in "<>" or (ch == "&" and src[self.i + 1 : self.i + 2] == ">"):
                self._redirect(cmd, "")
                continue
            if ch == "(":
                raise Opaque("subshell or function" if cmd.words or cmd.assigns else "subshell")
            if ch in ";&|)\n":
                break
            word = self._word()
            if word.raw.isdigit() and src[self.i : self.i + 1] in ("<", ">"):
                self._redirect(cmd, word.raw)  # `2>&1`: the digits name a descriptor
                continue
            if not cmd.words and _is_assignment(word.raw):
                cmd.assigns.append(word)
            elif not cmd.words and word.raw in _RESERVED:
                raise Opaque(f"compound command ({word.raw})")
            else:
                cmd.words.append(word)
        if not cmd.words and not cmd.assigns:
            raise Opaque("empty command")
        ends = [w.end for w in cmd.assigns + cmd.words] + [r.target.end for r in cmd.redirects]
        cmd.end = max(ends)
        self.line.commands.append(cmd)
        self._inner_script(cmd)
        return cmd

    def _redirect(self, cmd: Simple, fd: str) -> None:
        src = self.src
        start = self.i
        if src[start : start + 2] in ("<(", ">("):
            cmd.words.append(self._word())  # a process substitution is a word
            return
        if src.startswith("<<", start) and not src.startswith("<<<", start):
            raise Opaque("heredoc")
        j = start
        while j < len(src) and j - start < 3 and src[j] in "<>&|":
            if src[j] == "|" and src[j - 1 : j] != ">":
                break
            j += 1
        op = fd + src[start:j]
        self.i = j
        self._skip_blanks()
        if self.i >= len(src) or src[self.i] in _META:
            if op.endswith("&") and src[self.i : self.i + 1] == "-":
                self.i += 1
            else:
                raise Opaque(f"redirection without a target ({op})")
        target = (
            self._word() if self.i < len(src) and src[self.i] not in _META else Word("-", "-", False, j, j)
        )
        cmd.redirects.append(Redirect(op, target))

    # --- eval and sh -c: a string that is itself a command line --------------------------------

    def _inner_script(self, cmd: Simple) -> None:
        argv = cmd.words
        k = skip_wrappers([w.text for w in argv])
        if k >= len(argv):
            return
        program = argv[k].text.rsplit("/", 1)[-1]
        script: list[Word] | None = None
        if program == "eval":
            script = argv[k + 1 :]
        elif program in SHELLS:
            # Any `-c`-bearing option (`-c`, `-lc`, after `-o pipefail` ...) makes the next word a script.
            rest = argv[k + 1 :]
            for pos, word in enumerate(rest):
                if word.text[:1] == "-" and word.text[1:2] != "-" and "c" in word.text:
                    script = rest[pos + 1 : pos + 2]
                    break
        if script is None:
            return
        if any(w.dynamic for w in script):
            raise Opaque(f"{program} runs a string known only at run time")
        text = " ".join(w.text for w in script)
        inner = _Parser(text, self.line, self.depth + 1)
        inner.parse_list(stop="", nested=True)

    # --- words ---------------------------------------------------------------------------------

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
            if ch in _META:
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
            j = _name_end(src[self.i : self.i + 256])
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
        _Parser("".join(body), self.line, self.depth + 1).parse_list(stop="", nested=True)
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


# Programs that run the rest of their arguments as a command, and how many arguments of their own
# they take before it (options, then a fixed count of operands).
_WRAPPERS = {"timeout": 1, "nice": 0, "nohup": 0, "time": 0, "stdbuf": 0, "command": 0, "exec": 0, "env": 0}
_WITH_VALUE = {"timeout": ("-s", "-k", "--signal", "--kill-after"), "nice": ("-n", "--adjustment")}


def skip_wrappers(argv: list[str]) -> int:
    """Index of the program that runs after ``timeout 5 nice -n 2 env X=1 ...`` wrappers."""
    k = 0
    while k < len(argv):
        name = argv[k].rsplit("/", 1)[-1]
        if name not in _WRAPPERS:
            return k
        k += 1
        while k < len(argv) and argv[k].startswith("-") and argv[k] != "--":
            k += 2 if argv[k] in _WITH_VALUE.get(name, ()) else 1
        if k < len(argv) and argv[k] == "--":
            k += 1
        if name == "env":
            while k < len(argv) and _name_end(argv[k]) and "=" in argv[k]:
                k += 1
        k += _WRAPPERS[name]
    return k
