"""Shared edge helpers for the CLI: reading input safely and turning errors into exit codes."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import click

from summarizer.errors import InputError, SummarizerError
from summarizer.jsonio import loads, pretty

__all__ = ["emit_json", "fail", "handle_errors", "read_json_object", "read_text"]

P = ParamSpec("P")
R = TypeVar("R")

MAX_TEXT_BYTES = 256 * 1024 * 1024


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


def read_bytes(source: str) -> bytes:
    """Read a file path or ``-`` (stdin) as bytes; a missing file is an :class:`InputError`."""
    if source == "-":
        return sys.stdin.buffer.read()
    path = Path(source)
    if not path.exists():
        raise InputError(f"file not found: {source!r}; pass an existing file or '-' for stdin")
    if path.is_dir():
        raise InputError(f"{source!r} is a directory; pass a file or '-' for stdin")
    return path.read_bytes()


def read_text(source: str, *, what: str = "input") -> str:
    """Read strict UTF-8 text; invalid UTF-8 or an empty input is an :class:`InputError`."""
    data = read_bytes(source)
    if not data.strip():
        raise InputError(f"{what} {source!r} is empty; give it some content")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{what} {source!r} is not valid UTF-8 (byte {exc.start}); convert it to UTF-8 first"
        ) from exc


def read_json_object(text: str, *, source: str) -> dict[str, Any]:
    """Parse one JSON object, with a one-line error naming the position."""
    try:
        value = loads(text, source=repr(source))
    except json.JSONDecodeError as exc:
        raise InputError(
            f"invalid JSON in {source!r} at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from exc
    if not isinstance(value, dict):
        raise InputError(f"{source!r} must hold a JSON object, not {type(value).__name__}")
    return value


def emit_json(value: Any) -> None:
    """Print ``value`` as JSON on stdout."""
    click.echo(pretty(value))
