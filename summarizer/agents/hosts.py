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
* **Gemini CLI** (``BeforeTool``, ``hookSpecificOutput.tool_input`` merged over the arguments): no
  permission goes with the rewrite.
* **Cursor** (``preToolUse``, ``permission`` + ``updated_input``) and **Copilot CLI**
  (``preToolUse``, ``permissionDecision`` + ``modifiedArgs``): the rewrite goes with an allow, so
  the host's own rules are evaluated first and only commands it would run without asking are
  rewritten.
"""

from __future__ import annotations

import os

from summarizer.agents.wrap import prepare

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from summarizer.agents.shell import Line

__all__ = [
    "answer",
    "codex_answer",
    "codex_rule_patterns",
    "copilot_answer",
    "cursor_answer",
    "gemini_answer",
]

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


def _json_file(path: str) -> object:
    """A JSON file's value; ``None`` when it does not exist; ValueError when it cannot be read."""
    from summarizer.core import fastjson

    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read {path}") from exc
    try:
        return fastjson.loads(text)
    except Exception as exc:  # the C scanner raises SystemError on some malformed input
        raise ValueError(f"cannot parse {path}") from exc


def _home(env: Mapping[str, str]) -> str:
    return env.get("HOME") or os.path.expanduser("~")


def _tool_rules(paths: list[str], keys: tuple[str, ...], tool: str) -> dict[str, list[str]] | None:
    """``Tool(pattern)`` rules under dotted ``keys`` in JSON settings files; ``None`` if one is unreadable."""
    from summarizer.agents.permissions import bash_patterns

    found: dict[str, list[str]] = {key: [] for key in keys}
    for path in paths:
        try:
            data = _json_file(path)
        except ValueError:
            return None
        for key in keys:
            value: object = data
            for part in key.split("."):
                value = value.get(part) if isinstance(value, dict) else None
            found[key].extend(bash_patterns(value, tool))
    return found


def _project_dir(event: Mapping[str, object]) -> str:
    cwd = event.get("cwd")
    if isinstance(cwd, str) and cwd:
        return cwd
    roots = event.get("workspace_roots")
    if isinstance(roots, list) and roots and isinstance(roots[0], str):
        return roots[0]
    return os.getcwd()


def _prefixes(patterns: list[str]) -> list[str]:
    """``Tool(git)`` names a command and whatever follows it: a prefix with a word boundary."""
    return [p if p.endswith("*") else p + ":*" for p in patterns]


def _names(patterns: list[str], line: Line) -> bool:
    from summarizer.agents.permissions import liberal

    return liberal(_prefixes(patterns), line) is not None


def _shell_call(
    event: Mapping[str, object], tool: str, env: Mapping[str, str], exe: str
) -> tuple[dict[str, object], str, Line, str] | None:
    """(the call's input, its project folder, the parsed line, the rewrite) for a ``tool`` call the
    hook may rewrite; ``None`` for another tool or a line :func:`prepare` leaves alone."""
    tool_input = event.get("tool_input")
    if event.get("tool_name") != tool or not isinstance(tool_input, dict):
        return None
    project = _project_dir(event)
    prepared = prepare(tool_input.get("command"), env, project, exe)
    if prepared is None:
        return None
    return tool_input, project, prepared[0], prepared[1]


def gemini_answer(event: Mapping[str, object], env: Mapping[str, str], exe: str) -> dict[str, object] | None:
    """Gemini CLI's ``BeforeTool`` on ``run_shell_command``: ``hookSpecificOutput.tool_input``.

    Gemini fires ``BeforeTool`` when the call executes (``executeToolWithHooks``), after its own
    policy check and confirmation of the original; the hook still leaves alone any line whose
    commands one of the user's ``run_shell_command(...)`` exclusions names.
    """
    call = _shell_call(event, "run_shell_command", env, exe)
    if call is None:
        return None
    _, project, line, rewritten = call
    files = [
        os.path.join(_home(env), ".gemini", "settings.json"),
        os.path.join(project, ".gemini", "settings.json"),
    ]
    rules = _tool_rules(files, ("excludeTools", "tools.exclude"), "run_shell_command")
    if rules is None or _names(rules["excludeTools"] + rules["tools.exclude"], line):
        return None
    return {"hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": {"command": rewritten}}}


def cursor_answer(event: Mapping[str, object], env: Mapping[str, str], exe: str) -> dict[str, object] | None:
    """Cursor's ``preToolUse`` on ``Shell``: ``permission: "allow"`` with ``updated_input``.

    Cursor takes the rewrite with a permission, so the hook first reads Cursor's own rules
    (``permissions`` in ``~/.cursor/cli-config.json`` and the project's ``.cursor/cli.json``):
    every command of the line must match a ``Shell(...)`` allow rule and none a deny rule.
    """
    from summarizer.agents.permissions import allowed

    call = _shell_call(event, "Shell", env, exe)
    if call is None:
        return None
    tool_input, project, line, rewritten = call
    files = [
        os.path.join(_home(env), ".cursor", "cli-config.json"),
        os.path.join(project, ".cursor", "cli.json"),
    ]
    rules = _tool_rules(files, ("permissions.allow", "permissions.deny"), "Shell")
    if rules is None or _names(rules["permissions.deny"], line):
        return None
    allow = _prefixes(rules["permissions.allow"])
    if not all(allowed(allow, cmd) for cmd in line.commands):
        return None
    return {"permission": "allow", "updated_input": {**tool_input, "command": rewritten}}


def _copilot_flags(env: Mapping[str, str]) -> tuple[bool, bool]:
    """(all tools allowed, some tool denied) for the Copilot CLI that started this hook.

    Copilot's tool permissions are its command-line flags (``--allow-all-tools``, ``--yolo``,
    ``--deny-tool``) or ``COPILOT_ALLOW_ALL``; the hook reads the flags from the command lines of
    its ancestor processes (Linux ``/proc``). Nothing found: not allowed.
    """
    allow_all = env.get("COPILOT_ALLOW_ALL", "").strip().lower() in ("1", "true", "yes")
    denied = False
    pid = os.getppid()
    for _ in range(8):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                argv = handle.read().decode("utf-8", "replace").split("\0")
            with open(f"/proc/{pid}/stat", encoding="utf-8") as handle:
                parent = int(handle.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
        if any("copilot" in os.path.basename(a) for a in argv[:3]):
            allow_all = allow_all or bool({"--allow-all-tools", "--allow-all", "--yolo"} & set(argv))
            denied = denied or any(a.startswith("--deny-tool") for a in argv)
        if parent <= 1:
            break
        pid = parent
    return allow_all, denied


def copilot_answer(event: Mapping[str, object], env: Mapping[str, str], exe: str) -> dict[str, object] | None:
    """Copilot CLI's ``preToolUse`` on ``bash``: ``permissionDecision: "allow"`` with ``modifiedArgs``.

    A rewrite comes with an allow, which skips Copilot's own prompt, so the hook rewrites only when
    Copilot would not have asked: all tools allowed (``--allow-all-tools``, ``--yolo`` or
    ``COPILOT_ALLOW_ALL``) and no ``--deny-tool`` flag that the rewrite could slip past.
    """
    name = event.get("toolName", event.get("tool_name"))
    args = event.get("toolArgs", event.get("tool_input"))
    if isinstance(args, str):
        from summarizer.core import fastjson

        args = fastjson.loads(args)
    if name != "bash" or not isinstance(args, dict):
        return None
    prepared = prepare(args.get("command"), env, _project_dir(event), exe)
    if prepared is None:
        return None
    allow_all, denied = _copilot_flags(env)
    if not allow_all or denied:
        return None
    return {"permissionDecision": "allow", "modifiedArgs": {**args, "command": prepared[1]}}


_ANSWERS = {
    "codex": codex_answer,
    "gemini": gemini_answer,
    "cursor": cursor_answer,
    "copilot": copilot_answer,
}


def answer(
    agent: str, event: Mapping[str, object], env: Mapping[str, str], exe: str
) -> dict[str, object] | None:
    """The reply of ``summarizer hook <agent>`` for one event (``None``: say nothing)."""
    return _ANSWERS[agent](event, env, exe)
