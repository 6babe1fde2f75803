"""The one retry policy: tenacity around the network call, transient errors only.

Providers' own retry layers are switched off in the adapter (``num_retries=0``/``max_retries=0``),
because stacked retries multiply: a 503 would otherwise make three HTTP calls before we ever saw it.
Only :data:`TRANSIENT` errors are retried (429, 5xx, timeouts, connection failures); an invalid
answer, a bad request or a missing key fail at once. The policy is a value, injected into the
adapter, so tests pass ``RetryPolicy(wait_initial_s=0, wait_max_s=0)`` and run instantly.
"""

from __future__ import annotations

from dataclasses import dataclass

from tenacity import (
    AsyncRetrying,
    retry_if_exception_type,
    stop_after_attempt,
    wait_exponential,
    wait_random,
)

from summarizer.core.errors import ProviderUnavailable, RateLimited

__all__ = ["TRANSIENT", "RetryPolicy"]

TRANSIENT: tuple[type[Exception], ...] = (RateLimited, ProviderUnavailable)


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """Exponential backoff with jitter and a cap; ``attempts`` counts the first call.

    The defaults (4 attempts, 0.5 s doubling, capped at 20 s) ride out a short rate-limit burst
    without making a CLI user wait more than about half a minute before the template answers.
    """

    attempts: int = 4
    wait_initial_s: float = 0.5
    wait_max_s: float = 20.0
    jitter_s: float = 0.5

    def _kwargs(self) -> dict[str, object]:
        return {
            "retry": retry_if_exception_type(TRANSIENT),
            "stop": stop_after_attempt(max(1, self.attempts)),
            # Exponential from wait_initial_s, capped at wait_max_s, plus up to jitter_s of noise so a
            # batch of concurrent calls hit by the same 429 do not retry in lockstep.
            "wait": wait_exponential(multiplier=self.wait_initial_s, max=self.wait_max_s)
            + wait_random(0, self.jitter_s),
            "reraise": True,  # callers see our typed error, never tenacity's RetryError
        }

    def async_retrying(self) -> AsyncRetrying:
        """A fresh asynchronous controller with the same policy."""
        return AsyncRetrying(**self._kwargs())  # type: ignore[arg-type]  # tenacity's kwargs are loosely typed

    @classmethod
    def immediate(cls, attempts: int = 3) -> RetryPolicy:
        """No waiting between attempts: for tests and benchmarks."""
        return cls(attempts=attempts, wait_initial_s=0.0, wait_max_s=0.0, jitter_s=0.0)
