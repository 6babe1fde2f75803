"""``summarizer score | compress | stats | batch``: the phase gate's compress-inline modes.

An entry comes from a JSON file argument, from stdin (``-``), or from flags (``--text SUMMARY
--files a,b --status S --from AGENT --to AGENT --phase P``); with a file, the flags override its
fields. Batches are JSONL (a JSON array works too). ``--json`` prints a machine-readable object.
Bad input (invalid JSON or UTF-8, an empty file, a missing ``summary``, an unknown key) is one line
on stderr and exit code 2.

A plain ``summarizer score`` call (flags, or one JSON object) reads its entry with the light reader
(:func:`summarizer.phasegate.entry_rules.light_entry`), so it never imports pydantic; anything the
light reader is unsure of goes to the model. Without a model configured, these commands import only
click, pydantic and the pure phase modules:
no litellm, jinja2, tiktoken, mcp or SQLite (``tests/phasegate/test_cli.py`` proves it), so they start
fast. With ``--model`` (or ``SUMMARIZER_MODEL``), ``compress`` and ``batch --json`` hand CRITICAL/HIGH
entries to :mod:`summarizer.phasegate.summaries` with the service :mod:`summarizer.app` built; it
falls back to the templates. Renderings live in :mod:`summarizer.phasegate.render`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, TypeVar, overload

import click

from summarizer.cli._common import emit_json, handle_errors, read_text, run_async
from summarizer.core.errors import InputError

if TYPE_CHECKING:
    from summarizer.phasegate.entry_rules import LightEntry
    from summarizer.phasegate.models import SubtaskSummary
    from summarizer.semantic.service import Summarizer

# pydantic scans every installed distribution for plugins when it builds the first model; in this
# environment (litellm, mcp, ...) that scan is a large share of the cold start, and a CLI process
# has no pydantic plugins to load. setdefault: a user who sets the variable keeps control.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

__all__ = ["batch", "compress", "score", "stats"]

F = TypeVar("F", bound=Callable[..., Any])


def _options(*decorators: Callable[[F], F]) -> Callable[[F], F]:
    def apply(func: F) -> F:
        for decorator in reversed(decorators):
            func = decorator(func)
        return func

    return apply


_entry_options = _options(
    click.argument("entry", required=False, metavar="[ENTRY]"),
    click.option("--text", help="The summary text (instead of an ENTRY file)."),
    click.option("--files", help="Changed files, comma-separated: a.py,b.py"),
    click.option("--status", help="complete | partial (reason) | in_progress | blocked | escalated"),
    click.option("--from", "from_agent", metavar="AGENT", help="The agent that produced the entry."),
    click.option("--to", "to_agent", metavar="AGENT", help="The next agent(s), comma-separated."),
    click.option("--phase", help="Phase id, e.g. 2 or 2a."),
    click.option("--json", "as_json", is_flag=True, help="Print a JSON object."),
)


Flag = str | None


@overload
def _load_entry(
    entry: Flag,
    text: Flag,
    files: Flag,
    status: Flag,
    from_agent: Flag,
    to_agent: Flag,
    phase: Flag,
    *,
    light: Literal[False] = False,
) -> SubtaskSummary: ...
@overload
def _load_entry(
    entry: Flag,
    text: Flag,
    files: Flag,
    status: Flag,
    from_agent: Flag,
    to_agent: Flag,
    phase: Flag,
    *,
    light: bool,
) -> SubtaskSummary | LightEntry: ...
def _load_entry(
    entry: str | None,
    text: str | None,
    files: str | None,
    status: str | None,
    from_agent: str | None,
    to_agent: str | None,
    phase: str | None,
    *,
    light: bool = False,
) -> SubtaskSummary | LightEntry:
    """The entry from a file, stdin or flags; with ``light``, read without pydantic when the light
    reader is sure (it reads every plain entry as the model would: tests/phasegate/test_light_entry.py)."""
    from summarizer.phasegate.entry_rules import flag_mapping, light_entry

    if entry is not None and text is not None:
        raise InputError("give either an ENTRY file (or '-') or --text, not both")
    flags = {"files": files, "status": status, "from_agent": from_agent, "to_agent": to_agent, "phase": phase}
    if entry is None:
        if text is None:
            raise InputError("no entry: pass an ENTRY JSON file, '-' for stdin, or --text SUMMARY")
        if not text.strip():
            raise InputError("--text is empty; give the summary text")
        if light and (quick := light_entry(flag_mapping(text, **flags))) is not None:
            return quick
        from summarizer.phasegate.service import entry_from_flags

        return entry_from_flags(text, **flags)
    raw = read_text(entry, what="entry")
    if light and all(v is None for v in flags.values()) and (quick := _light_object(raw)) is not None:
        return quick
    return _model_entry(raw, "stdin" if entry == "-" else entry, flags)


def _light_object(raw: str) -> LightEntry | None:
    """One JSON object read by the light reader, or None when only the model can say."""
    import json

    from summarizer.core.jsonio import loads
    from summarizer.phasegate.entry_rules import light_entry

    text = raw.strip()
    if not text.startswith("{"):
        return None
    try:
        return light_entry(loads(text, source="entry"))
    except (json.JSONDecodeError, InputError):
        return None  # the model's reader says what is wrong, in the words every reader uses


def _model_entry(raw: str, source: str, flags: dict[str, str | None]) -> SubtaskSummary:
    from summarizer.phasegate.service import entries_from_text, entry_from_mapping

    found = entries_from_text(raw, source)
    if len(found) != 1:
        raise InputError(f"{source} holds {len(found)} entries; give one, or use `summarizer batch`")
    overrides = {
        k: v
        for k, v in (
            ("files_changed", flags["files"]),
            ("status", flags["status"]),
            ("from_agent", flags["from_agent"]),
            ("to_agent", flags["to_agent"]),
            ("phase", flags["phase"]),
        )
        if v is not None
    }
    if not overrides:
        return found[0]
    data = found[0].model_dump(exclude_none=True)
    if "status" in overrides:
        data.pop("status_note", None)  # the note belonged to the status being replaced
    return entry_from_mapping({**data, **overrides}, source)


# Declared once for every command that can call a model (compress, batch).
_llm_options = _options(
    click.option("--model", help="litellm model for CRITICAL/HIGH summaries (default: the template)."),
    click.option("--api-base", help="OpenAI-compatible base URL for --model."),
    click.option("--offline", is_flag=True, help="Never call a model: the deterministic template answers."),
    click.option("--no-cache", is_flag=True, help="Do not read or write the summary cache."),
    click.option(
        "--concurrency",
        type=click.IntRange(1, 64),
        default=None,
        help="Model calls in flight at once [default: 8].",
    ),
    click.option(
        "--max-tokens",
        type=click.IntRange(1, 200_000),
        default=None,
        help="The model's answer limit [default: $SUMMARIZER_MAX_TOKENS, else the prompt's own].",
    ),
)
_phases_option = click.option(
    "--phases",
    type=click.IntRange(min=1),
    help="Estimated phases of the feature (default 8 -> 12 lines/phase).",
)


def _service(
    model: str | None,
    api_base: str | None,
    offline: bool,
    no_cache: bool,
    concurrency: int | None,
    max_tokens: int | None,
) -> Summarizer | None:
    """The LLM service when a model is configured (offline: it answers from the template and says
    so); None without a model, so the template path never loads jinja2 or litellm."""
    if not (model or os.environ.get("SUMMARIZER_MODEL")):
        return None
    from summarizer import app

    return app.build(
        app.load_settings(
            model=model,
            api_base=api_base,
            offline=offline or None,
            use_cache=False if no_cache else None,
            concurrency=concurrency,
            max_tokens=max_tokens,
        )
    )


def _read_entries(paths: tuple[str, ...]) -> list[SubtaskSummary]:
    from summarizer.phasegate.service import entries_from_text

    entries: list[SubtaskSummary] = []
    for path in paths:
        source = "stdin" if path == "-" else path
        entries.extend(entries_from_text(read_text(path, what="entries file"), source))
    return entries


def _echo(lines: list[str], *, err: bool = False, prefix: str = "") -> None:
    for line in lines:
        click.echo(prefix + line, err=err)


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
    from summarizer.phasegate.render import score_report
    from summarizer.phasegate.service import score_one

    item = _load_entry(entry, text, files, status, from_agent, to_agent, phase, light=True)
    result = score_one(item)
    if as_json:
        emit_json(result.as_dict())
    else:
        _echo(score_report(result, item.from_agent))


@click.command()
@_entry_options
@_llm_options
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
    concurrency: int | None,
    max_tokens: int | None,
) -> None:
    """Scrub, score and render one subtask_summary for its band (--to picks the agent pair)."""
    from summarizer.phasegate.render import compress_notes
    from summarizer.phasegate.service import compress_one

    item = _load_entry(entry, text, files, status, from_agent, to_agent, phase)
    result = compress_one(item)
    if service := _service(model, api_base, offline, no_cache, concurrency, max_tokens):
        from summarizer.phasegate.summaries import summarize_compressed

        result = run_async(summarize_compressed(service, item, result))
    if as_json:
        emit_json(result.as_dict())
        return
    _echo(list(result.lines))
    _echo(compress_notes(result, semantic=service is not None), err=True, prefix="summarizer: ")


@click.command()
@click.argument("files", nargs=-1, required=True)
@_phases_option
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object.")
@handle_errors
def stats(files: tuple[str, ...], phases: int | None, as_json: bool) -> None:
    """Counts per band, budget-lines used and redactions over entry files (JSON, JSON arrays or JSONL)."""
    from summarizer.phasegate.render import stats_lines
    from summarizer.phasegate.service import stats_over

    result = stats_over(_read_entries(files), phases)
    if as_json:
        emit_json(result.as_dict())
    else:
        _echo(stats_lines(result))


@click.command()
@click.argument("file")
@_phases_option
@click.option("--json", "as_json", is_flag=True, help="Print the plan as JSON (with rendered lines).")
@_llm_options
@handle_errors
def batch(
    file: str,
    phases: int | None,
    as_json: bool,
    model: str | None,
    api_base: str | None,
    offline: bool,
    no_cache: bool,
    concurrency: int | None,
    max_tokens: int | None,
) -> None:
    """Score and budget a phase batch (JSONL, or '-') and print the plan.

    With --json and a model, expanded CRITICAL/HIGH lines come from the LLM, --concurrency at a time.
    Exit 1 after printing the plan when CRITICAL entries alone exceed the 100-line total
    (an escalation: nothing may be written).
    """
    from summarizer.phasegate.render import batch_lines
    from summarizer.phasegate.service import batch_plan

    result = batch_plan(_read_entries((file,)), phases)
    service = _service(model, api_base, offline, no_cache, concurrency, max_tokens) if as_json else None
    if service is not None:
        from summarizer.phasegate.summaries import summarize_batch

        emit_json(run_async(summarize_batch(service, result)))
    elif as_json:
        emit_json(result.as_dict())
    else:
        _echo(batch_lines(result.as_dict(lines=False)))
    result.plan.check()  # EscalationRequired -> one line on stderr, exit 1
