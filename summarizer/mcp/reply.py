"""The reply of the MCP tool ``output_compress``: what ``summarizer output`` prints.

The JSON envelope used to be the reply, and it cost 3.4-5x the ``compressed_tokens`` it reported
(and more than the input itself for a pass-through). An agent needs the text: the header with
the exit code, failing tests and first error, the kept lines, and the restore hint as the last
line. The envelope is there when asked for (``envelope: true``), e.g. by a tool that wants the
coordinates as data. A pass-through is the input's text, once, never wrapped.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from summarizer.output import OutputResult

__all__ = ["output_reply"]


def output_reply(result: OutputResult, *, envelope: bool = False) -> str:
    """The text an agent gets back for one compressed output."""
    if envelope:
        return json.dumps(result.model_dump(mode="json"), ensure_ascii=False, indent=1)
    return result.text
