"""``summarizer score | compress | stats | batch``: the seed's compress-inline modes.

An entry comes from a JSON file argument, from stdin (``-``), or from flags (``--text SUMMARY
--files a,b --status S --from AGENT --to AGENT --phase P``); with a file, the flags override its
fields. Batches are JSONL (a JSON array works too). ``--json`` prints a machine-readable object.
Bad input (invalid JSON or UTF-8, an empty file, a missing ``summary``, an unknown key) is one line
on stderr and exit code 2.

A plain ``summarizer score`` call never reaches this module: the console entry point answers it on
a cold path without click or pydantic (:mod:`summarizer.launcher`) and hands everything else here.
Without a model configured, these commands import only click, pydantic and the pure phase modules:
no litellm, jinja2, tiktoken, mcp or SQLite (``tests/phase/test_cli.py`` proves it), so they start
fast. With ``--model`` (or ``SUMMARIZER_MODEL``), ``compress`` and ``batch --json`` hand CRITICAL/HIGH
entries to the semantic service in :mod:`summarizer.app`, which falls back to the templates.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from summarizer.cli._common import emit_json, handle_errors, read_text
from summarizer.errors import InputError

if TYPE_CHECKING:
    from summarizer.phasegate.models import SubtaskSummary
    from summarizer.settings import Settings

# pydantic scans every installed distribution for plugins when it builds the first model; in this
# environment (litellm, mcp, ...) that scan is a large share of the cold start, and a CLI process
# has no pydantic plugins to load. setdefault: a user who sets the variable keeps control.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

__all__ = ["batch", "compress", "score", "stats"]

F = TypeVar("F", bound=Callable[..., Any])


def _entry_options(func: F) -> F:
    options = [
        click.argument("entry", required=False, metavar="[ENTRY]"),
        click.option("--text", help="The summary text (instead of an ENTRY file)."),
        click.option("--files", help="Changed files, comma-separated: a.py,b.py"),
        click.option("--status", help="complete | partial (reason) | in_progress | blocked | escalated"),
        click.option("--from", "from_agent", metavar="AGENT", help="The agent that produced the entry."),
        click.option("--to", "to_agent", metavar="AGENT", help="The next agent(s), comma-separated."),
        click.option("--phase", help="Phase id, e.g. 2 or 2a."),
        click.option("--json", "as_json", is_flag=True, help="Print a JSON object."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _load_entry(
    entry: str | None,
    text: str | None,
    files: str | None,
    status: str | None,
    from_agent: str | None,
    to_agent: str | None,
    phase: str | None,
) -> SubtaskSummary:
    from summarizer.phasegate.service import entries_from_text, entry_from_flags, entry_from_mapping

    if entry is not None and text is not None:
        raise InputError("give either an ENTRY file (or '-') or --text, not both")
    if entry is None:
        if text is None:
            raise InputError("no entry: pass an ENTRY JSON file, '-' for stdin, or --text SUMMARY")
        if not text.strip():
            raise InputError("--text is empty; give the summary text")
        return entry_from_flags(
            text, files=files, status=status, from_agent=from_agent, to_agent=to_agent, phase=phase
        )
    source = "stdin" if entry == "-" else entry
    found = entries_from_text(read_text(entry, what="entry"), source)
    if len(found) != 1:
        raise InputError(f"{source} holds {len(found)} entries; give one, or use `summarizer batch`")
    overrides = {
        k: v
        for k, v in (("files_changed", files), ("status", status), ("from_agent", from_agent),
                     ("to_agent", to_agent), ("phase", phase))
        if v is not None
    }  # fmt: skip
    if not overrides:
        return found[0]
    data = found[0].model_dump(exclude_none=True)
    if "status" in overrides:
        data.pop("status_note", None)  # the note belonged to the status being replaced
    return entry_from_mapping({**data, **overrides}, source)


@click.command()
@_entry_options
@handle_errors
def score(
    entry: str | None,
    text: str | None,
    files: str | None,
    status: str | None,
    from_agent: str | None,
    to_agent: str | None,
    phase: str | None,
    as_json: bool,
) -> None:
    """Score one subtask_summary: each dimension, the matched keywords, the score and its band."""
    from summarizer.phasegate.service import score_one

    item = _load_entry(entry, text, files, status, from_agent, to_agent, phase)
    result = score_one(item)
    if as_json:
        emit_json(result.as_dict())
    else:
        from summarizer.launcher import score_report

        for line in score_report(result, item.from_agent):
            click.echo(line)


@click.command()
@_entry_options
@click.option("--model", help="litellm model for CRITICAL/HIGH summaries (default: the template).")
@click.option("--api-base", help="OpenAI-compatible base URL for --model.")
@click.option("--offline", is_flag=True, help="Never call a model: the deterministic template answers.")
@click.option("--no-cache", is_flag=True, help="Do not read or write the summary cache.")
@click.option("--concurrency", type=click.IntRange(1, 64), default=4, show_default=True)
@handle_errors
def compress(
    entry: str | None,
    text: str | None,
    files: str | None,
    status: str | None,
    from_agent: str | None,
    to_agent: str | None,
    phase: str | None,
    as_json: bool,
    model: str | None,
    api_base: str | None,
    offline: bool,
    no_cache: bool,
    concurrency: int,
) -> None:
    """Scrub, score and render one subtask_summary for its band (--to picks the agent pair)."""
    from summarizer.phasegate.service import compress_one

    item = _load_entry(entry, text, files, status, from_agent, to_agent, phase)
    result = compress_one(item)
    if settings := _llm_settings(model, api_base, offline, no_cache, concurrency):
        from summarizer.app import semantic_compress  # CRITICAL/HIGH through the LLM service

        result = semantic_compress(item, result, settings)
    if as_json:
        emit_json(result.as_dict())
        return
    for line in result.lines:
        click.echo(line)
    if settings and result.reason:
        click.echo(f"summarizer: template used: {result.reason}", err=True)
    for flag in result.score.flags:
        click.echo(f"summarizer: {flag}", err=True)


def _llm_settings(
    model: str | None, api_base: str | None, offline: bool, no_cache: bool, concurrency: int | None
) -> Settings | None:
    """Settings for the semantic path, or None when no model is configured (templates only, fast)."""
    if not (model or os.environ.get("SUMMARIZER_MODEL")):
        return None
    from summarizer.settings import Settings

    flags = {"model": model, "api_base": api_base, "concurrency": concurrency}
    return Settings.load(os.environ, offline=offline or None, use_cache=False if no_cache else None, **flags)


_LLM_OPTIONS = [
    click.option("--model", help="litellm model for CRITICAL/HIGH summaries (default: the template)."),
    click.option("--api-base", help="OpenAI-compatible base URL for --model."),
    click.option("--offline", is_flag=True, help="Never call a model: the deterministic template answers."),
    click.option("--no-cache", is_flag=True, help="Do not read or write the summary cache."),
    click.option("--concurrency", type=click.IntRange(1, 64), default=8, show_default=True),
]


def _read_entries(paths: tuple[str, ...]) -> list[SubtaskSummary]:
    from summarizer.phasegate.service import entries_from_text

    entries: list[SubtaskSummary] = []
    for path in paths:
        source = "stdin" if path == "-" else path
        entries.extend(entries_from_text(read_text(path, what="entries file"), source))
    return entries


_PHASES = click.option(
    "--phases",
    type=click.IntRange(min=1),
    help="Estimated phases of the feature (default 8 -> 12 lines/phase).",
)


@click.command()
@click.argument("files", nargs=-1, required=True)
@_PHASES
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object.")
@handle_errors
def stats(files: tuple[str, ...], phases: int | None, as_json: bool) -> None:
    """Counts per band, budget-lines used and redactions over entry files (JSON, JSON arrays or JSONL)."""
    from summarizer.phasegate.service import stats_over

    result = stats_over(_read_entries(files), phases)
    if as_json:
        emit_json(result.as_dict())
        return
    bands = "  ".join(f"{band} {count}" for band, count in result.bands.items())
    click.echo(f"entries {result.entries}: {bands}")
    click.echo(f"not compressed {result.not_compressed}, partial {result.partial}")
    click.echo(f"budget lines used {result.lines_used:g}")
    kinds = ", ".join(f"{k} {v}" for k, v in result.redactions.items())
    click.echo(f"redactions {sum(result.redactions.values())}" + (f" ({kinds})" if kinds else ""))
    for flag in result.flags:
        click.echo(f"flag: {flag}")


@click.command()
@click.argument("file")
@_PHASES
@click.option("--json", "as_json", is_flag=True, help="Print the plan as JSON (with rendered lines).")
@_LLM_OPTIONS[0]
@_LLM_OPTIONS[1]
@_LLM_OPTIONS[2]
@_LLM_OPTIONS[3]
@_LLM_OPTIONS[4]
@handle_errors
def batch(
    file: str,
    phases: int | None,
    as_json: bool,
    model: str | None,
    api_base: str | None,
    offline: bool,
    no_cache: bool,
    concurrency: int,
) -> None:
    """Score and budget a phase batch (JSONL, or '-') and print the plan.

    With --json and a model, expanded CRITICAL/HIGH lines come from the LLM, --concurrency at a time.
    Exit 1 after printing the plan when CRITICAL entries alone exceed the 100-line total
    (an escalation: nothing may be written).
    """
    from summarizer.phasegate.service import batch_plan

    result = batch_plan(_read_entries((file,)), phases)
    settings = _llm_settings(model, api_base, offline, no_cache, concurrency) if as_json else None
    if settings:
        from summarizer.app import semantic_batch

        emit_json(semantic_batch(result, settings))
    elif as_json:
        emit_json(result.as_dict())
    else:
        data = result.as_dict(lines=False)
        click.echo(f"per-phase budget {data['phase_budget']} lines (total {data['total']})")
        for p in data["phases"]:
            click.echo(
                f"phase {p['phase'] or '?'}: budget {p['budget']} + carry {p['carry_in']} "
                f"= {p['available']}; "
                f"used {p['used']:g}; carryover {p['carryover']}"
                + ("  OVER BUDGET" if p["over_budget"] else "")
            )
            for row in p["entries"]:
                warn = " ⚠️" if row["warning"] else ""
                click.echo(
                    f"  {row['id']:<5} {row['agent']:<11} {row['score']:.2f} {row['priority']:<8} "
                    f"{row['mode']:<10} {row['cost']:g}{warn}"
                )
        for held in data["not_compressed"]:
            click.echo(f"  {held['id']:<5} {held['agent']:<11} not compressed ({held['status']})")
        click.echo(f"total used {data['used']:g} of {data['total']} lines")
        redactions = data["redactions"]
        if redactions["count"]:
            click.echo(f"redactions {redactions['count']} ({', '.join(redactions['types'])})")
        for flag in data["flags"]:
            click.echo(f"flag: {flag}")
    result.plan.check()  # EscalationRequired -> one line on stderr, exit 1
