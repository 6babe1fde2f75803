"""The composition root: what build() wires for each setting, and that litellm stays lazy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from summarizer_cache import FailSafeCache

from summarizer.app import build
from summarizer.core.settings import Settings
from summarizer.semantic.llm import LiteLLMCompleter
from summarizer.testing import FakeCompleter


def _settings(tmp_path: Path, **flags: object) -> Settings:
    return Settings.load({"HOME": str(tmp_path), "SUMMARIZER_CACHE_DIR": str(tmp_path / "c")}, **flags)


def test_without_a_model_nothing_is_called(tmp_path: Path) -> None:
    """No model: no completer, but the cache is ready for when one is configured."""
    svc = build(_settings(tmp_path))
    assert svc.completer is None and isinstance(svc.cache, FailSafeCache)


def test_with_a_model_the_litellm_adapter_is_wired(tmp_path: Path) -> None:
    """A model string wires the adapter, the api_base and the concurrency."""
    svc = build(_settings(tmp_path, model="openai/gpt-4o-mini", api_base="http://x/v1", concurrency=3))
    assert isinstance(svc.completer, LiteLLMCompleter)
    assert (svc.model, svc.api_base, svc.concurrency) == ("openai/gpt-4o-mini", "http://x/v1", 3)


def test_offline_and_no_cache(tmp_path: Path) -> None:
    """--offline builds no completer and no cache; --no-cache keeps the model but drops the cache."""
    offline = build(_settings(tmp_path, model="openai/gpt-4o-mini", offline=True))
    assert offline.completer is None and offline.cache is None and offline.offline
    no_cache = build(_settings(tmp_path, model="openai/gpt-4o-mini", use_cache=False))
    assert no_cache.completer is not None and no_cache.cache is None


def test_an_injected_completer_wins(tmp_path: Path) -> None:
    """Evals and tests pass their own completer through build()."""
    fake = FakeCompleter()
    assert build(_settings(tmp_path, model="m/x"), completer=fake).completer is fake


def test_building_and_answering_from_the_template_never_imports_litellm(tmp_path: Path) -> None:
    """The service, the adapter module and a template answer leave litellm unimported (3 s saved)."""
    code = f"""
import asyncio
import sys
from summarizer.app import build
from summarizer.phasegate.summaries import EntryJob, summarize_entries
from summarizer.core.settings import Settings
import summarizer.semantic.llm, summarizer.semantic.service, summarizer_cache
from summarizer.phasegate.models import SubtaskSummary

svc = build(Settings.load({{"HOME": {str(tmp_path)!r}, "SUMMARIZER_CACHE_DIR": {str(tmp_path / "c")!r}}},
                          model="openai/gpt-4o-mini", offline=True))
entry = SubtaskSummary(summary="Added POST /api/x.", from_agent="hermes")
assert asyncio.run(summarize_entries(svc, [EntryJob(entry, "CRITICAL", "a\\nb\\nc")]))[0].source == "template"
assert "litellm" not in sys.modules, "litellm was imported"
assert "redis" not in sys.modules, "redis was imported"
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
