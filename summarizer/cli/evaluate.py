"""``summarizer eval``: compare prompt versions, models and the template on eval datasets.

Thin edge: parse flags, let :mod:`summarizer.app` build the litellm adapter and the answer cache
(only when a prompt version is asked for), the results cache and the originals store, call
:func:`summarizer.evaluation.suite.run_eval`, print the table and
write the reports. The progress bar goes to stderr, and only when stderr is a terminal.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

import click

from summarizer.cli._common import handle_errors

__all__ = ["evaluate"]


@click.command("eval")
@click.argument("datasets", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--prompts",
    "prompts",
    multiple=True,
    metavar="DIR_OR_REV",
    help="A prompt directory or a git revision of prompts/ (repeat to compare versions).",
)
@click.option(
    "--model",
    "models",
    multiple=True,
    metavar="M",
    help="A litellm model string, e.g. openai/gpt-4o-mini (repeat for several).",
)
@click.option("--api-base", default=None, help="OpenAI-compatible base URL for the model.")
@click.option(
    "--concurrency",
    default=8,
    show_default=True,
    type=click.IntRange(1, 256),
    help="Cells answered at the same time.",
)
@click.option(
    "--out",
    "out_dir",
    default=Path("eval-report"),
    show_default=True,
    type=click.Path(path_type=Path, file_okay=False),
    help="Where reports are written.",
)
@click.option("--offline", is_flag=True, help="Only the template and the recorded answers; no provider.")
@click.option(
    "--evaldata",
    default=None,
    type=click.Path(path_type=Path, file_okay=False),
    help="Root of the evaldata folders that tool-output cases point into.",
)
@click.option(
    "--recorded",
    "recorded_dir",
    default=None,
    type=click.Path(path_type=Path, file_okay=False),
    help="Folder of recorded answers for --offline [default: <first dataset's folder>/recorded].",
)
@click.option("--no-template", is_flag=True, help="Leave the deterministic template out of the matrix.")
@click.option("--no-reuse", is_flag=True, help="Recompute every cell instead of reusing stored results.")
@handle_errors
def evaluate(
    datasets: tuple[Path, ...],
    prompts: tuple[str, ...],
    models: tuple[str, ...],
    api_base: str | None,
    concurrency: int,
    out_dir: Path,
    offline: bool,
    evaldata: Path | None,
    recorded_dir: Path | None,
    no_template: bool,
    no_reuse: bool,
) -> None:
    """Compare prompt versions and the template on DATASET... (JSONL files)."""
    from summarizer import app
    from summarizer.evaluation.report import render_table, write_reports
    from summarizer.evaluation.suite import EvalOptions, run_eval

    settings = app.load_settings(api_base=api_base)
    options = EvalOptions(
        datasets=datasets, prompts=prompts, models=models, api_base=settings.api_base,
        concurrency=concurrency, offline=offline or settings.offline, evaldata=evaldata,
        template=not no_template,
        recorded_dir=recorded_dir or datasets[0].parent / "recorded", timeout_s=settings.timeout_s,
    )
    live = bool(prompts) and not options.offline
    with ExitStack() as stack:
        results = None if no_reuse else app.build_results_cache(settings)
        if results is not None:
            stack.callback(results.close)
        progress = _Progress(stack)
        matrix, analysis = asyncio.run(run_eval(
            options, completer=app.build_completer() if live else None,
            answer_cache=app.build_cache(settings) if live and settings.use_cache else None,
            results_cache=results, originals=app.build_originals(settings),
            on_start=progress.start, on_done=progress.done, repo=Path.cwd(),
        ))
    if results is not None and results.write_errors:
        click.echo(f"summarizer: {results.write_errors} cells were not stored in {str(results.path)!r} "
                   f"({results.last_error}); they will be recomputed next time", err=True)
    click.echo(render_table(matrix, analysis), nl=False)
    paths = write_reports(out_dir, matrix, analysis)
    click.echo(f"reports: {paths['markdown']}, {paths['html']}, {paths['results']}")


class _Progress:
    """A progress bar on stderr, only when stderr is a terminal."""

    def __init__(self, stack: ExitStack) -> None:
        self._stack = stack
        self._updates: list[Callable[[int], None]] = []

    def start(self, total: int) -> None:
        if sys.stderr.isatty():
            bar = self._stack.enter_context(click.progressbar(length=total, label="eval", file=sys.stderr))
            self._updates.append(bar.update)

    def done(self, _: object) -> None:
        for update in self._updates:
            update(1)
