"""Tool outputs as the agent saw them, read from Claude Code's session files, streaming.

Claude Code keeps one JSONL file per session under ``~/.claude/projects/<dir>/``: ``assistant``
records whose ``message.content`` holds ``tool_use`` blocks (``id``, ``name``, ``input``; a Bash
call's ``input.command``), and ``user`` records holding the matching ``tool_result`` blocks
(``tool_use_id``, ``content`` as a string or a list of ``text`` blocks), each record with its
``timestamp``, ``cwd`` and ``sessionId`` (the shape :mod:`summarizer.session.transcript` reads for
session memory). The ``tool_result`` content is exactly what the model was shown, after Claude
Code's own truncation and after any hook: the true size of what a command cost the context.

Histories grow to gigabytes, so files are read line by line, a tool call is remembered only until
its result arrives, and a line that is not JSON (a torn last line, another program's file) is
counted and skipped: a report over a history should not fail on one bad record.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["ReadStats", "ToolOutput", "default_root", "read_outputs", "transcript_files"]

# A tool result block can hold images; only text reaches the count.
_TEXT_TYPES = {"text", "input_text", "output_text"}


@dataclass(frozen=True, slots=True)
class ToolOutput:
    """One tool result with the call that produced it."""

    file: str
    session: str
    timestamp: str
    cwd: str
    tool: str
    command: str | None  # the Bash command, as the model wrote it
    text: str


@dataclass(slots=True)
class ReadStats:
    """What reading found: files and bytes read, lines skipped."""

    files: int = 0
    bytes: int = 0
    bad_lines: int = 0
    skipped_files: list[str] = field(default_factory=list)


def default_root(env: dict[str, str] | os._Environ[str]) -> Path:
    """``$CLAUDE_CONFIG_DIR/projects``, else ``~/.claude/projects``."""
    base = env.get("CLAUDE_CONFIG_DIR") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".claude")
    return Path(base) / "projects"


def transcript_files(root: Path, modified_since: float | None = None) -> list[Path]:
    """``root`` itself when it is a file, else every ``*.jsonl`` below it (sorted); files last
    written before ``modified_since`` (epoch seconds) hold nothing newer and are skipped."""
    if root.is_file():
        return [root]
    files = sorted(p for p in root.rglob("*.jsonl") if p.is_file())
    if modified_since is None:
        return files
    return [p for p in files if _mtime(p) >= modified_since]


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def read_outputs(
    files: list[Path], stats: ReadStats, progress: Callable[[int, int, int], None] | None = None
) -> Iterator[ToolOutput]:
    """Every tool result in ``files``, in file order; ``progress(files_done, bytes_done, bytes_total)``
    is called after each file."""
    total = sum(_size(p) for p in files)
    for index, path in enumerate(files, 1):
        try:
            handle = path.open("rb")
        except OSError:
            stats.skipped_files.append(str(path))
            continue
        with handle:
            yield from _outputs(path, handle, stats)
        stats.files += 1
        stats.bytes += _size(path)
        if progress is not None:
            progress(index, stats.bytes, total)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _outputs(path: Path, handle: Any, stats: ReadStats) -> Iterator[ToolOutput]:
    calls: dict[str, tuple[str, str | None]] = {}
    for raw in handle:
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except ValueError:
            stats.bad_lines += 1
            continue
        if not isinstance(record, dict):
            stats.bad_lines += 1
            continue
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, list):
            continue
        for block in content:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use" and isinstance(block.get("id"), str):
                tool_input = block.get("input")
                command = tool_input.get("command") if isinstance(tool_input, dict) else None
                calls[block["id"]] = (_str(block.get("name")), command if isinstance(command, str) else None)
            elif block.get("type") == "tool_result":
                tool, command = calls.pop(_str(block.get("tool_use_id")), ("", None))
                yield ToolOutput(
                    file=str(path),
                    session=_str(record.get("sessionId")),
                    timestamp=_str(record.get("timestamp")),
                    cwd=_str(record.get("cwd")),
                    tool=tool,
                    command=command,
                    text=_text(block.get("content")),
                )


def _text(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        parts = []
        for item in value:
            if isinstance(item, str):
                parts.append(item)
            elif isinstance(item, dict) and item.get("type") in _TEXT_TYPES:
                parts.append(_str(item.get("text")))
        return "\n".join(parts)
    return ""


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""
