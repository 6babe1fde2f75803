"""The engine's results as plain frozen records: what the rendering keeps and returns.

The public envelope (:class:`~summarizer.output.models.OutputResult`) is a pydantic model built
from these at the boundary; ``summarizer run`` and ``summarizer output`` print the text without
ever importing pydantic (their start-up is part of every command an agent runs).
"""

from __future__ import annotations

from summarizer.core.records import record

__all__ = [
    "BYTES_PER_TOKEN",
    "DEFAULT_BUDGET",
    "DEFAULT_FLOOR",
    "DEFAULT_THRESHOLD",
    "ERROR_KINDS",
    "Kept",
    "KeptPattern",
    "KeptSample",
    "Rendering",
    "estimate_tokens",
]

# The kinds of coordinate that are failures (each keeps the lines around it, see the engine).
ERROR_KINDS = frozenset(
    {
        "error",
        "exception",
        "failing_test",
        "alert",
        "location",
        "docker_event",
        "diagnostic",
        "conflict",
        "http_5xx",
        "error_in_line",
        "error_block",
    }
)

DEFAULT_THRESHOLD = 10_000
DEFAULT_BUDGET = 3_000
DEFAULT_FLOOR = 500
# o200k_base averages 2.0-3.9 bytes a token on logs and tool output (5.6 on pytest -v): 2.7 errs
# on the side of logs, which are the densest. Kept as a ratio of integers: the estimate is exact
# integer arithmetic, the same on every machine.
BYTES_PER_TOKEN = 2.7
_PER_10_TOKENS = 27


def estimate_tokens(text: str) -> int:
    """A token count from the length alone: the tokenizer is loaded only where a count is reported."""
    return -(-len(text) * 10 // _PER_10_TOKENS)


def estimate_bytes(size: int) -> int:
    """The estimated token count of ``size`` bytes."""
    return -(-size * 10 // _PER_10_TOKENS)


@record(frozen=True)
class Kept:
    """One critical line (deduplicated: ``count`` identical messages, first at ``line``)."""

    kind: str
    line: int
    text: str
    location: str | None = None
    timestamp: str | None = None
    count: int = 1
    last_line: int | None = None


@record(frozen=True)
class KeptPattern:
    """A repeating pattern: how often, where, and one real line as its sample."""

    pattern: str
    count: int
    first_line: int
    last_line: int
    sample: str
    sample_line: int
    soft: bool = False


@record(frozen=True)
class KeptSample:
    """One ordinary line kept to show what the rest looked like."""

    line: int
    text: str


@record(frozen=True)
class Rendering:
    """Everything :class:`~summarizer.output.models.OutputResult` holds, without pydantic."""

    classification: str
    original_tokens: int
    original_tokens_exact: bool
    compressed_tokens: int
    reduction: float
    lines: int
    bytes: int
    target_tokens: int | None
    passthrough: bool
    restore_id: str
    restore_hint: str
    text: str
    exit_code: int | None = None
    failing_tests: tuple[str, ...] = ()
    failed_tests: int = 0
    passed_tests: int = 0
    counts_from: str | None = None
    first_error: Kept | None = None
    first_timestamp: str | None = None
    last_timestamp: str | None = None
    coordinates: tuple[Kept, ...] = ()
    coordinates_not_listed: int = 0
    omitted_frames: int = 0
    patterns: tuple[KeptPattern, ...] = ()
    samples: tuple[KeptSample, ...] = ()
    binary_lines: int = 0
    redactions: int = 0
