"""The error tree. Every error the CLI and the MCP server can meet is one of these.

    SummarizerError            anything the edge turns into one clean line (CLI exit 1)
    ├── InputError             the caller's input or usage is wrong (CLI exit 2); fix the input
    │   └── NotFound           an id, file or key that does not exist
    ├── ProviderError          the LLM provider failed; callers fall back to the template
    │   ├── RateLimited        transient: 429; retried by the one tenacity policy
    │   ├── ProviderUnavailable transient: 5xx, timeouts, connection errors; retried
    │   └── InvalidAnswer      the model answered, but the answer failed validation
    ├── StorageError           the cache, the engram database or the memory bank cannot be used
    └── EscalationRequired     a rule says a human/orchestrator must decide; nothing was written

Each message says what happened, the offending value (with ``!r``), and what to do next. Because
the offending value can be a secret (a token pasted as a file name, a password in a malformed URL,
a key inside invalid JSON), every message passes the scrubber when the error is made: whatever
prints, logs or returns it (CLI, MCP reply, a ``reason`` field) gets the scrubbed text.
"""

from __future__ import annotations

__all__ = [
    "EscalationRequired",
    "InputError",
    "InvalidAnswer",
    "NotFound",
    "ProviderError",
    "ProviderUnavailable",
    "RateLimited",
    "StorageError",
    "SummarizerError",
]


class SummarizerError(Exception):
    """Base for everything the CLI/MCP edge should turn into a clean one-line message."""

    exit_code: int = 1

    def __init__(self, *args: object) -> None:
        """Keep the arguments, with every text argument scrubbed of secrets."""
        if any(isinstance(arg, str) for arg in args):
            # Imported here: the cold `score` path constructs no error and must not pay for the patterns.
            import re

            from summarizer.core.scrub import scrub

            # Messages show values with !r, which spells an invisible character as the text `\u200b`:
            # drop those spellings too, or a token split by one would pass as two harmless halves.
            escaped = re.compile(r"\\(?:u(?:200[b-f]|202[a-e]|206[0-9]|feff|061c|180e)|xad)")
            args = tuple(scrub(escaped.sub("", arg))[0] if isinstance(arg, str) else arg for arg in args)
        super().__init__(*args)


class InputError(SummarizerError):
    """The input or the usage is wrong; the caller must change it (CLI exit 2)."""

    exit_code = 2


class NotFound(InputError):
    """A referenced id, file or key does not exist."""


class ProviderError(SummarizerError):
    """The LLM provider could not produce a usable answer."""


class RateLimited(ProviderError):
    """Transient: the provider asked us to slow down (HTTP 429)."""


class ProviderUnavailable(ProviderError):
    """Transient: 5xx, timeout or connection failure; retrying later may work."""


class InvalidAnswer(ProviderError):
    """The model answered, but the answer broke the output contract."""


class StorageError(SummarizerError):
    """A store (cache, engram database, memory bank) cannot be read or written."""


class EscalationRequired(SummarizerError):
    """A guardrail needs a decision from the orchestrator; nothing was written."""
