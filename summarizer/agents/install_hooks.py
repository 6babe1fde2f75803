"""Our hook entry in an agent's JSON settings file (Claude Code, Codex, Gemini, Cursor, Copilot).

Five agents take a command hook in a JSON file; they differ only in the event name, whether entries
are nested in matcher groups, and the entry's fields (:data:`SHAPES`), so one merge serves them
all. The merge keeps every other key and hook, saves the file's bytes before the first change next
to it (``*.summarizer-backup``), and the removal puts those exact bytes back when nothing else
changed meanwhile, so ``init --uninstall`` leaves the user's file as it found it.
"""

from __future__ import annotations

import json
from pathlib import Path

from summarizer.agents.install_files import read_or_none, remove_empty_folders, write_atomic
from summarizer.core.errors import InputError

__all__ = ["BACKUP_SUFFIX", "SHAPES", "hook_command", "install_hook", "uninstall_hook"]

BACKUP_SUFFIX = ".summarizer-backup"
_HOOKED = ("hook claude", "hook codex", "hook gemini", "hook cursor", "hook copilot")
# Where each agent's hook goes in its JSON file: (event, nested groups or flat entries, entry fields).
SHAPES: dict[str, tuple[str, bool, dict[str, object]]] = {
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


def install_hook(path: Path, command: str, agent: str) -> str:
    """Add (or refresh) our hook running ``command`` in ``agent``'s file at ``path``; the line to print."""
    raw = read_or_none(path)
    data = _settings(raw, path)
    before = json.loads(json.dumps(data))
    event, nested, fields = SHAPES[agent]
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
        write_atomic(backup, raw)
    write_atomic(path, _dump(data))
    return f"{agent}: {event} hook -> `{command}` in {path}"


def uninstall_hook(path: Path, agent: str) -> str:
    """Remove our hook from ``path``, restoring the saved bytes when nothing else changed."""
    raw = read_or_none(path)
    data = _settings(raw, path)
    if not _strip_ours(data, SHAPES[agent][0]):
        return f"{agent}: nothing to remove in {path}"
    backup = path.with_name(path.name + BACKUP_SUFFIX)
    saved = read_or_none(backup)
    if saved is not None and _settings(saved, backup) == data:
        write_atomic(path, saved)  # nothing else changed since: the user's exact bytes come back
    elif raw is not None and data == {} and saved is None:
        path.unlink()  # we created the file
    else:
        write_atomic(path, _dump(data))
    if saved is not None:
        backup.unlink()
    remove_empty_folders(path.parent)
    return f"{agent}: removed the hook from {path}"


def hook_command(path: Path, agent: str) -> str | None:
    """The command our hook in ``path`` runs, or None (also for a file that is not valid JSON)."""
    try:
        data = _settings(read_or_none(path), path)
    except InputError:
        return None
    hooks = data.get("hooks")
    groups = hooks.get(SHAPES[agent][0]) if isinstance(hooks, dict) else None
    for group in groups if isinstance(groups, list) else []:
        inner = group.get("hooks") if isinstance(group, dict) else None
        for hook in [group, *(inner if isinstance(inner, list) else [])]:
            if _is_ours(hook):
                return str(hook.get("command", hook.get("bash")))
    return None
