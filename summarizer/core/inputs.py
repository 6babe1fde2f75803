"""Reading the user's input at the edges: a file path or ``-`` (stdin), strict UTF-8, one JSON object.

Shared by the CLI and the MCP server (neither imports the other). Every failure is an
:class:`~summarizer.core.errors.InputError` whose one line says what to pass instead.
"""

from __future__ import annotations

import json
import os
import select
import stat
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, BinaryIO

from summarizer.core.errors import InputError
from summarizer.core.jsonio import check_size, human_size, input_limit, json_type, loads, read_limited

__all__ = [
    "HOOK_INPUT_LIMIT",
    "fifo_wait",
    "json_object",
    "open_input",
    "read_bytes",
    "read_json_object",
    "read_text",
]


# A hook's JSON (Claude Code's PreCompact/SessionStart payload) is a few hundred bytes of paths and
# ids: 1 MiB is generous, and `recover --hook < /dev/zero` stops there instead of filling memory.
HOOK_INPUT_LIMIT = 1 << 20
DEFAULT_FIFO_WAIT = 10.0


def fifo_wait(env: Mapping[str, str]) -> float:
    """Seconds to wait for a named pipe's writer (``SUMMARIZER_FIFO_WAIT``, 10 by default)."""
    raw = env.get("SUMMARIZER_FIFO_WAIT", "").strip()
    try:
        return max(0.0, float(raw)) if raw else DEFAULT_FIFO_WAIT
    except ValueError:
        raise InputError(f"SUMMARIZER_FIFO_WAIT={raw!r} is not a number of seconds; use e.g. 10") from None


def open_input(source: str, *, what: str = "input") -> BinaryIO:
    """Open a file for reading; a missing file or a directory is an :class:`InputError`.

    A named pipe (FIFO) is opened without blocking and waited on for at most
    ``SUMMARIZER_FIFO_WAIT`` seconds: one with no writer would otherwise hang the command (and an
    MCP request) for ever. Other files, devices and process substitutions (``<(cmd)``, already
    connected) open as usual.
    """
    path = Path(source)
    try:
        info = path.stat()
    except FileNotFoundError:
        raise InputError(f"file not found: {source!r}; pass an existing file or '-' for stdin") from None
    except OSError as exc:
        raise InputError(f"cannot read {source!r}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(info.st_mode):
        raise InputError(f"{source!r} is a directory; pass a file or '-' for stdin")
    try:
        if stat.S_ISFIFO(info.st_mode):
            return _open_fifo(source, what)
        return path.open("rb")
    except OSError as exc:
        raise InputError(f"cannot read {source!r}: {exc.strerror or exc}") from None


def _open_fifo(source: str, what: str) -> BinaryIO:
    wait = fifo_wait(os.environ)
    fd = os.open(source, os.O_RDONLY | os.O_NONBLOCK)
    try:
        ready, _, _ = select.select([fd], [], [], wait)
        if not ready:
            raise InputError(
                f"{what} {source!r} is a named pipe with no writer after {wait:g} s; start the writer "
                "first, or raise SUMMARIZER_FIFO_WAIT"
            )
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bytes(source: str, *, what: str = "input", limit: int | None = None) -> bytes:
    """Read a file path or ``-`` (stdin) as bytes, at most ``SUMMARIZER_MAX_INPUT_BYTES`` of them
    (see :mod:`summarizer.core.jsonio`), or ``limit`` when given (a hook's JSON: the variable does not
    raise it); a missing file, a named pipe nobody writes to or a larger input is an :class:`InputError`."""
    if limit is None:
        return _read(source, what, input_limit(os.environ))
    try:
        return _read(source, what, limit)
    except InputError as exc:
        if "larger than" not in str(exc):
            raise
        raise InputError(
            f"{what} {source!r} is larger than {human_size(limit)}; check what is piped in"
        ) from None


def _read(source: str, what: str, limit: int) -> bytes:
    if source == "-":
        return read_limited(sys.stdin.buffer, limit=limit, what=what, source=source)
    check_size(source, limit=limit, what=what)
    with open_input(source, what=what) as handle:
        return read_limited(handle, limit=limit, what=what, source=source)


def read_text(source: str, *, what: str = "input", limit: int | None = None) -> str:
    """Read strict UTF-8 text; invalid UTF-8, an empty or too large input is an :class:`InputError`."""
    data = read_bytes(source, what=what, limit=limit)
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
        raise InputError(f"{source!r} must hold a JSON object, not {json_type(value)}")
    return value


def json_object(value: object, *, source: str) -> dict[str, Any]:
    """A JSON object given either as an object or as JSON text (MCP clients send both)."""
    if isinstance(value, str):
        return read_json_object(value, source=source)
    if not isinstance(value, dict):
        raise InputError(f"{source!r} must hold a JSON object, not {json_type(value)}")
    return value
