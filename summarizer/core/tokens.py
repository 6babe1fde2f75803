"""Real token counts, offline.

litellm's wheel ships tiktoken's encoding files; pointing ``TIKTOKEN_CACHE_DIR`` there lets
``tiktoken.get_encoding("o200k_base")`` load with no network and without importing litellm
(which costs ~3 s). If neither the files nor the network are available we fall back to a
byte-based estimate and say so through :func:`is_exact`.
"""

from __future__ import annotations

import importlib.util
import os
from functools import lru_cache
from pathlib import Path
from typing import Protocol

__all__ = ["count_tokens", "is_exact"]

ENCODING = "o200k_base"


class _Encoding(Protocol):
    def encode_ordinary(self, text: str) -> list[int]: ...


def _litellm_tokenizer_dir() -> Path | None:
    spec = importlib.util.find_spec("litellm")
    if spec is None or not spec.submodule_search_locations:
        return None
    candidate = Path(next(iter(spec.submodule_search_locations))) / "litellm_core_utils" / "tokenizers"
    return candidate if candidate.is_dir() else None


@lru_cache(maxsize=1)
def _encoding() -> _Encoding | None:
    if "TIKTOKEN_CACHE_DIR" not in os.environ and (bundled := _litellm_tokenizer_dir()):
        os.environ["TIKTOKEN_CACHE_DIR"] = str(bundled)
    try:
        import tiktoken

        return tiktoken.get_encoding(ENCODING)
    except Exception:  # no bundled file and no network: estimate instead of failing
        return None


def is_exact() -> bool:
    """True when counts come from the real o200k_base tokenizer."""
    return _encoding() is not None


def count_tokens(text: str) -> int:
    """Count ``text``'s tokens with o200k_base (an estimate of bytes/4 if it is unavailable)."""
    enc = _encoding()
    if enc is None:
        return (len(text.encode("utf-8", "replace")) + 3) // 4
    return len(enc.encode_ordinary(text))
