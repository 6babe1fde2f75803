"""summarizer: keep coding agents' context small without losing what matters.

The public API is re-exported here; everything else is internal. Imports are lazy so that
``import summarizer`` stays cheap (the CLI's cold start is a measured goal).
"""

from __future__ import annotations

from summarizer.errors import (
    EscalationRequired,
    InputError,
    InvalidAnswer,
    NotFound,
    ProviderError,
    ProviderUnavailable,
    RateLimited,
    StorageError,
    SummarizerError,
)

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
