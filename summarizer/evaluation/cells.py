"""A cell of the eval matrix: one contender's answer to one case, and what it scored.

A case is first *resolved* (:class:`ResolvedCase`): the text the contender reads (the entry as
``key: value`` lines, the transcript, the tool output), the band it must answer in, the ground
truth, and a hash covering all of it. A contender turns it into a :class:`CellOutput`;
:func:`measure` turns both into a :class:`CellResult`, the row written to ``results.jsonl`` and
stored in the results cache.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from summarizer.core.tokens import count_tokens
from summarizer.evaluation.assertions import AssertResult
from summarizer.evaluation.dataset import Band, Fact, PhaseGateCase, SessionCase, ToolOutputCase
from summarizer.evaluation.metrics import fact_recall, format_problem, hallucinations
from summarizer.output.truth import TruthItem
from summarizer.output.truth import recall as truth_recall

__all__ = ["CaseKind", "CellOutput", "CellResult", "ResolvedCase", "measure"]

CaseKind = Literal["phase_gate", "session", "tool_output"]
OutputSource = Literal["llm", "cache", "template", "recorded"]
SESSION_MAX_TOKENS = 2000


@dataclass(frozen=True, slots=True)
class ResolvedCase:
    """A case with everything a contender and the metrics need, computed once per run.

    ``must``/``should`` are the tool-output truth items (:mod:`summarizer.output.truth`).
    """

    case: PhaseGateCase | SessionCase | ToolOutputCase
    dataset: str
    source: str
    digest: str
    band: Band | None = None
    facts: tuple[Fact, ...] = ()
    must: tuple[TruthItem, ...] = ()
    should: tuple[TruthItem, ...] = ()
    raw: bytes = b""  # tool output as read (CRLF, invalid UTF-8 and all), for the compressor

    @property
    def id(self) -> str:
        """The case id."""
        return self.case.id

    @property
    def kind(self) -> CaseKind:
        """phase_gate, session or tool_output."""
        return self.case.kind


class CellOutput(BaseModel):
    """What a contender answered, with the bookkeeping of how it got there.

    ``provider_calls`` counts every HTTP request, retries included (``failed_calls`` of them
    failed); ``latency_s`` is the provider's own time for those requests when there were any, else
    the time the contender spent working on the cell (never time spent queued behind other cells).
    ``model_cell`` is True when the contender meant a model to answer this cell, so a template
    answer there is a fallback, not the design (MEDIUM/LOW entries are answered by the template).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    source: OutputSource
    reason: str | None = None
    model: str | None = None
    prompt_tokens: int = Field(default=0, ge=0)
    completion_tokens: int = Field(default=0, ge=0)
    cost_usd: float | None = None
    latency_s: float = Field(default=0.0, ge=0.0)
    client_s: float = Field(default=0.0, ge=0.0)  # our own time on the cell: queueing and client work
    provider_calls: int = Field(default=0, ge=0)
    failed_calls: int = Field(default=0, ge=0)
    fallback: bool = False
    model_cell: bool = False


class CellResult(BaseModel):
    """One row of ``results.jsonl``: a contender's answer to a case and its metrics.

    ``metrics`` maps metric names (see :data:`summarizer.evaluation.metrics.METRICS`) to values;
    a metric that does not apply to the case kind is absent. ``reused`` is True when the row came
    from the results cache instead of being computed in this run.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    contender: str
    case_id: str
    dataset: str
    kind: CaseKind
    band: Band | None = None
    key: str
    output: CellOutput | None = None
    metrics: dict[str, float] = Field(default_factory=dict)
    missed: tuple[str, ...] = ()
    hallucinated: tuple[str, ...] = ()
    format_problem: str | None = None
    asserts: tuple[AssertResult, ...] = ()  # the case's own checks on this answer, in order
    error: str | None = None
    reused: bool = False


def measure(
    case: ResolvedCase,
    output: CellOutput,
    *,
    contender: str,
    key: str,
    asserts: tuple[AssertResult, ...] = (),
) -> CellResult:
    """Score ``output`` against ``case``: every metric that applies to the case kind.

    ``asserts`` are the case's own checks, already run on the answer (they may need a sandbox).
    """
    text = output.text
    metrics: dict[str, float] = {}
    if asserts:
        metrics["assert_pass_rate"] = sum(a.passed for a in asserts) / len(asserts)
    missed: tuple[str, ...] = ()
    problem: str | None = None
    if case.kind == "tool_output":
        # The tool-output issue's own recall (ANSI stripped, any one occurrence counts).
        must = truth_recall(case.must, text)
        if must.total:
            metrics["coordinate_recall"] = must.ratio
        if case.should:
            metrics["should_recall"] = truth_recall(case.should, text).ratio
        missed = tuple(f"must: {label}" for label in must.missed)
    else:
        recall, missed = fact_recall(case.facts, text)
        if recall is not None:
            metrics["fact_recall"] = recall
        if case.kind == "phase_gate" and case.band is not None:
            problem = format_problem(text, case.band)
        elif case.kind == "session" and (tokens := count_tokens(text)) > SESSION_MAX_TOKENS:
            problem = f"session document has {tokens} tokens (cap {SESSION_MAX_TOKENS})"
        metrics["format_ok"] = 0.0 if problem else 1.0
    invented = hallucinations(text, case.source) if case.kind != "tool_output" else ()
    if case.kind != "tool_output":
        metrics["hallucinations"] = float(len(invented))
    tokens_in = count_tokens(case.source)
    tokens_out = count_tokens(text)
    metrics["tokens_out"] = float(tokens_out)
    if tokens_in:
        metrics["reduction"] = 1.0 - tokens_out / tokens_in
    metrics["latency_ms"] = output.latency_s * 1000.0
    metrics["provider_tokens"] = float(output.prompt_tokens + output.completion_tokens)
    if output.cost_usd is not None:
        metrics["cost_usd"] = output.cost_usd
    metrics["cache_hit"] = 1.0 if output.source == "cache" else 0.0
    metrics["fallback"] = 1.0 if output.fallback else 0.0
    return CellResult(
        contender=contender,
        case_id=case.id,
        dataset=case.dataset,
        kind=case.kind,
        band=case.band,
        key=key,
        output=output,
        metrics=metrics,
        missed=missed,
        hallucinated=invented,
        format_problem=problem,
        asserts=asserts,
    )
