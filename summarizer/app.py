"""The composition root: the only module that builds adapters from :class:`Settings`.

Adapters are the classes that touch the world: the litellm completer, the summary caches (diskcache,
Redis), the originals store of tool output, the engram store or client, the session marks, the eval
results cache. Features never build them and never call this module; they receive ports. The edges
(``summarizer.cli``, ``summarizer.mcp``, ``summarizer.agents``) call these builders, then hand what
they got to the feature's use-case functions. ``tests/test_layout.py`` resolves what every call
constructs and fails on an adapter built anywhere else.

Every import happens inside the builders (litellm through :mod:`summarizer.semantic.llm`, redis,
sqlite3, even the pydantic :class:`Settings`), so an edge pays only for what its command uses: the
cold ``output`` path builds its originals store here without loading pydantic.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager

# Not `from typing import TYPE_CHECKING`: `summarizer output` imports this module on its cold path,
# and typing (like pathlib) is about half of `python -c pass` again (docs/cold-path.md).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from summarizer_cache import DiskCache, FailSafeCache, RedisCache
    from summarizer_engram import MemoryBackend

    from summarizer.core.settings import Settings
    from summarizer.evaluation.cellstore import CellStore
    from summarizer.output.originals import OriginalStore
    from summarizer.semantic.ports import Completer
    from summarizer.semantic.retry import RetryPolicy
    from summarizer.semantic.service import Summarizer
    from summarizer.session.service import FileMarks, TopicLock, Unavailable
    from summarizer.session.usecase import SessionAdapters

__all__ = [
    "SharedMemory",
    "build",
    "build_cache",
    "build_completer",
    "build_originals",
    "build_results_cache",
    "build_summary_cache",
    "eval_adapters",
    "llm_service",
    "load_settings",
    "memory",
    "originals_at",
    "scratch_originals",
    "session_adapters",
    "session_llm",
    "session_lock",
    "session_marks",
    "shared_memory",
]


def load_settings(**flags: object) -> Settings:
    """Settings from the process environment; flags whose value is ``None`` do not override."""
    from summarizer.core.settings import Settings

    return Settings.load(os.environ, **flags)


def build_cache(settings: Settings) -> DiskCache | RedisCache:
    """The summary cache the settings select: Redis for ``redis://`` URLs, else diskcache."""
    if settings.cache_url:
        from summarizer_cache import RedisCache

        return RedisCache(settings.cache_url)
    from summarizer_cache import DiskCache

    return DiskCache(settings.cache_dir / "summaries")


def build_summary_cache(settings: Settings) -> FailSafeCache:
    """The cache as the summarizing paths use it: opened on first use, a fault means no cache."""
    from summarizer_cache import FailSafeCache

    return FailSafeCache(lambda: build_cache(settings))


def build_completer(
    retry: RetryPolicy | None = None, observer: Callable[[float, bool], None] | None = None
) -> Completer:
    """The litellm adapter (importing it imports litellm, lazily, on the first call).

    ``observer`` hears every HTTP attempt, retries included (the evals count requests with it).
    """
    from summarizer.semantic.llm import LiteLLMCompleter

    return LiteLLMCompleter(retry=retry, observer=observer)


def build(
    settings: Settings, *, completer: Completer | None = None, retry: RetryPolicy | None = None
) -> Summarizer:
    """The semantic-summary service wired as ``settings`` say.

    No model, or ``offline``: no completer is built (litellm is not even imported) and every
    summary comes from the template. ``use_cache=False`` (``--no-cache``) disables the cache.
    ``completer`` overrides the litellm adapter (evals and tests pass a fake).
    """
    from summarizer.semantic.prompts import PromptLibrary
    from summarizer.semantic.service import GenerationParams, Summarizer

    if completer is None and settings.model and not settings.offline:
        completer = build_completer(retry)
    # SUMMARIZER_MAX_TOKENS raises every prompt's answer limit; unset, each use keeps its own size.
    params = GenerationParams(max_tokens=settings.max_tokens) if settings.max_tokens else None
    cache = build_summary_cache(settings) if settings.use_cache and not settings.offline else None
    return Summarizer(
        PromptLibrary(settings.prompt_dir),
        completer=completer,
        cache=cache,
        model=settings.model,
        api_base=settings.api_base,
        offline=settings.offline,
        concurrency=settings.concurrency,
        timeout_s=settings.timeout_s,
        params=params,
    )


def llm_service(settings: Settings) -> Summarizer | None:
    """The service when a model is configured and not offline; ``None`` means templates only.

    ``None`` spares the template path jinja2, diskcache and litellm, which the keyword rules and the
    band templates never need.
    """
    if not settings.model or settings.offline:
        return None
    return build(settings)


def session_llm(settings: Settings, budget_s: float | None) -> Summarizer | None:
    """The model service for ``summarizer session``, its timeout and retries fitted in ``budget_s``.

    With a budget (the hook's deadline less the save's reserve) two attempts share it: each call
    may take half, and the wait between them is short, so the retries end before the deadline.
    """
    if not settings.model or settings.offline:
        return None
    if budget_s is None:
        return build(settings)
    from summarizer.semantic.retry import RetryPolicy

    per_call = max(1.0, min(settings.timeout_s, budget_s / 2))
    fitted = settings.model_copy(update={"timeout_s": per_call})
    return build(fitted, retry=RetryPolicy(attempts=2, wait_initial_s=0.5, wait_max_s=1.0, jitter_s=0.2))


def build_originals(settings: Settings) -> OriginalStore:
    """The content-addressed store of tool output originals (``summarizer restore`` reads it)."""
    return originals_at(settings.store_dir, os.environ)


def originals_at(store_dir: str | Path, env: dict[str, str] | os._Environ[str]) -> OriginalStore:
    """The originals store in ``store_dir``, for the cold paths that have no :class:`Settings`
    (they compute the same directory with :func:`summarizer.agents.paths.store_dir`).

    Retention (``SUMMARIZER_ORIGINALS_MAX_BYTES`` / ``_MAX_AGE``) is read from ``env`` here.
    """
    from summarizer.output.originals import OriginalStore

    return OriginalStore.configured(store_dir, env)


@contextmanager
def scratch_originals() -> Iterator[OriginalStore]:
    """A throwaway originals store, removed afterwards (``discover`` compresses only to measure)."""
    import tempfile
    from pathlib import Path

    from summarizer.output import OriginalStore

    with tempfile.TemporaryDirectory(prefix="summarizer-discover-") as folder:
        yield OriginalStore(Path(folder))


def _open_backend(settings: Settings) -> MemoryBackend:
    """The engram store or client the settings select; :class:`StorageError` when it cannot open."""
    from summarizer_engram import open_backend

    return open_backend(settings.engram_db, settings.engram_url, lock_wait_s=settings.engram_lock_wait_s)


def _memory_or_why(open_backend: Callable[[], MemoryBackend]) -> MemoryBackend | Unavailable:
    from summarizer.core.errors import StorageError
    from summarizer.session.service import Unavailable

    try:
        return open_backend()
    except StorageError as exc:
        return Unavailable(str(exc))


@contextmanager
def memory(settings: Settings) -> Iterator[MemoryBackend]:
    """The configured engram backend, closed after; :class:`StorageError` ("engram unavailable:
    ...") when it cannot be opened."""
    from summarizer.core.errors import StorageError
    from summarizer.session.service import Unavailable

    backend = _memory_or_why(lambda: _open_backend(settings))
    if isinstance(backend, Unavailable):
        raise StorageError(f"engram unavailable: {backend.reason}")
    try:
        yield backend
    finally:
        backend.close()


class SharedMemory:
    """An engram backend opened on first use and shared by a long-lived edge (the MCP server).

    A failed open is not remembered: the next call tries again (the database may come back).
    """

    def __init__(self, opener: Callable[[], MemoryBackend]) -> None:
        import threading  # here: the cold paths import this module and never share a backend

        self._opener = opener
        self._backend: MemoryBackend | None = None
        self._lock = threading.Lock()

    def get(self) -> MemoryBackend:
        """The backend; :class:`~summarizer.core.errors.StorageError` when it cannot be opened."""
        with self._lock:
            if self._backend is None:
                self._backend = self._opener()
            return self._backend

    def close(self) -> None:
        """Close the backend if it was opened."""
        with self._lock:
            if self._backend is not None:
                self._backend.close()
                self._backend = None


def shared_memory(settings: Settings, opener: Callable[[], MemoryBackend] | None = None) -> SharedMemory:
    """The MCP server's engram: opened on first use, again after a failure (``opener``: tests)."""
    return SharedMemory(opener or (lambda: _open_backend(settings)))


@contextmanager
def session_adapters(
    settings: Settings, *, shared: SharedMemory | None = None, model_budget_s: float | None = None
) -> Iterator[SessionAdapters]:
    """What one session compression is handed, for the CLI and the MCP server alike: engram (or
    why it is unavailable), the marks, the model (its calls fitted in ``model_budget_s``) and the
    lock. ``shared``: a long-lived edge's engram; without it, engram is opened here and closed after.
    """
    from summarizer.session.service import Unavailable
    from summarizer.session.usecase import SessionAdapters

    backend = _memory_or_why(shared.get if shared else lambda: _open_backend(settings))
    try:
        yield SessionAdapters(
            memory=backend,
            marks=session_marks(settings),
            summarizer=session_llm(settings, model_budget_s),
            lock=session_lock(settings),
        )
    finally:
        if shared is None and not isinstance(backend, Unavailable):
            backend.close()


def session_marks(settings: Settings) -> FileMarks:
    """Where each session's last compression point is remembered (for the trigger rules)."""
    from summarizer.session.service import FileMarks

    return FileMarks(settings.cache_dir / "sessions")


def session_lock(settings: Settings) -> TopicLock:
    """The lock that makes a session save's read-merge-write atomic per engram store.

    Beside the database for the embedded store (every writer of that file shares it, whatever its
    cache directory); under the cache directory for an ``engram serve`` URL.
    """
    from summarizer.session.service import TopicLock

    if settings.engram_url:
        return TopicLock(settings.cache_dir / "locks" / "engram-http.lock")
    return TopicLock(settings.engram_data_dir / "summarizer-session.lock")


def build_results_cache(settings: Settings) -> CellStore:
    """The eval cell cache on the configured backend: Redis for ``redis://`` URLs, else SQLite.

    On Redis, every runner that points at it shares cells (two CI runners compute each cell once).
    """
    if settings.cache_url:
        from summarizer.evaluation.cellstore import RedisResultsCache

        return RedisResultsCache(settings.cache_url)
    from summarizer.evaluation.cellstore import ResultsCache

    return ResultsCache(settings.cache_dir / "eval" / "results.sqlite3")


@contextmanager
def eval_adapters(settings: Settings, *, live: bool, reuse: bool) -> Iterator[dict[str, Any]]:
    """What an eval run is handed: the model and answer cache (only when a model answers), the
    cell store (unless ``reuse`` is off) and the originals store; both stores are closed after."""
    from summarizer.evaluation.accounting import observe

    results = build_results_cache(settings) if reuse else None
    answers = build_summary_cache(settings) if live and settings.use_cache else None
    try:
        yield {
            "completer": build_completer(observer=observe) if live else None,
            "answer_cache": answers,
            "results_cache": results,
            "originals": build_originals(settings),
        }
    finally:
        if answers is not None:
            answers.close()
        if results is not None:
            results.close()
