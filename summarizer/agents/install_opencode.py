"""The OpenCode plugin: ``summarizer.js`` written into OpenCode's plugins folder.

OpenCode has no command hook that can rewrite a command, so its integration is a plugin (package
data, ``opencode_plugin.js``) with the path of this ``summarizer`` filled in. A file of that name
that is not ours is never overwritten: the plugin mark tells ours (any version, so an older one is
upgraded in place) from a user's.
"""

from __future__ import annotations

import json
from pathlib import Path

from summarizer.agents.install_files import read_or_none, remove_empty_folders, write_atomic
from summarizer.core.errors import InputError

__all__ = [
    "PLUGIN_MARK",
    "PLUGIN_NAME",
    "install_plugin",
    "plugin_command",
    "plugin_source",
    "uninstall_plugin",
]

PLUGIN_NAME = "summarizer.js"
PLUGIN_MARK = "// summarizer-plugin: v"  # any version: an older plugin of ours is upgraded in place


def plugin_source(executable: str) -> str:
    """The OpenCode plugin with the path of this ``summarizer`` filled in."""
    template = (Path(__file__).parent / "opencode_plugin.js").read_text(encoding="utf-8")
    return template.replace('"__SUMMARIZER__"', json.dumps(executable))


def install_plugin(path: Path, executable: str) -> str:
    """Write the plugin to ``path`` unless a foreign file holds that name; the line to print."""
    raw = read_or_none(path)
    if raw is not None and PLUGIN_MARK.encode() not in raw:
        raise InputError(f"{str(path)!r} is not summarizer's plugin; move it away, then run init again")
    source = plugin_source(executable).encode("utf-8")
    if raw == source:
        return f"opencode: already installed in {path}"
    write_atomic(path, source)
    return f"opencode: plugin (bash output compressed after it runs) in {path}"


def uninstall_plugin(path: Path) -> str:
    """Remove our plugin (never a foreign file of the same name); the line to print."""
    raw = read_or_none(path)
    if raw is None or PLUGIN_MARK.encode() not in raw:
        return f"opencode: nothing to remove in {path}"
    path.unlink()
    remove_empty_folders(path.parent)
    return f"opencode: removed {path}"


def plugin_command(path: Path) -> tuple[bool, str | None]:
    """(is our plugin installed at ``path``, the ``summarizer`` it runs) for ``init --show``."""
    raw = read_or_none(path)
    if raw is None or PLUGIN_MARK.encode() not in raw:
        return False, None
    prefix = "const SUMMARIZER = "
    line = next((x for x in raw.decode("utf-8", "replace").splitlines() if x.startswith(prefix)), "")
    return True, line.removeprefix(prefix).rstrip(";").strip('"') or None
