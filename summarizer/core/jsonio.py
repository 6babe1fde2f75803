"""Parsing untrusted JSON without tracebacks.

``json.loads`` raises more than ``JSONDecodeError`` on hostile input: ``RecursionError`` for arrays
nested ~100,000 deep and ``ValueError`` for integers longer than Python converts (4,300 digits).
Both would escape the callers' ``except JSONDecodeError`` and print a traceback, so every parser of
user input goes through :func:`loads`, which turns them into an :class:`InputError` and leaves
``JSONDecodeError`` to the caller (who words the position for its own format). A lone surrogate
escape (``"\udc80"``) parses but cannot be written as UTF-8 later, so it is refused here too.

Before any of that, every input is *read with a limit* (:func:`read_limited`): ``/dev/zero``, an
endless pipe or a 2 GB file would otherwise be read whole and end in a MemoryError. The limit is
``SUMMARIZER_MAX_INPUT_BYTES`` (``256M`` by default; ``512K``, ``1G`` or plain bytes), enough for
any real entry batch or transcript; past it the reader stops at once with one line saying how to
raise it. A regular file is judged by its size before a byte is read; a stream is read in 1 MiB
blocks and abandoned one byte past the limit, so memory stays within the limit plus one block.
``summarizer output`` streams instead and does not use this reader.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from typing import Any, BinaryIO

from summarizer.core.errors import InputError

__all__ = [
    "DEFAULT_INPUT_LIMIT",
    "check_size",
    "human_size",
    "input_limit",
    "json_type",
    "loads",
    "pretty",
    "read_limited",
    "request_id",
    "too_large",
]

DEFAULT_INPUT_LIMIT = 256 * 1024 * 1024
_BLOCK = 1 << 20
_SIZE = re.compile(r"(?i)^\s*(\d+)\s*([kmg]i?b?|b)?\s*$")
_UNITS = {"": 1, "b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}

# A \uD800-\uDFFF escape may be half of a valid pair; only then is the (costlier) check needed.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def loads(text: str, *, source: str) -> Any:
    """``json.loads(text)``; hostile-but-syntactically-valid JSON becomes an :class:`InputError`."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise InputError(f"{source} is nested too deeply to read; flatten the JSON") from None
    except ValueError as exc:  # e.g. "Exceeds the limit (4300 digits) for integer string conversion"
        reason = str(exc).split(";")[0]
        raise InputError(f"{source} holds a value that cannot be read ({reason}); remove it") from None
    if _SURROGATE_ESCAPE.search(text):
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise InputError(
                f"{source} holds a lone UTF-16 surrogate escape (not valid Unicode); fix the producer"
            ) from None
    return value


def pretty(value: Any) -> str:
    """How the CLI prints JSON: indented, UTF-8 as is, anything unknown as its ``str``."""
    return json.dumps(value, ensure_ascii=False, indent=2, default=str)


def input_limit(env: Mapping[str, str]) -> int:
    """The input limit in bytes from ``SUMMARIZER_MAX_INPUT_BYTES`` (``256M`` when unset)."""
    raw = env.get("SUMMARIZER_MAX_INPUT_BYTES", "").strip()
    if not raw:
        return DEFAULT_INPUT_LIMIT
    match = _SIZE.match(raw)
    if match is None or int(match.group(1)) <= 0:
        raise InputError(
            f"SUMMARIZER_MAX_INPUT_BYTES={raw!r} is not a size; use bytes or a number with K, M or G (256M)"
        )
    return int(match.group(1)) * _UNITS[(match.group(2) or "")[:1].lower()]


def human_size(size: int) -> str:
    """``1 MiB``, ``256 MiB``, or plain bytes when the size is not a whole unit."""
    for unit, factor in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if size >= factor and size % factor == 0:
            return f"{size // factor} {unit}iB"
    return f"{size} bytes"


def too_large(what: str, source: str, limit: int) -> InputError:
    """The one-line error for an input past the limit (shared by every reader, cold path included)."""
    return InputError(
        f"{what} {source!r} is larger than {human_size(limit)}; pass a smaller input, or raise "
        f"SUMMARIZER_MAX_INPUT_BYTES (e.g. {human_size(limit * 2).replace(' ', '').replace('iB', '')})"
    )


def check_size(path: str, *, limit: int, what: str) -> None:
    """Refuse a regular file larger than ``limit`` before reading it (devices and pipes pass)."""
    try:
        size = os.stat(path).st_size
    except OSError:
        return  # the reader reports a missing or unreadable file in its own words
    if size > limit:
        raise too_large(what, path, limit)


def read_limited(stream: BinaryIO, *, limit: int, what: str, source: str) -> bytes:
    """Read ``stream`` to the end, or raise :func:`too_large` one byte past ``limit``."""
    blocks: list[bytes] = []
    total = 0
    while block := stream.read(min(_BLOCK, limit + 1 - total)):
        blocks.append(block)
        total += len(block)
        if total > limit:
            blocks.clear()  # let the memory go before the error travels up
            raise too_large(what, source, limit)
    return b"".join(blocks)


_ID_VALUE = re.compile(r'\s*:\s*(-?\d{1,18}(?![\d.eE])|"(?:[^"\\\n]|\\.){0,200}")')


def request_id(text: str, *, scan: int = 1 << 16) -> int | str | None:
    """The top-level ``"id"`` of a JSON-RPC message that ``json`` cannot load (nested too deeply, a
    number too long, cut off): a server must still answer the client waiting on that id.

    A small scanner over the first ``scan`` characters: it skips strings, tracks the nesting depth
    and reads the value of an ``"id"`` key at depth 1 only (an ``id`` inside the arguments is not
    the request's). ``None`` when there is none, or it is neither an integer nor a string.

    >>> request_id('{"jsonrpc": "2.0", "params": {"id": 7}, "id": 12, "x": [[[[')
    12
    """
    depth, i, end = 0, 0, min(len(text), scan)
    while i < end:
        ch = text[i]
        if ch == '"':
            close = i + 1
            while close < end and text[close] != '"':
                close += 2 if text[close] == "\\" else 1
            if depth == 1 and text[i : close + 1] == '"id"' and (m := _ID_VALUE.match(text, close + 1)):
                value = m.group(1)
                return str(json.loads(value)) if value.startswith('"') else int(value)
            i = close + 1
            continue
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        i += 1
    return None


def json_type(value: object) -> str:
    """The JSON name of a parsed value's type, for messages (``null``, not ``NoneType``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, dict) else type(value).__name__
