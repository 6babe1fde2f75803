"""The composition root: the only place that builds adapters (litellm, diskcache, Redis).

CLI commands, the MCP server and evals call :func:`build` with a :class:`Settings`; tests build
:class:`~summarizer.semantic.Summarizer` directly with fakes from :mod:`summarizer.testing`. Heavy
imports (litellm through ``summarizer.llm``, redis) happen inside these functions, lazily.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from summarizer.prompts import PromptLibrary
from summarizer.settings import Settings

if TYPE_CHECKING:
    from summarizer_cache import DiskCache, RedisCache

    from summarizer.ports import Completer
    from summarizer.retry import RetryPolicy
    from summarizer.semantic import Summarizer

__all__ = ["build", "build_cache"]


def build_cache(settings: Settings) -> DiskCache | RedisCache:
    """The summary cache the settings select: Redis for ``redis://`` URLs, else diskcache."""
    if settings.cache_url:
        from summarizer_cache import RedisCache

        return RedisCache(settings.cache_url)
    from summarizer_cache import DiskCache

    return DiskCache(settings.cache_dir / "summaries")


def build(
    settings: Settings, *, completer: Completer | None = None, retry: RetryPolicy | None = None
) -> Summarizer:
    """The semantic-summary service wired as ``settings`` say.

    No model, or ``offline``: no completer is built (litellm is not even imported) and every
    summary comes from the template. ``use_cache=False`` (``--no-cache``) disables the cache.
    ``completer`` overrides the litellm adapter (evals and tests pass a fake).
    """
    from summarizer.semantic import Summarizer

    if completer is None and settings.model and not settings.offline:
        from summarizer.llm import LiteLLMCompleter

        completer = LiteLLMCompleter(retry=retry)
    cache = build_cache(settings) if settings.use_cache and not settings.offline else None
    return Summarizer(
        PromptLibrary(settings.prompt_dir),
        completer=completer,
        cache=cache,
        model=settings.model,
        api_base=settings.api_base,
        offline=settings.offline,
        concurrency=settings.concurrency,
        timeout_s=settings.timeout_s,
    )
