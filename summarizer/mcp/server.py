"""The MCP server (``summarizer mcp``): compression tools plus engram's memory tools, over stdio.

Two tool families, both thin adapters (parse, call one use case, render):

* **Ours**: ``score``, ``compress``, ``stats``, ``batch`` (phase-gate entries), ``output_compress``
  and ``output_restore`` (tool output), ``envelope_reduce`` (agentic-workspace/v1 results),
  ``session_compress`` and ``session_recover`` (mid-session memory).
* **engram's**, under engram's names, argument names, input schemas, annotations and reply texts
  (``mem_save``, ``mem_search``, ``mem_get_observation``, ...), delegated to
  :mod:`summarizer_engram.tools`, so an agent configured for engram can point at this server.
  engram's Go handlers read arguments leniently (a string of the wrong type counts as missing),
  so these tools accept any JSON value and let the handlers decide, exactly as engram does.

Every failure is a tool result with ``isError`` set and a one-line message for the agent, never a
protocol error and never a crash. Every reply is scrubbed of secrets, and so is what the memory
tools write (scrub before anything is persisted or leaves the process).

Startup stays light: the heavy modules (phase scoring, output compression, the LLM service and with
it litellm) are imported inside the tools that need them, on first use.
"""

from __future__ import annotations

import inspect
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp_types import CallToolResult, TextContent, ToolAnnotations

from summarizer import app
from summarizer.app import SharedMemory
from summarizer.core.dates import check_date
from summarizer.core.errors import InputError, SummarizerError
from summarizer.core.inputs import fifo_wait, json_object, read_text
from summarizer.core.scrub import scrub
from summarizer.core.settings import Settings
from summarizer.mcp.stdio import serve_stdio

if TYPE_CHECKING:
    from summarizer_engram.tool_specs import ToolSpec

    from summarizer.output import OutputResult

__all__ = ["INSTRUCTIONS", "build_server", "output_reply", "serve"]

INSTRUCTIONS = (
    "summarizer also keeps a coding agent's context small without losing what matters. Compression tools: "
    "score/compress/stats/batch (phase-gate subtask summaries), output_compress/output_restore (shrink "
    "build logs and test traces; the full output stays restorable), envelope_reduce (tool-result "
    "envelopes), session_compress/session_recover (save the session's decisions, discoveries, failures "
    "and progress to memory before compaction, and read them back after)."
)

# A file read by a tool may take this long past the named-pipe wait before the call gives up.
READ_GRACE_S = 20.0

# Memory tools whose string arguments are persisted: scrub them on the way in.
_WRITE_ARGS = {"title", "content", "summary", "project", "topic_key", "session_id"}


def _result(text: str, *, error: bool = False) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=scrub(text)[0])], is_error=error)


def _guard(work: Callable[[], str]) -> CallToolResult:
    """Run a tool body: its text, or an ``isError`` result for any failure (never a crash)."""
    try:
        return _result(work())
    except Exception as exc:
        return _failure(exc)


def _failure(exc: Exception) -> CallToolResult:
    """The one-line ``isError`` reply for a failed tool body."""
    from pydantic import ValidationError

    if isinstance(exc, SummarizerError):
        return _result(str(exc).splitlines()[0] if str(exc) else type(exc).__name__, error=True)
    if isinstance(exc, ValidationError):  # an argument out of range (target_tokens: -1): the caller's
        problems = "; ".join(
            f"{'.'.join(map(str, e['loc'])) or 'value'}: {e['msg']}" for e in exc.errors()[:3]
        )
        return _result(f"invalid argument ({problems}); fix it and call again", error=True)
    # a bug must not take the agent's server down
    message = f"internal error in summarizer ({type(exc).__name__}: {exc}); please report it"
    return _result(message, error=True)


_MAX_COUNT = 10**9  # tokens, bytes, phases: far past any real value, far below what breaks arithmetic


def _bounded(name: str, value: int | None, low: int, high: int = _MAX_COUNT) -> None:
    """Range-check a numeric argument before anything uses it (a 4,000-digit number is not a budget)."""
    if value is None or low <= value <= high:
        return
    shown = str(value) if abs(value) < 10**30 else f"a {len(str(abs(value))):,}-digit number"
    bound = f"at least {low}" if value < low else f"at most {high:,}"
    raise InputError(f"{name} must be {bound}, not {shown}")


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1, default=str)


def output_reply(result: OutputResult, *, envelope: bool = False) -> str:
    """The text an agent gets back from ``output_compress``: what ``summarizer output`` prints.

    The JSON envelope used to be the reply, and it cost 3.4-5x the ``compressed_tokens`` it reported
    (and more than the input itself for a pass-through). An agent needs the text: the header with
    the exit code, failing tests and first error, the kept lines, and the restore hint as the last
    line. The envelope is there when asked for (``envelope: true``), e.g. by a tool that wants the
    coordinates as data. A pass-through is the input's text, once, never wrapped.
    """
    if envelope:
        return _json(result.model_dump(mode="json"))
    return result.text


def _engram_tool(spec: ToolSpec, memory: SharedMemory) -> Tool:
    """One engram tool: engram's schema and annotations, lenient arguments, engram's reply text."""
    from summarizer_engram.tools import HANDLERS

    handler = HANDLERS[spec.name]

    def call(**kwargs: Any) -> CallToolResult:
        args = {k: v for k, v in kwargs.items() if v is not None}
        for key in _WRITE_ARGS & args.keys():
            if isinstance(args[key], str):
                args[key] = scrub(args[key])[0]
        try:
            backend = memory.get()
        except Exception as exc:  # StorageError, or anything else that stops the store opening
            return _result(f"engram unavailable: {exc}", error=True)
        try:
            text, is_error = handler(backend, **args)
        except Exception as exc:  # the handlers return errors; this is the belt to their braces
            return _result(f"{spec.name} failed: {exc}", error=True)
        return _result(text, error=is_error)

    # The SDK builds its argument model from the signature: give it engram's names, any JSON type.
    params = [
        inspect.Parameter(p, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Any)
        for p in spec.params
    ]
    call.__signature__ = inspect.Signature(params, return_annotation=CallToolResult)  # type: ignore[attr-defined]
    call.__annotations__ = {**dict.fromkeys(spec.params, Any), "return": CallToolResult}
    call.__name__ = spec.name
    annotations = ToolAnnotations(
        title=spec.title,
        read_only_hint=spec.read_only,
        destructive_hint=spec.destructive,
        idempotent_hint=False,
        open_world_hint=False,
    )
    tool = Tool.from_function(
        call, name=spec.name, title=spec.title, description=spec.description, annotations=annotations
    )
    return tool.model_copy(update={"parameters": spec.input_schema()})


def build_server(
    settings: Settings | None = None,
    *,
    tools: str = "",
    memory: SharedMemory | None = None,
    cwd: Path | None = None,
) -> MCPServer[Any]:
    """The server with our tools and the engram tools ``tools`` selects (engram's ``--tools``)."""
    from summarizer_engram.tool_specs import INSTRUCTIONS as ENGRAM_INSTRUCTIONS
    from summarizer_engram.tool_specs import TOOLS, resolve_tools

    settings = settings or app.load_settings()
    memory = memory or app.shared_memory(settings)
    here = cwd or Path.cwd()
    chosen = resolve_tools(tools)
    engram_tools = [_engram_tool(spec, memory) for name, spec in TOOLS.items() if name in chosen]
    # engram's own instructions first: agents and skills written for engram look for them.
    server: MCPServer[Any] = MCPServer(
        "summarizer",
        instructions=f"{ENGRAM_INSTRUCTIONS}\n\n{INSTRUCTIONS}",
        version=_version(),
        tools=engram_tools,
    )
    _register_phase(server)
    _register_output(server, settings)
    _register_envelope(server)
    _register_session(server, settings, memory, here)
    return server


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("agent-summarizer")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0"


def serve(tools: str = "") -> None:
    """Serve over stdio until the client disconnects."""

    settings = app.load_settings()
    memory = app.shared_memory(settings)
    try:
        serve_stdio(build_server(settings, tools=tools, memory=memory))
    finally:
        memory.close()


def _entry(value: dict[str, Any] | str, source: str = "entry") -> Any:
    from summarizer.phasegate.service import entry_from_mapping

    return entry_from_mapping(json_object(value, source=source), source)


def _entries(values: list[dict[str, Any]]) -> list[Any]:
    if not values:
        raise InputError("entries is empty; pass a list of subtask_summary objects")
    return [_entry(v, f"entries[{i}]") for i, v in enumerate(values)]


def _register_phase(server: MCPServer[Any]) -> None:
    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    def score(entry: dict[str, Any] | str) -> CallToolResult:
        """Score one phase-gate subtask_summary: the five dimensions, matched keywords, score and band."""
        from summarizer.phasegate.service import score_one

        return _guard(lambda: _json(score_one(_entry(entry)).as_dict()))

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    def compress(entry: dict[str, Any] | str, to: str | None = None) -> CallToolResult:
        """Scrub, score and render one subtask_summary for its band (``to``: the next agent, for masks)."""
        from summarizer.phasegate.service import compress_one

        return _guard(lambda: _json(compress_one(_entry(entry), to).as_dict()))

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    def stats(entries: list[dict[str, Any]], estimated_phases: int | None = None) -> CallToolResult:
        """Counts per band, budget lines and redactions over a list of subtask_summary objects."""
        from summarizer.phasegate.service import stats_over

        def work() -> str:
            _bounded("estimated_phases", estimated_phases, 1, 10_000)
            return _json(stats_over(_entries(entries), estimated_phases).as_dict())

        return _guard(work)

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    def batch(entries: list[dict[str, Any]], estimated_phases: int | None = None) -> CallToolResult:
        """Score and budget a whole phase batch: per-entry bands, line costs and the phase plan."""
        from summarizer.phasegate.service import batch_plan

        def work() -> str:
            _bounded("estimated_phases", estimated_phases, 1, 10_000)
            return _json(batch_plan(_entries(entries), estimated_phases).as_dict())

        return _guard(work)


def _register_output(server: MCPServer[Any], settings: Settings) -> None:
    @server.tool()
    def output_compress(
        output: str,
        target_tokens: int | None = None,
        exit_code: int | None = None,
        floor_tokens: int | None = None,
        envelope: bool = False,
    ) -> CallToolResult:
        """Compress a build log, test trace or log dump; every error coordinate survives.

        Returns what ``summarizer output`` prints: small outputs unchanged, large ones compressed,
        the last line naming the restore id (``output_restore`` gives the full output back).
        ``envelope: true`` returns the JSON envelope (tokens, coordinates, patterns) instead.
        """

        def work() -> str:
            import io

            from summarizer.gain.ledger import LEDGER_DIR, append_raw, append_result
            from summarizer.output import OutputOptions
            from summarizer.output import compress as compress_output
            from summarizer.rules.raw import raw_requested

            _bounded("target_tokens", target_tokens, 1)
            _bounded("floor_tokens", floor_tokens, 0)
            _bounded("exit_code", exit_code, -(2**31), 2**31 - 1)
            if not output.strip():
                raise InputError("output is empty; pass the tool output to compress")
            # As `summarizer output` does: raw mode, the team's rules, one ledger record for `gain`.
            ledger = str(settings.cache_dir / LEDGER_DIR)
            if raw_requested(os.environ):
                append_raw(ledger, len(output.encode("utf-8")), tool="output")
                return output
            failures, noise = _team_patterns()
            options = OutputOptions(
                target_tokens=target_tokens,
                exit_code=exit_code,
                failure_patterns=failures,
                noise_patterns=noise,
                **({"floor_tokens": floor_tokens} if floor_tokens is not None else {}),
            )
            result = compress_output(
                io.BytesIO(output.encode("utf-8")), app.build_originals(settings), options
            )
            append_result(ledger, result, tool="output")
            return output_reply(result, envelope=envelope)

        return _guard(work)

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    def output_restore(restore_id: str, lines: str | None = None) -> CallToolResult:
        """Give back a compressed output's original, whole or by 1-based line range (``lines``: "40:80")."""

        def work() -> str:
            from summarizer.output import parse_range

            span = parse_range(lines) if lines else None
            data = b"".join(app.build_originals(settings).iter_bytes(restore_id, span))
            return data.decode("utf-8", "replace")

        return _guard(work)


def _team_patterns() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The failure and noise patterns of the rule files in force for the server's working directory.

    A broken file is skipped with one line on stderr, as ``summarizer output`` does: the output is
    never lost over a rule (``summarizer rules test`` says what is wrong).
    """
    from summarizer.rules.model import rules_in_force

    try:
        rules = rules_in_force(os.environ, os.getcwd())
    except InputError as exc:
        sys.stderr.write(f"summarizer mcp: {exc}; compressing without your rules\n")
        return (), ()
    return rules.failure_patterns, rules.noise_patterns


def _register_envelope(server: MCPServer[Any]) -> None:
    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    def envelope_reduce(envelope: dict[str, Any] | str, cap: int | None = None) -> CallToolResult:
        """Reduce an agentic-workspace/v1 tool-result envelope to at most ``cap`` bytes of JSON
        (default 4096). Recovery handles (transactionId, jobId, tx_..., run_...) always survive, with
        the workspace call that shows their state again.
        """

        def work() -> str:
            from summarizer.envelope.reduce import reduce_envelope

            _bounded("cap", cap, 1)
            value = json_object(envelope, source="envelope")
            reduced = reduce_envelope(value) if cap is None else reduce_envelope(value, cap=cap)
            return _json(reduced.model_dump(mode="json"))

        return _guard(work)


def _register_session(server: MCPServer[Any], settings: Settings, memory: SharedMemory, cwd: Path) -> None:
    @server.tool()
    async def session_compress(
        transcript_path: str | None = None,
        transcript: str | dict[str, Any] | list[Any] | None = None,
        project: str | None = None,
        force: bool = False,
        date: str | None = None,
    ) -> CallToolResult:
        """Compress a session transcript (JSONL) into engram memory: decisions, discoveries, failures,
        progress, files and open questions, merged into today's ``session/{project}/compressed/{date}``.

        Pass ``transcript_path`` (a file) or ``transcript`` (the JSONL text); with neither, the newest
        Claude Code session of this project is read. Call it at natural pauses: the trigger rules decide
        whether a compression is due (``force`` is an explicit request, e.g. the user said "compress").
        """
        # The SDK parses a JSON-looking string argument: a one-line JSONL transcript arrives as an
        # object and a JSON-array transcript as a list. Both are transcripts; write them back as text.
        text = transcript if transcript is None or isinstance(transcript, str) else json.dumps(transcript)
        try:
            return _result(
                await _compress(settings, memory, cwd, transcript_path, text, project, force, date)
            )
        except Exception as exc:  # the same one-line replies as every other tool
            return _failure(exc)

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    def session_recover(project: str | None = None) -> CallToolResult:
        """The newest compressed session document of a project (by update time), to restore context."""
        from summarizer.session.usecase import recover_project

        return _guard(lambda: recover_project(memory.get(), project, str(cwd)).document)


async def _compress(
    settings: Settings,
    memory: SharedMemory,
    cwd: Path,
    path: str | None,
    text: str | None,
    project: str | None,
    force: bool,
    date: str | None,
) -> str:
    from summarizer.session.service import render_report
    from summarizer.session.usecase import SessionRequest, locate_transcript, run_session

    if path is not None and text is not None:
        raise InputError("pass exactly one of transcript_path or transcript")
    source = "" if text is not None else (path or locate_transcript(str(cwd)))
    if text is None:
        text = await _read_off_loop(source)
    request = SessionRequest(text, source, str(cwd), project, force, check_date(date), settings.max_tokens)
    with app.session_adapters(settings, shared=memory) as adapters:
        report = await run_session(request, adapters)
    return render_report(report)


async def _read_off_loop(source: str) -> str:
    """Read a transcript in a worker thread, with a time limit: a read that blocks (a named pipe, a
    stalled network mount) must never stall the server's other requests, ``ping`` included."""
    import functools

    import anyio

    limit = fifo_wait(os.environ) + READ_GRACE_S
    read = functools.partial(read_text, source, what="transcript")
    try:
        with anyio.fail_after(limit):
            return await anyio.to_thread.run_sync(read, abandon_on_cancel=True)
    except TimeoutError:
        raise InputError(
            f"reading transcript {source!r} took longer than {limit:g} s; pass a regular file"
        ) from None
