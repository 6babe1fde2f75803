"""``summarizer output`` and ``summarizer restore``: thin adapters over :mod:`summarizer.output`."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, NoReturn

import click

from summarizer.cli._common import emit_json, handle_errors
from summarizer.errors import InputError, StorageError
from summarizer.settings import Settings

if TYPE_CHECKING:
    from summarizer.output import OriginalNotStored

__all__ = ["output", "restore"]


def _open(source: str) -> BinaryIO:
    if source == "-":
        return sys.stdin.buffer
    path = Path(source)
    if not path.exists():
        raise InputError(f"file not found: {source!r}; pass an existing file or '-' for stdin")
    if path.is_dir():
        raise InputError(f"{source!r} is a directory; pass a file or '-' for stdin")
    return path.open("rb")


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
    help="Inputs with at most this many tokens pass through unchanged.",
)
@handle_errors
def output(source: str, target: int | None, exit_code: int | None, as_json: bool, floor: int) -> None:
    """Compress tool output (FILE or stdin) keeping every failure coordinate; the original is stored."""
    from summarizer.output import OriginalNotStored, OriginalStore, OutputOptions, compress

    settings = Settings.load(os.environ)
    store = OriginalStore.configured(settings.store_dir, os.environ)
    stream = _open(source)
    try:
        try:
            result = compress(
                stream, store, OutputOptions(target_tokens=target, floor_tokens=floor, exit_code=exit_code)
            )
        except OriginalNotStored as failure:
            _hand_back(failure, stream, as_json=as_json)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    if result.bytes == 0:
        raise InputError(f"input {source!r} is empty; give it some content")
    if store.dropped is not None:
        click.echo(f"summarizer output: the input ({store.dropped[1]:,} bytes) is over "
                   "SUMMARIZER_ORIGINALS_MAX_BYTES; its original was not stored, so restore cannot "
                   "give it back", err=True)  # fmt: skip
    if as_json:
        emit_json(result.model_dump(mode="json"))
        return
    if result.passthrough and not result.redactions:
        # Byte-identical: the stored original, not a re-encoded decoding of it.
        out = sys.stdout.buffer
        for block in store.iter_bytes(result.restore_id):
            out.write(block)
        out.flush()
        return
    click.echo(result.text, nl=False)


def _hand_back(failure: OriginalNotStored, stream: BinaryIO, *, as_json: bool) -> NoReturn:
    """Print the whole input unchanged (what was read, then the rest), then fail with exit 1.

    Without a stored original a compressed rendering would lose the cut lines for good, so the
    input goes through as it came. With ``--json`` too: stdout is the one channel sure to reach
    the caller (the disk just failed), and exit 1 with the stderr line tells it this is not JSON.
    """
    out = sys.stdout.buffer
    with failure.read_so_far as read_so_far:
        for block in read_so_far:
            out.write(block)
    # The stream is positioned just past what the store took; copy the rest without reading it
    # into memory.
    from summarizer.output.lines import READ_SIZE

    while block := stream.read(READ_SIZE):
        out.write(block)
    out.flush()
    printed = "printed the input unchanged" + (" instead of JSON" if as_json else "")
    if read_so_far.missing is not None:
        start, count = read_so_far.missing
        printed += (
            f" except bytes {start + 1:,}-{start + count:,}, which could not be read back "
            f"({read_so_far.missing_reason}); re-run the command to get them"
        )
    raise StorageError(
        f"could not store the original ({failure.reason}); {printed}; "
        "set SUMMARIZER_CACHE_DIR to a writable directory with free space"
    ) from failure


@click.command()
@click.argument("restore_id", metavar="ID")
@click.option("--lines", "lines", default=None, metavar="A:B", help="Only lines A..B (1-based, inclusive).")
@handle_errors
def restore(restore_id: str, lines: str | None) -> None:
    """Print a stored original back, byte-identical, whole or by line range."""
    from summarizer.output import OriginalStore, parse_range

    store = OriginalStore.configured(Settings.load(os.environ).store_dir, os.environ)
    span = parse_range(lines) if lines is not None else None
    out = sys.stdout.buffer
    for block in store.iter_bytes(restore_id, span):
        out.write(block)
    out.flush()
