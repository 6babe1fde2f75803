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

This module is the command finder (lists, pipelines, simple commands, ``eval``/``sh -c``);
:mod:`summarizer.agents.shell_words` reads the words, :mod:`summarizer.agents.shell_tree` holds
what both build.
"""

from __future__ import annotations

from summarizer.agents.shell_tree import Line, Opaque, Pipeline, Redirect, Simple, Word, name_end
from summarizer.agents.shell_words import META, WordReader

__all__ = ["SHELLS", "Line", "Opaque", "Pipeline", "Redirect", "Simple", "Word", "parse", "skip_wrappers"]

# Words that open or close a compound command when they come first: the line is then beyond the reader.
_RESERVED = frozenset(
    {"if", "then", "else", "elif", "fi", "do", "done", "case", "esac", "while", "until", "for", "in"}
    | {"function", "select", "coproc", "{", "}", "!", "[[", "]]", "((", "))"}
)
SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "busybox"})


def parse(source: str) -> Line:
    """Every simple command ``source`` can run (see the module docstring); :class:`Opaque` if unsure."""
    line = Line(source)
    parser = _Parser(source, line, depth=0)
    line.pipelines = parser.parse_list(stop="", nested=False)
    if not line.commands:
        raise Opaque("empty")
    return line


def _is_assignment(raw: str) -> bool:
    i = name_end(raw)
    if not i:
        return False
    if raw[i : i + 1] == "[" or raw[i : i + 2] == "=(":
        raise Opaque("array assignment")
    return raw[i : i + 1] == "=" or raw[i : i + 2] == "+="


class _Parser(WordReader):
    """The command finder: lists, pipelines, simple commands, and the scripts of ``eval``/``sh -c``."""

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
        if self.i >= len(src) or src[self.i] in META:
            if op.endswith("&") and src[self.i : self.i + 1] == "-":
                self.i += 1
            else:
                raise Opaque(f"redirection without a target ({op})")
        target = (
            self._word() if self.i < len(src) and src[self.i] not in META else Word("-", "-", False, j, j)
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


_WRAPPERS = {"timeout": 1, "nice": 0, "nohup": 0, "time": 0, "stdbuf": 0, "command": 0, "exec": 0, "env": 0}
_WITH_VALUE = {"timeout": ("-s", "-k", "--signal", "--kill-after"), "nice": ("-n", "--adjustment")}


def skip_wrappers(argv: list[str]) -> int:
    """Index of the program that runs after ``timeout 5 nice -n 2 env X=1 ...`` wrappers.

    Permission rules and the ``sh -c``/``eval`` finder must judge the program that really runs,
    not the ``timeout`` or ``env`` in front of it.
    """
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
            while k < len(argv) and name_end(argv[k]) and "=" in argv[k]:
                k += 1
        k += _WRAPPERS[name]
    return k
