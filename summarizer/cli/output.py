"""``summarizer output`` and ``summarizer restore``: thin adapters over :mod:`summarizer.output`."""

from __future__ import annotations

import sys
from typing import BinaryIO

import click

from summarizer.cli._common import handle_errors

__all__ = ["output", "restore"]


def _open(source: str) -> BinaryIO:
    from summarizer.core.inputs import open_input

    return sys.stdin.buffer if source == "-" else open_input(source)


def _raw(stream: BinaryIO, ledger: str, command: str | None) -> bool:
    """With SUMMARIZER_RAW set: copy the input out untouched, record it, and say so."""
    import os

    from summarizer.gain.ledger import append_raw
    from summarizer.rules.raw import copy_raw, raw_requested

    if not raw_requested(os.environ):
        return False
    append_raw(ledger, copy_raw(stream, sys.stdout.buffer), tool="output", command=command)
    return True


@click.command()
@click.argument("source", default="-", metavar="[FILE|-]")
@click.option(
    "--target",
    "target",
    type=click.IntRange(min=1),
    default=None,
    help="Token budget (default: 3,000 for inputs over 10,000 tokens; smaller pass through).",
)
@click.option(
    "--exit-code", "exit_code", type=int, default=None, help="The command's exit code, for the header."
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print the envelope (coordinates, patterns, ...) as JSON."
)
@click.option(
    "--floor",
    "floor",
    type=click.IntRange(min=0),
    default=500,
    show_default=True,
    help="Inputs with at most this many tokens pass through unchanged (but for the compact forms"
    " of git, listing and search output that save a quarter).",
)
@click.option(
    "--content",
    "content",
    is_flag=True,
    help="The input is a file to read (source text): outlined past 3,000 tokens, never compressed as a log.",
)
@click.option(
    "--command",
    "command",
    default=None,
    help="The command that printed the input (labels `summarizer gain`).",
)
@handle_errors
def output(
    source: str,
    target: int | None,
    exit_code: int | None,
    as_json: bool,
    floor: int,
    command: str | None,
    content: bool,
) -> None:
    """Compress tool output (FILE or stdin) keeping every failure coordinate; the original is stored.

    With SUMMARIZER_RAW=1 in the environment the input is printed untouched."""
    from summarizer import app
    from summarizer.agents.run_compress import plan_for
    from summarizer.gain.ledger import LEDGER_DIR, append_result
    from summarizer.output.deliver import deliver
    from summarizer.output.models import result_of

    settings = app.load_settings()
    ledger = str(settings.cache_dir / LEDGER_DIR)
    stream = _open(source)
    try:
        if _raw(stream, ledger, command):
            return
        store = app.build_originals(settings)
        plan = plan_for("summarizer output", target, floor, exit_code, content=content)
        result = deliver(stream, store, plan, out=sys.stdout.buffer, as_json=as_json, name=source)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    append_result(ledger, result_of(result), tool="output", command=command)
    if store.dropped is not None:
        click.echo(
            f"summarizer output: the input ({store.dropped[1]:,} bytes) is over "
            "SUMMARIZER_ORIGINALS_MAX_BYTES; its original was not stored, so restore cannot "
            "give it back",
            err=True,
        )


@click.command()
@click.argument("restore_id", metavar="ID")
@click.option("--lines", "lines", default=None, metavar="A:B", help="Only lines A..B (1-based, inclusive).")
@handle_errors
def restore(restore_id: str, lines: str | None) -> None:
    """Print a stored original back, byte-identical, whole or by line range."""
    from summarizer import app
    from summarizer.output import parse_range

    store = app.build_originals(app.load_settings())
    span = parse_range(lines) if lines is not None else None
    out = sys.stdout.buffer
    for block in store.iter_bytes(restore_id, span):
        out.write(block)
    out.flush()
