"""The prompt contender: one prompt directory with one model, answering through the production service.

It answers exactly as ``summarizer compress`` and ``summarizer session`` would (same rendering,
fencing, answer cache, validation and template fallback) and records what the answer cost: the
completions (tokens, cost), the provider requests including retries and their own time (through
:func:`summarizer.evaluation.accounting.metering`), and why a cell fell back.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from summarizer.evaluation.accounting import metering
from summarizer.evaluation.cells import CellOutput, ResolvedCase
from summarizer.evaluation.contenders import TemplateContender, session_document, template_phase_gate
from summarizer.evaluation.dataset import PhaseGateCase
from summarizer.semantic.ports import Completer, Completion, CompletionRequest, SummaryCache

if TYPE_CHECKING:
    from summarizer.semantic.service import Generation, Summarizer

__all__ = ["PromptContender"]


@dataclass
class _Recording:
    """Wraps the real completer for one cell, so its usage and cost are attributed to that cell."""

    inner: Completer
    calls: int = 0
    completions: list[Completion] = field(default_factory=list)

    async def complete(self, request: CompletionRequest, /) -> Completion:
        self.calls += 1
        completion = await self.inner.complete(request)
        self.completions.append(completion)
        return completion


@dataclass
class PromptContender:
    """A prompt directory answering with one model through the production service.

    Args:
        label: the column name in reports (``v2``, ``prompts@HEAD~1``; the model is appended).
        prompt_dir: a directory of ``*.md.j2`` templates.
        model: the litellm model string.
        completer: the model port (``LiteLLMCompleter``, or a fake in tests).
        cache: the production answer cache (its hits are the ``cache_hit`` metric), or ``None``.
        api_base: an OpenAI-compatible base URL.
        template: the deterministic contender, for MEDIUM/LOW entries and fallbacks.
    """

    label: str
    prompt_dir: Path
    model: str
    completer: Completer
    cache: SummaryCache | None = None
    api_base: str | None = None
    timeout_s: float = 60.0
    template: TemplateContender = field(default_factory=TemplateContender)

    def __post_init__(self) -> None:
        from summarizer.semantic.prompts import PromptLibrary

        self.library = PromptLibrary(self.prompt_dir)

    def _prompt_for(self, case: ResolvedCase) -> str | None:
        if case.kind == "phase_gate":
            return case.band.lower() if case.band in ("CRITICAL", "HIGH") else None
        if case.kind == "session":
            return "session"
        return None

    def key_material(self, case: ResolvedCase) -> str | None:
        """The namespace of the template this case uses (MEDIUM/LOW: the template's own key)."""
        if case.kind == "tool_output":
            return None  # tool output is compressed deterministically; no prompt answers it
        name = self._prompt_for(case)
        if name is None:
            return self.template.key_material(case)
        if name not in self.library.names():
            return None
        material = {
            "prompt": name,
            "digest": self.library.digest(name),
            "version": self.library.version(name),
            "model": self.model,
            "api_base": self.api_base or "",
        }
        return "prompt:" + json.dumps(material, sort_keys=True)

    def uses_provider(self, case: ResolvedCase) -> bool:
        """True for the cases a prompt answers (not MEDIUM/LOW entries, not tool output)."""
        return case.kind != "tool_output" and self._prompt_for(case) is not None

    def _service(self, recording: Completer, generations: list[Generation]) -> Summarizer:
        return _observed_summarizer()(
            self.library,
            generations=generations,
            completer=recording,
            cache=self.cache,
            model=self.model,
            api_base=self.api_base,
            timeout_s=self.timeout_s,
        )

    async def run(self, case: ResolvedCase) -> CellOutput:
        """Answer through the service; MEDIUM/LOW entries get the template (the product does too)."""
        from summarizer.phasegate.summaries import EntryJob, summarize_entry

        if self._prompt_for(case) is None:
            return await self.template.run(case)
        recording = _Recording(self.completer)
        generations: list[Generation] = []
        service = self._service(recording, generations)
        started = time.perf_counter()
        with metering() as meter:
            if isinstance(case.case, PhaseGateCase):
                assert case.band in ("CRITICAL", "HIGH")
                entry, band = case.case.subtask_summary, case.band
                job = EntryJob(entry=entry, band=band, fallback=lambda: template_phase_gate(case))
                generation = await summarize_entry(service, job)
                text, source, reason = generation.text, generation.source, generation.reason
            else:
                text, session_source = await session_document(case, service)
                source = _SESSION_SOURCES.get(session_source, "llm")
                reasons = [g.reason for g in generations if g.reason] or ["the model's document was not used"]
                reason = None if source != "template" else reasons[-1]
        # The provider's own time, from the HTTP layer (else the adapter's timing of its attempts;
        # a fake completer reports neither: then the wall time of the cell, which is its delay).
        measured = meter.latency_s
        latency = measured if measured is not None else time.perf_counter() - started
        return CellOutput(
            text=text,
            source=source,
            reason=reason,
            model=self.model,
            prompt_tokens=sum(c.usage.prompt_tokens for c in recording.completions),
            completion_tokens=sum(c.usage.completion_tokens for c in recording.completions),
            cost_usd=_total_cost(recording.completions),
            latency_s=latency,
            provider_calls=max(meter.requests, recording.calls),
            failed_calls=meter.failed,
            fallback=source == "template",
            model_cell=True,
        )


@functools.cache
def _observed_summarizer() -> Callable[..., Summarizer]:
    """The production service, remembering each generation (the session path drops its reason)."""
    from summarizer.semantic.service import Summarizer

    class ObservedSummarizer(Summarizer):
        def __init__(self, *args: Any, generations: list[Generation], **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.generations = generations

        async def generate(self, *args: Any, **kwargs: Any) -> Generation:
            generation = await super().generate(*args, **kwargs)
            self.generations.append(generation)
            return generation

    return ObservedSummarizer


_SESSION_SOURCES: dict[str, Literal["llm", "cache", "template"]] = {
    "keywords": "template",
    "llm": "llm",
    "cache": "cache",
}


def _total_cost(completions: list[Completion]) -> float | None:
    costs = [c.cost_usd for c in completions if c.cost_usd is not None]
    return sum(costs) if costs else None
