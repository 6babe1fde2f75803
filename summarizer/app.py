"""The composition root: the only place that builds adapters (litellm, diskcache, Redis).

CLI commands, the MCP server and evals call :func:`build` with a :class:`Settings`; tests build
:class:`~summarizer.semantic.Summarizer` directly with fakes from :mod:`summarizer.testing`. Heavy
imports (litellm through ``summarizer.llm``, redis) happen inside these functions, lazily.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from summarizer.settings import Settings

if TYPE_CHECKING:
    from summarizer_cache import DiskCache, RedisCache

    from summarizer.models import SubtaskSummary
    from summarizer.phase import BatchResult, Compressed
    from summarizer.ports import Completer
    from summarizer.retry import RetryPolicy
    from summarizer.semantic import EntryJob, Generation, Summarizer

__all__ = ["build", "build_cache", "semantic_batch", "semantic_compress"]


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
    from summarizer.prompts import PromptLibrary
    from summarizer.semantic import Summarizer

    if completer is None and settings.model and not settings.offline:
        from summarizer.llm import LiteLLMCompleter

        completer = LiteLLMCompleter(retry=retry)
    cache = None
    if settings.use_cache and not settings.offline:
        from summarizer_cache import FailSafeCache  # a cache fault means no cache, never no summary

        cache = FailSafeCache(lambda: build_cache(settings))
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


# ---- phase-gate wiring: CRITICAL/HIGH lines through the semantic service -------------------------


def semantic_compress(entry: SubtaskSummary, compressed: Compressed, settings: Settings) -> Compressed:
    """Replace a compressed CRITICAL/HIGH entry's template lines with the semantic summary.

    Anything else (MEDIUM/LOW, a protected entry) is returned unchanged. The template lines are the
    fallback, so the result is always complete; ``source``/``reason`` say which answered and why.
    """
    from summarizer.masks import masked_entry
    from summarizer.phase import scrub_entry
    from summarizer.semantic import EntryJob

    band = compressed.score.priority
    if not compressed.compressed or (band != "CRITICAL" and band != "HIGH"):
        return compressed
    clean, _ = scrub_entry(entry)
    job = EntryJob(entry=clean, band=band, fallback="\n".join(compressed.lines))
    [generation] = build(settings).summarize_entries_sync([job])
    _, fields = masked_entry(clean, band, generation.lines)
    return dataclasses.replace(
        compressed, lines=generation.lines, fields=fields, source=generation.source, reason=generation.reason
    )


def semantic_batch(
    result: BatchResult, settings: Settings, *, progress: bool | None = None
) -> dict[str, Any]:
    """``result.as_dict()`` with every expanded CRITICAL/HIGH entry summarised by the service.

    Entries run concurrently (``settings.concurrency``); a progress bar goes to stderr only when
    stderr is a terminal (``progress=None``) and the batch has more than 3 such entries.
    """
    from summarizer.semantic import EntryJob

    data = result.as_dict()
    by_id = {s.id: s for s in result.entries}
    rows = [
        row
        for phase in data["phases"]
        for row in phase["entries"]
        if row["mode"] == "expanded" and row["priority"] in ("CRITICAL", "HIGH")
    ]
    jobs: list[EntryJob] = [
        EntryJob(entry=by_id[row["id"]].entry, band=row["priority"], fallback="\n".join(row["lines"]))
        for row in rows
    ]
    for row, generation in zip(rows, _run_with_progress(build(settings), jobs, progress), strict=True):
        row["lines"], row["source"] = list(generation.lines), generation.source
        if generation.reason:
            row["reason"] = generation.reason
    return data


def _run_with_progress(
    service: Summarizer, jobs: Sequence[EntryJob], progress: bool | None
) -> list[Generation]:
    show = (sys.stderr.isatty() if progress is None else progress) and len(jobs) > 3
    if not show:
        return service.summarize_entries_sync(jobs)
    import click

    with click.progressbar(length=len(jobs), label="summarising", file=sys.stderr) as bar:
        tick: Callable[[Generation], None] = lambda _generation: bar.update(1)  # noqa: E731
        return service.summarize_entries_sync(jobs, on_done=tick)
