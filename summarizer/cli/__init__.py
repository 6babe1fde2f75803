"""The ``summarizer`` command: a thin click group whose subcommands load lazily.

Each area's commands live in their own module (``summarizer/cli/<area>.py``) and are imported
only when invoked, so ``summarizer score`` does not pay for litellm, mcp or SQLite imports.
Exit codes: 0 ok, 1 runtime failure, 2 bad input or usage; errors are one line on stderr.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, NoReturn

import click

from summarizer.cli._common import fail

__all__ = ["main"]

# command name -> "module:attribute"; the module is imported only when the command runs.
COMMANDS: dict[str, str] = {
    "score": "summarizer.cli.phase:score",
    "compress": "summarizer.cli.phase:compress",
    "stats": "summarizer.cli.phase:stats",
    "batch": "summarizer.cli.phase:batch",
    "gate": "summarizer.cli.gate:gate",
    "output": "summarizer.cli.output:output",
    "restore": "summarizer.cli.output:restore",
    "envelope": "summarizer.cli.envelope:envelope",
    "session": "summarizer.cli.session:session",
    "recover": "summarizer.cli.session:recover",
    "cache": "summarizer.cli.cache:cache",
    "eval": "summarizer.cli.evaluate:evaluate",
    "mcp": "summarizer.cli.mcp:mcp",
    "run": "summarizer.cli.agents:run",
    "hook": "summarizer.cli.agents:hook",
    "init": "summarizer.cli.agents:init",
    "gain": "summarizer.cli.gain:gain",
    "discover": "summarizer.cli.gain:discover",
    "rules": "summarizer.cli.rules:rules",
}

_HELP: dict[str, str] = {
    "score": "Score a subtask_summary: dimensions, keywords, score, band.",
    "compress": "Scrub, score and render a subtask_summary for its band.",
    "stats": "Counts per band, budget lines and redactions over entry files.",
    "batch": "Score and budget a whole phase batch (JSONL) and print the plan.",
    "gate": "Promote a phase batch into the memory bank (phase gate).",
    "output": "Compress tool output (build logs, test traces, log dumps).",
    "restore": "Print a stored original back, whole or by line range.",
    "envelope": "Reduce an agentic-workspace/v1 tool-result envelope.",
    "session": "Compress a session transcript into engram memory.",
    "recover": "Print the newest compressed session document for a project.",
    "cache": "Inspect and prune the summary cache.",
    "eval": "Compare prompt versions and the template on eval datasets.",
    "mcp": "Serve the MCP tools over stdio.",
    "run": "Run a command; print its output, compressed when large.",
    "hook": "Agent hooks (Claude Code, Codex, Gemini CLI, Cursor, Copilot CLI), installed by init.",
    "init": "Install the Claude Code, OpenCode or Codex integration.",
    "gain": "Tokens saved per command family, day and project, honestly counted.",
    "discover": "Savings missed in Claude Code transcripts (commands run without the hook).",
    "rules": "Test the team's rules.toml: failure and noise patterns, never-wrap commands.",
}


# click >= 8.2 signals "no arguments: show the help" with a UsageError subclass (older: none).
_NO_ARGS_IS_HELP: Any = getattr(click.exceptions, "NoArgsIsHelpError", ())


class LazyGroup(click.Group):
    """A group that imports a subcommand's module only when that subcommand is used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attribute = target.split(":")
        command = getattr(importlib.import_module(module_name), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{target} is not a click command")
        return command

    # Usage errors (an unknown command or option, a bad option value) are one line, like every other
    # bad input: click's default is a four-line usage block, and agents parse stderr. Nested
    # groups (`summarizer cache prune`) raise inside invoke(); `summarizer --bogus` inside
    # make_context(). A bare `summarizer` keeps click's help text.

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any
    ) -> click.Context:
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.UsageError as exc:
            _one_line_usage(exc)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            _one_line_usage(exc)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Listing must not import every module (that would load litellm and mcp for --help).
        with formatter.section("Commands"):
            formatter.write_dl([(name, _HELP.get(name, "")) for name in self.list_commands(ctx)])


def _one_line_usage(error: click.UsageError) -> NoReturn:
    if isinstance(error, _NO_ARGS_IS_HELP):
        raise error
    names = []
    context = error.ctx
    while context is not None:
        names.append(context.info_name or "")
        context = context.parent
    command = " ".join(["summarizer", *reversed(names[:-1])])
    fail(f"{error.format_message().rstrip('.')}; see `{command} --help`", 2)
    raise AssertionError("unreachable: fail() exits")


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="agent-summarizer")
def main() -> None:
    """Keep coding agents' context small without losing what matters."""
    from summarizer.cli._common import SafeText

    if sys.stdout is not None and not isinstance(sys.stdout, SafeText):  # we print untrusted text
        sys.stdout = SafeText(sys.stdout)
