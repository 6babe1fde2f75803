"""JSON for the cold paths (the Claude Code hook, the run ledger) without importing :mod:`json`.

The hook runs before every Bash command, and ``import json`` costs about half of ``python -c
pass`` on its own (``json.decoder`` compiles regular expressions, which pulls in ``re`` and
``enum``); ``run`` appends a ledger line on its fast path. The C accelerator :mod:`_json` that
:mod:`json` itself uses needs none of that: its scanner parses a document with the same rules, and
its string encoder writes the same escapes. :func:`loads` and :func:`dumps` give the same results
as ``json.loads`` and ``json.dumps`` (``ensure_ascii``; default separators, or ``","`` and ``":"``
with ``compact=True``) for the values these paths read and write; ``tests/core/test_fastjson.py``
checks that. Where :mod:`_json` is missing (another Python implementation), the standard module
is used.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["dumps", "loads"]

_WHITESPACE = " \t\n\r"


class _Context:
    """The attributes :func:`_json.make_scanner` reads from a ``json.JSONDecoder``."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int

    @staticmethod
    def parse_constant(name: str) -> float:
        return {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}[name]


try:
    from _json import encode_basestring_ascii as _quote
    from _json import make_scanner as _make_scanner

    # typeshed types the context argument as the scanner class itself; any object with the
    # attributes above is what the C code reads.
    _scan: Callable[[str, int], tuple[object, int]] | None = _make_scanner(_Context())  # type: ignore[arg-type]
except ImportError:  # pragma: no cover - CPython always has _json
    _scan = None


def loads(text: str | bytes) -> object:
    """Parse one JSON document (ValueError when it is not one)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    if _scan is None:  # pragma: no cover
        import json

        return json.loads(text)
    start = len(text) - len(text.lstrip(_WHITESPACE))
    try:
        value, end = _scan(text, start)
    except StopIteration as exc:
        raise ValueError(f"no JSON value at character {exc.value}") from None
    except SystemError:  # 3.11's scanner reports a syntax error only when json.decoder is loaded
        import json

        return json.loads(text)
    if text[end:].strip(_WHITESPACE):
        raise ValueError(f"extra data after the JSON value at character {end}")
    return value


def dumps(value: object, *, compact: bool = False) -> str:
    """``json.dumps(value)`` for dicts (string keys), lists, strings, numbers, booleans and None.

    ``compact``: no spaces after ``,`` and ``:`` (``separators=(",", ":")``), as one-line records want.
    """
    if _scan is None:  # pragma: no cover
        import json

        return json.dumps(value, separators=(",", ":") if compact else None)
    return _dumps(value, "," if compact else ", ", ":" if compact else ": ")


def _dumps(value: object, comma: str, colon: str) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return str(_quote(value))
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        return float.__repr__(value)
    if isinstance(value, dict):
        items = (f"{_quote(str(k))}{colon}{_dumps(v, comma, colon)}" for k, v in value.items())
        return "{" + comma.join(items) + "}"
    if isinstance(value, list | tuple):
        return "[" + comma.join(_dumps(v, comma, colon) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as JSON")
