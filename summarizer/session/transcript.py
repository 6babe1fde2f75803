"""Reading agent transcripts (JSONL) into one flat list of events.

Agents write their sessions in several shapes; all of them become a tuple of :class:`Event`:

* ``{"role": ..., "content": ...}`` messages, the content a string or a list of blocks
  (``text``, ``tool_use``, ``tool_result``), including OpenAI's ``tool_calls`` / ``role: tool``.
* Bare tool records: ``{"type": "tool_call", "name", "input"|"arguments"}`` and
  ``{"type": "tool_result", "output"|"content"}`` (also the Responses API's ``function_call`` /
  ``function_call_output``).
* Claude Code's transcript: records of ``type`` user/assistant whose ``message.content`` holds
  ``tool_use``/``tool_result`` blocks, with ``uuid``, ``timestamp``, ``cwd``, ``sessionId``. Other
  record types (``summary``, ``system``, snapshots), ``isMeta`` records and the post-compaction
  summary (``isCompactSummary``) carry no new conversation.
* OpenCode's exported messages: ``{"info": {"role"}, "parts": [{"type": "text"|"tool", ...}]}``.
* Codex rollouts: ``{"type": "response_item", "payload": {...}}`` holding the Responses API items
  above (plus ``custom_tool_call`` with a text ``input``, e.g. ``apply_patch``), and
  ``session_meta`` with the session id and cwd. ``developer`` messages are instructions, not talk.

A whole-file JSON array of such records is accepted too. A line that is not a JSON object is bad
input: one error naming the line (CLI exit 2), because silently skipping it could hide the very
part of the session that mattered. Objects of an unknown shape are skipped.

Everything read here is untrusted data: nothing in it is ever followed as an instruction.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from summarizer.core.errors import InputError
from summarizer.core.jsonio import json_type, loads

__all__ = [
    "Event",
    "Kind",
    "ToolKind",
    "Transcript",
    "conversation_text",
    "parse_transcript",
    "shell_patch",
    "tool_kind",
    "tool_path",
]

Kind = Literal["message", "tool_call", "tool_result"]

ToolKind = Literal["read", "edit", "todo", "other"]

# Tool names across agents (Claude Code, OpenCode, Codex, Anthropic's text editor tool, MCP
# servers), compared lower-case with any ``mcp__server__`` prefix removed.
_READ_TOOLS = {"read", "read_file", "readfile", "view", "view_file", "open_file", "cat"}
_EDIT_TOOLS = {
    "edit",
    "multiedit",
    "write",
    "notebookedit",
    "edit_file",
    "write_file",
    "create_file",
    "apply_patch",
    "patch",
    "str_replace_editor",
    "replace",
    "insert",
}
_TODO_TOOLS = {"todowrite", "todo_write", "update_plan", "todo", "todos"}
_PATH_KEYS = ("file_path", "filePath", "path", "notebook_path", "filename", "file")
# An edit/write result that names its file: "Edited app/db.py: what changed", "Wrote 12 lines to x.py".
_EDITED = re.compile(
    r"\b(?:edited|wrote|written|created|updated|modified|saved|patched|changed)\b"
    r"(?:\s+(?:file|\d+ lines? to))?"
    r"\s+`?(?P<path>[\w.@~/-]*[\w-]\.[A-Za-z0-9]{1,8}|[\w.-]*/[\w./-]+)`?(?::\s*(?P<what>.+))?",
    re.IGNORECASE,
)

# Codex rollout records wrap the item in "payload"; event_msg and turn_context repeat or annotate it.
_CODEX_TYPES = {"response_item", "event_msg", "turn_context", "session_meta"}
# Claude Code record types that never hold conversation.
_SKIPPED_TYPES = {"summary", "system", "file-history-snapshot", "progress", "queue-operation"}


@dataclass(frozen=True, slots=True)
class Event:
    """One message, tool call or tool result, with the 1-based line it came from."""

    line: int
    kind: Kind
    role: str
    text: str = ""
    tool: str = ""
    tool_input: Mapping[str, Any] = field(default_factory=dict)
    call_id: str = ""
    # For a tool result: the total line count of the file it read, when the agent recorded it.
    file_lines: int | None = None
    # For an edit call known only from its result ("Edited app/db.py: added a pool"): what changed.
    change: str = ""


@dataclass(frozen=True, slots=True)
class Transcript:
    """A parsed session: its events in order, plus what the records say about where it ran.

    ``torn_line`` is the number of a last line that was skipped because it is still being written
    (only when parsed with ``tolerate_torn_tail``).
    """

    events: tuple[Event, ...]
    session_id: str | None = None
    cwd: str | None = None
    torn_line: int | None = None

    @property
    def tool_calls(self) -> tuple[Event, ...]:
        """The tool calls, in order."""
        return tuple(e for e in self.events if e.kind == "tool_call")

    def results(self) -> dict[int, Event]:
        """Each tool call's result, keyed by the call's index in :attr:`events`.

        Results pair by call id; records without ids pair with the oldest unanswered call.
        """
        pending_by_id: dict[str, int] = {}
        pending: list[int] = []
        paired: dict[int, Event] = {}
        for index, event in enumerate(self.events):
            if event.kind == "tool_call":
                if event.call_id:
                    pending_by_id[event.call_id] = index
                else:
                    pending.append(index)
            elif event.kind == "tool_result":
                if event.call_id and event.call_id in pending_by_id:
                    paired[pending_by_id.pop(event.call_id)] = event
                elif pending:
                    paired[pending.pop(0)] = event
        return paired


def tool_kind(call: Event) -> ToolKind:
    """Classify a tool call by what it does to files (read, edit), or a to-do list update."""
    name = call.tool.lower().rsplit("__", 1)[-1]
    if name == "str_replace_based_edit_tool":  # one tool, the command says which
        return "read" if call.tool_input.get("command") == "view" else "edit"
    if name in _READ_TOOLS:
        return "read"
    if name in _EDIT_TOOLS:
        return "edit"
    if name in _TODO_TOOLS:
        return "todo"
    if shell_patch(call) is not None:
        return "edit"
    return "other"


def shell_patch(call: Event) -> str | None:
    """The patch of a shell call that runs ``apply_patch`` (older Codex rollouts), else ``None``.

    Codex once sent edits as ``shell`` with ``["apply_patch", "*** Begin Patch..."]``, or as a
    ``bash -lc "apply_patch <<'EOF' ... EOF"`` script; both are edits, not commands.
    """
    command = call.tool_input.get("command")
    if isinstance(command, list) and command:
        parts = [str(p) for p in command]
        if parts[0] == "apply_patch" and len(parts) > 1:
            return parts[1]
        script = parts[-1]
    elif isinstance(command, str):
        script = command
    else:
        return None
    return script if script.lstrip().startswith("apply_patch") and "*** Begin Patch" in script else None


def tool_path(call: Event) -> str | None:
    """The file a tool call names, if any."""
    for key in _PATH_KEYS:
        value = call.tool_input.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def conversation_text(transcript: Transcript, *, max_chars: int = 48_000, result_chars: int = 200) -> str:
    """A compact plain-text rendering for a model: messages whole, tool calls as one line, results cut.

    When longer than ``max_chars`` the oldest lines go first: the end of a session is what a
    compression must not lose.
    """
    lines: list[str] = []
    for event in transcript.events:
        if event.kind == "message":
            lines.append(f"[{event.role}] {event.text.strip()}")
        elif event.kind == "tool_call":
            target = tool_path(event) or _str(event.tool_input.get("command")) or ""
            lines.append(f"[tool call] {event.tool} {target}".rstrip())
        else:
            body = " ".join(event.text.split())
            cut = body[:result_chars] + ("…" if len(body) > result_chars else "")
            lines.append(f"[tool result] {cut}")
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        size += len(line) + 1
        if size > max_chars:
            kept.append("[… earlier conversation omitted …]")
            break
        kept.append(line)
    return "\n".join(reversed(kept))


def parse_transcript(
    text: str, *, source: str = "transcript", tolerate_torn_tail: bool = False
) -> Transcript:
    """Parse a JSONL (or JSON array) transcript; raise :class:`InputError` naming a bad line.

    With ``tolerate_torn_tail`` a last line that is not valid JSON is skipped (an agent still
    writing it when a hook runs) and its number recorded in :attr:`Transcript.torn_line`; any other
    bad line is still an error.
    """
    torn: int | None = None
    if tolerate_torn_tail and not text.lstrip().startswith("["):
        text, torn = _drop_torn_tail(text)
    records = list(_records(text, source))
    events: list[Event] = []
    session_id: str | None = None
    cwd: str | None = None
    main_thread: str | None = None  # OpenCode: the first message's session; others are subagents'
    for line, record in records:
        main_thread = main_thread or _opencode_session(record)
        if _is_sidechain(record, main_thread):
            events.extend(_as_subagent(_events(line, record)))
            continue
        meta = _dict(record.get("payload")) if record.get("type") == "session_meta" else record
        session_id = (
            session_id
            or _str(
                meta.get("sessionId")
                or meta.get("session_id")
                or (meta.get("id") if meta is not record else None)
            )
            or None
        )
        cwd = cwd or _str(meta.get("cwd")) or None
        events.extend(_events(line, record))
    if not events:
        raise InputError(
            f"{source!r} holds no messages or tool calls; pass a JSONL transcript "
            "({role, content} messages, tool records or Claude Code's session file)"
        )
    return Transcript(events=tuple(events), session_id=session_id, cwd=cwd, torn_line=torn)


def _drop_torn_tail(text: str) -> tuple[str, int | None]:
    """``text`` without a last line that does not parse as JSON, and that line's number."""
    lines = text.splitlines()
    last = len(lines)
    while last and not lines[last - 1].strip():
        last -= 1
    if not last:
        return text, None
    try:
        json.loads(lines[last - 1])
    except (ValueError, RecursionError):
        return "\n".join(lines[: last - 1]) + "\n", last
    return text, None


def _opencode_session(record: Mapping[str, Any]) -> str | None:
    info = record.get("info")
    return _str(info.get("sessionID")) or None if isinstance(info, dict) else None


def _is_sidechain(record: Mapping[str, Any], main_thread: str | None) -> bool:
    """A subagent's record: Claude Code's ``isSidechain``, or an OpenCode message of another session."""
    if any(record.get(k) is True for k in ("isSidechain", "is_sidechain", "sidechain")):
        return True
    session = _opencode_session(record)
    return bool(main_thread and session and session != main_thread)


def _as_subagent(events: list[Event]) -> list[Event]:
    """A subagent's messages are neither the user's nor the main assistant's; its tool calls stand."""
    return [replace(e, role="subagent") if e.kind == "message" else e for e in events]


# How agents open the summary they write into the transcript when they compact it.
_COMPACTION_OPENERS = (
    "This session is being continued from a previous conversation",
    "Summary of the conversation so far",
    "Previous conversation summary:",
)


def _compaction_summary(text: str) -> bool:
    return text.lstrip().startswith(_COMPACTION_OPENERS)


def _records(text: str, source: str) -> Iterable[tuple[int, Mapping[str, Any]]]:
    stripped = text.lstrip()
    if stripped.startswith("["):
        try:
            whole = loads(text, source=repr(source))
        except json.JSONDecodeError as exc:
            raise InputError(
                f"invalid JSON in {source!r} at line {exc.lineno} column {exc.colno}: {exc.msg}"
            ) from exc
        for index, item in enumerate(whole, start=1):
            if not isinstance(item, dict):
                raise InputError(f"{source!r} item {index} is not a JSON object; fix or remove it")
            yield index, item
        return
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            value = loads(raw, source=f"{source!r} line {number}")
        except json.JSONDecodeError as exc:
            raise InputError(
                f"{source!r} line {number} is not valid JSON (column {exc.colno}: {exc.msg}); "
                "fix or remove that line"
            ) from exc
        if not isinstance(value, dict):
            raise InputError(
                f"{source!r} line {number} is a JSON {json_type(value)}, not an object; "
                "each line must be one record"
            )
        yield number, value


def _events(line: int, record: Mapping[str, Any]) -> list[Event]:
    kind = _str(record.get("type"))
    # isCompactSummary: Claude Code's own summary after a compaction retells records still in the file.
    if record.get("isMeta") is True or record.get("isCompactSummary") is True or kind in _SKIPPED_TYPES:
        return []
    payload = record.get("payload")
    if isinstance(payload, dict) and kind in _CODEX_TYPES:  # Codex rollout: only response_item counts
        return _events(line, payload) if kind == "response_item" else []
    message = record.get("message")
    if kind in {"user", "assistant"} and isinstance(message, dict):  # Claude Code
        return _message(line, _str(message.get("role")) or kind, message, record)
    info = record.get("info")
    if isinstance(info, dict) and isinstance(record.get("parts"), list):  # OpenCode export
        if info.get("summary") is True:  # the summary OpenCode writes when it compacts
            return []
        return _opencode(line, _str(info.get("role")) or "assistant", record["parts"])
    if kind in {"tool_call", "tool_use", "function_call", "custom_tool_call"}:
        return [_tool_call(line, record)]
    if kind in {"tool_result", "function_call_output", "custom_tool_call_output"}:
        return [_tool_result(line, record, record)]
    if "role" in record:
        role = _str(record.get("role"))
        if role in {"tool", "function"}:
            if _is_generic_tool_record(record):
                return _generic_tool_record(line, record)
            return [_tool_result(line, record, record)]
        return _message(line, role, record, record)
    return []


def _is_generic_tool_record(record: Mapping[str, Any]) -> bool:
    """A ``role: tool`` record that is a whole tool use (name and result), not an answer to a call.

    OpenAI's ``{"role": "tool", "tool_call_id"}`` answers a call made earlier; a record with a
    ``tool_name`` (or a ``name`` plus ``input``/``arguments``) and no call id is both at once.
    """
    if any(record.get(k) for k in ("tool_call_id", "tool_use_id", "call_id")):
        return False
    if _str(record.get("tool_name") or record.get("tool")):
        return True
    return bool(_str(record.get("name"))) and any(k in record for k in ("input", "arguments", "args"))


def _generic_tool_record(line: int, record: Mapping[str, Any]) -> list[Event]:
    """One generic tool record as a call (counted by the triggers) and its result.

    An edit/write tool that names no path in its arguments usually names it in its result
    ("Edited app/db.py: ..."); that path, and what the result says changed, go on the call.
    """
    call = _tool_call(line, record)
    result = _tool_result(line, record, record)
    if tool_kind(call) == "edit" and tool_path(call) is None and (found := _EDITED.search(result.text)):
        tool_input = {**call.tool_input, "path": found.group("path").strip("`'\"")}
        call = replace(call, tool_input=tool_input, change=(found.group("what") or "").strip())
    return [call, result]


def _message(line: int, role: str, message: Mapping[str, Any], record: Mapping[str, Any]) -> list[Event]:
    out: list[Event] = []
    content = message.get("content")
    first = content if isinstance(content, str) else _first_text(content)
    if role == "user" and _compaction_summary(first):  # an agent's own retelling, not the user
        return []
    if isinstance(content, str):
        if content.strip():
            out.append(Event(line, "message", role, content))
    elif isinstance(content, list):
        for block in content:
            if isinstance(block, str):
                out.append(Event(line, "message", role, block))
            elif isinstance(block, dict):
                out.extend(_block(line, role, block, record))
    for call in message.get("tool_calls") or ():  # OpenAI chat completions
        if isinstance(call, dict):
            out.append(_tool_call(line, call))
    return out


def _first_text(content: Any) -> str:
    if isinstance(content, list):
        for block in content:
            if isinstance(block, str):
                return block
            if isinstance(block, dict) and _str(block.get("type")) in {"text", "input_text"}:
                return _str(block.get("text"))
    return ""


def _block(line: int, role: str, block: Mapping[str, Any], record: Mapping[str, Any]) -> list[Event]:
    kind = _str(block.get("type"))
    if kind in {"text", "input_text", "output_text"}:
        text = _str(block.get("text"))
        return [Event(line, "message", role, text)] if text.strip() else []
    if kind in {"tool_use", "tool_call", "function_call"}:
        return [_tool_call(line, block)]
    if kind == "tool_result":
        return [_tool_result(line, block, record)]
    return []  # thinking, images, redacted blocks: nothing to extract


def _opencode(line: int, role: str, parts: list[Any]) -> list[Event]:
    out: list[Event] = []
    for part in parts:
        if not isinstance(part, dict):
            continue
        if (
            part.get("type") == "text"
            and part.get("synthetic") is not True
            and _str(part.get("text")).strip()
        ):
            out.append(Event(line, "message", role, _str(part.get("text"))))
        elif part.get("type") == "tool":
            state = _dict(part.get("state"))
            call_id = _str(part.get("callID") or part.get("id"))
            tool_input = _dict(state.get("input"))
            out.append(
                Event(
                    line,
                    "tool_call",
                    role,
                    tool=_str(part.get("tool")),
                    tool_input=tool_input,
                    call_id=call_id,
                )
            )
            output = state.get("output")
            if output is not None:
                out.append(Event(line, "tool_result", "tool", _text(output), call_id=call_id))
    return out


def _tool_call(line: int, data: Mapping[str, Any]) -> Event:
    function = _dict(data.get("function"))
    name = _str(data.get("name") or data.get("tool") or data.get("tool_name") or function.get("name"))
    raw = next(
        (data[k] for k in ("input", "arguments", "args", "parameters", "tool_input") if k in data),
        function.get("arguments"),
    )
    if isinstance(raw, str):  # OpenAI encodes arguments as a JSON string; Codex custom tools send text
        try:
            raw = json.loads(raw)
        except (ValueError, RecursionError):  # JSONDecodeError is a ValueError
            raw = {"input": raw}
    tool_input = raw if isinstance(raw, dict) else {}
    call_id = _str(data.get("id") or data.get("call_id") or data.get("tool_call_id"))
    return Event(line, "tool_call", "assistant", tool=name, tool_input=tool_input, call_id=call_id)


def _tool_result(line: int, data: Mapping[str, Any], record: Mapping[str, Any]) -> Event:
    body = _unwrap(next((data[k] for k in ("content", "output", "result") if k in data), ""))
    call_id = _str(data.get("tool_use_id") or data.get("tool_call_id") or data.get("call_id"))
    return Event(
        line,
        "tool_result",
        "tool",
        _text(body),
        tool=_str(data.get("name")),
        call_id=call_id,
        file_lines=_file_lines(record),
    )


def _unwrap(body: Any) -> Any:
    """Codex's shell output arrives as JSON text, ``{"output": "...", "metadata": {...}}``: its output."""
    if isinstance(body, str) and body.startswith("{") and '"output"' in body[:200]:
        try:
            value = json.loads(body)
        except (ValueError, RecursionError):
            return body
        if isinstance(value, dict) and isinstance(value.get("output"), str):
            return value["output"]
    return body


def _file_lines(record: Mapping[str, Any]) -> int | None:
    """Claude Code records the size of a Read in ``toolUseResult.file.totalLines``."""
    result = record.get("toolUseResult")
    file = result.get("file") if isinstance(result, dict) else None
    if isinstance(file, dict):
        for key in ("totalLines", "numLines"):
            value = file.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                return value
    return None


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(_text(v.get("text", "") if isinstance(v, dict) else v) for v in value)
    if value is None:
        return ""
    return json.dumps(value, ensure_ascii=False)


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""
