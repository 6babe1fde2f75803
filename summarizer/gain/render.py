"""Plain-text tables for ``summarizer gain`` and ``summarizer discover`` (``--json`` prints the models)."""

from __future__ import annotations

from collections.abc import Sequence

from summarizer.gain.discover import DiscoverReport
from summarizer.gain.report import GainReport, GainRow

__all__ = ["render_discover", "render_gain"]

_COMMAND_CHARS = 60


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    line = [
        "  ".join(
            h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(headers, widths, strict=True))
        )
    ]
    for row in rows:
        line.append(
            "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))
            )
        )
    return [x.rstrip() for x in line]


def _cut(text: str) -> str:
    return text if len(text) <= _COMMAND_CHARS else text[: _COMMAND_CHARS - 1] + "…"


def _gain_rows(rows: Sequence[GainRow]) -> list[list[str]]:
    return [
        [
            _cut(r.key),
            f"{r.runs:,}",
            f"{r.compressed:,}",
            f"{r.tokens_in:,}" + ("~" if r.estimated else ""),
            f"{r.tokens_out:,}" + ("~" if r.estimated else ""),
            f"{r.saved:,}",
            f"{r.saved_pct:.1f}%",
        ]
        for r in rows
    ]


def render_gain(report: GainReport) -> str:
    """The report as text: totals, then per family, day and project, then the top commands."""
    scope = f"since {report.since}" if report.since else "all time"
    if report.project:
        scope += f", project {report.project}"
    total = report.total
    out = [
        f"summarizer gain ({scope}): {total.runs:,} outputs, {total.compressed:,} compressed, "
        f"{total.saved:,} of {total.tokens_in:,} tokens saved ({total.saved_pct:.1f}%)"
    ]
    if report.session is not None:
        s = report.session
        out.append(
            f"whole sessions: {s.tool_results:,} tool results in {s.sessions:,} sessions, "
            f"{s.tool_tokens:,} tokens seen; without summarizer {s.without_us:,}: "
            f"{s.saved_pct:.1f}% of all tool output saved"
        )
    headers = ("{}", "runs", "compressed", "tokens in", "tokens out", "saved", "saved %")
    for title, rows in (
        ("family", report.families),
        ("day (UTC)", report.days),
        ("project", report.projects),
    ):
        out += ["", *(_table([title, *headers[1:]], _gain_rows(rows)) if rows else [f"{title}: (none)"])]
    out += ["", "top commands by tokens saved"]
    saved_rows = [[_cut(t.command), t.family, f"{t.runs:,}", f"{t.saved:,}"] for t in report.top_saved]
    out += _table(("command", "family", "runs", "saved"), saved_rows) if saved_rows else ["  (none)"]
    out += ["", "top commands passed through unchanged (by tokens)"]
    pass_rows = [
        [_cut(t.command), t.family, f"{t.runs:,}", f"{t.tokens_in:,}"] for t in report.top_passed_through
    ]
    out += _table(("command", "family", "runs", "tokens"), pass_rows) if pass_rows else ["  (none)"]
    notes = []
    if total.estimated:
        notes.append(
            f"~ {total.estimated:,} pass-through outputs were not tokenized on the fast path: bytes/4 "
            "stands in "
            "for their tokens (saved tokens are exact)"
        )
    if report.skipped_records:
        notes.append(f"{report.skipped_records:,} malformed ledger lines skipped")
    if notes:
        out += ["", *notes]
    return "\n".join(out) + "\n"


def render_discover(report: DiscoverReport) -> str:
    """The report as text: what was read, then the missed savings per family and per command."""
    total = report.total
    out = [
        f"summarizer discover: {report.files:,} transcript files ({report.bytes / 1e6:,.1f} MB), "
        f"{report.sessions:,} sessions, {report.bash_calls:,} Bash calls, "
        f"{report.through_summarizer:,} already through summarizer",
        f"{total.outputs:,} large outputs ran without it (over {report.floor_tokens:,} tokens): "
        f"{total.tokens:,} tokens; compressed they would have been {total.would_show:,}: "
        f"{total.saved:,} saved ({total.saved_pct:.1f}%)",
        "",
    ]
    rows = [
        [
            _cut(r.family),
            f"{r.outputs:,}",
            f"{r.tokens:,}",
            f"{r.would_show:,}",
            f"{r.saved:,}",
            f"{r.saved_pct:.1f}%",
        ]
        for r in report.families
    ]
    out += (
        _table(("family", "outputs", "tokens", "compressed", "saved", "saved %"), rows)
        if rows
        else ["(none)"]
    )
    if report.top_missed:
        out += ["", "top commands by missed savings"]
        out += _table(
            ("command", "outputs", "tokens", "saved"),
            [[_cut(m.command), f"{m.outputs:,}", f"{m.tokens:,}", f"{m.saved:,}"] for m in report.top_missed],
        )
    if report.left_alone:
        out += ["", "large outputs the hook leaves alone on purpose (not counted above)"]
        out += _table(
            ("reason", "outputs", "tokens"),
            [[a.reason, f"{a.outputs:,}", f"{a.tokens:,}"] for a in report.left_alone],
        )
    if report.bad_lines:
        out += ["", f"{report.bad_lines:,} transcript lines were not JSON and were skipped"]
    return "\n".join(out) + "\n"
