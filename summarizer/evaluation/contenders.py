"""Contenders: who answers the cases. Prompt versions x models, the template, recorded answers.

* :class:`TemplateContender`: the deterministic path every user gets offline (the phase-gate
  templates, the session keyword rules, the tool-output compressor). A first-class contender, so a
  prompt must beat it to be worth its cost.
* :class:`PromptContender`: one prompt directory (or a git revision of ``prompts/`` materialised
  with ``git archive``) with one litellm model string, answering through the production service
  (:class:`summarizer.semantic.service.Summarizer`): same rendering, cache, validation and fallback.
* :class:`RecordedContender`: answers recorded earlier, one JSONL file per contender, for
  ``--offline`` runs and CI.

``key_material(case)`` names everything that decides a contender's answer to a case *except the
case itself*: for a prompt, the namespace of the one template the case uses (name, digest of its
source, partials and system prompt, version, model, parameters). Editing ``high.md.j2`` therefore
changes the key of HIGH cells only. ``None`` means the contender does not answer that case kind.
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import io
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Literal, Protocol

from summarizer.errors import InputError
from summarizer.evaluation.cells import CellOutput, ResolvedCase
from summarizer.evaluation.dataset import PhaseGateCase, SessionCase
from summarizer.semantic.ports import Completer, Completion, CompletionRequest, SummaryCache

if TYPE_CHECKING:
    from summarizer.output import OriginalStore
    from summarizer.semantic.service import Summarizer

__all__ = [
    "Contender",
    "PromptContender",
    "RecordedContender",
    "TemplateContender",
    "load_recorded",
]


class Contender(Protocol):
    """Anything that answers resolved cases."""

    label: str

    def key_material(self, case: ResolvedCase) -> str | None:
        """What decides this contender's answer to ``case`` (besides the case), or ``None`` to skip."""
        ...

    async def run(self, case: ResolvedCase) -> CellOutput:
        """Answer ``case``."""
        ...


def _source_hash(*modules: ModuleType) -> str:
    """Hash of the code of ``modules``: editing the template code re-runs the template's cells."""
    h = hashlib.sha256()
    for module in modules:
        h.update(inspect.getsource(module).encode())
    return h.hexdigest()[:16]


def _package_hash(package: ModuleType) -> str:
    """Hash of every module of a package (the compressor spans several files)."""
    h = hashlib.sha256()
    for path in sorted(Path(inspect.getfile(package)).parent.glob("*.py")):
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


class _NoMarks:
    """Compression marks that remember nothing: every eval case is a fresh, explicit compression."""

    def get(self, key: str) -> int | None:
        return None

    def set(self, key: str, tool_calls: int) -> None:
        return None


async def _session_document(case: ResolvedCase, summarizer: Summarizer | None) -> tuple[str, str]:
    """The session document the production path writes (keywords, or the model), and its source."""
    from summarizer.session.service import compress_session
    from summarizer.session.transcript import parse_transcript

    assert isinstance(case.case, SessionCase)
    transcript = parse_transcript(case.case.transcript or "", source=case.id)
    report = await compress_session(
        transcript,
        project=case.case.project,
        date=case.case.date or "2026-01-01",
        memory=None,
        marks=_NoMarks(),
        session_key=case.id,
        force=True,
        summarizer=summarizer,
        memory_error="evaluation: not saved",
    )
    return report.document, report.source


def template_phase_gate(case: ResolvedCase) -> str:
    """The deterministic phase-gate summary of ``case`` in its band (the offline answer)."""
    from summarizer.phasegate.templates import render_entry

    assert isinstance(case.case, PhaseGateCase) and case.band is not None
    return render_entry(case.case.subtask_summary, case.band, to=case.case.next_agent)


def _template_tool_output(case: ResolvedCase, originals: OriginalStore | None) -> str:
    """The compressed rendering ``summarizer output`` prints for the case's output file."""
    from summarizer.output import compress

    if originals is None:
        raise InputError("tool-output cases need an originals store; the eval command passes one")
    return compress(io.BytesIO(case.raw), originals).text


@dataclass
class TemplateContender:
    """The deterministic answers: phase-gate templates, session keyword rules, output compressor."""

    label: str = "template"
    originals: OriginalStore | None = None  # where compressed tool output is kept (built by the root)

    def key_material(self, case: ResolvedCase) -> str | None:
        """The hash of the code that answers this case kind."""
        if case.kind == "phase_gate":
            import summarizer.phasegate.facts
            import summarizer.phasegate.templates

            return "template:" + _source_hash(summarizer.phasegate.templates, summarizer.phasegate.facts)
        if case.kind == "session":
            import summarizer.session.document
            import summarizer.session.extract

            return "template:" + _source_hash(summarizer.session.extract, summarizer.session.document)
        import summarizer.output

        return "template:" + _package_hash(summarizer.output)

    async def answer(self, case: ResolvedCase) -> str:
        """The deterministic text for ``case``."""
        if case.kind == "phase_gate":
            return template_phase_gate(case)
        if case.kind == "session":
            return (await _session_document(case, None))[0]
        # The compressor can take a while on a big log: off the loop, so other cells go on.
        return await asyncio.to_thread(_template_tool_output, case, self.originals)

    async def run(self, case: ResolvedCase) -> CellOutput:
        """Answer ``case`` deterministically."""
        started = time.perf_counter()
        text = await self.answer(case)
        return CellOutput(text=text, source="template", latency_s=time.perf_counter() - started)


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

    def _service(self, recording: Completer) -> Summarizer:
        from summarizer.semantic.service import Summarizer

        return Summarizer(
            self.library,
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
        service = self._service(recording)
        started = time.perf_counter()
        if isinstance(case.case, PhaseGateCase):
            assert case.band in ("CRITICAL", "HIGH")
            job = EntryJob(
                entry=case.case.subtask_summary, band=case.band, fallback=lambda: template_phase_gate(case)
            )
            generation = await summarize_entry(service, job)
            text, source, reason = generation.text, generation.source, generation.reason
        else:
            text, session_source = await _session_document(case, service)
            source = _SESSION_SOURCES.get(session_source, "llm")
            reason = None if source != "template" else "the model's session document was not used"
        latency = time.perf_counter() - started
        return CellOutput(
            text=text,
            source=source,
            reason=reason,
            model=self.model,
            prompt_tokens=sum(c.usage.prompt_tokens for c in recording.completions),
            completion_tokens=sum(c.usage.completion_tokens for c in recording.completions),
            cost_usd=_total_cost(recording.completions),
            latency_s=latency,
            provider_calls=recording.calls,
            fallback=source == "template",
        )


_SESSION_SOURCES: dict[str, Literal["llm", "cache", "template"]] = {
    "keywords": "template",
    "llm": "llm",
    "cache": "cache",
}


def _total_cost(completions: list[Completion]) -> float | None:
    costs = [c.cost_usd for c in completions if c.cost_usd is not None]
    return sum(costs) if costs else None


@dataclass
class RecordedContender:
    """Answers recorded earlier (``{"case": id, "text": ...}`` per line), replayed offline."""

    label: str
    answers: dict[str, str]
    model: str | None = None

    def key_material(self, case: ResolvedCase) -> str | None:
        """The recorded answer itself: editing one answer re-measures only that cell."""
        answer = self.answers.get(case.id)
        if answer is None:
            return None
        return "recorded:" + hashlib.sha256(answer.encode()).hexdigest()[:16]

    async def run(self, case: ResolvedCase) -> CellOutput:
        """Replay the recorded answer."""
        return CellOutput(text=self.answers[case.id], source="recorded", model=self.model)


def load_recorded(path: Path) -> RecordedContender:
    """Read one recorded contender (the file stem is its label)."""
    answers: dict[str, str] = {}
    model: str | None = None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            answers[str(row["case"])] = str(row["text"])
            model = model or row.get("model")
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise InputError(f"{path}:{number}: a recorded answer needs 'case' and 'text' ({exc})") from exc
    return RecordedContender(label=path.stem, answers=answers, model=model)
