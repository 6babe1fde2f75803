"""The MCP edge: the tools in :mod:`summarizer.mcp.server`, served over stdio by ``summarizer mcp``."""
