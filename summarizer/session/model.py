"""The model's session document: the prompt, its answer limit, the check, the fallback.

With a model configured, the ``session`` prompt writes the document. The answer limit is the
prompt's own (the 2,000-token document with :data:`ANSWER_HEADROOM`) unless ``--max-tokens`` /
``SUMMARIZER_MAX_TOKENS`` says otherwise; a fixed 400 cut every real answer off. The answer must
pass :func:`check_whole` (not cut mid-sentence, whatever the provider's ``finish_reason``),
:func:`~.check.check_document` and the shared answer validator, or the keyword document is used and
the reason is returned for the report. A passing answer never loses what the keyword document had:
:func:`fill_from_keywords` adds back every section and fact it left out.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from summarizer.core.errors import InvalidAnswer
from summarizer.core.scrub import scrub
from summarizer.session.check import content_words
from summarizer.session.document import MAX_TOKENS, SECTIONS, SessionDocument, parse, render
from summarizer.session.extract import UNANSWERED, Extraction
from summarizer.session.transcript import Transcript, conversation_text

if TYPE_CHECKING:
    from summarizer.semantic.service import Summarizer

__all__ = [
    "ANSWER_HEADROOM",
    "COVERED",
    "PROMPT",
    "answer_tokens",
    "check_whole",
    "fill_from_keywords",
    "model_document",
]

PROMPT = "session"
ANSWER_HEADROOM = 1.5


def answer_tokens(max_tokens: int | None) -> int:
    """The model's answer limit: ``max_tokens`` when set, else the document's limit with headroom."""
    return max_tokens if max_tokens else int(MAX_TOKENS * ANSWER_HEADROOM)


async def model_document(
    summarizer: Summarizer,
    transcript: Transcript,
    found: Extraction,
    *,
    date: str,
    project: str,
    max_tokens: int | None,
) -> tuple[SessionDocument, str, str | None]:
    """The model's document (checked), with the keyword document as the template fallback.

    Returns the document, its source and, when the keyword document stood in, why.
    """
    from summarizer.semantic.service import GenerationParams
    from summarizer.semantic.untrusted import Untrusted
    from summarizer.semantic.validate import AnswerRules
    from summarizer.session.check import check_document

    offline = SessionDocument.from_extraction(date, found)
    # The user's own messages may give orders ("you must keep it to the standard library"): those
    # belong in Instructions. Orders from anywhere else in the transcript are data a model obeyed.
    rules = AnswerRules(max_lines=300, max_line_chars=600, max_chars=16_000, trusted_prefixes=("[user]",))
    text = conversation_text(transcript)
    edited = [line.split("`")[1] for line in found.files if line.count("`") >= 2]
    users = [e.text for e in transcript.events if e.kind == "message" and e.role == "user"]

    def validate(answer: str, source: str) -> str:
        check_whole(answer)
        check_document(answer, edited=edited, user_messages=users, transcript=text)
        doc = parse(answer, date=date)
        if not any(doc.items.values()):
            raise InvalidAnswer("the answer has none of the session document's sections")
        body = render(replace(doc, date=date)).split("\n", 1)[1]  # the header date is ours, not novel
        rules(body, source)
        return render(replace(doc, date=date))

    # A copy with this prompt's answer limit: the shared service's default fits one-line summaries.
    sized = copy.copy(summarizer)
    sized.params = GenerationParams(
        max_tokens=answer_tokens(max_tokens), temperature=summarizer.params.temperature
    )
    generation = await sized.generate(
        PROMPT,
        {
            "date": date,
            "project": project,
            "max_tokens": MAX_TOKENS,
            "transcript": Untrusted(text, label="transcript"),
        },
        validate=validate,
        fallback=lambda: render(offline),
    )
    if generation.source == "template":
        return offline, "keywords", generation.reason
    doc = parse(generation.text, date=date)
    # Scrub again: the model saw scrubbed input, but its answer is persisted and must be clean too.
    items = {k: tuple(scrub(item)[0] for item in v) for k, v in doc.items.items()}
    items = _without_foreign(items, transcript)
    return SessionDocument(date, fill_from_keywords(items, found), doc.extra), generation.source, None


def _without_foreign(items: dict[str, tuple[str, ...]], transcript: Transcript) -> dict[str, tuple[str, ...]]:
    """The model's instructions and decisions, less those only a subagent said.

    The model sees a subagent's messages (they are context); a claim of theirs ("We decided to
    rewrite the mailer in Go") is not the session's decision, nor their prompt the user's order.
    """
    said = [content_words(e.text) for e in transcript.events if e.kind == "message"]
    roles = [e.role for e in transcript.events if e.kind == "message"]

    def theirs(item: str) -> bool:
        words = content_words(item)
        if not words:
            return False
        covered = [len(words & w) >= COVERED * len(words) for w in said]
        return any(c and r == "subagent" for c, r in zip(covered, roles, strict=True)) and not any(
            c and r != "subagent" for c, r in zip(covered, roles, strict=True)
        )

    return {
        k: tuple(i for i in v if not (k in {"instructions", "decisions"} and theirs(i)))
        for k, v in items.items()
    }


def fill_from_keywords(model: Mapping[str, tuple[str, ...]], found: Extraction) -> dict[str, tuple[str, ...]]:
    """The model's sections, with every fact of the keyword document it left out added back.

    A section the model left out is the keyword section. Within a section a keyword item is added
    when no model item is its twin and the section's words do not cover :data:`COVERED` of it.
    Files, instructions, the test runs and the unanswered last message are facts the model may
    word differently but never drop, so they are matched more strictly (twins only). An
    instruction or decision the conversation retired never stands, whoever wrote it.
    """
    from summarizer.session.reconcile import similar

    out: dict[str, tuple[str, ...]] = {}
    for key, _ in SECTIONS:
        mine = tuple(i for i in model.get(key, ()) if not any(similar(i, r) for r in found.retired))
        facts: tuple[str, ...] = getattr(found, key)
        if key == "files":
            named = " ".join(mine)
            missing = tuple(line for line in facts if line.split("`")[1] not in named)
        else:
            strict = key in _STRICT
            words = content_words(" ".join(mine))
            missing = tuple(
                f
                for f in facts
                if not any(similar(f, m) for m in mine)
                and (strict or len(content_words(f) & words) < COVERED * max(1, len(content_words(f))))
            )
            if key == "questions":  # the user's unanswered message, verbatim, stays first
                first = tuple(f for f in facts if f.startswith(UNANSWERED))
                mine = first + tuple(m for m in mine if not any(similar(m, f) for f in first))
                missing = tuple(f for f in missing if f not in first)
        if mine or missing:
            out[key] = mine + missing
    return out


# Facts of the transcript: kept as the keyword rules found them unless the model has their twin.
_STRICT = {"instructions", "status", "goal"}
COVERED = 0.5
_DANGLING = re.compile(
    r"(?:[,:;(\[{/—–-]|\b(?:the|a|an|and|or|but|to|of|for|with|in|on|at|by|from|because|that|which|is|are"
    r"|was|were|be|as|so|than|then|if|when|while|into|via))$",
    re.IGNORECASE,
)


def check_whole(answer: str) -> None:
    """Raise :class:`InvalidAnswer` when the answer stops mid-sentence or leaves a section open.

    Providers do not always say so (``finish_reason: stop`` on a cut answer): the text is judged
    by itself. Cut: the last line ends on a dangling word or mark ("the", "and", ",", "—"), or a
    backtick, parenthesis, bracket or code fence is left open; unbalanced: the last heading has
    no items under it.
    """
    lines = [line.rstrip() for line in answer.strip().splitlines() if line.strip()]
    if not lines:
        raise InvalidAnswer("the answer is empty")
    last = lines[-1]
    if last.lstrip().startswith("#") and len(lines) > 1:
        raise InvalidAnswer(f"the answer ends with an empty section: {last.strip()[:80]!r}")
    if answer.count("```") % 2:
        raise InvalidAnswer("the answer leaves a code block open (cut off?)")
    for line in lines:
        if line.count("`") % 2:
            raise InvalidAnswer(f"the answer leaves a backtick open: {line.strip()[:80]!r}")
    if last.count("(") > last.count(")") or last.count("[") > last.count("]"):
        raise InvalidAnswer(f"the answer ends inside a parenthesis (cut off?): {last.strip()[:80]!r}")
    if _DANGLING.search(last.rstrip(" *_")):
        raise InvalidAnswer(f"the answer ends mid-sentence (cut off?): {last.strip()[-80:]!r}")
