"""The pre-tool hooks of Codex, Gemini CLI, Cursor and Copilot CLI: one contract, each host's JSON.

Every host gets the same treatment as Claude Code (:mod:`summarizer.agents.hook`): the line is
parsed, only lines whose every command is known are rewritten, and a failure leaves the command
unchanged with one line on stderr. What differs is the JSON each host sends and accepts, and
which of the host's own permission rules stand between a rewrite and a weaker permission:

* **Codex** (``PreToolUse``, ``~/.codex/hooks.json``): a rewrite is accepted only as
  ``permissionDecision: "allow"`` with ``updatedInput`` (``codex-rs/hooks/src/engine/
  output_parser.rs``). That allow does not skip Codex's approval policy or sandbox: the rewritten
  command goes through the tool's normal path. But Codex's exec-policy rules (``rules/*.rules``,
  ``prefix_rule(pattern=[...])``) and its approval prompts would then judge ``summarizer run ...``
  instead of the original. So the hook rewrites only when Codex would run the original without
  asking: ``permission_mode`` is ``bypassPermissions`` (Codex sends it for
  ``approval_policy = "never"``; every other policy is sent as ``default``) and no ``prefix_rule``
  names any command of the line. Anything else is left alone; the ``AGENTS.md`` instructions stay
  as the fallback.
"""

from __future__ import annotations

import os

from summarizer.agents.wrap import prepare

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from summarizer.agents.shell import Line

__all__ = ["answer", "codex_answer", "codex_rule_patterns"]

_CODEX_SHELL_TOOLS = ("Bash", "shell", "shell_command", "exec_command", "local_shell")


def _rule_files(folder: str) -> list[str]:
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    return [os.path.join(folder, n) for n in names if n.endswith(".rules")]


def _patterns_in(text: str) -> list[list[list[str]]]:
    """Every ``pattern = [...]`` of the ``prefix_rule`` calls in one Starlark rules file."""
    import ast

    out: list[list[list[str]]] = []
    pos = 0
    while (start := text.find("prefix_rule(", pos)) >= 0:
        key = text.find("pattern", start)
        bracket = text.find("[", key)
        if key < 0 or bracket < 0:
            raise ValueError("a prefix_rule without a pattern")
        depth, end = 0, bracket
        while end < len(text):
            depth += {"[": 1, "]": -1}.get(text[end], 0)
            if depth == 0:
                break
            end += 1
        value = ast.literal_eval(text[bracket : end + 1])
        if not isinstance(value, list) or not value:
            raise ValueError("a prefix_rule pattern that is not a list")
        out.append([[part] if isinstance(part, str) else [str(p) for p in part] for part in value])
        pos = end
    return out


def codex_rule_patterns(env: Mapping[str, str], project_dir: str) -> list[list[list[str]]] | None:
    """The patterns of Codex's exec-policy rules (user and project), or ``None`` if one is unreadable."""
    home = env.get("CODEX_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".codex")
    patterns: list[list[list[str]]] = []
    for path in _rule_files(os.path.join(home, "rules")) + _rule_files(
        os.path.join(project_dir, ".codex", "rules")
    ):
        try:
            with open(path, encoding="utf-8") as handle:
                patterns += _patterns_in(handle.read())
        except (OSError, ValueError, SyntaxError):
            return None
    return patterns


def _names_a_command(patterns: list[list[list[str]]], line: Line) -> bool:
    """Does a rule pattern match the start of any command, at any word (read liberally)?"""
    for cmd in line.commands:
        argv = cmd.argv
        for k in range(len(argv)):
            rest = argv[k:]
            for pattern in patterns:
                if len(rest) >= len(pattern) and all(
                    w in alts for w, alts in zip(rest, pattern, strict=False)
                ):
                    return True
    return False


def codex_answer(event: Mapping[str, object], env: Mapping[str, str], exe: str) -> dict[str, object] | None:
    """Codex's ``PreToolUse``: allow + ``updatedInput`` only where Codex would not have asked."""
    tool_input = event.get("tool_input")
    if event.get("tool_name") not in _CODEX_SHELL_TOOLS or not isinstance(tool_input, dict):
        return None
    if event.get("permission_mode") != "bypassPermissions" or tool_input.get("kind") not in (None, "script"):
        return None
    cwd = event.get("cwd")
    project = cwd if isinstance(cwd, str) and cwd else os.getcwd()
    prepared = prepare(tool_input.get("command"), env, project, exe)
    if prepared is None:
        return None
    line, rewritten = prepared
    patterns = codex_rule_patterns(env, project)
    if patterns is None or _names_a_command(patterns, line):
        return None
    updated: dict[str, object] = {"command": rewritten}
    if "kind" in tool_input:
        updated["kind"] = tool_input["kind"]
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "updatedInput": updated,
        }
    }


def answer(
    agent: str, event: Mapping[str, object], env: Mapping[str, str], exe: str
) -> dict[str, object] | None:
    """The reply of ``summarizer hook <agent>`` for one event (``None``: say nothing)."""
    if agent == "codex":
        return codex_answer(event, env, exe)
    raise ValueError(f"no hook for {agent!r}")
