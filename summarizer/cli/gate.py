"""``summarizer gate``: promote a phase batch into the memory bank, close a sprint, or inject context.

    summarizer gate --phase P [--estimated-phases N] [--feature NAME] [--bank DIR] [--date YYYY-MM-DD]
                    [--final] [--json] ENTRIES.jsonl
    summarizer gate --close-sprint [--bank DIR] [--date YYYY-MM-DD] [--json]
    summarizer gate --inject PHASE [--feature NAME] [--bank DIR]
    summarizer gate --repair [--bank DIR] [--json]

Entries without a ``date`` take ``--date``, else today's local date (:mod:`summarizer.core.dates`).
Exit codes: 0 ok (flags are printed but do not fail), 1 escalation or bank failure (nothing
written), 2 bad input.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from summarizer.cli._common import emit_json, handle_errors, read_text, run_async
from summarizer.core.dates import check_date
from summarizer.core.settings import Settings
from summarizer.core.vocabulary import Band
from summarizer.phasegate.models import SubtaskSummary

if TYPE_CHECKING:
    from summarizer.bank.gate import Summarize

__all__ = ["gate", "parse_entries"]


def parse_entries(text: str, *, source: str) -> tuple[SubtaskSummary, ...]:
    """JSONL (one ``subtask_summary`` per line), a JSON array or one object; errors name the line."""
    from summarizer.phasegate.service import entries_from_text

    return tuple(entries_from_text(text, source))


def _entry_lines(settings: Settings) -> Summarize | None:
    """The gate's CRITICAL/HIGH lines from the model (one concurrent batch), or None for templates."""
    from summarizer import app

    service = app.llm_service(settings)
    if service is None:
        return None
    from summarizer.phasegate.summaries import EntryJob, summarize_entries

    def summarize(jobs: Sequence[tuple[SubtaskSummary, Band, tuple[str, ...]]]) -> list[tuple[str, ...]]:
        entry_jobs = [EntryJob(entry, band, "\n".join(lines)) for entry, band, lines in jobs]
        return [tuple(answer.lines) for answer in run_async(summarize_entries(service, entry_jobs))]

    return summarize


@click.command("gate")
@click.argument("entries", required=False)
@click.option("--phase", help="Phase id of the batch (e.g. 2 or 2a); entries may carry their own.")
@click.option(
    "--estimated-phases",
    type=int,
    default=None,
    help="Phases planned for the feature (per-phase budget = max(5, 100 // N)); default: the "
    "feature's plan recorded in the bank, else 8. A different number changes the plan (reported).",
)
@click.option("--feature", default="default", show_default=True, help="Feature the phase belongs to.")
@click.option(
    "--bank",
    type=click.Path(path_type=Path),
    help="Memory-bank root (default $SUMMARIZER_BANK or .pantheon/memory-bank).",
)
@click.option("--date", "date", help="Date for entries without one (YYYY-MM-DD; default: today).")
@click.option("--final", is_flag=True, help="Last phase of the feature: archive its PLAN (C4).")
@click.option(
    "--learnings", type=click.Path(path_type=Path), help="Learnings root (default: <bank>/../learnings)."
)
@click.option(
    "--close-sprint", is_flag=True, help="Close the sprint: archive, flag unresolved, drop ZZ files."
)
@click.option(
    "--inject", "inject", metavar="PHASE", help="Print the injection block for the phase after PHASE."
)
@click.option(
    "--max-summary-kb",
    type=click.IntRange(min=1),
    default=256,
    show_default=True,
    help="A longer summary is scrubbed and cut (one-line warning); its full text is archived.",
)
@click.option(
    "--repair",
    is_flag=True,
    help="Remove the later copy of entries or log sections written twice by an earlier version.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as a JSON object.")
@handle_errors
def gate(
    entries: str | None,
    phase: str | None,
    estimated_phases: int | None,
    feature: str,
    bank: Path | None,
    date: str | None,
    final: bool,
    learnings: Path | None,
    close_sprint: bool,
    inject: str | None,
    max_summary_kb: int,
    repair: bool,
    as_json: bool,
) -> None:
    """Promote a phase batch (ENTRIES.jsonl, or - for stdin) into the memory bank."""
    from summarizer.bank.command import GateCall, run_gate_call

    settings = Settings.load(os.environ)
    call = GateCall(
        root=bank or settings.bank_dir,
        default_root=settings.bank_dir,
        date=check_date(date),
        entries_text=read_text(entries, what="entries") if entries else None,
        source=entries or "-",
        phase=phase,
        estimated_phases=estimated_phases,
        feature=feature,
        final=final,
        learnings=learnings,
        close_sprint=close_sprint,
        inject=inject,
        repair=repair,
        max_summary_kb=max_summary_kb,
    )
    out = run_gate_call(call, _entry_lines(settings) if entries else None)
    if as_json and out.data is not None:
        emit_json(out.data)
    else:
        click.echo(out.text, nl=False)
