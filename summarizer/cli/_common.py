"""Shared edge helpers for the CLI: reading input safely and turning errors into exit codes."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

import click

from summarizer.core.errors import SummarizerError
from summarizer.core.inputs import read_bytes, read_json_object, read_text
from summarizer.core.jsonio import pretty

__all__ = [
    "SafeText",
    "emit_json",
    "fail",
    "handle_errors",
    "read_bytes",
    "read_json_object",
    "read_text",
]

P = ParamSpec("P")
R = TypeVar("R")


def fail(message: str, code: int) -> None:
    """Print one line to stderr and exit with ``code``."""
    click.echo(f"summarizer: {message}", err=True)
    sys.exit(code)


def handle_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Map our typed errors to a one-line message and the documented exit code."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except SummarizerError as exc:
            fail(str(exc).splitlines()[0] if str(exc) else type(exc).__name__, exc.exit_code)
        except BrokenPipeError:
            raise  # the reader of stdout went away (`| head`): click exits 1 quietly, as tools do
        except OSError as exc:  # disk full, permission denied, read-only filesystem
            fail(f"{exc.strerror or exc} ({exc.filename or 'I/O'}); check the path and permissions", 1)
        raise AssertionError("unreachable")

    return wrapper


def emit_json(value: Any) -> None:
    """Print ``value`` as JSON on stdout."""
    click.echo(pretty(value))


class SafeText:
    """A text stream that prints no terminal escape, control, zero-width or bidi character.

    Summaries, documents and reports repeat untrusted text; an ``ESC]0;...`` or ``ESC[2J`` in a
    summary would retitle or clear the user's terminal, and a bidi override would make a line read
    differently from what it says. Every text command prints through this (installed by the CLI
    group); byte output (``output``, ``restore``) goes to ``.buffer`` untouched, as it must.
    """

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def write(self, text: str) -> int:
        """Write ``text`` without what :func:`~summarizer.semantic.untrusted.neutralise` removes."""
        if isinstance(text, str):
            from summarizer.core.printable import neutralise

            text = neutralise(text)
        return int(self._inner.write(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def run_async(coroutine: Coroutine[Any, Any, R]) -> R:
    """Run one use case's coroutine: the one event loop of a CLI process (the core is async).

    asyncio is imported here, on use, so the commands that never call a model do not pay for it.
    """
    import asyncio

    return asyncio.run(coroutine)
