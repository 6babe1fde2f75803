"""The click side of ``summarizer run``, ``summarizer hook`` and ``summarizer init``.

``run`` and ``hook claude`` are answered by :mod:`summarizer.launcher` before click is imported;
these commands exist so that ``summarizer --help`` lists them and so that the click entry point
(``python -m summarizer.cli``, tests) behaves the same, by calling the same functions.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import click

from summarizer.cli._common import handle_errors

__all__ = ["hook", "init", "run", "this_executable"]


@click.command(
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True}, add_help_option=False
)
@click.pass_context
def run(ctx: click.Context) -> None:
    """Run a command and print its output, compressed when large (see `summarizer run --help`)."""
    from summarizer.agents.run import main

    ctx.exit(main(list(ctx.args)))


@click.group()
def hook() -> None:
    """Agent hooks (installed by `summarizer init`); they read the agent's JSON on stdin."""


def _hook_command(agent: str, help_text: str) -> None:
    @hook.command(
        agent, help=help_text, context_settings={"ignore_unknown_options": True, "allow_extra_args": True}
    )
    @click.pass_context
    def _run(ctx: click.Context) -> None:
        from summarizer.agents.hook import main

        ctx.exit(main(list(ctx.args), agent))


_hook_command("claude", "Claude Code PreToolUse hook: route Bash commands through `summarizer run`.")
_hook_command("codex", "Codex PreToolUse hook: rewrite only where Codex would not have asked.")
_hook_command("gemini", "Gemini CLI BeforeTool hook on run_shell_command.")
_hook_command("cursor", "Cursor preToolUse hook on Shell: rewrite only what Cursor's rules allow.")
_hook_command("copilot", "Copilot CLI preToolUse hook on bash: rewrite only when all tools are allowed.")


def this_executable() -> str:
    """The absolute path of the ``summarizer`` command that is running (or the one on PATH)."""
    argv0 = sys.argv[0] if sys.argv else ""
    if os.path.basename(argv0) == "summarizer":
        return os.path.realpath(argv0)
    found = shutil.which("summarizer")
    return os.path.realpath(found) if found else "summarizer"


def _resolves_to(command: str | None) -> str | None:
    if not command:
        return None
    word = command.split()[0].strip("'\"")
    path = word if os.sep in word else shutil.which(word)
    return os.path.realpath(path) if path else None


def _show() -> None:
    from summarizer.agents.install import show

    mine = this_executable()
    rows = show(os.environ, Path.cwd())
    for row in rows:
        state = "installed" if row.installed else "-"
        line = f"{row.agent:<12}{row.scope:<9}{state:<11}{row.path}"
        if row.installed and row.command:
            target = _resolves_to(row.command)
            same = "this summarizer" if target == mine else f"NOT this one: {target or 'not found'}"
            line += f"\n{'':<32}runs {row.command} ({same})"
        click.echo(line)
    for agent in {r.agent for r in rows if r.installed and r.command and " hook " in f" {r.command} "}:
        both = {r.path.resolve() for r in rows if r.agent == agent and r.installed and r.command}
        if len(both) == 2:
            click.echo(
                f"warning: {agent} has the hook in both scopes, so every command is wrapped twice; "
                f"remove one: summarizer init {agent} --project --uninstall"
            )
    click.echo(f"summarizer on PATH: {_on_path(mine)}; this one: {mine}")


@click.command()
@click.argument(
    "agent",
    required=False,
    type=click.Choice(["claude-code", "opencode", "codex", "gemini", "cursor", "copilot"]),
)
@click.option("--global", "scope", flag_value="global", default=True, help="For every project (default).")
@click.option("--project", "scope", flag_value="project", help="For the project in the current directory.")
@click.option("--uninstall", is_flag=True, help="Remove exactly what init added.")
@click.option("--show", "show_only", is_flag=True, help="Print what is installed where.")
@handle_errors
def init(agent: str | None, scope: str, uninstall: bool, show_only: bool) -> None:
    """Install (or remove) AGENT's integration: claude-code, opencode, codex, gemini, cursor, copilot."""
    from summarizer.agents import install as installer
    from summarizer.core.errors import InputError

    if show_only:
        _show()
        return
    if agent is None:
        raise InputError("name an agent: claude-code, opencode, codex, gemini, cursor or copilot (or --show)")
    if uninstall:
        click.echo(installer.uninstall(agent, scope, os.environ, Path.cwd()))
    else:
        click.echo(installer.install(agent, scope, os.environ, Path.cwd(), this_executable()))


def _on_path(mine: str) -> str:
    """Which summarizer a bare ``summarizer`` runs, said so that it never contradicts itself."""
    on_path = shutil.which("summarizer")
    if on_path is None:
        return "not found (hooks call this one by its full path)"
    return f"{on_path} (" + ("the same one" if os.path.realpath(on_path) == mine else "a different one") + ")"
