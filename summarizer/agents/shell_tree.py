"""The parsed form of a shell line: words, redirections, simple commands, pipelines.

:func:`summarizer.agents.shell.parse` builds these; the hooks and permission checks read them. They
are plain slotted classes, not dataclasses or pydantic models, because the hook imports them before
every command an agent runs and only the standard library is cheap enough there.
"""

from __future__ import annotations

__all__ = ["Line", "Opaque", "Pipeline", "Redirect", "Simple", "Word", "name_end"]


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


def name_end(raw: str) -> int:
    """Length of a leading shell variable name in ``raw`` (0 when none).

    Shared by the assignment test of the reader and ``env X=1`` in ``skip_wrappers``, so both
    agree on what a variable name is.
    """
    if not raw or not (raw[0].isalpha() or raw[0] == "_"):
        return 0
    i = 1
    while i < len(raw) and (raw[i].isalnum() or raw[i] == "_"):
        i += 1
    return i
