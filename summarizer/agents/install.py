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
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

from summarizer.core.errors import InputError, StorageError

__all__ = ["AGENTS", "Installed", "install", "location", "show", "uninstall"]

AGENTS = ("claude-code", "opencode", "codex", "gemini", "cursor", "copilot")
BACKUP_SUFFIX = ".summarizer-backup"
PLUGIN_NAME = "summarizer.js"
PLUGIN_MARK = "// summarizer-plugin: v"  # any version: an older plugin of ours is upgraded in place
_BEGIN = "<!-- summarizer:begin"
_END = "<!-- summarizer:end -->"
CODEX_BLOCK = """\
## Tool output (summarizer)

Run commands whose output can be long (tests, builds, linters, installs, logs) through
`summarizer run -- CMD ARGS...` (or `summarizer run "cmd1 && cmd2"` for a shell line). It prints
small outputs unchanged and compresses large ones, keeping every error line, `file:line`
reference and failing test, and exits with the command's own status. The last line,
`[full output: summarizer restore ID ...]`, gives back the full output (`--lines A:B` for a range).
Do not wrap commands whose output you need verbatim (`cat`, `head`, `git diff`, `jq`, ...).
"""


class Installed:
    """What ``--show`` reports for one agent and scope."""

    __slots__ = ("agent", "command", "installed", "path", "scope")

    def __init__(self, agent: str, scope: str, path: Path, installed: bool, command: str | None) -> None:
        self.agent, self.scope, self.path = agent, scope, path
        self.installed, self.command = installed, command


def location(agent: str, scope: str, env: Mapping[str, str], cwd: Path) -> Path:
    """The file ``agent``'s integration lives in, for ``scope`` ``"global"`` or ``"project"``."""
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


def _write(path: Path, data: bytes) -> None:
    """Atomic replace in the same directory, keeping the file's permissions."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.summarizer-tmp")
        tmp.write_bytes(data)
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        os.replace(tmp, path)
    except OSError as exc:
        reason = exc.strerror or exc
        raise StorageError(f"cannot write {str(path)!r}: {reason}; check its permissions") from exc


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StorageError(f"cannot read {str(path)!r}: {exc.strerror or exc}") from exc


# --- Claude Code -------------------------------------------------------------------------------


_HOOKED = ("hook claude", "hook codex", "hook gemini", "hook cursor", "hook copilot")
# Where each agent's hook goes in its JSON file: (event, nested groups or flat entries, entry fields).
_SHAPES: dict[str, tuple[str, bool, dict[str, object]]] = {
    "claude-code": ("PreToolUse", True, {"matcher": "Bash"}),
    "codex": ("PreToolUse", True, {"matcher": "Bash"}),
    "gemini": ("BeforeTool", True, {"matcher": "run_shell_command"}),
    "cursor": ("preToolUse", False, {"matcher": "Shell"}),
    "copilot": ("preToolUse", False, {"type": "command", "timeoutSec": 30}),
}


def _is_ours(hook: object) -> bool:
    if not isinstance(hook, dict):
        return False
    command = hook.get("command", hook.get("bash"))
    return isinstance(command, str) and command.rstrip().endswith(_HOOKED) and "summarizer" in command


def _settings(raw: bytes | None, path: Path) -> dict[str, object]:
    if raw is None or not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise InputError(f"{str(path)!r} is not valid JSON ({exc}); fix it, then run init again") from None
    if not isinstance(data, dict):
        raise InputError(f"{str(path)!r} does not hold a JSON object; fix it, then run init again")
    return data


def _groups(data: dict[str, object], path: Path, event: str) -> list[object]:
    hooks = data.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise InputError(f"'hooks' in {str(path)!r} is not an object; fix it, then run init again")
    groups = hooks.setdefault(event, [])
    if not isinstance(groups, list):
        raise InputError(f"'hooks.{event}' in {str(path)!r} is not a list; fix it, then run init again")
    return groups


def _strip_ours(data: dict[str, object], event: str = "PreToolUse") -> bool:
    """Remove our hook entries (and groups/containers left empty by that); True if any was found."""
    hooks = data.get("hooks")
    groups = hooks.get(event) if isinstance(hooks, dict) else None
    if not isinstance(hooks, dict) or not isinstance(groups, list):
        return False
    found = False
    kept_groups = []
    for group in groups:
        inner = group.get("hooks") if isinstance(group, dict) else None
        if _is_ours(group):
            found = True
            continue
        if isinstance(group, dict) and isinstance(inner, list) and any(_is_ours(h) for h in inner):
            found = True
            rest = [h for h in inner if not _is_ours(h)]
            if not rest:
                continue
            group = {**group, "hooks": rest}
        kept_groups.append(group)
    if found:
        hooks[event] = kept_groups
        if not kept_groups:
            del hooks[event]
        if not hooks:
            del data["hooks"]
            if data == {"version": 1}:
                del data["version"]  # a flat hooks file we created holds nothing else
    return found


def _dump(data: dict[str, object]) -> bytes:
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _install_claude(path: Path, command: str, agent: str = "claude-code") -> str:
    raw = _read(path)
    data = _settings(raw, path)
    before = json.loads(json.dumps(data))
    event, nested, fields = _SHAPES[agent]
    _strip_ours(data, event)
    if nested:
        entry: dict[str, object] = {**fields, "hooks": [{"type": "command", "command": command}]}
    else:
        data.setdefault("version", 1)
        entry = {**fields, ("bash" if agent == "copilot" else "command"): command}
    _groups(data, path, event).append(entry)
    if data == before:
        return f"{agent}: already installed in {path}"
    backup = path.with_name(path.name + BACKUP_SUFFIX)
    if raw is not None and not backup.exists():
        _write(backup, raw)
    _write(path, _dump(data))
    return f"{agent}: {event} hook -> `{command}` in {path}"


def _uninstall_claude(path: Path, agent: str = "claude-code") -> str:
    raw = _read(path)
    data = _settings(raw, path)
    if not _strip_ours(data, _SHAPES[agent][0]):
        return f"{agent}: nothing to remove in {path}"
    backup = path.with_name(path.name + BACKUP_SUFFIX)
    saved = _read(backup)
    if saved is not None and _settings(saved, backup) == data:
        _write(path, saved)  # nothing else changed since: the user's exact bytes come back
    elif raw is not None and data == {} and saved is None:
        path.unlink()  # we created the file
    else:
        _write(path, _dump(data))
    if saved is not None:
        backup.unlink()
    _remove_empty_folders(path.parent)
    return f"{agent}: removed the hook from {path}"


def _claude_command(path: Path, agent: str = "claude-code") -> str | None:
    try:
        data = _settings(_read(path), path)
    except InputError:
        return None
    hooks = data.get("hooks")
    groups = hooks.get(_SHAPES[agent][0]) if isinstance(hooks, dict) else None
    for group in groups if isinstance(groups, list) else []:
        inner = group.get("hooks") if isinstance(group, dict) else None
        for hook in [group, *(inner if isinstance(inner, list) else [])]:
            if _is_ours(hook):
                return str(hook.get("command", hook.get("bash")))
    return None


# --- OpenCode ----------------------------------------------------------------------------------


def plugin_source(executable: str) -> str:
    """The OpenCode plugin with the path of this ``summarizer`` filled in."""
    template = (Path(__file__).parent / "opencode_plugin.js").read_text(encoding="utf-8")
    return template.replace('"__SUMMARIZER__"', json.dumps(executable))


def _install_opencode(path: Path, executable: str) -> str:
    raw = _read(path)
    if raw is not None and PLUGIN_MARK.encode() not in raw:
        raise InputError(f"{str(path)!r} is not summarizer's plugin; move it away, then run init again")
    source = plugin_source(executable).encode("utf-8")
    if raw == source:
        return f"opencode: already installed in {path}"
    _write(path, source)
    return f"opencode: plugin (bash output compressed after it runs) in {path}"


def _uninstall_opencode(path: Path) -> str:
    raw = _read(path)
    if raw is None or PLUGIN_MARK.encode() not in raw:
        return f"opencode: nothing to remove in {path}"
    path.unlink()
    _remove_empty_folders(path.parent)
    return f"opencode: removed {path}"


# --- Codex -------------------------------------------------------------------------------------


def _codex_block(raw: bytes | None) -> tuple[int, int] | None:
    text = raw.decode("utf-8", "replace") if raw is not None else ""
    start = text.find(_BEGIN)
    end = text.find(_END, start)
    if start < 0 or end < 0:
        return None
    return start, end + len(_END) + 1


def _install_codex(path: Path) -> str:
    raw = _read(path)
    if _codex_block(raw) is not None:
        return f"codex: already installed in {path}"
    text = raw.decode("utf-8") if raw is not None else ""
    sep = "" if not text or text.endswith("\n\n") else ("\n" if text.endswith("\n") else "\n\n")
    # The separator we added is recorded in the marker, so --uninstall restores the exact bytes.
    block = f"{_BEGIN} sep={len(sep)} -->\n{CODEX_BLOCK}{_END}\n"
    _write(path, (text + sep + block).encode("utf-8"))
    return f"codex: instructions to use `summarizer run` in {path} (where the hook leaves a command alone)"


def _uninstall_codex(path: Path) -> str:
    raw = _read(path)
    span = _codex_block(raw)
    if raw is None or span is None:
        return f"codex: nothing to remove in {path}"
    text = raw.decode("utf-8")
    start, end = span
    marker = text[start : text.find("\n", start)]
    sep = int(marker.split("sep=", 1)[1].split()[0]) if "sep=" in marker else 0
    rest = text[: start - sep] + text[end:]
    if rest:
        _write(path, rest.encode("utf-8"))
    else:
        path.unlink()
    return f"codex: removed the summarizer block from {path}"


_FEATURE_MARK = "# summarizer init codex"


def _install_codex_feature(path: Path) -> str:
    """``hooks = true`` under ``[features]`` in Codex's config.toml, each added line marked."""
    raw = _read(path)
    text = raw.decode("utf-8") if raw is not None else ""
    lines = text.splitlines()
    header = next((i for i, x in enumerate(lines) if x.strip().split("#")[0].strip() == "[features]"), None)
    if header is not None:
        end = next(
            (i for i in range(header + 1, len(lines)) if lines[i].lstrip().startswith("[")), len(lines)
        )
        if any(x.split("=")[0].strip() == "hooks" for x in lines[header + 1 : end]):
            return f"codex: [features] hooks already set in {path} (left as it is)"
        lines.insert(header + 1, f"hooks = true  {_FEATURE_MARK}")
    else:
        if lines and lines[-1].strip():
            lines.append("")
        lines += [f"[features]  {_FEATURE_MARK}", f"hooks = true  {_FEATURE_MARK}"]
    _write(path, ("\n".join(lines) + "\n").encode("utf-8"))
    return f"codex: [features] hooks = true in {path}"


def _uninstall_codex_feature(path: Path) -> None:
    raw = _read(path)
    if raw is None or _FEATURE_MARK.encode() not in raw:
        return
    lines = [x for x in raw.decode("utf-8").splitlines() if not x.rstrip().endswith(_FEATURE_MARK)]
    while lines and not lines[-1].strip():
        lines.pop()
    if lines:
        _write(path, ("\n".join(lines) + "\n").encode("utf-8"))
    else:
        path.unlink()


_AGENT_FOLDERS = frozenset(
    {
        ".claude",
        ".codex",
        ".opencode",
        "plugins",
        "opencode",
        ".gemini",
        ".cursor",
        ".copilot",
        "hooks",
        ".github",
    }
)


def _remove_empty_folders(folder: Path) -> None:
    """Remove the agent folders an uninstall left empty (``.claude``, ``.opencode/plugins``, ...)."""
    while folder.name in _AGENT_FOLDERS:
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent


# --- entry points ------------------------------------------------------------------------------


def codex_files(scope: str, env: Mapping[str, str], cwd: Path) -> tuple[Path, Path]:
    """(Codex's hooks.json, its config.toml) for ``scope``."""
    home = Path(env.get("CODEX_HOME") or Path(env.get("HOME") or Path.home()) / ".codex")
    return (
        cwd / ".codex" / "hooks.json" if scope == "project" else home / "hooks.json"
    ), home / "config.toml"


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
        done = _install_claude(path, f"{_shell_word(executable)} hook claude")
    elif agent == "opencode":
        return _install_opencode(path, executable)
    elif agent in _HOOK_FILES:
        done = _install_claude(path, f"{_shell_word(executable)} hook {agent}", agent)
    else:
        hooks, config = codex_files(scope, env, cwd)
        done = "\n".join(
            [
                _install_claude(hooks, f"{_shell_word(executable)} hook codex", "codex"),
                _install_codex_feature(config),
                _install_codex(path),
            ]
        )
    return done + _twice(agent, scope, env, cwd)


def uninstall(agent: str, scope: str, env: Mapping[str, str], cwd: Path) -> str:
    """Remove exactly what :func:`install` added; the line(s) to print."""
    path = location(agent, scope, env, cwd)
    if agent == "claude-code":
        return _uninstall_claude(path)
    if agent == "opencode":
        return _uninstall_opencode(path)
    if agent in _HOOK_FILES:
        return _uninstall_claude(path, agent)
    hooks, config = codex_files(scope, env, cwd)
    lines = [_uninstall_claude(hooks, "codex"), _uninstall_codex(path)]
    if scope == "global" or _claude_command(codex_files("global", env, cwd)[0], "codex") is None:
        _uninstall_codex_feature(config)
    _remove_empty_folders(hooks.parent)
    return "\n".join(lines)


def show(env: Mapping[str, str], cwd: Path) -> list[Installed]:
    """What is installed where, for every agent and scope."""
    rows = []
    for agent in AGENTS:
        for scope in ("global", "project"):
            path = location(agent, scope, env, cwd)
            command: str | None = None
            if agent == "claude-code" or agent in _HOOK_FILES:
                command = _claude_command(path, agent)
                installed = command is not None
            elif agent == "opencode":
                raw = _read(path)
                installed = raw is not None and PLUGIN_MARK.encode() in raw
                if installed and raw is not None:
                    line = next(
                        (
                            x
                            for x in raw.decode("utf-8", "replace").splitlines()
                            if x.startswith("const SUMMARIZER = ")
                        ),
                        "",
                    )
                    command = line.removeprefix("const SUMMARIZER = ").rstrip(";").strip('"') or None
            else:
                hooks = codex_files(scope, env, cwd)[0]
                command = _claude_command(hooks, "codex")
                installed = command is not None or _codex_block(_read(path)) is not None
                path = hooks if command is not None else path
            rows.append(Installed(agent, scope, path, installed, command))
    return rows


def _shell_word(text: str) -> str:
    if text and all(c.isalnum() or c in "/._-+:@%" for c in text):
        return text
    return "'" + text.replace("'", "'\"'\"'") + "'"
