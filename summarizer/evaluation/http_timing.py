"""The provider's time, measured where the request leaves: in the HTTP layer, not around litellm.

Timing ``litellm.acompletion`` counted litellm's own client work (its first-call set-up, building
the request, parsing the answer) and every moment the event loop spent on other cells in between:
with a provider answering in 0 ms, p50 read 31 ms at concurrency 1 and 165 ms at 8. Here the clock
starts when ``httpx.AsyncClient.send`` is handed the built request and stops when the response's
last byte has been read. Every provider path of litellm goes through it (the OpenAI SDK's client,
litellm's own handler for the others; its aiohttp transport is an httpx transport underneath).

:func:`timed_http` installs the wrapper for the duration of an eval run and removes it after; each
request's seconds go to the cell running it (:func:`summarizer.evaluation.accounting.observe_http`,
through the cell's context variable). What the cell spent on anything else is the eval's own
client time (``client_ms``), reported apart.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx

from summarizer.evaluation.accounting import observe_http

__all__ = ["clock", "timed_http"]

clock: Callable[[], float] = time.perf_counter
"""The clock requests are timed with (tests replace it with a fake one)."""


@contextmanager
def timed_http(on_send: Callable[[], None] | None = None) -> Iterator[None]:
    """Time every ``httpx.AsyncClient.send`` made inside the block (request sent to last byte).

    ``on_send`` hears each request as it is handed to the HTTP layer, built and about to leave.
    """
    original = httpx.AsyncClient.send
    now = clock

    async def send(self: httpx.AsyncClient, request: httpx.Request, **kwargs: Any) -> httpx.Response:
        if on_send is not None:
            on_send()
        started = now()
        try:
            response = await original(self, request, **kwargs)
        except BaseException:
            observe_http(now() - started)
            raise
        if kwargs.get("stream"):
            # A streamed body is read later by the caller: stop the clock at its last byte.
            body = response.stream
            response.stream = _TimedStream(body, started, now)
        else:
            observe_http(now() - started)
        return response

    httpx.AsyncClient.send = send  # type: ignore[method-assign]
    try:
        yield
    finally:
        httpx.AsyncClient.send = original  # type: ignore[method-assign]


class _TimedStream(httpx.AsyncByteStream):
    """A response body that reports the request's time when its last byte has been read."""

    def __init__(self, inner: Any, started: float, clock: Callable[[], float]) -> None:
        self._inner, self._started, self._clock, self._done = inner, started, clock, False

    async def __aiter__(self) -> Any:
        async for chunk in self._inner:
            yield chunk
        self._finish()

    async def aclose(self) -> None:
        self._finish()
        await self._inner.aclose()

    def _finish(self) -> None:
        if not self._done:
            self._done = True
            observe_http(self._clock() - self._started)
