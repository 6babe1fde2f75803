"""Reading the user's input at the edges: a file path or ``-`` (stdin), strict UTF-8, one JSON object.

Shared by the CLI and the MCP server (neither imports the other). Every failure is an
:class:`~summarizer.core.errors.InputError` whose one line says what to pass instead.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from summarizer.core.errors import InputError
from summarizer.core.jsonio import check_size, input_limit, json_type, loads, read_limited

__all__ = ["json_object", "read_bytes", "read_json_object", "read_text"]


def read_bytes(source: str, *, what: str = "input") -> bytes:
    """Read a file path or ``-`` (stdin) as bytes, at most ``SUMMARIZER_MAX_INPUT_BYTES`` of them
    (see :mod:`summarizer.core.jsonio`); a missing file or a larger input is an :class:`InputError`."""
    limit = input_limit(os.environ)
    if source == "-":
        return read_limited(sys.stdin.buffer, limit=limit, what=what, source=source)
    path = Path(source)
    if not path.exists():
        raise InputError(f"file not found: {source!r}; pass an existing file or '-' for stdin")
    if path.is_dir():
        raise InputError(f"{source!r} is a directory; pass a file or '-' for stdin")
    check_size(source, limit=limit, what=what)
    with path.open("rb") as handle:
        return read_limited(handle, limit=limit, what=what, source=source)


def read_text(source: str, *, what: str = "input") -> str:
    """Read strict UTF-8 text; invalid UTF-8, an empty or too large input is an :class:`InputError`."""
    data = read_bytes(source, what=what)
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
