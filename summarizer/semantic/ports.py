"""The seams of the semantic-summary service: two tiny Protocols and the values that cross them.

``Completer`` is the one door to a language model (the litellm adapter in ``summarizer.semantic.llm`` in
production, :class:`summarizer.testing.FakeCompleter` in tests and evals). ``SummaryCache`` is the
one door to the answer cache (``summarizer_cache.DiskCache`` or ``RedisCache``). The core depends
only on these Protocols; :mod:`summarizer.app` is the only place that builds the real adapters.

Concurrency model: the core is async (see :mod:`summarizer.semantic.service`), so ``Completer.complete`` is
a coroutine. The cache port is synchronous on purpose: a diskcache or Redis lookup takes well under
a millisecond to a few milliseconds, which is cheaper than a thread hop, and keeping it sync lets the
``summarizer cache`` admin commands use the same objects without an event loop.

The cache key recipe is a contract: ``KEY_VERSION`` is bumped whenever it changes.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "KEY_VERSION",
    "CacheKey",
    "CachedAnswer",
    "Completer",
    "Completion",
    "CompletionRequest",
    "Namespace",
    "SummaryCache",
    "Usage",
]

KEY_VERSION = "s1"


class Usage(BaseModel):
    """Token counts reported by the provider for one call."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    prompt_tokens: int = Field(default=0, ge=0)
    completion_tokens: int = Field(default=0, ge=0)

    @property
    def total_tokens(self) -> int:
        """Prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens


class CompletionRequest(BaseModel):
    """One chat completion: a system prompt, a user prompt and the generation parameters."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str = Field(min_length=1)
    system: str
    user: str
    max_tokens: int = Field(default=400, gt=0)
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    api_base: str | None = None
    timeout_s: float = Field(default=60.0, gt=0)


class Completion(BaseModel):
    """What the model answered, with the bookkeeping of the call."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    model: str
    finish_reason: str | None = None
    usage: Usage = Usage()
    cost_usd: float | None = None

    @property
    def cut_off(self) -> bool:
        """True when the provider stopped because it ran out of tokens (never cache this)."""
        return self.finish_reason == "length"


class Completer(Protocol):
    """A language model behind one async method. Raises :class:`summarizer.core.errors.ProviderError`."""

    async def complete(self, request: CompletionRequest, /) -> Completion:
        """Answer ``request``; transient failures are retried inside, then raised typed."""
        ...


class Namespace(BaseModel):
    """Everything that makes two answers incomparable: prompt text, version, model, parameters.

    ``id`` is the hash of all of it; ``prompt_digest`` alone lets ``cache prune --stale`` find the
    namespaces that no current prompt uses, whatever model they were made with.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^[0-9a-f]{16,64}$")
    prompt: str
    version: str
    prompt_digest: str
    model: str


class CacheKey(BaseModel):
    """Namespace plus the hash of the scrubbed canonical input; ``str(key)`` is the storage key."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    namespace: Namespace
    input_hash: str = Field(pattern=r"^[0-9a-f]{16,64}$")

    def __str__(self) -> str:
        return f"{KEY_VERSION}:{self.namespace.id}:{self.input_hash}"


class CachedAnswer(BaseModel):
    """A validated model answer as stored in the cache (JSON text, never a pickle)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    model: str
    usage: Usage = Usage()
    cost_usd: float | None = None


@runtime_checkable
class SummaryCache(Protocol):
    """Validated answers by key. A miss, an unreadable or a refused entry all return ``None``."""

    def get(self, key: CacheKey, /) -> CachedAnswer | None:
        """The stored answer, or ``None`` (which also counts a miss for ``cache stats``)."""
        ...

    def put(self, key: CacheKey, answer: CachedAnswer, /) -> None:
        """Store a validated answer. Never called with failures or template fallbacks."""
        ...
