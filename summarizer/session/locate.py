"""Finding the current session's transcript when nobody passed one (Claude Code's layout).

Claude Code keeps each session as ``~/.claude/projects/<cwd>/<session id>.jsonl``, where ``<cwd>`` is
the working directory (symlinks resolved) with every character other than an ASCII letter or digit
turned into ``-`` (``/home/dev/shop_api.v2`` → ``-home-dev-shop-api-v2``). The newest file there
is the running session, which lets an agent call ``session_compress`` with no arguments.
``CLAUDE_CONFIG_DIR`` moves the ``~/.claude`` root, as it does for Claude Code itself.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

__all__ = ["claude_project_dir", "find_claude_transcript"]


def claude_project_dir(cwd: Path, env: Mapping[str, str]) -> Path:
    """Where Claude Code stores the sessions started in ``cwd``."""
    root = (
        Path(env["CLAUDE_CONFIG_DIR"])
        if env.get("CLAUDE_CONFIG_DIR")
        else Path(env.get("HOME") or Path.home()) / ".claude"
    )
    return root / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(cwd.resolve()))


def find_claude_transcript(cwd: Path, env: Mapping[str, str]) -> Path | None:
    """The most recently modified session transcript for ``cwd``, or ``None``."""
    folder = claude_project_dir(cwd, env)
    if not folder.is_dir():
        return None
    sessions = [p for p in folder.glob("*.jsonl") if p.is_file()]
    return max(sessions, key=lambda p: (p.stat().st_mtime_ns, p.name)) if sessions else None
