"""Text that is safe to print: no terminal escape sequences, control or invisible characters.

Kernel module, standard library only: every printed line of the CLI passes through
:func:`neutralise` (untrusted tool output and model answers can carry escape sequences that a
terminal would act on), and the untrusted-data rules neutralise text the same way before they match it.
"""

from __future__ import annotations

import re

__all__ = ["neutralise"]

# Invisible or direction-changing characters: they split words for a regex but not for a reader.
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e"
    "\u2060-\u2064\u2066-\u206f\ufeff\ufe00-\ufe0e]"
)
# What a terminal would act on: CSI/OSC/other ESC sequences, then any C0/C1 control but tab/newline.
_TERMINAL = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])?|\x9b[0-?]*[ -/]*[@-~]"
)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def neutralise(text: str) -> str:
    """``text`` without terminal escape sequences, control characters (tab and newline stay) and
    invisible or bidi-override characters: safe to print, and what a reader sees is what it says."""
    text = _TERMINAL.sub("", text)
    return _INVISIBLE.sub("", _CONTROL.sub("", text))
