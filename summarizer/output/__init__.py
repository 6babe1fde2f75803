"""Tool-output compression (seed 002): shrink build logs, test traces, log dumps and container logs
while every failure coordinate survives, with the full original one ``summarizer restore`` away.

Public API: :func:`compress` (stream in, :class:`OutputResult` out), :class:`OutputOptions`,
:class:`OriginalStore` (restore whole or by line range), :class:`OriginalNotStored` (the store failed;
the input read so far is still in it) and :mod:`summarizer.output.truth`
(ground-truth recall, shared with ``summarizer eval``).
"""

from __future__ import annotations

from summarizer.output.compressor import compress
from summarizer.output.models import Coordinate, OutputOptions, OutputResult, PatternSummary, Sample
from summarizer.output.originals import OriginalNotStored, OriginalStore, parse_range

__all__ = [
    "Coordinate",
    "OriginalNotStored",
    "OriginalStore",
    "OutputOptions",
    "OutputResult",
    "PatternSummary",
    "Sample",
    "compress",
    "parse_range",
]
