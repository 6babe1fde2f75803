"""The generic LLM service: ports, the litellm adapter, prompts, retry, validation, untrusted data.

:mod:`.service` renders a versioned prompt with untrusted values fenced, answers from the cache, the
model (through the :class:`~summarizer.semantic.ports.Completer` port; :mod:`.llm` is the only
module that imports litellm, lazily) or the deterministic fallback, and validates what it caches.
It knows no feature: the phase gate, sessions and evals call it with their own prompts and rules.
"""
