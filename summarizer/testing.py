"""Test doubles shipped with the library, for our tests, for evals and for users' own tests.

``FakeCompleter`` stands in for a language model: queue replies (text, a full
:class:`~summarizer.semantic.ports.Completion`, or an exception to raise) and read back ``calls``.
``DictCache`` is an in-memory :class:`~summarizer.semantic.ports.SummaryCache` that counts hits and misses.

    >>> import asyncio
    >>> fake = FakeCompleter(["line one\\nline two"])
    >>> req = CompletionRequest(model="fake/model", system="s", user="u")
    >>> asyncio.run(fake.complete(req)).text
    'line one\\nline two'
    >>> len(fake.calls)
    1
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from summarizer.core.errors import ProviderUnavailable
from summarizer.semantic.ports import CachedAnswer, CacheKey, Completion, CompletionRequest, Usage

__all__ = ["DictCache", "FakeCompleter", "Reply", "openai_chat_body"]

Reply = str | Completion | BaseException | Callable[[CompletionRequest], str]
"""A queued reply: a text, a full completion, an exception to raise, or a function of the request."""


@dataclass
class FakeCompleter:
    """A scripted model. Replies are consumed in order; ``default`` answers once the queue is empty.

    Args:
        replies: queued replies (see :data:`Reply`).
        default: the reply once the queue is exhausted; ``None`` raises ``ProviderUnavailable``,
            which the service turns into the template fallback.
        delay_s: simulated latency per call (``asyncio.sleep``), for concurrency tests.
    """

    replies: list[Reply] = field(default_factory=list)
    default: Reply | None = None
    delay_s: float = 0.0
    calls: list[CompletionRequest] = field(default_factory=list)

    def enqueue(self, *replies: Reply) -> FakeCompleter:
        """Append replies to the queue; returns ``self`` for chaining."""
        self.replies.extend(replies)
        return self

    async def complete(self, request: CompletionRequest, /) -> Completion:
        """Record ``request`` and return (or raise) the next queued reply."""
        self.calls.append(request)
        if self.delay_s:
            await asyncio.sleep(self.delay_s)
        reply = self.replies.pop(0) if self.replies else self.default
        if reply is None:
            raise ProviderUnavailable("FakeCompleter has no reply queued; enqueue one")
        if isinstance(reply, BaseException):
            raise reply
        if isinstance(reply, Completion):
            return reply
        text = reply(request) if callable(reply) else reply
        return Completion(
            text=text,
            model=request.model,
            finish_reason="stop",
            usage=Usage(prompt_tokens=len(request.user) // 4, completion_tokens=len(text) // 4),
        )


@dataclass
class DictCache:
    """An in-memory :class:`~summarizer.semantic.ports.SummaryCache` with hit/miss counters."""

    data: dict[str, CachedAnswer] = field(default_factory=dict)
    hits: int = 0
    misses: int = 0

    def get(self, key: CacheKey, /) -> CachedAnswer | None:
        """The stored answer or ``None``."""
        answer = self.data.get(str(key))
        if answer is None:
            self.misses += 1
        else:
            self.hits += 1
        return answer

    def put(self, key: CacheKey, answer: CachedAnswer, /) -> None:
        """Store ``answer`` under ``key``."""
        self.data[str(key)] = answer

    def keys(self) -> Iterable[str]:
        """The stored keys."""
        return self.data.keys()


def openai_chat_body(
    text: str, *, finish: str = "stop", prompt_tokens: int = 120, completion_tokens: int = 30
) -> dict[str, object]:
    """The JSON body of an OpenAI ``/v1/chat/completions`` answer, for mocking the provider's HTTP
    (``respx`` in our tests): the real litellm adapter then reads it as it reads a real reply."""
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4o-mini",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }
