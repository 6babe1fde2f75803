"""The file operations of ``summarizer init``: atomic, permission-keeping, and undone without residue.

Every installer writes through :func:`write_atomic` so an interrupted install never leaves a
half-written settings file behind (an agent would fail to start), and every uninstall ends with
:func:`remove_empty_folders` so the folders an install created go away with it.
"""

from __future__ import annotations

import os
from pathlib import Path

from summarizer.core.errors import StorageError

__all__ = ["read_or_none", "remove_empty_folders", "write_atomic"]


def write_atomic(path: Path, data: bytes) -> None:
    """Atomic replace in the same directory, keeping the file's permissions.

    An interrupted install must never leave a half-written settings file the agent then fails to
    read; the same directory keeps :func:`os.replace` a rename on one file system.
    """
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


def read_or_none(path: Path) -> bytes | None:
    """The file's bytes, or None when it does not exist (a first install)."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StorageError(f"cannot read {str(path)!r}: {exc.strerror or exc}") from exc


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


def remove_empty_folders(folder: Path) -> None:
    """Remove the agent folders an uninstall left empty (``.claude``, ``.opencode/plugins``, ...)."""
    while folder.name in _AGENT_FOLDERS:
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent
