"""``summarizer mcp``: serve the MCP tools over stdio (for Claude Code, OpenCode and other clients)."""

from __future__ import annotations

import click

from summarizer.cli._common import handle_errors
from summarizer.core.errors import InputError

__all__ = ["mcp"]


@click.command()
@click.option(
    "--tools",
    default="",
    metavar="SET",
    help="engram's memory tool selection: agent, admin, all (default) or names, comma-separated. "
    "The compression tools are always served.",
)
@handle_errors
def mcp(tools: str) -> None:
    """Serve the compression and engram memory tools over MCP (stdio)."""
    from summarizer_engram.tool_specs import TOOLS, resolve_tools

    # engram keeps unknown names silently; a typo here would serve fewer tools without a word.
    if unknown := sorted(resolve_tools(tools) - set(TOOLS)):
        names = ", ".join(sorted(TOOLS))
        raise InputError(f"unknown tool {unknown[0]!r} in --tools; use agent, admin, all or: {names}")
    from summarizer.mcp.server import serve

    serve(tools)
