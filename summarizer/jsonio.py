"""Parsing untrusted JSON without tracebacks.

``json.loads`` raises more than ``JSONDecodeError`` on hostile input: ``RecursionError`` for arrays
nested ~100,000 deep and ``ValueError`` for integers longer than Python converts (4,300 digits).
Both would escape the callers' ``except JSONDecodeError`` and print a traceback, so every parser of
user input goes through :func:`loads`, which turns them into an :class:`InputError` and leaves
``JSONDecodeError`` to the caller (who words the position for its own format). A lone surrogate
escape (``"\udc80"``) parses but cannot be written as UTF-8 later, so it is refused here too.
"""

from __future__ import annotations

import json
import re
from typing import Any

from summarizer.errors import InputError

__all__ = ["loads", "pretty"]

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
