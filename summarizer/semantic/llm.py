"""The litellm adapter: the ONLY module that imports litellm, and only inside functions.

Why this shape:

* ``import litellm`` costs about 3 s and, unless ``LITELLM_LOCAL_MODEL_COST_MAP=True``, downloads a
  cost map. :func:`_litellm` sets that switch and imports on first use, so ``summarizer score``,
  ``--help`` and the offline paths never pay for it.
* Provider retries are off (``num_retries=0``, ``max_retries=0``): the injected
  :class:`~summarizer.semantic.retry.RetryPolicy` is the only retry layer, so a 429 then a 200 is exactly
  two HTTP calls.
* litellm's exceptions never leave this module: :func:`translate` maps them onto
  :mod:`summarizer.errors` (429 → ``RateLimited``; 5xx, timeouts, connection errors →
  ``ProviderUnavailable``; a missing or rejected key → ``ProviderError`` naming the variable to set;
  anything else → ``ProviderError``).
* Usage and cost are read per call; cost comes from litellm's local cost map and is ``None`` for
  models the map does not know (local servers, fine-tunes).
* litellm caches async HTTP clients globally; a client bound to a finished event loop fails on the
  next loop. The adapter flushes that cache whenever it sees a new running loop, so one process may
  call ``asyncio.run`` several times (tests, scripts).
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from summarizer.errors import ProviderError, ProviderUnavailable, RateLimited
from summarizer.semantic.ports import Completion, CompletionRequest, Usage
from summarizer.semantic.retry import RetryPolicy

__all__ = ["LiteLLMCompleter", "key_variable", "translate"]

_KEY_VARIABLES = {
    "openai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "gemini": "GEMINI_API_KEY",
    "mistral": "MISTRAL_API_KEY",
    "groq": "GROQ_API_KEY",
    "openrouter": "OPENROUTER_API_KEY",
    "deepseek": "DEEPSEEK_API_KEY",
}


def _litellm() -> ModuleType:
    """Import litellm with its network-touching defaults switched off."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    litellm.suppress_debug_info = True
    litellm.telemetry = False
    return litellm


def key_variable(model: str) -> str:
    """The environment variable that holds the key for ``model``'s provider."""
    provider = model.split("/", 1)[0].lower() if "/" in model else "openai"
    return _KEY_VARIABLES.get(provider, f"{provider.upper()}_API_KEY")


def translate(exc: BaseException, model: str) -> ProviderError:
    """Map a litellm (or openai/httpx) exception onto our error tree, with a next step."""
    litellm = _litellm()
    status = getattr(exc, "status_code", None)
    detail = str(exc).splitlines()[0][:300] if str(exc) else type(exc).__name__
    if _malformed(exc):
        # litellm reports an unparsable body as a 500; retrying the same broken server is pointless.
        return ProviderError(
            f"{model!r} returned a malformed response (not the provider's JSON): {detail}; "
            "check --api-base points at an OpenAI-compatible endpoint"
        )
    if isinstance(exc, litellm.RateLimitError) or status == 429:
        return RateLimited(f"{model!r} is rate limited (429): {detail}; wait, or lower --concurrency")
    if isinstance(exc, litellm.AuthenticationError) or status in (401, 403):
        return ProviderError(
            f"no valid API key for {model!r}: set `{key_variable(model)}`, or pass --model with a "
            "provider you have a key for, or --offline"
        )
    transient = (
        litellm.Timeout,
        litellm.APIConnectionError,
        litellm.ServiceUnavailableError,
        litellm.InternalServerError,
        litellm.BadGatewayError,
    )
    if isinstance(exc, transient) or (isinstance(status, int) and status >= 500):
        return ProviderUnavailable(f"{model!r} is unavailable ({type(exc).__name__}): {detail}; try later")
    return ProviderError(f"{model!r} failed ({type(exc).__name__}): {detail}; check --model and --api-base")


def _malformed(exc: BaseException) -> bool:
    seen: BaseException | None = exc
    for _ in range(8):  # the cause chain is short; the bound guards against cycles
        if seen is None:
            return False
        if isinstance(seen, json.JSONDecodeError) or "invalid response from llm" in str(seen).lower():
            return True
        seen = seen.__cause__ or seen.__context__
    return False


class LiteLLMCompleter:
    """A :class:`~summarizer.semantic.ports.Completer` for any model string litellm understands.

    Args:
        retry: the retry policy (tests inject :meth:`RetryPolicy.immediate`).
        env: where provider keys are looked up (default ``os.environ``).
    """

    def __init__(self, *, retry: RetryPolicy | None = None, env: Mapping[str, str] | None = None) -> None:
        self._retry = retry or RetryPolicy()
        self._env = os.environ if env is None else env

    async def complete(self, request: CompletionRequest, /) -> Completion:
        """Ask the model asynchronously (``litellm.acompletion``) under the retry policy."""
        _forget_clients_of_old_loops()
        result: Completion = await self._retry.async_retrying()(self._acall_once, request)
        return result

    async def _acall_once(self, request: CompletionRequest) -> Completion:
        litellm = _litellm()
        try:
            response = await litellm.acompletion(**self._kwargs(request))
        except Exception as exc:  # litellm raises many types; translate() sorts them out
            raise translate(exc, request.model) from exc
        return self._read(litellm, response, request)

    def _kwargs(self, request: CompletionRequest) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "model": request.model,
            "messages": [
                {"role": "system", "content": request.system},
                {"role": "user", "content": request.user},
            ],
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
            "timeout": request.timeout_s,
            "num_retries": 0,  # tenacity is the only retry layer
            "max_retries": 0,
            "drop_params": True,  # models that refuse `temperature` still answer
        }
        if request.api_base:
            kwargs["api_base"] = request.api_base
            # Local OpenAI-compatible servers rarely need a key, but the client insists on one.
            if request.model.startswith("openai/") and not self._env.get("OPENAI_API_KEY"):
                kwargs["api_key"] = "sk-no-key-required"
        return kwargs

    @staticmethod
    def _read(litellm: ModuleType, response: Any, request: CompletionRequest) -> Completion:
        try:
            choice = response.choices[0]
            text = choice.message.content or ""
            usage = getattr(response, "usage", None)
            tokens = Usage(
                prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
                completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
            )
        except (AttributeError, IndexError, TypeError, ValueError) as exc:
            raise ProviderError(f"{request.model!r} returned an unreadable response: {exc}") from exc
        try:
            cost: float | None = float(litellm.completion_cost(completion_response=response))
        except Exception:  # unknown model in the local cost map: cost is unknown, not an error
            cost = None
        return Completion(
            text=text,
            model=str(getattr(response, "model", None) or request.model),
            finish_reason=getattr(choice, "finish_reason", None),
            usage=tokens,
            cost_usd=cost,
        )


# The loop litellm's cached async clients belong to (module state: litellm's cache is global too).
_client_loop: list[asyncio.AbstractEventLoop] = []


def _forget_clients_of_old_loops() -> None:
    loop = asyncio.get_running_loop()
    if _client_loop and _client_loop[0] is not loop:
        _litellm().in_memory_llm_clients_cache.flush_cache()
    _client_loop[:] = [loop]
