"""``summarizer hook <agent>``: the pre-tool hooks that route shell commands through ``summarizer run``.

Claude Code pipes its ``PreToolUse`` hook a JSON object (``tool_name``, ``tool_input.command``,
``cwd``, ``permission_mode``, ...). When the command is worth wrapping, the hook answers with
``hookSpecificOutput.updatedInput`` running it through ``summarizer run``; otherwise it prints
nothing and Claude Code runs the command as it would have.

It never weakens the user's permissions. Every command the line can run is found
(:mod:`summarizer.agents.shell`; a line beyond the reader is left alone), the rules are evaluated
against the original line (:mod:`summarizer.agents.permissions`), and

=================  ==========================================================================
rule               answer
=================  ==========================================================================
deny               nothing (no rewrite): Claude Code denies the original command itself
ask                ``permissionDecision: "ask"`` with the rewrite
no rule            ``"ask"`` with the rewrite; under ``bypassPermissions`` the rewrite alone;
                   under ``dontAsk`` nothing (Claude Code denies what no rule allows)
allow              ``"allow"`` with the rewrite; under ``bypassPermissions`` the rewrite alone
=================  ==========================================================================

A command inside a substitution, an ``eval`` or an ``sh -c`` string must itself match an allow
rule, or the line is left alone. In ``plan`` mode and modes this hook does not know, it says
nothing. (Under ``bypassPermissions`` Claude Code drops ``updatedInput`` when a
``permissionDecision`` is present, rtk-ai/rtk #893.)

A failure never blocks the command: bad input or an internal error prints nothing on stdout, one
line on stderr, and exits 0, so the command runs unchanged under the agent's own rules. The hook
never exits 2, which would block it. The other agents' hooks are in :mod:`summarizer.agents.hosts`.
"""

from __future__ import annotations

import os
import sys

from summarizer.agents.permissions import Rules, allowed, decide, load_rules
from summarizer.agents.wrap import EXCLUDE_FILE, exclude_prefixes, executable, prepare, reads_only
from summarizer.core import fastjson

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["EXCLUDE_FILE", "HOSTS", "answer", "exclude_prefixes", "executable", "main", "prepare"]

HOSTS = ("claude", "codex", "gemini", "cursor", "copilot")
_KNOWN_MODES = ("default", "acceptEdits", "bypassPermissions", "dontAsk")


def _project(event: Mapping[str, object], env: Mapping[str, str]) -> str:
    cwd = event.get("cwd")
    return env.get("CLAUDE_PROJECT_DIR") or (cwd if isinstance(cwd, str) and cwd else os.getcwd())


def answer(
    event: Mapping[str, object], env: Mapping[str, str], exe: str = "summarizer", rules: Rules | None = None
) -> dict[str, object] | None:
    """The Claude Code hook's JSON reply to one ``PreToolUse`` event, or ``None`` to say nothing.

    ``rules`` stands in for the settings files (the differential test passes thousands of sets).
    """
    tool_input = event.get("tool_input")
    if event.get("tool_name") != "Bash" or not isinstance(tool_input, dict):
        return None
    if tool_input.get("run_in_background"):
        return None
    mode = event.get("permission_mode") or "default"
    if mode not in _KNOWN_MODES:
        return None
    project = _project(event, env)
    prepared = prepare(tool_input.get("command"), env, project, exe)
    if prepared is None:
        return None
    line, rewritten = prepared
    rules = rules if rules is not None else load_rules(project, env)
    for path in rules.unreadable:
        sys.stderr.write(
            f"summarizer hook: cannot read {path}; asking before running the rewritten command\n"
        )
    decision = decide(rules, line)
    if decision in ("deny", "unsure") or (decision is None and mode == "dontAsk"):
        return None
    if not all(allowed(rules.allow, cmd) for cmd in line.nested):
        return None  # a command inside a substitution no rule of yours allows: leave it to Claude Code
    output: dict[str, object] = {"hookEventName": "PreToolUse"}
    bypass = mode == "bypassPermissions"
    if decision is None and not bypass and reads_only(line):
        return None  # Claude Code runs a read without asking; a rewrite would cost a question each time
    if decision == "ask" or (decision is None and not bypass):
        output["permissionDecision"] = "ask"
        output["permissionDecisionReason"] = "summarizer compresses this command's output; " + (
            "your rules ask before running it" if decision == "ask" else "no rule of yours allows it"
        )
    elif decision == "allow" and not bypass:
        output["permissionDecision"] = "allow"
        output["permissionDecisionReason"] = "your rules allow the original command; output compressed"
    output["updatedInput"] = {**tool_input, "command": rewritten}
    return {"hookSpecificOutput": output}


def _reply(agent: str, event: dict[str, object], env: Mapping[str, str]) -> dict[str, object] | None:
    exe = executable(env)
    if agent == "claude":
        return answer(event, env, exe)
    from summarizer.agents import hosts

    return hosts.answer(agent, event, env, exe)


def main(args: list[str], agent: str = "claude") -> int:
    """Read one event on stdin, print the reply (or nothing); always exit 0.

    A hook that fails would block or alter the agent's command, so a failure prints one line on
    stderr and the command runs unchanged under the agent's own rules.
    """
    if args:
        sys.stderr.write(f"summarizer hook {agent}: ignoring extra arguments {' '.join(args)!r}\n")
    try:
        event = fastjson.loads(sys.stdin.buffer.read(1 << 22) if sys.stdin is not None else b"")
        if not isinstance(event, dict):
            raise ValueError("the hook input is not a JSON object")
        reply = _reply(agent, event, os.environ)
    except Exception as exc:  # never block the agent's command: it runs unchanged under its own rules
        sys.stderr.write(
            f"summarizer hook {agent}: {str(exc) or type(exc).__name__}; command left unchanged\n"
        )
        return 0
    if reply is not None:
        sys.stdout.write(fastjson.dumps(reply) + "\n")
    return 0
