"""Topic-key suggestion: engram's ``SuggestTopicKey``, a pure function of type, title and content.

A topic key is ``family/segment``. The family comes from the type when it is one engram knows, else
from substring tests on the text (engram's tests pin the order, false positives included: "prefix"
contains "fix" and therefore suggests ``bug/``). The segment is the title reduced to ``[a-z0-9-]``, or
the first eight words of the content when the title has none.
"""

from __future__ import annotations

import re

from summarizer_engram.normalize import strip_private

__all__ = ["infer_family", "normalize_segment", "suggest_topic_key"]

_TYPE_FAMILIES = {
    **dict.fromkeys(("architecture", "design", "adr", "refactor"), "architecture"),
    **dict.fromkeys(("bug", "bugfix", "fix", "incident", "hotfix"), "bug"),
    "decision": "decision",
    **dict.fromkeys(("pattern", "convention", "guideline"), "pattern"),
    **dict.fromkeys(("config", "setup", "infra", "infrastructure", "ci"), "config"),
    **dict.fromkeys(("discovery", "investigation", "root_cause", "root-cause"), "discovery"),
    **dict.fromkeys(("learning", "learn"), "learning"),
    "session_summary": "session",
}

# Order matters: the first family whose word occurs anywhere in the text wins.
_TEXT_FAMILIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("bug", ("bug", "fix", "panic", "error", "crash", "regression", "incident", "hotfix")),
    ("architecture", ("architecture", "design", "adr", "boundary", "hexagonal", "refactor")),
    ("decision", ("decision", "tradeoff", "chose", "choose", "decide")),
    ("pattern", ("pattern", "convention", "naming", "guideline")),
    ("config", ("config", "setup", "environment", "env", "docker", "pipeline")),
    ("discovery", ("discovery", "investigate", "investigation", "found", "root cause")),
    ("learning", ("learned", "learning")),
)

_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def normalize_segment(text: str) -> str:
    """Lower-case ASCII letters and digits joined by ``-``, at most 100 characters.

    Non-ASCII letters are separators, as in engram: ``"Migración"`` becomes ``"migraci-n"``.
    """
    value = _NON_ALNUM.sub(" ", text.strip().lower())
    return "-".join(value.split())[:100]


def infer_family(type_: str, title: str, content: str) -> str:
    """The topic family for an observation (``architecture``, ``bug``, ... or ``topic``)."""
    kind = type_.strip().lower()
    if kind in _TYPE_FAMILIES:
        return _TYPE_FAMILIES[kind]
    text = f"{title} {content}".lower()
    for family, words in _TEXT_FAMILIES:
        if any(word in text for word in words):
            return family
    if kind not in ("", "manual"):
        return normalize_segment(kind)
    return "topic"


def suggest_topic_key(type_: str, title: str, content: str) -> str:
    """A stable ``family/segment`` key for the observation (engram's ``SuggestTopicKey``)."""
    family = infer_family(type_, title, content)
    segment = normalize_segment(strip_private(title))
    if not segment:
        words = strip_private(content).lower().split()[:8]
        segment = normalize_segment(" ".join(words))
    if not segment:
        segment = "general"
    if segment.startswith(family + "-"):
        segment = segment[len(family) + 1 :]
    if segment in ("", family):
        segment = "general"
    return f"{family}/{segment}"
