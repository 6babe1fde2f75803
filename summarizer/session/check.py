"""The structural and lexical check a model's session document passes before it is saved.

A model's answer is untrusted: it may echo the prompt's skeleton, invent files, put words in the
user's mouth or carry an instruction it read in the transcript. :func:`check_document` raises
:class:`~summarizer.core.errors.InvalidAnswer` with the first reason found; the caller then saves the
deterministic document instead and reports the reason (``--json`` ``fallback_reason``, stderr).

1. **Structure**: the first line is ``## Session Compression — <date>``; every other heading is a
   ``### `` heading of :data:`~.document.SECTIONS`, each at most once and in that order (an empty
   section may be left out); no other heading level (no nested ``####`` or a second ``##``).
2. **No skeleton echo**: no template placeholder (``{X}``, ``{{ ... }}``, ``<path>``), no bare
   variables of the skeleton ("Tried X: failed because Y"), no role tags (``[assistant]``,
   ``[tool call]``) on items.
3. **Files are facts**: every path under Files Modified was edited by a tool call in the transcript.
4. **Instructions come from the user**: each Instructions item shares at least
   :data:`INSTRUCTION_SUPPORT` (60%) of its content words with one single user message.
5. **Everything else is supported**: each other item shares at least :data:`ITEM_SUPPORT` (50%)
   of its content words with the transcript (words of 3+ letters, a short stop list removed).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from summarizer.core.errors import InvalidAnswer
from summarizer.session.document import SECTIONS, item_key, parse, split_tag

__all__ = ["INSTRUCTION_SUPPORT", "ITEM_SUPPORT", "check_document", "content_words"]

INSTRUCTION_SUPPORT = 0.6
ITEM_SUPPORT = 0.5
_TITLES = [title for _, title in SECTIONS]
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
_PLACEHOLDER = re.compile(
    r"\{[^{}\n]{0,60}\}|\{\{|\}\}|<(?:path|file|name|x|y|decision|rationale|[a-z ]{3,30})>", re.IGNORECASE
)
_SKELETON_VARS = re.compile(
    r"\bTried [XYZ]\b|\bbecause [XYZ]\b|\bfound in (?:file/module|[XYZ])\b|"
    r"\b[XYZ]: [XYZ]\b"
)
_ROLE_TAG = re.compile(
    r"\[(?:assistant|user|tool(?: call| result)?|system|developer|human|ai)\]", re.IGNORECASE
)
_WORD = re.compile(r"[a-z0-9_]{3,}")
_STOP = frozenset(
    (  # noqa: SIM905 - a word list reads better as one string
        "the and for that this with from have has had was were are not but its into then than them "
        "they you your our out all any can will would should could been being also just use used "
        "using one two via per yet"
    ).split()
)
_PATH = re.compile(r"`([^`]+)`")


def content_words(text: str) -> set[str]:
    """The words the lexical checks compare: lower-case, 3+ characters, stop words removed."""
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP}


def check_document(
    answer: str, *, edited: Iterable[str], user_messages: Iterable[str], transcript: str
) -> None:
    """Raise :class:`InvalidAnswer` naming the first rule ``answer`` breaks (see the module docstring).

    Args:
        answer: the model's document.
        edited: the paths the transcript's edit/write calls touched (relative or absolute).
        user_messages: each user message's text.
        transcript: the text the model was given.
    """
    _check_headings(answer)
    for line in answer.splitlines():
        if _PLACEHOLDER.search(line) or _SKELETON_VARS.search(line):
            raise InvalidAnswer(f"the answer echoes the prompt's skeleton: {line.strip()[:80]!r}")
        if _ROLE_TAG.search(line):
            raise InvalidAnswer(f"the answer carries a role tag: {line.strip()[:80]!r}")
    doc = parse(answer)
    paths = {p.strip() for p in edited}
    for item in doc.section("files"):
        named = _PATH.search(item)
        path = named.group(1) if named else item_key(item).split(" ")[0]
        if not any(path == p or p.endswith("/" + path) or path.endswith("/" + p) for p in paths):
            raise InvalidAnswer(f"file {path!r} is listed as modified but the transcript never edited it")
    said = [content_words(m) for m in user_messages]
    for item in doc.section("instructions"):
        words = content_words(split_tag(item)[0])
        if words and not any(len(words & s) >= INSTRUCTION_SUPPORT * len(words) for s in said):
            raise InvalidAnswer(f"instruction not stated by the user: {item[:80]!r}")
    corpus = content_words(transcript)
    for key, _ in SECTIONS:
        if key in {"files", "instructions"}:
            continue
        for item in doc.section(key):
            words = content_words(split_tag(item)[0])
            if words and len(words & corpus) < ITEM_SUPPORT * len(words):
                raise InvalidAnswer(f"item not supported by the transcript: {item[:80]!r}")


def _check_headings(answer: str) -> None:
    lines = [line for line in answer.splitlines() if line.strip()]
    if not lines or not re.match(r"^##\s+Session Compression\s+[—–-]\s+\S+", lines[0]):
        raise InvalidAnswer("the answer does not start with '## Session Compression — <date>'")
    position = -1
    for line in lines[1:]:
        heading = _HEADING.match(line)
        if heading is None:
            continue
        level, title = len(heading.group(1)), heading.group(2)
        if level != 3:
            raise InvalidAnswer(f"unexpected heading level: {line.strip()[:80]!r}")
        if title not in _TITLES:
            raise InvalidAnswer(f"unexpected section {title!r}; expected only {', '.join(_TITLES)}")
        index = _TITLES.index(title)
        if index <= position:
            raise InvalidAnswer(f"section {title!r} is repeated or out of order")
        position = index
