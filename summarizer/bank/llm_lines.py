"""The gate's semantic-summary seam wired to the LLM service (only when a model is configured).

``llm_summarize(settings)`` returns ``None`` offline or without a model, so the gate uses the
deterministic templates and never imports litellm. With a model it returns a callable that sends
every CRITICAL/HIGH entry of the batch through :meth:`summarizer.semantic.Summarizer.summarize_entries_sync`
(one concurrent batch, cached, validated, the template lines as fallback). The gate calls it before
taking the bank lock.
"""

from __future__ import annotations

from collections.abc import Sequence

from summarizer.bank.request import Summarize
from summarizer.models import SubtaskSummary
from summarizer.scoring import Band
from summarizer.settings import Settings

__all__ = ["llm_summarize"]


def llm_summarize(settings: Settings) -> Summarize | None:
    """The LLM-backed :data:`~summarizer.bank.request.Summarize`, or ``None`` for the template path."""
    if not settings.model or settings.offline:
        return None

    def summarize(jobs: Sequence[tuple[SubtaskSummary, Band, tuple[str, ...]]]) -> list[tuple[str, ...]]:
        from summarizer.app import build
        from summarizer.semantic import EntryJob

        service = build(settings)
        answers = service.summarize_entries_sync(
            [EntryJob(entry=entry, band=band, fallback="\n".join(lines)) for entry, band, lines in jobs]
        )
        return [tuple(answer.lines) for answer in answers]

    return summarize
