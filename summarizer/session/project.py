"""Which engram project a session belongs to, detected the way engram detects it.

Order (the first that answers wins; ``--project`` beats all of them):

1. ``.engram/config.json`` with ``project_name`` (or ``project``): the nearest one from the session's
   directory up to the git root (or, outside a repository, up to the filesystem root);
2. the git remote: the repository name of ``origin`` (else the first remote), so two clones called
   ``api`` of different repositories do not share memory, and one repository cloned under two folder
   names does;
3. the git root's folder name, so a session started in ``repo/src`` is still ``repo``;
4. the directory's own name.

Git is asked through ``git`` itself (worktrees and ``includeIf`` make its files hard to read by
hand), with a short timeout; no git, or a git that fails, skips steps 2 and 3. Names are trimmed and
their inner whitespace collapsed, never re-cased: renaming a project would orphan its memory.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

__all__ = ["GIT_TIMEOUT_S", "detect_project_name", "engram17_aliases", "remote_repo_name", "scrubbed_project"]

GIT_TIMEOUT_S = 2.0
_REMOTE_NAME = re.compile(r"([^/:\\]+?)(?:\.git)?/*$")


def detect_project_name(directory: str | Path) -> tuple[str, str]:
    """The project for ``directory`` and its origin: ``config``, ``git_remote``, ``git_root`` or ``dir``.

    Scrubbed (:func:`scrubbed_project`): a name is stored in every topic key and printed by recover.
    """
    name, origin = _detect(directory)
    return scrubbed_project(name), origin


def scrubbed_project(name: str) -> str:
    """``name`` without secrets: a token pasted as ``--project`` or a folder named after one would
    otherwise be written into engram (topic keys, the project column) and printed back."""
    from summarizer.core.scrub import scrub

    return scrub(name)[0]


def _detect(directory: str | Path) -> tuple[str, str]:
    here = Path(directory).expanduser()
    root = _git(here, "rev-parse", "--show-toplevel")
    top = Path(root) if root else None
    if (name := _config_name(here, top)) is not None:
        return name, "config"
    if top is not None:
        remotes = (_git(here, "remote") or "").split()
        remote = "origin" if "origin" in remotes else (remotes[0] if remotes else "")
        url = _git(here, "remote", "get-url", remote) if remote else None
        if url and (name := remote_repo_name(url)):
            return name, "git_remote"
        if name := _clean(top.name):
            return name, "git_root"
    return _clean(here.resolve().name) or "default", "dir"


def engram17_aliases(directory: str | Path, detected: str) -> tuple[str, ...]:
    """The names engram 1.7 and its Claude Code plugin give ``directory``'s project (the folder's
    basename, and the git root's), other than ``detected``: memories saved under them are ours too."""
    here = Path(directory).expanduser()
    names = [_clean(here.resolve().name)]
    if root := _git(here, "rev-parse", "--show-toplevel"):
        names.append(_clean(Path(root).name))
    return tuple(dict.fromkeys(scrubbed_project(n) for n in names if n and n != detected))


def remote_repo_name(url: str) -> str:
    """``git@github.com:acme/api.git`` → ``api``; ``https://host/acme/api/`` → ``api``."""
    found = _REMOTE_NAME.search(url.strip())
    return _clean(found.group(1)) if found else ""


def _config_name(start: Path, stop: Path | None) -> str | None:
    current = start.resolve()
    for folder in (current, *current.parents):
        config = folder / ".engram" / "config.json"
        if config.is_file():
            try:
                data = json.loads(config.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                data = None  # a broken config is skipped, as if absent, rather than failing the save
            if isinstance(data, dict):
                for key in ("project_name", "project"):
                    value = data.get(key)
                    if isinstance(value, str) and _clean(value):
                        return _clean(value)
        if stop is not None and folder == stop.resolve():
            break
    return None


def _git(directory: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(directory), *args],
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None if done.returncode == 0 else None


def _clean(name: str) -> str:
    return " ".join(name.split())
