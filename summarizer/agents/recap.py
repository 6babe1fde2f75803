"""The header again at the end, for an output the agent pipes into ``tail``.

A hook rewrites ``pytest | tail -20`` as ``summarizer run --piped-into 'tail -20' -- pytest |
tail -20``. The rendering leads with its header (exit code, failing tests, first error, counts)
and ``tail`` cuts exactly that. So when the trimmer is a ``tail`` of lines, the rendering ends
with those header lines again, and with the runner's own short-summary rows (pytest's
``FAILED``/``ERROR``/``SUBFAILED`` rows, which name every failing id with its message), just
above the restore line. ``head`` keeps the header first, as it is.
"""

from __future__ import annotations

__all__ = ["TAIL_BYTES", "for_trimmer"]

# The header lines worth repeating: what failed and how the run ended.
_VERDICT_LINES = ("exit code:", "failing tests", "first error", "passing tests:", "all tests passed")
_BODY_START = "--- kept lines"
_RESTORE_LINE = "[full output: summarizer restore "
# The short summary is at the end of a run: this much of the original's end is kept for it.
TAIL_BYTES = 64 * 1024


def for_trimmer(text: str, piped: str | None, original_end: bytes) -> str:
    """``text`` (a rendering) as it should go into the trimmer ``piped``: for ``tail`` of lines,
    the header's verdict lines and the runner's short summary (read from ``original_end``, the
    last ``TAIL_BYTES`` of the original) again at its end."""
    from summarizer.gain.trim import parse_trimmer

    trimmer = parse_trimmer(piped) if piped is not None else None
    if trimmer is None or trimmer.program != "tail" or trimmer.bytes or trimmer.from_start:
        return text
    lines = text.splitlines()
    if _BODY_START not in "\n".join(lines[:12]):
        return text  # no header of verdict lines (a compact form, the folded form): nothing cut
    body = next(n for n, line in enumerate(lines) if line.startswith(_BODY_START))
    verdict = [line for line in lines[1:body] if line.startswith(_VERDICT_LINES)]
    from summarizer.output.testrun import short_summary

    rows = short_summary(original_end.decode("utf-8", "replace").splitlines())
    if rows:
        # The runner's rows name every failing id (subtests too) with its message.
        verdict = [line for line in verdict if not line.startswith("failing tests")]
    if not verdict and not rows:
        return text
    recap = [f"[the header again, for `{' '.join(piped.split()) if piped else ''}`]", *verdict, *rows]
    at = len(lines) - 1 if lines[-1].startswith(_RESTORE_LINE) else len(lines)
    return "\n".join([*lines[:at], *recap, *lines[at:]]) + "\n"
