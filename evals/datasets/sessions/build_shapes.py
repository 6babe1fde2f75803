"""Write the hand-made sessions ss-017..ss-031 in real agent transcript shapes.

Run ``python evals/datasets/sessions/build_shapes.py`` to regenerate the ``ss-0NN.jsonl`` files and
print their ``session.jsonl`` lines. Each story below was written by hand from ordinary work (a
slow export, a flaky test, a migration...); this script only lays the turns out in the shape each
agent writes:

* **Claude Code** (``~/.claude/projects/<cwd>/<id>.jsonl``): ``type`` user/assistant records with
  ``uuid``/``parentUuid``/``timestamp``/``cwd``/``sessionId``, ``tool_use`` blocks in assistant
  messages, ``tool_result`` blocks in user records, ``toolUseResult``; a leading ``summary`` record.
* **OpenCode** (``client.session.messages()``): ``{"info": {"id", "sessionID", "role", "time"},
  "parts": [{"type": "text"}, {"type": "tool", "callID", "tool", "state": {"input", "output"}}]}``.
* **Codex** (``~/.codex/sessions/.../rollout-*.jsonl``): ``session_meta``, ``response_item``
  messages (``input_text``/``output_text``), ``function_call`` ``shell`` with
  ``["bash", "-lc", ...]``, ``update_plan``, ``custom_tool_call`` ``apply_patch``, and
  ``event_msg`` copies that readers must skip.
* **Generic tool records**: ``{"role": "tool", "tool_name", "input", "content"}`` as some harnesses log.

Turns: ``("user", text)``, ``("assistant", text)``, ``("tool", name, input, output)`` where name
is the generic verb (read, edit, write, bash, todo) mapped to each agent's own tool name.
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
Turn = tuple[Any, ...]
START = datetime(2026, 6, 11, 9, 0, tzinfo=UTC)

_CLAUDE = {"read": "Read", "edit": "Edit", "write": "Write", "bash": "Bash", "todo": "TodoWrite"}
_OPENCODE = {"read": "read", "edit": "edit", "write": "write", "bash": "bash", "todo": "todowrite"}


def _todos(items: list[tuple[str, str]]) -> list[dict[str, str]]:
    return [{"content": text, "status": status, "activeForm": text} for text, status in items]


def claude_code(session: str, cwd: str, turns: list[Turn]) -> list[dict[str, Any]]:
    """Claude Code's session file."""
    leaf = str(uuid.uuid5(uuid.NAMESPACE_URL, session))
    out: list[dict[str, Any]] = [{"type": "summary", "summary": "Earlier work", "leafUuid": leaf}]
    parent = None
    clock = START

    def record(kind: str, message: dict[str, Any], **extra: Any) -> None:
        nonlocal parent, clock
        clock += timedelta(seconds=20)
        rid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{session}/{len(out)}"))
        out.append(
            {
                "parentUuid": parent,
                "isSidechain": False,
                "userType": "external",
                "cwd": cwd,
                "sessionId": session,
                "version": "2.0.14",
                "gitBranch": "main",
                "type": kind,
                "message": message,
                "uuid": rid,
                "timestamp": clock.isoformat().replace("+00:00", "Z"),
                **extra,
            }
        )
        parent = rid

    for n, turn in enumerate(turns):
        if turn[0] == "user":
            record("user", {"role": "user", "content": turn[1]})
        elif turn[0] == "assistant":
            record(
                "assistant",
                {
                    "id": f"msg_{n:03d}",
                    "type": "message",
                    "role": "assistant",
                    "model": "claude-sonnet-4-5",
                    "content": [{"type": "text", "text": turn[1]}],
                },
            )
        else:
            _, verb, args, result = turn
            tid = f"toolu_{session[:6]}{n:03d}"
            if verb == "todo":
                args = {"todos": _todos(args)}
            elif "file_path" in args:
                args = {**args, "file_path": f"{cwd}/{args['file_path']}"}
            record(
                "assistant",
                {
                    "id": f"msg_{n:03d}",
                    "type": "message",
                    "role": "assistant",
                    "model": "claude-sonnet-4-5",
                    "content": [{"type": "tool_use", "id": tid, "name": _CLAUDE[verb], "input": args}],
                },
            )
            extra: dict[str, Any] = {}
            if verb == "read":
                extra["toolUseResult"] = {
                    "type": "text",
                    "file": {"filePath": args["file_path"], "numLines": 40, "totalLines": 40},
                }
            record(
                "user",
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tid, "content": result}]},
                **extra,
            )
    return out


def opencode(session: str, cwd: str, turns: list[Turn]) -> list[dict[str, Any]]:
    """OpenCode's messages as its SDK returns them: one record per message, tools as parts."""
    out: list[dict[str, Any]] = []
    clock = int(START.timestamp() * 1000)
    for n, turn in enumerate(turns):
        clock += 20_000
        info = {"id": f"msg_{session[-6:]}{n:03d}", "sessionID": session, "time": {"created": clock}}
        if turn[0] in {"user", "assistant"}:
            role = turn[0]
            extra = {"path": {"cwd": cwd, "root": cwd}, "modelID": "gpt-5"} if role == "assistant" else {}
            out.append(
                {
                    "info": {**info, "role": role, **extra},
                    "parts": [{"id": f"prt_{n:03d}", "type": "text", "text": turn[1]}],
                }
            )
        else:
            _, verb, args, result = turn
            if verb == "todo":
                args = {
                    "todos": [
                        {"id": str(i), "content": t, "status": s, "priority": "medium"}
                        for i, (t, s) in enumerate(args)
                    ]
                }
            elif "file_path" in args:
                args = {
                    "filePath": f"{cwd}/{args['file_path']}",
                    **{k: v for k, v in args.items() if k != "file_path"},
                }
            out.append(
                {
                    "info": {**info, "role": "assistant", "path": {"cwd": cwd, "root": cwd}},
                    "parts": [
                        {
                            "id": f"prt_{n:03d}",
                            "type": "tool",
                            "callID": f"call_{n:03d}",
                            "tool": _OPENCODE[verb],
                            "state": {
                                "status": "completed",
                                "input": args,
                                "output": result,
                                "title": verb,
                                "time": {"start": clock, "end": clock + 900},
                            },
                        }
                    ],
                }
            )
    return out


def codex(session: str, cwd: str, turns: list[Turn]) -> list[dict[str, Any]]:
    """A Codex rollout: session_meta, response items, and event_msg copies."""
    clock = START

    def stamp() -> str:
        nonlocal clock
        clock += timedelta(seconds=15)
        return clock.isoformat().replace("+00:00", "Z")

    out: list[dict[str, Any]] = [
        {
            "timestamp": stamp(),
            "type": "session_meta",
            "payload": {
                "id": session,
                "timestamp": stamp(),
                "cwd": cwd,
                "originator": "codex_cli_rs",
                "cli_version": "0.46.0",
                "instructions": None,
            },
        },
        {
            "timestamp": stamp(),
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "user",
                "content": [
                    {
                        "type": "input_text",
                        "text": f"<environment_context>\n  <cwd>{cwd}</cwd>\n  <approval_policy>"
                        "on-request</approval_policy>\n</environment_context>",
                    }
                ],
            },
        },
    ]
    for n, turn in enumerate(turns):
        if turn[0] in {"user", "assistant"}:
            kind = "input_text" if turn[0] == "user" else "output_text"
            out.append(
                {
                    "timestamp": stamp(),
                    "type": "response_item",
                    "payload": {
                        "type": "message",
                        "role": turn[0],
                        "content": [{"type": kind, "text": turn[1]}],
                    },
                }
            )
            event = "user_message" if turn[0] == "user" else "agent_message"
            out.append(
                {"timestamp": stamp(), "type": "event_msg", "payload": {"type": event, "message": turn[1]}}
            )
            continue
        _, verb, args, result = turn
        call_id = f"call_{session[-4:]}{n:03d}"
        if verb in {"edit", "write"}:
            action = "Add" if verb == "write" else "Update"
            patch = (
                f"*** Begin Patch\n*** {action} File: {args['file_path']}\n@@\n"
                f"-{args.get('old_string', '')}\n"
                f"+{args.get('new_string', args.get('content', ''))}\n*** End Patch"
            )
            out.append(
                {
                    "timestamp": stamp(),
                    "type": "response_item",
                    "payload": {
                        "type": "custom_tool_call",
                        "status": "completed",
                        "call_id": call_id,
                        "name": "apply_patch",
                        "input": patch,
                    },
                }
            )
            out.append(
                {
                    "timestamp": stamp(),
                    "type": "response_item",
                    "payload": {"type": "custom_tool_call_output", "call_id": call_id, "output": result},
                }
            )
            continue
        if verb == "todo":
            name, arguments = "update_plan", {"plan": [{"step": t, "status": s} for t, s in args]}
        elif verb == "read":
            name, arguments = "shell", {"command": ["bash", "-lc", f"sed -n '1,200p' {args['file_path']}"]}
        else:
            name, arguments = "shell", {"command": ["bash", "-lc", args["command"]], "workdir": cwd}
        out.append(
            {
                "timestamp": stamp(),
                "type": "response_item",
                "payload": {
                    "type": "function_call",
                    "name": name,
                    "arguments": json.dumps(arguments),
                    "call_id": call_id,
                },
            }
        )
        out.append(
            {
                "timestamp": stamp(),
                "type": "response_item",
                "payload": {
                    "type": "function_call_output",
                    "call_id": call_id,
                    "output": json.dumps({"output": result, "metadata": {"exit_code": 0}}),
                },
            }
        )
    return out


def generic(session: str, cwd: str, turns: list[Turn]) -> list[dict[str, Any]]:
    """A harness log of plain messages and whole generic tool records."""
    out: list[dict[str, Any]] = [{"type": "session", "session_id": session, "cwd": cwd}]
    for turn in turns:
        if turn[0] in {"user", "assistant"}:
            out.append({"role": turn[0], "content": turn[1]})
            continue
        _, verb, args, result = turn
        if verb == "todo":
            args = {"todos": [{"content": t, "status": s} for t, s in args]}
        if verb in {"edit", "write"}:  # these harnesses name the file in the result only
            out.append({"role": "tool", "tool_name": verb, "content": result})
        else:
            out.append({"role": "tool", "tool_name": verb, "input": args, "content": result})
    return out


SHAPES = {"claude_code": claude_code, "opencode": opencode, "codex": codex, "generic": generic}


def write(case_id: str, shape: str, session: str, cwd: str, turns: list[Turn]) -> Path:
    """Write one transcript file and return its path."""
    path = HERE / f"{case_id}.jsonl"
    records = SHAPES[shape](session, cwd, turns)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


if __name__ == "__main__":
    from stories import STORIES  # the hand-written sessions, next to this file

    lines = []
    for case_id, shape, session, cwd, project, turns, facts in STORIES:
        write(case_id, shape, session, cwd, turns)
        lines.append(
            json.dumps(
                {
                    "id": case_id,
                    "kind": "session",
                    "project": project,
                    "date": "2026-06-11",
                    "transcript_file": f"sessions/{case_id}.jsonl",
                    "facts": facts,
                },
                ensure_ascii=False,
            )
        )
    print("\n".join(lines))
