"""Shared edge helpers for the CLI: reading input safely and turning errors into exit codes."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import click

from summarizer.errors import SummarizerError
from summarizer.inputs import read_bytes, read_json_object, read_text
from summarizer.jsonio import pretty

__all__ = ["emit_json", "fail", "handle_errors", "read_bytes", "read_json_object", "read_text"]

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
