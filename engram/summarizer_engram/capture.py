"""Passive capture: find the "Key Learnings" an agent wrote in its output (engram's ``ExtractLearnings``).

Agents end a task with a section such as ``## Key Learnings:`` (or ``## Aprendizajes Clave:``, or
``### Learnings:``) holding a numbered or bulleted list. The *last* such section with at least one
usable item wins, because it is the most recent output; items shorter than 20 bytes after markdown
cleanup are noise and dropped. Storing the items is the store's job (``Store.passive_capture``); this
module only reads text.
"""

from __future__ import annotations

import re

__all__ = ["MIN_LEARNING_BYTES", "clean_markdown", "extract_learnings", "learning_title"]

MIN_LEARNING_BYTES = 20

_HEADER = re.compile(
    r"^#{2,3}[ \t]+(?:Aprendizajes(?:[ \t]+Clave)?|Key[ \t]+Learnings?|Learnings?):?[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)
_NEXT_HEADER = re.compile(r"\n#{1,3} ")
_NUMBERED = re.compile(r"^[ \t]*\d+[.)][ \t]+(.+)", re.MULTILINE)
_BULLET = re.compile(r"^[ \t]*[-*][ \t]+(.+)", re.MULTILINE)
_BOLD = re.compile(r"\*\*([^*]+)\*\*")
_CODE = re.compile(r"`([^`]+)`")
_ITALIC = re.compile(r"\*([^*]+)\*")


def clean_markdown(text: str) -> str:
    """Drop bold, inline-code and italic markers and collapse whitespace."""
    text = _ITALIC.sub(r"\1", _CODE.sub(r"\1", _BOLD.sub(r"\1", text)))
    return " ".join(text.split())


def _items(pattern: re.Pattern[str], section: str) -> list[str]:
    cleaned = (clean_markdown(m.group(1)) for m in pattern.finditer(section))
    return [item for item in cleaned if len(item.encode("utf-8")) >= MIN_LEARNING_BYTES]


def extract_learnings(text: str) -> list[str]:
    """The learning items of the last learnings section that has any; ``[]`` when there is none."""
    headers = list(_HEADER.finditer(text))
    for header in reversed(headers):
        section = text[header.end() :]
        if nxt := _NEXT_HEADER.search(section):
            section = section[: nxt.start()]
        items = _items(_NUMBERED, section) or _items(_BULLET, section)
        if items:
            return items
    return []


def learning_title(item: str) -> str:
    """The title engram gives a captured learning: its first 60 characters, ``...`` when longer."""
    return item if len(item) <= 60 else item[:60] + "..."
