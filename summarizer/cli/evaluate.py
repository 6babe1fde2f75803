"""``summarizer eval``: compare prompt versions, models and the template on eval datasets.

Thin edge: parse flags, let :mod:`summarizer.app` build the litellm adapter and the answer cache
(only when a model is asked for), the cell store and the originals store, call
:func:`summarizer.evaluation.suite.evaluate`, print the table, write the reports and exit with the
gates' code (1 when a gate failed or a contender never answered). Progress goes to stderr: a bar on
a terminal, plain lines in a log (:mod:`summarizer.evaluation.progress`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from summarizer.cli._common import handle_errors, run_async

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
@click.option("--limit", type=click.IntRange(1), default=None, help="Only the first N cases per dataset.")
@click.option("--case", "case_ids", multiple=True, metavar="ID", help="Only this case (repeatable).")
@click.option(
    "--require",
    "requirements",
    multiple=True,
    metavar="[C:]METRIC>=V",
    help="Fail (exit 1) unless every contender (or C) meets it, e.g. fact_recall>=0.9, latency_p95<=800.",
)
@click.option(
    "--no-regression-vs", default=None, metavar="BASELINE", help="Fail on a significant loss to BASELINE."
)
@click.option(
    "--alpha",
    default=0.05,
    show_default=True,
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    help="Significance level of --no-regression-vs and of the recommendation.",
)
@click.option("--allow-fallback", is_flag=True, help="Exit 0 even when a contender never got a model answer.")
@click.option(
    "--judge",
    default=None,
    metavar="MODEL",
    help="Also rate each answer's faithfulness with MODEL (a litellm model string).",
)
@click.option(
    "--cost-per-1k",
    type=click.FloatRange(min=0),
    default=None,
    metavar="USD",
    help="Price per 1,000 tokens for models litellm's cost map does not know (local servers).",
)
@click.option("--no-cache", is_flag=True, help="Do not read or write the model-answer cache.")
@click.option(
    "--csv",
    "csv_path",
    default=None,
    type=click.Path(path_type=Path, dir_okay=False),
    help="Also write every cell as CSV here.",
)
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
    limit: int | None,
    case_ids: tuple[str, ...],
    requirements: tuple[str, ...],
    no_regression_vs: str | None,
    alpha: float,
    allow_fallback: bool,
    judge: str | None,
    cost_per_1k: float | None,
    no_cache: bool,
    csv_path: Path | None,
) -> None:
    """Compare prompt versions and the template on DATASET... (JSONL files).

    Exits 1 when a --require or --no-regression-vs gate fails, or when a contender's model never
    answered (every cell fell back to the template) unless --allow-fallback.
    """
    from summarizer import app
    from summarizer.evaluation.progress import Progress
    from summarizer.evaluation.report import render_table, store_warning, write_reports
    from summarizer.evaluation.suite import EvalOptions, GateOptions, evaluate

    settings = app.load_settings(api_base=api_base, use_cache=False if no_cache else None)
    options = EvalOptions(
        datasets=datasets,
        prompts=prompts,
        models=models,
        api_base=settings.api_base,
        concurrency=concurrency,
        offline=offline or settings.offline,
        evaldata=evaldata,
        template=not no_template,
        limit=limit,
        case_ids=case_ids,
        judge=judge,
        recorded_dir=recorded_dir or datasets[0].parent / "recorded",
        timeout_s=settings.timeout_s,
        cost_per_1k=cost_per_1k,
    )
    gates = GateOptions(
        requirements=requirements,
        no_regression_vs=no_regression_vs,
        allow_fallback=allow_fallback,
        alpha=alpha,
    )
    live = bool(models or judge) and not options.offline
    with app.eval_adapters(settings, live=live, reuse=not no_reuse) as adapters:
        run = run_async(
            evaluate(
                options,
                gates,
                progress=Progress(write=_stderr, tty=sys.stderr.isatty(), concurrency=concurrency),
                repo=Path.cwd(),
                **adapters,
            )
        )
        if warning := store_warning(adapters["results_cache"]):
            click.echo(warning, err=True)
    click.echo(render_table(run.matrix, run.analysis, run.gates), nl=False)
    paths = write_reports(out_dir, run.matrix, run.analysis, run.gates, csv_path=csv_path)
    click.echo("reports: " + ", ".join(str(p) for p in paths.values()))
    sys.exit(run.exit_code)


def _stderr(text: str) -> None:
    sys.stderr.write(text)
    sys.stderr.flush()
