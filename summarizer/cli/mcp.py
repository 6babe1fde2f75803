"""``summarizer mcp``: serve the MCP tools over stdio (for Claude Code, OpenCode and other clients)."""

from __future__ import annotations

import click

__all__ = ["mcp"]


@click.command()
@click.option(
    "--tools",
    default="",
    metavar="SET",
    help="engram's memory tool selection: agent, admin, all (default) or names, comma-separated. "
    "The compression tools are always served.",
)
def mcp(tools: str) -> None:
    """Serve the compression and engram memory tools over MCP (stdio)."""
    from summarizer.mcp_server import serve

    serve(tools)
