"""``summarizer init``: install, show and remove the agent integrations.

Each installer is idempotent, touches one file, and removes exactly what it added:

* **claude-code**: a ``PreToolUse`` hook on ``Bash`` running ``<summarizer> hook claude``, merged
  into ``~/.claude/settings.json`` (``--global``) or ``.claude/settings.local.json``
  (``--project``; the personal project file, not the one teams commit). Other keys and hooks are
  kept; the file before the first change is saved next to it as ``*.summarizer-backup``, and
  ``--uninstall`` puts those exact bytes back when nothing else changed meanwhile (otherwise it
  removes only our hook entry).
* **opencode**: the plugin ``summarizer.js`` (package data) in ``~/.config/opencode/plugins/`` or
  ``.opencode/plugins/``; a file of that name that is not ours is never overwritten.
* **codex**: the ``PreToolUse`` hook ``<summarizer> hook codex`` on ``Bash`` in ``hooks.json``
  (``~/.codex/hooks.json``, or ``$CODEX_HOME``; ``--project``: ``.codex/hooks.json``), merged like
  Claude Code's, plus ``hooks = true`` under ``[features]`` in ``~/.codex/config.toml`` (marked so
  ``--uninstall`` removes exactly that line), plus the instruction block in ``AGENTS.md`` as the
  fallback for commands the hook leaves alone. The hook rewrites only where Codex would not ask
  (:mod:`summarizer.agents.hosts`).

``--uninstall`` also removes the agent folders it leaves empty (``.claude``, ``.codex``,
``.opencode``, ``plugins``), never a folder with anything left in it.

Paths come from an explicit environment mapping and working directory, so tests run on tmp dirs.
This module chooses the files and dispatches; the edits live with each file kind:
:mod:`~summarizer.agents.install_hooks` (JSON hook entries), :mod:`~summarizer.agents.install_opencode`
(the plugin), :mod:`~summarizer.agents.install_codex` (config.toml, AGENTS.md) and
:mod:`~summarizer.agents.install_files` (atomic writes, empty folders).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from summarizer.agents import install_codex as codex
from summarizer.agents.install_files import read_or_none, remove_empty_folders
from summarizer.agents.install_hooks import hook_command, install_hook, uninstall_hook
from summarizer.agents.install_opencode import PLUGIN_NAME, install_plugin, plugin_command, uninstall_plugin
from summarizer.core.errors import InputError

__all__ = ["AGENTS", "Installed", "install", "location", "show", "uninstall"]

AGENTS = ("claude-code", "opencode", "codex", "gemini", "cursor", "copilot")


class Installed:
    """What ``--show`` reports for one agent and scope."""

    __slots__ = ("agent", "command", "installed", "path", "scope")

    def __init__(self, agent: str, scope: str, path: Path, installed: bool, command: str | None) -> None:
        self.agent, self.scope, self.path = agent, scope, path
        self.installed, self.command = installed, command


def location(agent: str, scope: str, env: Mapping[str, str], cwd: Path) -> Path:
    """The file ``agent``'s integration lives in, for ``scope`` ``"global"`` or ``"project"``.

    Computed from ``env`` and ``cwd`` (never the process's own home) so tests, and ``--show`` for
    another home, read the same places the agents would.
    """
    home = Path(env.get("HOME") or Path.home())
    if agent == "claude-code":
        if scope == "project":
            return cwd / ".claude" / "settings.local.json"
        return Path(env.get("CLAUDE_CONFIG_DIR") or home / ".claude") / "settings.json"
    if agent == "opencode":
        if scope == "project":
            return cwd / ".opencode" / "plugins" / PLUGIN_NAME
        return Path(env.get("XDG_CONFIG_HOME") or home / ".config") / "opencode" / "plugins" / PLUGIN_NAME
    if agent == "codex":
        if scope == "project":
            return cwd / "AGENTS.md"
        return Path(env.get("CODEX_HOME") or home / ".codex") / "AGENTS.md"
    if agent in _HOOK_FILES:
        return _hook_file(agent, scope, env, home, cwd)
    raise InputError(f"unknown agent {agent!r}; choose one of {', '.join(AGENTS)}")


_HOOK_FILES = {
    # agent: (global folder below home, project folder, file name)
    "gemini": (".gemini", ".gemini", "settings.json"),
    "cursor": (".cursor", ".cursor", "hooks.json"),
    "copilot": (".copilot/hooks", ".github/hooks", "summarizer.json"),
}


def _hook_file(agent: str, scope: str, env: Mapping[str, str], home: Path, cwd: Path) -> Path:
    folder, project, name = _HOOK_FILES[agent]
    if scope == "project":
        return cwd / project / name
    if agent == "copilot" and env.get("COPILOT_HOME"):
        return Path(env["COPILOT_HOME"]) / "hooks" / name
    return home / folder / name


def _twice(agent: str, scope: str, env: Mapping[str, str], cwd: Path) -> str:
    """A warning when the hook is installed in both scopes (every command would be wrapped twice)."""
    rows = [
        r for r in show(env, cwd) if r.agent == agent and r.installed and r.command and "hook" in r.command
    ]
    if len({r.scope for r in rows}) < 2:
        return ""
    other = "project" if scope == "global" else "global"
    fix = f"summarizer init {agent} --{other} --uninstall"
    return f"\nwarning: {agent} now has the hook in both scopes (commands wrapped twice); remove one: {fix}"


def install(agent: str, scope: str, env: Mapping[str, str], cwd: Path, executable: str) -> str:
    """Install ``agent``'s integration; the line(s) to print."""
    path = location(agent, scope, env, cwd)
    if agent == "claude-code":
        done = install_hook(path, f"{_shell_word(executable)} hook claude", agent)
    elif agent == "opencode":
        return install_plugin(path, executable)
    elif agent in _HOOK_FILES:
        done = install_hook(path, f"{_shell_word(executable)} hook {agent}", agent)
    else:
        hooks, config = codex.codex_files(scope, env, cwd)
        done = "\n".join(
            [
                install_hook(hooks, f"{_shell_word(executable)} hook codex", "codex"),
                codex.install_feature(config),
                codex.install_instructions(path),
            ]
        )
    return done + _twice(agent, scope, env, cwd)


def uninstall(agent: str, scope: str, env: Mapping[str, str], cwd: Path) -> str:
    """Remove exactly what :func:`install` added; the line(s) to print."""
    path = location(agent, scope, env, cwd)
    if agent == "claude-code":
        return uninstall_hook(path, agent)
    if agent == "opencode":
        return uninstall_plugin(path)
    if agent in _HOOK_FILES:
        return uninstall_hook(path, agent)
    hooks, config = codex.codex_files(scope, env, cwd)
    lines = [uninstall_hook(hooks, "codex"), codex.uninstall_instructions(path)]
    if scope == "global" or hook_command(codex.codex_files("global", env, cwd)[0], "codex") is None:
        codex.uninstall_feature(config)
    remove_empty_folders(hooks.parent)
    return "\n".join(lines)


def show(env: Mapping[str, str], cwd: Path) -> list[Installed]:
    """What is installed where, for every agent and scope.

    Read-only; :func:`install` also uses it to warn when a hook is in both scopes.
    """
    rows = []
    for agent in AGENTS:
        for scope in ("global", "project"):
            path = location(agent, scope, env, cwd)
            command: str | None = None
            if agent == "claude-code" or agent in _HOOK_FILES:
                command = hook_command(path, agent)
                installed = command is not None
            elif agent == "opencode":
                installed, command = plugin_command(path)
            else:
                hooks = codex.codex_files(scope, env, cwd)[0]
                command = hook_command(hooks, "codex")
                installed = command is not None or codex.instruction_span(read_or_none(path)) is not None
                path = hooks if command is not None else path
            rows.append(Installed(agent, scope, path, installed, command))
    return rows


def _shell_word(text: str) -> str:
    """``text`` quoted for the POSIX shell the agents run hook commands in (bare when safe)."""
    if text and all(c.isalnum() or c in "/._-+:@%" for c in text):
        return text
    return "'" + text.replace("'", "'\"'\"'") + "'"
