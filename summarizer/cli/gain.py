"""``summarizer gain`` and ``summarizer discover``: thin adapters over :mod:`summarizer.gain.usecase`."""

from __future__ import annotations

import datetime as dt
import os
import sys
from collections.abc import Callable
from pathlib import Path

import click

from summarizer.cli._common import emit_json, handle_errors
from summarizer.core.errors import InputError

__all__ = ["discover", "gain"]


def _since(text: str | None) -> dt.datetime | None:
    from summarizer.gain.report import parse_since

    if text is None:
        return None
    try:
        return parse_since(text, dt.datetime.now(dt.UTC))
    except ValueError as exc:
        raise InputError(str(exc)) from None


def _transcripts(given: Path | None, required: bool) -> Path | None:
    """The transcript file or folder: the one given, else Claude Code's when it exists."""
    from summarizer.gain.transcripts import default_root

    if given is not None:
        if not given.exists():
            raise InputError(f"transcripts {str(given)!r} not found; pass a .jsonl file or a folder of them")
        return given
    root = default_root(os.environ)
    if root.is_dir():
        return root
    if required:
        raise InputError(
            f"no Claude Code transcripts at {str(root)!r}; pass a file or folder of .jsonl transcripts"
        )
    return None


def _progress(show: bool) -> Callable[[int, int, int], None] | None:
    """Files and megabytes read so far on stderr (a terminal, or --progress), at most twice a
    second: one line rewritten in place on a terminal, one line per report elsewhere."""
    import time

    terminal = sys.stderr is not None and sys.stderr.isatty()
    if not show and not terminal:
        return None
    last = [0.0]

    def report(files: int, done: int, total: int) -> None:
        now = time.monotonic()
        finished = done >= total
        if not finished and now - last[0] < 0.5:
            return
        last[0] = now
        text = f"reading transcripts: {files:,} files, {done / 1e6:,.1f} of {total / 1e6:,.1f} MB"
        if terminal:
            click.echo("\r" + text + ("\n" if finished else ""), nl=False, err=True)
        else:
            click.echo(text, err=True)

    return report


def _left_alone(command: str, excludes: list[str]) -> str | None:
    """Why the hook would leave ``command`` as written, or None when it would wrap some of it."""
    from summarizer.agents.shell import Opaque, parse
    from summarizer.agents.wrap import plan

    try:
        line = parse(command)
    except Opaque:
        return "shell syntax the hook does not rewrite"
    rewritten, reason = plan(line, excludes, None)
    return None if rewritten is not None else reason


_TRANSCRIPTS = click.option(
    "--transcripts",
    type=click.Path(path_type=Path),
    default=None,
    help="Claude Code transcripts: a .jsonl file or a folder (default: ~/.claude/projects).",
)


@click.command()
@click.option("--since", default=None, help="Only runs since then: 7d, 24h, 2w or a date (2026-12-01).")
@click.option("--project", default=None, help="Only this project (its directory or folder name).")
@_TRANSCRIPTS
@click.option("--no-transcripts", is_flag=True, help="Skip the whole-session share (reads no transcript).")
@click.option(
    "--progress", is_flag=True, help="Report reading progress on stderr even when it is not a terminal."
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@handle_errors
def gain(
    since: str | None,
    project: str | None,
    transcripts: Path | None,
    no_transcripts: bool,
    progress: bool,
    as_json: bool,
) -> None:
    """Tokens saved per command family, day and project, counted against what the agent would have seen."""
    from summarizer import app
    from summarizer.gain.ledger import LEDGER_DIR
    from summarizer.gain.render import render_gain
    from summarizer.gain.usecase import gain_report

    ledger = str(app.load_settings().cache_dir / LEDGER_DIR)
    root = None if no_transcripts else _transcripts(transcripts, required=False)
    report = gain_report(
        ledger, since=_since(since), project=project, transcripts=root, progress=_progress(progress)
    )
    if as_json:
        emit_json(report.model_dump(mode="json"))
    else:
        click.echo(render_gain(report), nl=False)


@click.command()
@click.argument("path", required=False, type=click.Path(path_type=Path))
@click.option("--since", default=None, help="Only sessions since then: 7d, 24h, 2w or a date.")
@click.option(
    "--floor",
    type=click.IntRange(min=0),
    default=500,
    show_default=True,
    help="Outputs up to this many tokens are not large.",
)
@click.option(
    "--progress", is_flag=True, help="Report reading progress on stderr even when it is not a terminal."
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@handle_errors
def discover(path: Path | None, since: str | None, floor: int, progress: bool, as_json: bool) -> None:
    """Large Bash outputs in Claude Code transcripts that ran without summarizer, and the savings missed."""
    from summarizer import app
    from summarizer.agents.run import STREAM_BYTES
    from summarizer.agents.run_compress import shown_tokens
    from summarizer.agents.wrap import exclude_prefixes
    from summarizer.gain.ledger import LEDGER_DIR
    from summarizer.gain.render import render_discover
    from summarizer.gain.usecase import discover_history, run_would_show

    root = _transcripts(path, required=True)
    assert root is not None
    excludes = exclude_prefixes(os.environ)
    with app.scratch_originals() as store:
        report = discover_history(
            root,
            would_show=run_would_show(store, lambda data, result: shown_tokens(data, result, STREAM_BYTES)),
            wrap_reason=lambda command: _left_alone(command, excludes),
            since=_since(since),
            ledger_dir=str(app.load_settings().cache_dir / LEDGER_DIR),
            floor=floor,
            progress=_progress(progress),
        )
    if as_json:
        emit_json(report.model_dump(mode="json"))
    else:
        click.echo(render_discover(report), nl=False)
