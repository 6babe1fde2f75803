"""``summarizer envelope``: reduce an agentic-workspace/v1 tool-result envelope (docs/envelopes.md).

Reads one JSON object from a file or stdin and prints the reduced envelope as one line of compact
JSON (the form whose size ``--cap`` bounds), or with ``--json`` a report: the envelope, the mode
(whole / reduced / compact), sizes, omitted and pruned paths, the recovery list and the number
of redactions. Invalid JSON, a non-object, invalid UTF-8 or an empty input exit 2.
"""

from __future__ import annotations

import json

import click

from summarizer.cli._common import emit_json, handle_errors, read_json_object, read_text
from summarizer.envelope.reduce import DEFAULT_CAP, reduce_envelope

__all__ = ["envelope"]


@click.command("envelope")
@click.argument("source", default="-", metavar="[FILE|-]")
@click.option(
    "--cap",
    type=click.IntRange(min=1),
    default=DEFAULT_CAP,
    show_default=True,
    help="Byte budget for the compact JSON of the reduced envelope.",
)
@click.option("--json", "as_json", is_flag=True, help="Print a report (mode, sizes, recovery list) too.")
@handle_errors
def envelope(source: str, cap: int, as_json: bool) -> None:
    """Reduce an agentic-workspace/v1 envelope under --cap bytes, keeping every recovery handle."""
    data = read_json_object(read_text(source, what="envelope"), source=source)
    result = reduce_envelope(data, cap=cap)
    if as_json:
        emit_json(result.model_dump(mode="json"))
    else:
        click.echo(json.dumps(result.envelope, ensure_ascii=False, separators=(",", ":")))
