"""``summarizer discover``: the savings a session history missed, measured on its real outputs.

For every Bash call in Claude Code's transcripts whose result did not go through summarizer (the
command is not ``summarizer run ...`` and the result carries none of our headers), the output the
model was shown is compressed exactly as ``summarizer run`` would have compressed it, and the
difference in tokens is what the hook would have saved. Outputs at or under the floor are skipped
without counting (a token is at least one byte, so an output of at most ``floor`` bytes has at most
``floor`` tokens), and outputs the hook leaves alone on purpose (``cat``, ``git diff``, an exclude
rule...) are reported apart: they are not savings missed, they are the agent reading a file.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable

from pydantic import BaseModel, ConfigDict

from summarizer.gain.families import family
from summarizer.gain.transcripts import ReadStats, ToolOutput

__all__ = ["DiscoverReport", "DiscoverRow", "LeftAlone", "MissedCommand", "discover", "went_through_us"]

TOP = 10
SHELL_TOOLS = frozenset({"Bash", "bash", "shell", "local_shell"})
# What our renderings start with or carry: such a result was already compressed (or passed) by us.
_OUR_MARKS = ("[summarizer output", "[summarizer run: the first", "[full output: summarizer restore ")
_OUR_PROGRAMS = ("summarizer ", "rtk ")


class DiscoverRow(BaseModel):
    """One command family: large unwrapped outputs, their tokens, and what compression would leave."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    family: str
    outputs: int
    tokens: int
    would_show: int
    saved: int
    saved_pct: float


class MissedCommand(BaseModel):
    """One command line and what it would have saved over the history."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    command: str
    family: str
    outputs: int
    tokens: int
    saved: int


class LeftAlone(BaseModel):
    """Large outputs the hook leaves alone on purpose, by reason."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reason: str
    outputs: int
    tokens: int


class DiscoverReport(BaseModel):
    """The whole report (``--json`` prints exactly this)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    files: int
    bytes: int
    bad_lines: int
    sessions: int
    bash_calls: int
    through_summarizer: int
    large_unwrapped: int
    floor_tokens: int
    total: DiscoverRow
    families: tuple[DiscoverRow, ...]
    top_missed: tuple[MissedCommand, ...]
    left_alone: tuple[LeftAlone, ...]


def went_through_us(output: ToolOutput) -> bool:
    """Whether summarizer already handled this call (wrapped by a hook, or run by the agent itself)."""
    command = (output.command or "").lstrip()
    if command.startswith(_OUR_PROGRAMS):
        return True
    head = output.text[:4096]
    return any(mark in head for mark in _OUR_MARKS) or _OUR_MARKS[2] in output.text[-4096:]


def _pct(saved: int, total: int) -> float:
    return round(100.0 * saved / total, 1) if total else 0.0


def _row(name: str, items: list[tuple[str, int, int]]) -> DiscoverRow:
    tokens = sum(t for _, t, _ in items)
    shown = sum(s for _, _, s in items)
    return DiscoverRow(
        family=name,
        outputs=len(items),
        tokens=tokens,
        would_show=shown,
        saved=tokens - shown,
        saved_pct=_pct(tokens - shown, tokens),
    )


def discover(
    outputs: Iterable[ToolOutput],
    stats: ReadStats,
    *,
    count_tokens: Callable[[str], int],
    would_show: Callable[[str], int],
    wrap_reason: Callable[[str], str | None] | None = None,
    recorded: Callable[[ToolOutput], bool] | None = None,
    floor: int = 500,
) -> DiscoverReport:
    """Measure the missed savings over ``outputs`` (read lazily: ``stats`` is complete afterwards).

    ``would_show(text)`` is the tokens the agent would see if ``summarizer run`` had handled the
    output; ``wrap_reason(command)`` says why the hook would leave a command alone (None: it wraps);
    ``recorded(output)`` whether the run ledger holds this call (an output ``run`` passed through
    unchanged carries no mark of ours).
    """
    sessions: set[str] = set()
    calls = ours = 0
    measured: list[tuple[str, int, int]] = []  # (command, tokens, would show)
    alone: dict[str, list[int]] = defaultdict(list)
    for output in outputs:
        sessions.add(output.session or output.file)
        if output.tool not in SHELL_TOOLS or output.command is None:
            continue
        calls += 1
        # The ledger is asked first, always: a wrapped call must use up its own record, or the
        # same command run unwrapped a moment later would be taken for the wrapped one.
        in_ledger = recorded is not None and recorded(output)
        if in_ledger or went_through_us(output):
            ours += 1
            continue
        if len(output.text.encode("utf-8", "replace")) <= floor:
            continue  # at most `floor` tokens: run passes it through whatever it is
        tokens = count_tokens(output.text)
        if tokens <= floor:
            continue
        reason = wrap_reason(output.command) if wrap_reason is not None else None
        if reason is not None:
            alone[reason.split(" (")[0]].append(tokens)
            continue
        measured.append((output.command, tokens, min(would_show(output.text), tokens)))
    by_family: dict[str, list[tuple[str, int, int]]] = defaultdict(list)
    by_command: dict[str, list[tuple[str, int, int]]] = defaultdict(list)
    for item in measured:
        by_family[family(item[0])].append(item)
        by_command[" ".join(item[0].split())].append(item)
    families = sorted((_row(k, v) for k, v in by_family.items()), key=lambda r: (-r.saved, r.family))
    missed = sorted(
        (
            MissedCommand(
                command=k,
                family=family(k),
                outputs=len(v),
                tokens=sum(t for _, t, _ in v),
                saved=sum(t - s for _, t, s in v),
            )
            for k, v in by_command.items()
        ),
        key=lambda m: (-m.saved, m.command),
    )
    return DiscoverReport(
        files=stats.files,
        bytes=stats.bytes,
        bad_lines=stats.bad_lines,
        sessions=len(sessions),
        bash_calls=calls,
        through_summarizer=ours,
        large_unwrapped=len(measured) + sum(len(v) for v in alone.values()),
        floor_tokens=floor,
        total=_row("total", measured),
        families=tuple(families),
        top_missed=tuple(m for m in missed if m.saved > 0)[:TOP],
        left_alone=tuple(
            sorted(
                (LeftAlone(reason=k, outputs=len(v), tokens=sum(v)) for k, v in alone.items()),
                key=lambda a: (-a.tokens, a.reason),
            )
        ),
    )
