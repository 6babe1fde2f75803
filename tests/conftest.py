"""Test isolation: every test gets its own home, cache and engram directory, and no provider keys."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no cost-map download
# The one place litellm is told to send its async calls through httpx, where respx answers them
# (through aiohttp they would be invisible to respx); read at each call, subprocesses inherit it.
os.environ["DISABLE_AIOHTTP_TRANSPORT"] = "True"

_PROVIDER_KEYS = (
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "SUMMARIZER_MODEL",
    "SUMMARIZER_API_BASE",
    "SUMMARIZER_CACHE_URL",
    "SUMMARIZER_ENGRAM_URL",
    "SUMMARIZER_PROMPTS",
    "SUMMARIZER_RAW",
)


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point every per-user directory at tmp_path and clear provider configuration."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("SUMMARIZER_CACHE_DIR", str(home / "cache"))
    monkeypatch.setenv("ENGRAM_DATA_DIR", str(home / "engram"))
    monkeypatch.setenv("SUMMARIZER_BANK", str(home / "bank"))
    for key in _PROVIDER_KEYS:
        monkeypatch.delenv(key, raising=False)
    yield home


# The console script of this checkout's environment (what `summarizer init` would install).
SUMMARIZER = Path(sys.executable).with_name("summarizer")


@pytest.fixture
def summarizer() -> str:
    """Path of the ``summarizer`` console script; skip where the package is not installed."""
    if not SUMMARIZER.exists():
        found = shutil.which("summarizer")
        if found is None:
            pytest.skip("the summarizer console script is not installed (pip install -e .)")
        return found
    return str(SUMMARIZER)


def chat_completion(
    model: str, text: str, *, prompt_tokens: int = 100, completion_tokens: int = 20
) -> dict[str, object]:
    """An OpenAI chat-completion body answering ``text``: what the provider tests' fake servers send back."""
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": model,
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }
