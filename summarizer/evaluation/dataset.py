"""Eval datasets: JSONL files of cases, validated once into frozen models.

Three kinds of case share one file format (one JSON object per line, ``kind`` picks the shape):

* ``phase_gate``: a ``subtask_summary`` (the :class:`~summarizer.phasegate.models.SubtaskSummary` shape), the
  next agent, an optional expected band, and the facts the summary must carry;
* ``session``: a transcript (inline, or a file next to the dataset) and the decisions, failures,
  files and open questions a compression must recover;
* ``tool_output``: a folder in the evaldata format (``gen/<case>`` or ``loghub/<System>``), relative
  to a root given on the command line, whose ``truth.json`` holds the coordinates that must survive.

``case_hash`` is part of every result-cache key: it covers everything that can change an answer or
a metric (the case as validated, and for sessions the transcript text), so editing one case re-runs
only that case's cells. Tool-output cases add the hash of their output file when they are resolved.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from summarizer.core.errors import InputError, NotFound
from summarizer.core.jsonio import loads
from summarizer.core.vocabulary import BANDS, Band
from summarizer.evaluation.assertions import Assertion
from summarizer.phasegate.models import SubtaskSummary

__all__ = [
    "BANDS",
    "Band",
    "Case",
    "Dataset",
    "Fact",
    "PhaseGateCase",
    "SessionCase",
    "ToolOutputCase",
    "case_hash",
    "load_dataset",
]


class Fact(BaseModel):
    """One thing the answer must carry. ``value`` or any of ``any_of`` present counts as recalled.

    ``kind`` says how to match (see :mod:`summarizer.evaluation.metrics`): ``endpoint`` needs the
    HTTP method and the exact path; ``status``, ``count`` and ``number`` match a whole number;
    everything else is a case-insensitive substring with whitespace normalised.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=True)

    kind: str = Field(min_length=1, max_length=40)
    value: str = Field(min_length=1)
    any_of: tuple[str, ...] = ()


class _CaseBase(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=True, populate_by_name=True)

    id: str = Field(min_length=1, max_length=120, pattern=r"^[A-Za-z0-9._:-]+$")
    note: str | None = None
    # The case's own checks of every answer (docs/evals.md "Assertions"); ``assert`` in the file.
    checks: tuple[Assertion, ...] = Field(default=(), alias="assert", max_length=50)


class PhaseGateCase(_CaseBase):
    """A subtask summary handed from one agent to the next (the phase gate's ``subtask_summary``)."""

    kind: Literal["phase_gate"]
    subtask_summary: SubtaskSummary
    next_agent: str | None = None
    expected_band: Band | None = None
    facts: tuple[Fact, ...] = ()


class SessionCase(_CaseBase):
    """A session transcript and what its compression must recover (docs/session.md)."""

    kind: Literal["session"]
    project: str = Field(default="eval", min_length=1)
    date: str | None = Field(default=None, pattern=r"^\d{4}-\d{2}-\d{2}$")
    transcript: str | None = None
    transcript_file: str | None = None
    facts: tuple[Fact, ...] = ()


class ToolOutputCase(_CaseBase):
    """A tool output in the evaldata format; ground truth comes from its ``truth.json``."""

    kind: Literal["tool_output"]
    folder: str = Field(min_length=1)
    format: Literal["gen", "loghub"]


Case = Annotated[PhaseGateCase | SessionCase | ToolOutputCase, Field(discriminator="kind")]
_KINDS = ("phase_gate", "session", "tool_output")
_CASE: TypeAdapter[PhaseGateCase | SessionCase | ToolOutputCase] = TypeAdapter(Case)


class Dataset(BaseModel):
    """The validated cases of one JSONL file, in file order."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    path: Path
    cases: tuple[PhaseGateCase | SessionCase | ToolOutputCase, ...]


def case_hash(case: PhaseGateCase | SessionCase | ToolOutputCase, extra: str = "") -> str:
    """Hash of everything in ``case`` that can change an answer or a metric (plus ``extra``)."""
    blob = json.dumps(case.model_dump(mode="json"), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256((blob + "\0" + extra).encode()).hexdigest()[:32]


def load_dataset(path: Path) -> Dataset:
    """Read and validate a JSONL dataset; any bad line is an :class:`InputError` naming it.

    Session transcripts given as ``transcript_file`` are read here (relative to the dataset's
    folder) and inlined, so the case hash covers their content.
    """
    if path.is_dir():
        raise InputError(
            f"dataset {str(path)!r} is a directory; pass a JSONL file in it, such as "
            "evals/datasets/phase_gate.jsonl"
        )
    if not path.is_file():
        raise NotFound(
            f"dataset {str(path)!r} not found; pass a JSONL file such as evals/datasets/phase_gate.jsonl"
        )
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"dataset {str(path)!r} is not valid UTF-8 (byte {exc.start}); convert it") from exc
    cases: list[PhaseGateCase | SessionCase | ToolOutputCase] = []
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("//"):
            continue
        case = _parse_line(path, number, line)
        if case.id in seen:
            raise InputError(
                f"{path}:{number}: duplicate case id {case.id!r}; ids must be unique per dataset"
            )
        seen.add(case.id)
        if isinstance(case, SessionCase):
            case = _inline_transcript(path, number, case)
        cases.append(case)
    if not cases:
        raise InputError(f"dataset {str(path)!r} has no cases; add one JSON object per line")
    return Dataset(name=path.stem, path=path, cases=tuple(cases))


def _parse_line(path: Path, number: int, line: str) -> PhaseGateCase | SessionCase | ToolOutputCase:
    try:
        raw: Any = loads(line, source=f"{path}:{number}")
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{path}:{number}: invalid JSON at column {exc.colno}: {exc.msg}; fix that line"
        ) from exc
    try:
        return _CASE.validate_python(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = first["loc"][1:] if first["loc"] and first["loc"][0] in _KINDS else first["loc"]
        where = ".".join(str(p) for p in loc)
        raise InputError(f"{path}:{number}: {where or 'case'}: {first['msg']}; fix that case") from exc


def _inline_transcript(path: Path, number: int, case: SessionCase) -> SessionCase:
    if case.transcript is not None and case.transcript_file is None:
        return case
    if case.transcript_file is None:
        raise InputError(f"{path}:{number}: session case {case.id!r} needs 'transcript' or 'transcript_file'")
    if case.transcript is not None:
        raise InputError(f"{path}:{number}: give 'transcript' or 'transcript_file', not both")
    file = path.parent / case.transcript_file
    if not file.is_file():
        raise NotFound(f"{path}:{number}: transcript {str(file)!r} not found; fix 'transcript_file'")
    try:
        transcript = file.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"transcript {str(file)!r} is not valid UTF-8 (byte {exc.start})") from exc
    return case.model_copy(update={"transcript": transcript})
