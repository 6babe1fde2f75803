"""Where summarizer keeps its files, computed with the standard library only (cold command path).

These mirror :class:`summarizer.core.settings.Settings` (``cache_dir``, ``store_dir``) without importing
pydantic; ``tests/agents/test_cold_path.py`` checks that both give the same answers (docs/cold-path.md).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["cache_dir", "config_dir", "store_dir"]


def cache_dir(env: Mapping[str, str]) -> str:
    """``$SUMMARIZER_CACHE_DIR``, else ``$XDG_CACHE_HOME/summarizer``, else ``~/.cache/summarizer``."""
    if override := env.get("SUMMARIZER_CACHE_DIR"):
        return override
    base = env.get("XDG_CACHE_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".cache")
    return os.path.join(base, "summarizer")


def store_dir(env: Mapping[str, str]) -> str:
    """The originals store: ``<cache_dir>/originals``."""
    return os.path.join(cache_dir(env), "originals")


def config_dir(env: Mapping[str, str]) -> str:
    """User-editable configuration (the hook's exclude list): ``$SUMMARIZER_CONFIG_DIR``, else
    ``$XDG_CONFIG_HOME/summarizer``, else ``~/.config/summarizer``."""
    if override := env.get("SUMMARIZER_CONFIG_DIR"):
        return override
    base = env.get("XDG_CONFIG_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".config")
    return os.path.join(base, "summarizer")
