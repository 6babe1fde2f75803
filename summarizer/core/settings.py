"""Configuration: one typed object, read once at the edge.

Precedence is flag > ``SUMMARIZER_*`` environment variable > default. ``Settings.load`` takes the
environment as a mapping so tests pass a plain dict. Data lives in per-user directories that one
variable each overrides; nothing is written into the repository or site-packages.

| setting           | env                        | default                                  |
|-------------------|----------------------------|------------------------------------------|
| cache_dir         | SUMMARIZER_CACHE_DIR       | $XDG_CACHE_HOME/summarizer or ~/.cache/summarizer |
| cache_url         | SUMMARIZER_CACHE_URL       | none (diskcache in cache_dir); redis://... for Redis |
| prompt_dir        | SUMMARIZER_PROMPTS         | the packaged prompts                     |
| model             | SUMMARIZER_MODEL           | none: the deterministic template answers |
| api_base          | SUMMARIZER_API_BASE        | none (the provider's default)            |
| offline           | SUMMARIZER_OFFLINE=1       | false                                    |
| engram_url        | SUMMARIZER_ENGRAM_URL      | none: the embedded SQLite store          |
| engram_data_dir   | ENGRAM_DATA_DIR            | ~/.engram                                |
| bank_dir          | SUMMARIZER_BANK            | .pantheon/memory-bank                    |
| engram_lock_wait_s| SUMMARIZER_ENGRAM_LOCK_WAIT| 30 (seconds to wait on a locked engram.db)|
| max_tokens        | SUMMARIZER_MAX_TOKENS      | none: each prompt's own answer size      |
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Settings", "default_prompt_dir"]

_TRUE = {"1", "true", "yes", "on"}


def default_prompt_dir(env: Mapping[str, str]) -> Path:
    """Where templates live: $SUMMARIZER_PROMPTS, else the installed wheel, else the source checkout."""
    if override := env.get("SUMMARIZER_PROMPTS"):
        return Path(override)
    packaged = Path(__file__).parents[1] / "prompts"  # wheel install (force-included)
    return packaged if packaged.is_dir() else Path(__file__).resolve().parents[2] / "prompts"


def _default_cache_dir(env: Mapping[str, str]) -> Path:
    if override := env.get("SUMMARIZER_CACHE_DIR"):
        return Path(override)
    base = env.get("XDG_CACHE_HOME") or str(Path(env.get("HOME") or Path.home()) / ".cache")
    return Path(base) / "summarizer"


def _positive_int(value: str, name: str) -> int:
    from summarizer.core.errors import InputError

    if not value.isdigit() or not 0 < int(value) <= 200_000:
        raise InputError(f"{name} must be a whole number of tokens between 1 and 200000, not {value[:20]!r}")
    return int(value)


class Settings(BaseModel):
    """Everything the composition root needs to build the service."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    cache_dir: Path
    cache_url: str | None = None
    prompt_dir: Path
    model: str | None = None
    api_base: str | None = None
    offline: bool = False
    use_cache: bool = True
    concurrency: int = Field(default=8, ge=1, le=256)
    timeout_s: float = Field(default=60.0, gt=0)
    engram_url: str | None = None
    engram_data_dir: Path
    engram_lock_wait_s: float = Field(default=30.0, gt=0)
    bank_dir: Path = Path(".pantheon/memory-bank")
    # The model's answer limit. None: sized from the prompt's own limit (the session document's
    # 2,000 tokens with headroom); a set value applies to every prompt (--max-tokens wins).
    max_tokens: int | None = Field(default=None, gt=0, le=200_000)

    @property
    def store_dir(self) -> Path:
        """Content-addressed originals of compressed tool output (restorable by id)."""
        return self.cache_dir / "originals"

    @property
    def engram_db(self) -> Path:
        """The engram SQLite file."""
        return self.engram_data_dir / "engram.db"

    @classmethod
    def load(cls, env: Mapping[str, str], **flags: Any) -> Settings:
        """Build settings from ``env``; flags whose value is ``None`` do not override."""
        home = Path(env.get("HOME") or Path.home())
        values: dict[str, Any] = {
            "cache_dir": _default_cache_dir(env),
            "cache_url": env.get("SUMMARIZER_CACHE_URL") or None,
            "prompt_dir": default_prompt_dir(env),
            "model": env.get("SUMMARIZER_MODEL") or None,
            "api_base": env.get("SUMMARIZER_API_BASE") or None,
            "offline": env.get("SUMMARIZER_OFFLINE", "").lower() in _TRUE,
            "engram_url": env.get("SUMMARIZER_ENGRAM_URL") or None,
            "engram_data_dir": Path(env.get("ENGRAM_DATA_DIR") or home / ".engram"),
        }
        if wait := env.get("SUMMARIZER_ENGRAM_LOCK_WAIT"):
            values["engram_lock_wait_s"] = wait
        if bank := env.get("SUMMARIZER_BANK"):
            values["bank_dir"] = Path(bank)
        if limit := env.get("SUMMARIZER_MAX_TOKENS", "").strip():
            values["max_tokens"] = _positive_int(limit, "SUMMARIZER_MAX_TOKENS")
        values.update({k: v for k, v in flags.items() if v is not None})
        return cls.model_validate(values)
