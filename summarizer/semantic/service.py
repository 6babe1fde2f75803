"""The semantic-summary service: prompt → cache → model → validation, or the template.

One generic path, :meth:`Summarizer.generate`, serves every LLM feature (phase-gate CRITICAL/HIGH
summaries, tool-output summaries, session compression, evals). It

1. fences every :class:`~summarizer.semantic.untrusted.Untrusted` value (scrub, escape, nonce boundary) and
   renders the named prompt with the :class:`~summarizer.semantic.prompts.PromptLibrary`;
2. answers from the template when offline, when no model is configured, or when the model fails;
3. looks the request up in the cache (namespace = prompt digest + version + model + api_base +
   parameters, key = namespace + hash of the scrubbed canonical input);
4. calls the :class:`~summarizer.semantic.ports.Completer` (which owns the one retry policy);
5. validates the answer; a cut-off, invalid or failed answer becomes the template's text with
   ``source="template"`` and the ``reason``. Only validated model answers are cached.

A summary never fails because a provider is down: every :class:`ProviderError` ends in the fallback.
Errors in the caller's own input (an unknown prompt, a missing template variable) still raise.

Concurrency model (one, async): the core is **async** and has no synchronous twin. The MCP server
awaits it; each CLI command runs one ``asyncio.run`` at the edge. Batches fan out with
``asyncio.gather`` under a semaphore (:attr:`Summarizer.concurrency`, default 8).

The service knows no feature: the phase gate's entry summaries live in
:mod:`summarizer.phasegate.summaries`, sessions and evals call :meth:`Summarizer.generate` directly.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Mapping

from pydantic import BaseModel, ConfigDict, Field, computed_field

from summarizer.core.errors import InputError, InvalidAnswer, ProviderError
from summarizer.core.vocabulary import Source
from summarizer.semantic.ports import (
    CachedAnswer,
    CacheKey,
    Completer,
    CompletionRequest,
    Namespace,
    SummaryCache,
    Usage,
)
from summarizer.semantic.prompts import PromptLibrary, RenderedPrompt
from summarizer.semantic.untrusted import Untrusted, fence, new_nonce
from summarizer.semantic.validate import Validator

__all__ = ["Fallback", "Generation", "GenerationParams", "Source", "Summarizer"]

Fallback = Callable[[], str] | str
"""The deterministic answer: a string, or a callable evaluated only when it is needed."""


class GenerationParams(BaseModel):
    """The generation parameters that take part in the cache namespace."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_tokens: int = Field(default=400, gt=0)
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)


class Generation(BaseModel):
    """The outcome of one :meth:`Summarizer.generate` call, whatever answered it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    prompt: str
    prompt_version: str
    text: str
    lines: tuple[str, ...]
    source: Source
    reason: str | None = None
    model: str | None = None
    usage: Usage = Usage()
    cost_usd: float | None = None
    latency_s: float = 0.0
    redactions: int = 0

    @computed_field  # type: ignore[prop-decorator]  # pydantic's documented idiom for a derived field
    @property
    def cached(self) -> bool:
        """True when the answer came from the cache."""
        return self.source == "cache"


class Summarizer:
    """The service. Build it with :func:`summarizer.app.build`, or directly with fakes in tests.

    Args:
        prompts: the prompt library.
        completer: the model; ``None`` means the template always answers.
        cache: the answer cache; ``None`` disables caching (``--no-cache``).
        model: the litellm model string (``openai/gpt-4o-mini``, ``ollama/llama3``...).
        api_base: an OpenAI-compatible base URL, passed through to the provider.
        offline: answer from the template without touching the model or the cache.
        params: generation parameters (part of the cache namespace).
        concurrency: how many model calls a batch keeps in flight (callers read it).
        timeout_s: per-call provider timeout.
        nonce: factory of boundary nonces (tests inject a fixed one).
        clock: monotonic clock for latency figures.
    """

    def __init__(
        self,
        prompts: PromptLibrary,
        *,
        completer: Completer | None = None,
        cache: SummaryCache | None = None,
        model: str | None = None,
        api_base: str | None = None,
        offline: bool = False,
        params: GenerationParams | None = None,
        concurrency: int = 8,
        timeout_s: float = 60.0,
        nonce: Callable[[], str] = new_nonce,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.prompts = prompts
        self.completer = completer
        self.cache = cache
        self.model = model
        self.api_base = api_base
        self.offline = offline
        self.params = params or GenerationParams()
        self.concurrency = max(1, concurrency)
        self.timeout_s = timeout_s
        self._nonce = nonce
        self._clock = clock

    # -- the generic path -------------------------------------------------------------------------

    async def generate(
        self,
        prompt_name: str,
        values: Mapping[str, object],
        *,
        validate: Validator,
        fallback: Fallback,
    ) -> Generation:
        """Render ``prompt_name`` with ``values`` and answer it, falling back to ``fallback``.

        Args:
            prompt_name: a template name in the library (``critical``, ``tool_output``...).
            values: template variables. Wrap untrusted text in :class:`Untrusted`; plain values
                are trusted and rendered as given. Values must be JSON-serialisable.
            validate: ``(answer, source) -> cleaned`` raising ``InvalidAnswer``; ``source`` is the
                scrubbed untrusted input the answer may draw from.
            fallback: the deterministic answer used whenever the model's is not.
        """
        started = self._clock()
        rendered, canonical, source, redactions = self._prepare(prompt_name, values)

        def template(reason: str) -> Generation:
            text = fallback() if callable(fallback) else fallback
            return self._result(rendered, text, "template", started, reason=reason, redactions=redactions)

        if self.offline:
            return template("offline: the template answered (--offline)")
        if self.completer is None or not self.model:
            return template("no model configured; set SUMMARIZER_MODEL or pass --model")
        key = self.cache_key(rendered, canonical)
        if self.cache is not None and (hit := self.cache.get(key)) is not None:
            try:
                text = validate(hit.text, source)
            except (InvalidAnswer, ValueError):
                pass  # a stricter validator than the one that stored it: ask the model again
            else:
                return self._result(rendered, text, "cache", started, model=hit.model, redactions=redactions)
        request = CompletionRequest(
            model=self.model,
            system=rendered.system,
            user=rendered.user,
            max_tokens=self.params.max_tokens,
            temperature=self.params.temperature,
            api_base=self.api_base,
            timeout_s=self.timeout_s,
        )
        try:
            completion = await self.completer.complete(request)
            if completion.cut_off:
                raise InvalidAnswer("the answer was cut off (finish_reason=length); raise max_tokens")
            text = validate(completion.text, source)
        except ProviderError as exc:
            return template(f"{type(exc).__name__}: {exc}")
        except ValueError as exc:
            # A caller's validator that parses the answer (session documents) may meet text it
            # cannot parse; a strange answer is the model's failure, never the caller's crash.
            return template(f"InvalidAnswer: the answer could not be parsed: {exc}")
        if self.cache is not None:
            answer = CachedAnswer(
                text=text, model=completion.model, usage=completion.usage, cost_usd=completion.cost_usd
            )
            self.cache.put(key, answer)
        return self._result(
            rendered,
            text,
            "llm",
            started,
            model=completion.model,
            usage=completion.usage,
            cost=completion.cost_usd,
            redactions=redactions,
        )

    # -- keys -------------------------------------------------------------------------------------

    def namespace(self, rendered: RenderedPrompt) -> Namespace:
        """The cache namespace of a prompt under this service's model and parameters."""
        material = {
            "prompt": rendered.name,
            "digest": rendered.digest,
            "version": rendered.version,
            "model": self.model or "",
            # The same model name behind another OpenAI-compatible server is another model.
            "api_base": self.api_base or "",
            "params": self.params.model_dump(mode="json"),
        }
        return Namespace(
            id=_hash(material),
            prompt=rendered.name,
            version=rendered.version,
            prompt_digest=rendered.digest,
            model=self.model or "",
        )

    def cache_key(self, rendered: RenderedPrompt, canonical: str) -> CacheKey:
        """Namespace plus the hash of the scrubbed canonical input."""
        return CacheKey(namespace=self.namespace(rendered), input_hash=_hash(canonical))

    # -- internals --------------------------------------------------------------------------------

    def _prepare(
        self, prompt_name: str, values: Mapping[str, object]
    ) -> tuple[RenderedPrompt, str, str, int]:
        nonce = self._nonce()
        rendered_values: dict[str, object] = {"nonce": nonce}
        canonical_values: dict[str, object] = {}
        sources: list[str] = []
        redactions = 0
        for name, value in values.items():
            if isinstance(value, Untrusted):
                fenced = fence(value, nonce)
                rendered_values[name] = fenced.block
                canonical_values[name] = {"untrusted": fenced.scrubbed, "label": value.label}
                sources.append(fenced.scrubbed)
                redactions += fenced.redactions
            else:
                rendered_values[name] = value
                canonical_values[name] = value
        try:
            canonical = json.dumps(
                canonical_values, sort_keys=True, separators=(",", ":"), ensure_ascii=False
            )
        except TypeError as exc:
            raise InputError(f"prompt values for {prompt_name!r} must be JSON-serialisable: {exc}") from exc
        rendered = self.prompts.render(prompt_name, rendered_values)
        return rendered, canonical, "\n".join(sources), redactions

    def _result(
        self,
        rendered: RenderedPrompt,
        text: str,
        source: Source,
        started: float,
        *,
        reason: str | None = None,
        model: str | None = None,
        usage: Usage | None = None,
        cost: float | None = None,
        redactions: int = 0,
    ) -> Generation:
        return Generation(
            prompt=rendered.name,
            prompt_version=rendered.version,
            text=text,
            lines=tuple(line for line in text.splitlines() if line.strip()),
            source=source,
            reason=reason,
            model=model,
            usage=usage or Usage(),
            cost_usd=cost,
            latency_s=max(0.0, self._clock() - started),
            redactions=redactions,
        )


def _hash(material: object) -> str:
    blob = (
        material if isinstance(material, str) else json.dumps(material, sort_keys=True, separators=(",", ":"))
    )
    return hashlib.blake2b(blob.encode(), digest_size=16).hexdigest()
