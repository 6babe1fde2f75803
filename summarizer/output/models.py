"""The frozen values that cross the boundary: options in, the compression result out."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from summarizer.core.records import asdict
from summarizer.output.kept import DEFAULT_BUDGET, DEFAULT_FLOOR, DEFAULT_THRESHOLD, Rendering

# Here, not in classify.py, which the cold path imports: a Literal needs typing at run time.
Classification = Literal["BUILD_OUTPUT", "TEST_TRACE", "LOG_DUMP", "CONTAINER_LOG", "MIXED"]

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_THRESHOLD",
    "Coordinate",
    "OutputOptions",
    "OutputResult",
    "PatternSummary",
    "Sample",
    "result_of",
]


class OutputOptions(BaseModel):
    """How to compress: ``target_tokens`` None means the default (3,000 for inputs over 10,000)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    target_tokens: int | None = Field(default=None, gt=0)
    floor_tokens: int = Field(default=DEFAULT_FLOOR, ge=0)
    exit_code: int | None = None
    # A team's own rules (rules.toml, docs/rules.md): regexes searched in each line. A failure
    # pattern makes a line an error coordinate; a noise pattern drops a line, unless it is a failure.
    failure_patterns: tuple[str, ...] = ()
    noise_patterns: tuple[str, ...] = ()
    # A file the caller asked to read (`cat`): outlined past 3,000 tokens, never compressed as a log.
    content: bool = False


class Coordinate(BaseModel):
    """One critical line (deduplicated: ``count`` identical messages, first at ``line``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str
    line: int
    text: str
    location: str | None = None
    timestamp: str | None = None
    count: int = 1
    last_line: int | None = None


class PatternSummary(BaseModel):
    """A repeating pattern: how often, where, and one real line as its sample."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    pattern: str
    count: int
    first_line: int
    last_line: int
    sample: str
    sample_line: int
    soft: bool = False


class Sample(BaseModel):
    """One ordinary line kept to show what the rest looked like."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    line: int
    text: str


class OutputResult(BaseModel):
    """The compressed output and its envelope (the ``compressed_output`` of ``--json``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    classification: Classification
    original_tokens: int
    original_tokens_exact: bool
    compressed_tokens: int
    reduction: float
    lines: int
    bytes: int
    target_tokens: int | None
    passthrough: bool
    exit_code: int | None = None
    failing_tests: tuple[str, ...] = ()
    failed_tests: int = 0
    passed_tests: int = 0
    counts_from: str | None = None
    first_error: Coordinate | None = None
    first_timestamp: str | None = None
    last_timestamp: str | None = None
    coordinates: tuple[Coordinate, ...] = ()
    coordinates_not_listed: int = 0
    omitted_frames: int = 0
    patterns: tuple[PatternSummary, ...] = ()
    samples: tuple[Sample, ...] = ()
    binary_lines: int = 0
    redactions: int = 0
    restore_id: str
    restore_hint: str
    text: str


def result_of(rendering: Rendering) -> OutputResult:
    """The public envelope of a rendering."""
    return OutputResult.model_validate(asdict(rendering))
