"""Raw mode: ``SUMMARIZER_RAW=1`` (a whole session) or ``run --raw`` (one command) passes output
through untouched: no compression, no rules, nothing stored. The standard library only."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import BinaryIO

__all__ = ["copy_raw", "raw_requested"]

_OFF = ("", "0", "false", "no", "off")


def raw_requested(env: Mapping[str, str]) -> bool:
    """``SUMMARIZER_RAW`` set to anything but empty, ``0``, ``false``, ``no`` or ``off``."""
    return env.get("SUMMARIZER_RAW", "").strip().lower() not in _OFF


def copy_raw(stream: BinaryIO, out: BinaryIO, block: int = 1 << 20) -> int:
    """Copy ``stream`` to ``out`` unchanged; the number of bytes copied."""
    size = 0
    while data := stream.read(block):
        out.write(data)
        size += len(data)
    out.flush()
    return size
