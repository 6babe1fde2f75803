"""Tool-output compression (docs/tool-output.md): shrink build logs, test traces, log dumps and container logs
while every failure coordinate survives, with the full original one ``summarizer restore`` away.

Public API: :func:`compress` (stream in, :class:`OutputResult` out), :class:`OutputOptions`,
:class:`OriginalStore` (restore whole or by line range), :class:`OriginalNotStored` (the store failed;
the input read so far is still in it) and :mod:`summarizer.output.truth`
(ground-truth recall, shared with ``summarizer eval``).
"""

from __future__ import annotations

TYPE_CHECKING = False  # not `from typing import`: this package is on the cold path of `run`
if TYPE_CHECKING:
    from typing import Any

    from summarizer.output.compressor import compress
    from summarizer.output.models import Coordinate, OutputOptions, OutputResult, PatternSummary, Sample
    from summarizer.output.originals import OriginalNotStored, OriginalStore, parse_range

# Loaded on first use (PEP 562): `summarizer run` imports summarizer.output.originals on its cold
# path, and importing this package must not pull pydantic in through the models.
_LAZY = {
    "compress": "compressor",
    "Coordinate": "models",
    "OutputOptions": "models",
    "OutputResult": "models",
    "PatternSummary": "models",
    "Sample": "models",
    "OriginalNotStored": "originals",
    "OriginalStore": "originals",
    "parse_range": "originals",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'summarizer.output' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"summarizer.output.{module}"), name)
    globals()[name] = value
    return value


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
