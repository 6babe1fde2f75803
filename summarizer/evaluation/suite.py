"""One eval run end to end: datasets -> contenders -> matrix -> analysis. The CLI calls this.

The contenders are, in order: the template (everyone's baseline), then every prompt version times
every model, in the order given (so the verdicts read "v2 beats v1"). ``offline`` replaces the
prompt contenders with the recorded answers found in ``recorded_dir`` (one ``<label>.jsonl`` file
per contender), so a run needs no provider at all.

The completer, the answer cache, the results cache and the originals store are parameters: the CLI
passes what :mod:`summarizer.app` built; tests pass :class:`summarizer.testing.FakeCompleter` and
stores in a temp directory. ``run_eval`` is async like the service; the CLI runs it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from summarizer.core.errors import InputError
from summarizer.core.settings import default_prompt_dir
from summarizer.evaluation.accounting import priced
from summarizer.evaluation.cells import CellResult
from summarizer.evaluation.cellstore import CellStore
from summarizer.evaluation.comparison import Analysis, analyse
from summarizer.evaluation.contenders import Contender, TemplateContender, load_recorded
from summarizer.evaluation.dataset import Dataset, load_dataset
from summarizer.evaluation.gates import GateReport, check, check_labels, parse_requirement
from summarizer.evaluation.judge import judge_matrix
from summarizer.evaluation.progress import Progress
from summarizer.evaluation.prompted import PromptContender
from summarizer.evaluation.resolve import resolve_all
from summarizer.evaluation.runner import Matrix, Plan, run_matrix
from summarizer.evaluation.versions import materialise_prompts
from summarizer.semantic.ports import Completer, SummaryCache

if TYPE_CHECKING:
    from summarizer.output import OriginalStore

__all__ = ["EvalOptions", "EvalRun", "GateOptions", "evaluate", "run_eval", "select_cases"]


class EvalOptions(BaseModel):
    """What to run (the ``summarizer eval`` flags)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    datasets: tuple[Path, ...] = Field(min_length=1)
    prompts: tuple[str, ...] = ()
    models: tuple[str, ...] = ()
    api_base: str | None = None
    concurrency: int = Field(default=8, ge=1, le=256)
    offline: bool = False
    evaldata: Path | None = None
    recorded_dir: Path | None = None
    template: bool = True
    timeout_s: float = Field(default=60.0, gt=0)
    limit: int | None = Field(default=None, ge=1)
    case_ids: tuple[str, ...] = ()
    judge: str | None = None
    cost_per_1k: float | None = Field(default=None, ge=0)  # USD per 1,000 tokens of unpriced models


def select_cases(datasets: list[Dataset], *, limit: int | None, case_ids: tuple[str, ...]) -> list[Dataset]:
    """Only the ``case_ids`` asked for (all when empty), then the first ``limit`` of each dataset.

    An id that is in no dataset is a typo the user must hear about, not an empty run.
    """
    wanted = set(case_ids)
    if wanted:
        known = {case.id for ds in datasets for case in ds.cases}
        if unknown := sorted(wanted - known):
            sample = ", ".join(sorted(known)[:5])
            raise InputError(f"--case {', '.join(unknown)}: no such case id (ids look like: {sample})")
    out = []
    for ds in datasets:
        cases = tuple(c for c in ds.cases if not wanted or c.id in wanted)[:limit]
        if cases:
            out.append(ds.model_copy(update={"cases": cases}))
    return out


def _labels(prompt_labels: list[str], models: tuple[str, ...]) -> list[str]:
    if len(models) <= 1:
        return prompt_labels
    return [f"{p} {m}" for p in prompt_labels for m in models]


def build_contenders(
    options: EvalOptions,
    stack: ExitStack,
    *,
    completer: Completer | None,
    answer_cache: SummaryCache | None,
    originals: OriginalStore | None = None,
    repo: Path | None = None,
) -> list[Contender]:
    """The contenders ``options`` ask for (see the module docstring for the order)."""
    template = TemplateContender(originals=originals)
    contenders: list[Contender] = [template] if options.template else []
    if options.offline:
        # Offline replays recorded answers instead of the prompt versions, but a --prompts that does
        # not exist is still a typo the user must hear about, not something to skip silently.
        for spec in options.prompts:
            materialise_prompts(spec, stack, repo=repo)
        folder = options.recorded_dir
        if folder is not None and folder.is_dir():
            contenders += [load_recorded(p) for p in sorted(folder.glob("*.jsonl"))]
        return contenders
    if options.prompts and not options.models:
        raise InputError(
            "--prompts needs at least one --model (a litellm model string such as openai/gpt-4o-mini)"
        )
    # --model alone: the packaged prompts against the template, the question a new user asks first.
    specs = options.prompts or ((str(default_prompt_dir({})),) if options.models else ())
    if specs and completer is None:
        raise InputError("no model client available; pass --offline to run the template and recorded answers")
    versions = [materialise_prompts(spec, stack, repo=repo) for spec in specs]
    base_labels = [label for label, _ in versions]
    if len(set(base_labels)) != len(base_labels):  # two directories both called "prompts"
        base_labels = [f"{label}#{i + 1}" for i, label in enumerate(base_labels)]
    labels = iter(_labels(base_labels, options.models))
    for _, directory in versions:
        for model in options.models:
            assert completer is not None
            contenders.append(
                PromptContender(
                    label=next(labels),
                    prompt_dir=directory,
                    model=model,
                    completer=completer,
                    cache=answer_cache,
                    api_base=options.api_base,
                    timeout_s=options.timeout_s,
                    template=template,
                )
            )
    if not contenders:
        raise InputError("nothing to compare: drop --no-template or add --prompts and --model")
    return contenders


async def run_eval(
    options: EvalOptions,
    *,
    completer: Completer | None,
    answer_cache: SummaryCache | None,
    results_cache: CellStore | None,
    originals: OriginalStore | None = None,
    on_start: Callable[[Plan], None] | None = None,
    on_done: Callable[[CellResult], None] | None = None,
    repo: Path | None = None,
    check_contenders: Callable[[tuple[str, ...]], None] | None = None,
    on_ready: Callable[[], None] | None = None,
) -> tuple[Matrix, Analysis]:
    """Load, select, resolve, run and analyse. ``on_start`` receives the :class:`Plan`."""
    datasets = select_cases(
        [load_dataset(path) for path in options.datasets], limit=options.limit, case_ids=options.case_ids
    )
    names = [ds.name for ds in datasets]
    if len(set(names)) != len(names):
        raise InputError(f"two datasets share a name ({names}); rename one file")
    cases = resolve_all(datasets, options.evaldata)
    with ExitStack() as stack:
        contenders = build_contenders(
            options, stack, completer=completer, answer_cache=answer_cache, originals=originals, repo=repo
        )
        if check_contenders is not None:
            check_contenders(tuple(c.label for c in contenders))
        # The provider client's set-up (importing litellm) runs once, in a worker thread, when the
        # first cell that calls a model starts: never for a run the store or the template answers.
        warm_up = getattr(completer, "warm_up", None)
        matrix = await run_matrix(
            contenders,
            cases,
            cache=results_cache,
            concurrency=options.concurrency,
            on_start=on_start,
            on_done=on_done,
            warm_up=warm_up if callable(warm_up) else None,
            on_ready=on_ready,
        )
    if options.cost_per_1k is not None:
        per_1k = options.cost_per_1k
        matrix = dataclasses.replace(matrix, results=tuple(priced(r, per_1k) for r in matrix.results))
    return matrix, analyse(matrix)


class GateOptions(BaseModel):
    """What fails the run (the ``--require``, ``--no-regression-vs`` and ``--allow-fallback`` flags)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    requirements: tuple[str, ...] = ()
    no_regression_vs: str | None = None
    allow_fallback: bool = False
    alpha: float = Field(default=0.05, gt=0, lt=1)


@dataclass(frozen=True, slots=True)
class EvalRun:
    """A finished run: the cells, their analysis and the gates' findings."""

    matrix: Matrix
    analysis: Analysis
    gates: GateReport

    @property
    def exit_code(self) -> int:
        """0 when every gate passed, 1 otherwise (the CLI exits with it)."""
        return 0 if self.gates.ok else 1


async def evaluate(
    options: EvalOptions,
    gate_options: GateOptions,
    *,
    completer: Completer | None,
    answer_cache: SummaryCache | None,
    results_cache: CellStore | None,
    originals: OriginalStore | None = None,
    progress: Progress | None = None,
    repo: Path | None = None,
) -> EvalRun:
    """Parse the gates (bad ones fail before any cell runs), run, analyse and apply the gates."""
    requirements = tuple(parse_requirement(text) for text in gate_options.requirements)
    if options.judge and (completer is None or options.offline):
        raise InputError("--judge needs a provider; drop --offline (the judge is a model too)")
    matrix, analysis = await run_eval(
        options,
        completer=completer,
        answer_cache=answer_cache,
        results_cache=results_cache,
        originals=originals,
        on_start=progress.start if progress else None,
        on_done=progress.cell if progress else None,
        repo=repo,
        check_contenders=lambda labels: check_labels(labels, requirements, gate_options.no_regression_vs),
        on_ready=progress.ready if progress else None,
    )
    judged = None
    if options.judge:
        assert completer is not None
        warm_up = getattr(completer, "warm_up", None)
        if callable(warm_up):
            await warm_up()
        matrix, judged = await judge_matrix(
            matrix,
            completer=completer,
            model=options.judge,
            api_base=options.api_base,
            store=results_cache,
            concurrency=options.concurrency,
            timeout_s=options.timeout_s,
        )
        analysis = analyse(matrix)
    gates = check(
        matrix,
        analysis,
        requirements=requirements,
        no_regression_vs=gate_options.no_regression_vs,
        allow_fallback=gate_options.allow_fallback,
        alpha=gate_options.alpha,
    )
    if judged is not None:
        gates.outcomes.append(judged.line())
    return EvalRun(matrix, analysis, gates)
