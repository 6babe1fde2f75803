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

from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from summarizer.errors import InputError
from summarizer.evaluation.cells import CellResult
from summarizer.evaluation.comparison import Analysis, analyse
from summarizer.evaluation.contenders import (
    Contender,
    PromptContender,
    TemplateContender,
    load_recorded,
)
from summarizer.evaluation.dataset import load_dataset
from summarizer.evaluation.resolve import resolve_all
from summarizer.evaluation.runner import Matrix, ResultsCache, run_matrix
from summarizer.evaluation.versions import materialise_prompts
from summarizer.semantic.ports import Completer, SummaryCache

if TYPE_CHECKING:
    from summarizer.output import OriginalStore

__all__ = ["EvalOptions", "run_eval"]


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
    if options.models and not options.prompts:
        raise InputError(
            "--model needs at least one --prompts DIR_OR_REV (a prompt directory or a git revision)"
        )
    if options.prompts and completer is None:
        raise InputError("no model client available; pass --offline to run the template and recorded answers")
    versions = [materialise_prompts(spec, stack, repo=repo) for spec in options.prompts]
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
    results_cache: ResultsCache | None,
    originals: OriginalStore | None = None,
    on_start: Callable[[int], None] | None = None,
    on_done: Callable[[CellResult], None] | None = None,
    repo: Path | None = None,
) -> tuple[Matrix, Analysis]:
    """Load, resolve, run and analyse. ``on_start`` receives the number of cells planned."""
    datasets = [load_dataset(path) for path in options.datasets]
    names = [ds.name for ds in datasets]
    if len(set(names)) != len(names):
        raise InputError(f"two datasets share a name ({names}); rename one file")
    cases = resolve_all(datasets, options.evaldata)
    with ExitStack() as stack:
        contenders = build_contenders(
            options, stack, completer=completer, answer_cache=answer_cache, originals=originals, repo=repo
        )
        if on_start is not None:
            on_start(sum(1 for c in contenders for case in cases if c.key_material(case) is not None))
        matrix = await run_matrix(
            contenders, cases, cache=results_cache, concurrency=options.concurrency, on_done=on_done
        )
    return matrix, analyse(matrix)
