"""Where rules live and the never-wrap list the hooks read, with the standard library only.

Two files, both optional, both applied (the project's first):

* ``.summarizer/rules.toml`` in the project: the nearest one from the working directory up to the
  repository root (the directory holding ``.git``), so a team commits it with the code;
* ``rules.toml`` in the user's configuration folder: ``$SUMMARIZER_CONFIG_DIR``, else
  ``$XDG_CONFIG_HOME/summarizer``, else ``~/.config/summarizer``.

The hooks run before every agent command, so this module costs nothing when neither file exists
(a few ``stat`` calls). When one does, parsing it costs more than the hook itself (importing
:mod:`tomllib` pulls in ``re``, ``typing`` and ``datetime``: about 20 ms), so the never-wrap list
is kept in a small text file in the cache directory, keyed by each rule file's path, size and
modification time; the TOML is parsed again only after a file changed. :func:`never_wrap_prefixes`
never raises: a file it cannot read or parse gives no prefixes and one line on stderr (the hook
then decides as if the file were not there; ``summarizer rules test`` says what is wrong).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = ["PROJECT_FILE", "USER_FILE", "config_dir", "never_wrap_prefixes", "read_table", "rule_files"]

_CACHE_HEADER = "summarizer never-wrap cache v1"

PROJECT_FILE = os.path.join(".summarizer", "rules.toml")
USER_FILE = "rules.toml"


def config_dir(env: Mapping[str, str]) -> str:
    """``$SUMMARIZER_CONFIG_DIR``, else ``$XDG_CONFIG_HOME/summarizer``, else ``~/.config/summarizer``."""
    if override := env.get("SUMMARIZER_CONFIG_DIR"):
        return override
    base = env.get("XDG_CONFIG_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".config")
    return os.path.join(base, "summarizer")


def _project_file(start: str) -> str | None:
    here = os.path.abspath(start)
    while True:
        candidate = os.path.join(here, PROJECT_FILE)
        if os.path.lexists(candidate):
            return candidate
        parent = os.path.dirname(here)
        if parent == here or os.path.exists(os.path.join(here, ".git")):
            return None
        here = parent


def rule_files(env: Mapping[str, str], project_dir: str | None) -> list[str]:
    """The rule files that exist: the project's (searched from ``project_dir``), then the user's."""
    found = []
    if project_dir and (project := _project_file(project_dir)) is not None:
        found.append(project)
    user = os.path.join(config_dir(env), USER_FILE)
    if os.path.lexists(user):
        found.append(user)
    return found


def read_table(path: str) -> dict[str, Any]:
    """The parsed TOML document; OSError, UnicodeDecodeError or ``tomllib.TOMLDecodeError``."""
    import tomllib

    with open(path, "rb") as handle:
        return tomllib.load(handle)


def _prefixes(table: Mapping[str, Any]) -> list[str]:
    entries = table.get("never_wrap", [])
    if not isinstance(entries, list):
        raise ValueError("never_wrap must be an array of tables ([[never_wrap]])")
    out = []
    for entry in entries:
        command = entry.get("command") if isinstance(entry, dict) else None
        if not isinstance(command, str) or not command.split():
            raise ValueError('each [[never_wrap]] needs a command = "..." prefix')
        out.append(" ".join(command.split()))
    return out


def _cache_file(env: Mapping[str, str], files: list[str]) -> str:
    """One cache file per set of rule files (a project and the user's), named by their paths."""
    import zlib

    base = env.get("SUMMARIZER_CACHE_DIR") or os.path.join(
        env.get("XDG_CACHE_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".cache"),
        "summarizer",
    )
    key = zlib.crc32("\0".join(files).encode("utf-8", "surrogateescape"))
    return os.path.join(base, "rules", f"never-wrap-{key:08x}.txt")


def _stamp(files: list[str]) -> str | None:
    lines = [_CACHE_HEADER]
    for path in files:
        try:
            info = os.stat(path)
        except OSError:
            return None
        lines.append(f"{path}\t{info.st_mtime_ns}\t{info.st_size}")
    return "\n".join(lines)


def _cached(cache: str, stamp: str) -> list[str] | None:
    try:
        with open(cache, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError):
        return None
    head, sep, body = text.partition("\n--\n")
    if not sep or head != stamp:
        return None
    return [line for line in body.split("\n") if line]


def _store(cache: str, stamp: str, prefixes: list[str]) -> None:
    try:
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        partial = f"{cache}.{os.getpid()}"
        with open(partial, "w", encoding="utf-8") as handle:
            handle.write(stamp + "\n--\n" + "".join(p + "\n" for p in prefixes))
        os.replace(partial, cache)
    except OSError:
        pass  # a cache that cannot be written only costs the next hook a parse


def never_wrap_prefixes(env: Mapping[str, str], project_dir: str | None) -> list[str]:
    """Command prefixes never to wrap (``npm run dev``), from both rule files; never raises."""
    files = rule_files(env, project_dir)
    if not files:
        return []
    stamp = _stamp(files)
    cache = _cache_file(env, files)
    if stamp is not None and (hit := _cached(cache, stamp)) is not None:
        return hit
    prefixes: list[str] = []
    clean = True
    for path in files:
        try:
            prefixes.extend(_prefixes(read_table(path)))
        except Exception as exc:  # a hook must not fail: the file is skipped, and we say why
            clean = False
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            sys.stderr.write(f"summarizer: {path}: {reason}; its never_wrap rules are ignored\n")
    if clean and stamp is not None:
        _store(cache, stamp, prefixes)
    return prefixes
