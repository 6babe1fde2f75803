"""The model's session document: the prompt, its answer limit, the check, the fallback.

With a model configured, the ``session`` prompt writes the document. The answer limit is the
prompt's own (the 2,000-token document with :data:`ANSWER_HEADROOM`) unless ``--max-tokens`` /
``SUMMARIZER_MAX_TOKENS`` says otherwise; a fixed 400 cut every real answer off. The answer must
pass :func:`~.check.check_document` and the shared answer validator, or the keyword document is
used and the reason is returned for the report. Files and the user's instructions are facts of the
transcript: any the model left out are added back.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import TYPE_CHECKING

from summarizer.core.errors import InvalidAnswer
from summarizer.core.scrub import scrub
from summarizer.session.document import MAX_TOKENS, SessionDocument, parse, render
from summarizer.session.extract import Extraction
from summarizer.session.transcript import Transcript, conversation_text

if TYPE_CHECKING:
    from summarizer.semantic.service import Summarizer

__all__ = ["ANSWER_HEADROOM", "PROMPT", "answer_tokens", "model_document"]

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
    # Files come from tool calls, which are facts: add any file the model's answer left out.
    named = " ".join(items.get("files", ()))
    missing = tuple(line for line in found.files if line.split("`")[1] not in named) if found.files else ()
    items["files"] = items.get("files", ()) + missing
    # The user's instructions are facts too: the model may shorten them, never lose them.
    items["instructions"] = _keep(items.get("instructions", ()), found.instructions)
    return SessionDocument(date, items, doc.extra), generation.source, None


def _keep(model: tuple[str, ...], facts: tuple[str, ...]) -> tuple[str, ...]:
    from summarizer.session.reconcile import similar

    return model + tuple(f for f in facts if not any(similar(f, m) for m in model))
