"""summarizer: keep coding agents' context small without losing what matters.

The public API is re-exported here and listed in ``__all__``; everything else is internal. The
exports load lazily (PEP 562 ``__getattr__``) so that ``import summarizer`` stays cheap: the CLI's
cold start is a measured goal, and the offline paths must never pay for litellm, mcp or SQLite.
A few functions are exported under a name unlike their module's (``scrub_text``, ``compress_output``)
because a submodule of the same name would shadow them once imported.
"""

from __future__ import annotations

from summarizer.core.errors import (
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

# Not `from typing import ...`: this package is imported first on every command, and typing alone
# costs the cold command path (`summarizer run`) a tenth of its budget. mypy reads the name.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from summarizer.app import build
    from summarizer.bank import GateReport, GateRequest, close_sprint, injection_block, run_gate
    from summarizer.core.scrub import Redaction
    from summarizer.core.scrub import scrub as scrub_text
    from summarizer.core.settings import Settings
    from summarizer.core.tokens import count_tokens
    from summarizer.envelope.reduce import EnvelopeReduction, reduce_envelope
    from summarizer.output import OriginalStore, OutputOptions, OutputResult
    from summarizer.output import compress as compress_output
    from summarizer.phasegate.models import SubtaskSummary
    from summarizer.phasegate.scoring import Score, score_entry
    from summarizer.phasegate.service import Compressed, batch_plan, compress_one, stats_over
    from summarizer.semantic.prompts import PromptLibrary
    from summarizer.semantic.service import Generation, Summarizer
    from summarizer.session.service import compress_session, recover

# public name -> (module, attribute)
_LAZY: dict[str, tuple[str, str]] = {
    "Compressed": ("summarizer.phasegate.service", "Compressed"),
    "EnvelopeReduction": ("summarizer.envelope.reduce", "EnvelopeReduction"),
    "GateReport": ("summarizer.bank", "GateReport"),
    "GateRequest": ("summarizer.bank", "GateRequest"),
    "Generation": ("summarizer.semantic.service", "Generation"),
    "OriginalStore": ("summarizer.output", "OriginalStore"),
    "OutputOptions": ("summarizer.output", "OutputOptions"),
    "OutputResult": ("summarizer.output", "OutputResult"),
    "PromptLibrary": ("summarizer.semantic.prompts", "PromptLibrary"),
    "Redaction": ("summarizer.core.scrub", "Redaction"),
    "Score": ("summarizer.phasegate.scoring", "Score"),
    "Settings": ("summarizer.core.settings", "Settings"),
    "SubtaskSummary": ("summarizer.phasegate.models", "SubtaskSummary"),
    "Summarizer": ("summarizer.semantic.service", "Summarizer"),
    "batch_plan": ("summarizer.phasegate.service", "batch_plan"),
    "build": ("summarizer.app", "build"),
    "close_sprint": ("summarizer.bank", "close_sprint"),
    "compress_one": ("summarizer.phasegate.service", "compress_one"),
    "compress_output": ("summarizer.output", "compress"),
    "compress_session": ("summarizer.session.service", "compress_session"),
    "count_tokens": ("summarizer.core.tokens", "count_tokens"),
    "injection_block": ("summarizer.bank", "injection_block"),
    "recover": ("summarizer.session.service", "recover"),
    "reduce_envelope": ("summarizer.envelope.reduce", "reduce_envelope"),
    "run_gate": ("summarizer.bank", "run_gate"),
    "score_entry": ("summarizer.phasegate.scoring", "score_entry"),
    "scrub_text": ("summarizer.core.scrub", "scrub"),
    "stats_over": ("summarizer.phasegate.service", "stats_over"),
}

__all__ = [
    "Compressed",
    "EnvelopeReduction",
    "EscalationRequired",
    "GateReport",
    "GateRequest",
    "Generation",
    "InputError",
    "InvalidAnswer",
    "NotFound",
    "OriginalStore",
    "OutputOptions",
    "OutputResult",
    "PromptLibrary",
    "ProviderError",
    "ProviderUnavailable",
    "RateLimited",
    "Redaction",
    "Score",
    "Settings",
    "StorageError",
    "SubtaskSummary",
    "Summarizer",
    "SummarizerError",
    "batch_plan",
    "build",
    "close_sprint",
    "compress_one",
    "compress_output",
    "compress_session",
    "count_tokens",
    "injection_block",
    "recover",
    "reduce_envelope",
    "run_gate",
    "score_entry",
    "scrub_text",
    "stats_over",
]


def __getattr__(name: str) -> Any:
    target = _LAZY.get(name)
    if target is None:
        raise AttributeError(f"module 'summarizer' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(target[0]), target[1])
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
