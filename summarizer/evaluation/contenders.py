"""Contenders: who answers the cases. Prompt versions x models, the template, recorded answers.

* :class:`TemplateContender`: the deterministic path every user gets offline (the phase-gate
  templates, the session keyword rules, the tool-output compressor). A first-class contender, so a
  prompt must beat it to be worth its cost.
* :class:`~summarizer.evaluation.prompted.PromptContender` (in :mod:`.prompted`): one prompt
  directory (or a git revision of ``prompts/`` materialised with ``git archive``) with one litellm
  model string, answering through the production service: same rendering, cache, validation and
  fallback. It uses :func:`session_document` and :func:`template_phase_gate` from here.
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
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Protocol

from summarizer.core.errors import InputError
from summarizer.evaluation.cells import CellOutput, ResolvedCase
from summarizer.evaluation.dataset import PhaseGateCase, SessionCase

if TYPE_CHECKING:
    from summarizer.output import OriginalStore
    from summarizer.semantic.service import Summarizer

__all__ = [
    "Contender",
    "RecordedContender",
    "TemplateContender",
    "load_recorded",
    "session_document",
    "template_phase_gate",
]


class Contender(Protocol):
    """Anything that answers resolved cases."""

    label: str

    def key_material(self, case: ResolvedCase) -> str | None:
        """What decides this contender's answer to ``case`` (besides the case), or ``None`` to skip."""
        ...

    def uses_provider(self, case: ResolvedCase) -> bool:
        """True when answering ``case`` calls a model (progress ETAs count only these cells)."""
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


async def session_document(case: ResolvedCase, summarizer: Summarizer | None) -> tuple[str, str]:
    """The session document the production path writes (keywords, or the model), and its source."""
    from summarizer.session.service import Unavailable, compress_session
    from summarizer.session.transcript import parse_transcript

    assert isinstance(case.case, SessionCase)
    transcript = parse_transcript(case.case.transcript or "", source=case.id)
    report = await compress_session(
        transcript,
        project=case.case.project,
        date=case.case.date or "2026-01-01",
        memory=Unavailable("evaluation: not saved"),
        marks=_NoMarks(),
        session_key=case.id,
        force=True,
        summarizer=summarizer,
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


def _timed_tool_output(case: ResolvedCase, originals: OriginalStore | None) -> tuple[str, float]:
    # Timed inside the worker thread: the wait for a free thread is not the compressor's latency.
    started = time.perf_counter()
    return _template_tool_output(case, originals), time.perf_counter() - started


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
            import summarizer.session

            # The whole room: extraction, resume sections, reconciliation and the cap all shape it.
            return "template:" + _package_hash(summarizer.session)
        import summarizer.output

        return "template:" + _package_hash(summarizer.output)

    def uses_provider(self, case: ResolvedCase) -> bool:
        """Never."""
        return False

    async def answer(self, case: ResolvedCase) -> tuple[str, float]:
        """The deterministic text for ``case`` and the seconds spent computing it."""
        if case.kind == "tool_output":
            # The compressor can take a while on a big log: off the loop, so other cells go on.
            return await asyncio.to_thread(_timed_tool_output, case, self.originals)
        # CPU time, not wall time: under concurrency the wall clock also counts the other cells
        # that ran while this one was suspended, which is how a 2 ms template looked like 4.5 s.
        started = time.thread_time()
        if case.kind == "phase_gate":
            text = template_phase_gate(case)
        else:
            text = (await session_document(case, None))[0]
        return text, time.thread_time() - started

    async def run(self, case: ResolvedCase) -> CellOutput:
        """Answer ``case`` deterministically."""
        text, seconds = await self.answer(case)
        return CellOutput(text=text, source="template", latency_s=seconds)


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

    def uses_provider(self, case: ResolvedCase) -> bool:
        """Never: the answers were recorded earlier."""
        return False

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
