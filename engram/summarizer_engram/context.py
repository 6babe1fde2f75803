"""engram's ``FormatContext``: the markdown block an agent gets at session start, as a pure function.

The text is a contract (agents and engram's plugins parse it by its headings), so it is reproduced
byte for byte: the same headings, bullet shapes, truncation lengths, and one blank line after each
non-empty section. With nothing to show the result is ``""``, which callers turn into their own
"no memories" message.
"""

from __future__ import annotations

from collections.abc import Sequence

from summarizer_engram.models import Observation, Prompt, SessionSummary
from summarizer_engram.normalize import display_truncate

__all__ = ["format_context"]


def format_context(
    sessions: Sequence[SessionSummary],
    prompts: Sequence[Prompt],
    observations: Sequence[Observation],
) -> str:
    """Render recent sessions, prompts and observations as engram's context markdown."""
    if not sessions and not prompts and not observations:
        return ""
    lines = ["## Memory from Previous Sessions", ""]
    if sessions:
        lines.append("### Recent Sessions")
        for s in sessions:
            summary = f": {display_truncate(s.summary, 200)}" if s.summary else ""
            lines.append(f"- **{s.project}** ({s.started_at}){summary} [{s.observation_count} observations]")
        lines.append("")
    if prompts:
        lines.append("### Recent User Prompts")
        lines.extend(f"- {p.created_at}: {display_truncate(p.content, 200)}" for p in prompts)
        lines.append("")
    if observations:
        lines.append("### Recent Observations")
        lines.extend(f"- [{o.type}] **{o.title}**: {display_truncate(o.content, 300)}" for o in observations)
        lines.append("")
    return "\n".join(lines) + "\n"
