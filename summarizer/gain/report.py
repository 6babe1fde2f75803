"""``summarizer gain``: what compression saved, per command family, day and project, counted honestly.

The figures come from the run ledger (:mod:`summarizer.gain.ledger`). Three rules keep them honest:

* **Against what the agent would have seen.** A saving is ``in - out``, where ``in`` is the output
  as it reached us and ``out`` everything the agent was shown (the head ``run`` streamed before it
  knew the output was large counts too). When the agent's line ended in ``| head``, ``| tail`` or
  ``| grep`` and ran inside ``summarizer run``, ``in`` is what the pipe let through: only the part
  we cut is credited, never the part the agent's own pipe dropped.
* **Outputs we left alone count.** Pass-throughs are in ``in`` and ``out`` alike (saving 0), so the
  percentage is of everything we handled, not only of what we compressed. Their tokens were not
  counted on the fast path; ``bytes / 4`` stands in (``estimated`` says how many), which affects the
  denominators only, never the tokens saved.
* **The whole session.** With transcripts, the report also gives the share of *all* tool output of
  the sessions in the window (every tool, wrapped or not) that the savings represent.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from summarizer.gain.families import family

__all__ = [
    "GainReport",
    "GainRow",
    "Run",
    "SessionShare",
    "TopCommand",
    "build_report",
    "matches_project",
    "parse_since",
    "runs_from_records",
    "session_share",
]

TOP = 10


def parse_since(text: str, now: dt.datetime) -> dt.datetime:
    """``7d``, ``24h``, ``90m``, ``2w`` back from ``now``, or an ISO date/time (UTC); ValueError otherwise."""
    value = text.strip()
    units = {"m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
    if value[:-1].isdigit() and value[-1:] in units:
        return now - dt.timedelta(seconds=int(value[:-1]) * units[value[-1]])
    try:
        when = dt.datetime.fromisoformat(value)
    except ValueError:
        raise ValueError(f"bad --since {text!r}; use 7d, 24h, 90m, 2w or a date like 2026-12-01") from None
    return when if when.tzinfo else when.replace(tzinfo=dt.UTC)


@dataclass(frozen=True, slots=True)
class Run:
    """One ledger record, checked."""

    when: dt.datetime
    tool: str
    project: str
    command: str | None
    size: int
    tokens_in: int
    tokens_out: int
    estimated: bool
    passthrough: bool
    raw: bool
    piped: str | None = None

    @property
    def saved(self) -> int:
        """Tokens the agent did not have to read because of us (negative if we added some)."""
        return self.tokens_in - self.tokens_out


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def runs_from_records(records: Iterable[Mapping[str, object]]) -> tuple[list[Run], int]:
    """The usable runs and the number of records skipped as malformed."""
    runs: list[Run] = []
    skipped = 0
    for record in records:
        size = _int(record.get("bytes"))
        stamp = record.get("ts")
        try:
            when = dt.datetime.fromisoformat(str(stamp).replace("Z", "+00:00"))
        except ValueError:
            when = None
        if size is None or when is None:
            skipped += 1
            continue
        tokens_in, tokens_out = _int(record.get("in")), _int(record.get("out"))
        estimated = tokens_in is None
        if tokens_in is None:
            tokens_in = tokens_out = (size + 3) // 4
        command = record.get("cmd")
        runs.append(
            Run(
                when=when,
                tool=str(record.get("tool") or ""),
                project=str(record.get("project") or record.get("cwd") or ""),
                command=command if isinstance(command, str) else None,
                size=size,
                tokens_in=tokens_in,
                tokens_out=tokens_in if tokens_out is None else tokens_out,
                estimated=estimated,
                passthrough=record.get("pass") is True,
                raw=record.get("raw") is True,
                piped=piped if isinstance(piped := record.get("piped"), str) else None,
            )
        )
    return runs, skipped


class GainRow(BaseModel):
    """Totals for one family, day or project."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    runs: int
    compressed: int
    passed_through: int
    tokens_in: int
    tokens_out: int
    saved: int
    saved_pct: float
    estimated: int


class TopCommand(BaseModel):
    """One command line (whitespace collapsed) and what it added up to."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    command: str
    family: str
    runs: int
    tokens_in: int
    saved: int


class SessionShare(BaseModel):
    """The savings against all tool output of the sessions in the window (read from transcripts)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    sessions: int
    tool_results: int
    tool_tokens: int
    saved: int
    without_us: int
    saved_pct: float


class GainReport(BaseModel):
    """The whole report (``--json`` prints exactly this)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    since: str | None
    project: str | None
    total: GainRow
    families: tuple[GainRow, ...]
    days: tuple[GainRow, ...]
    projects: tuple[GainRow, ...]
    top_saved: tuple[TopCommand, ...]
    top_passed_through: tuple[TopCommand, ...]
    session: SessionShare | None = None
    skipped_records: int = 0


def _pct(saved: int, total: int) -> float:
    return round(100.0 * saved / total, 1) if total else 0.0


def _row(key: str, runs: list[Run]) -> GainRow:
    tokens_in = sum(r.tokens_in for r in runs)
    saved = sum(r.saved for r in runs)
    return GainRow(
        key=key,
        runs=len(runs),
        compressed=sum(not r.passthrough for r in runs),
        passed_through=sum(r.passthrough for r in runs),
        tokens_in=tokens_in,
        tokens_out=sum(r.tokens_out for r in runs),
        saved=saved,
        saved_pct=_pct(saved, tokens_in),
        estimated=sum(r.estimated for r in runs),
    )


def _rows(runs: list[Run], key: Callable[[Run], str], order: str) -> tuple[GainRow, ...]:
    groups: dict[str, list[Run]] = defaultdict(list)
    for run in runs:
        groups[key(run)].append(run)
    rows = [_row(name, members) for name, members in groups.items()]
    if order == "key":
        return tuple(sorted(rows, key=lambda r: r.key))
    return tuple(sorted(rows, key=lambda r: (-r.saved, -r.tokens_in, r.key)))


def _top(runs: Iterable[Run], *, by_saved: bool) -> tuple[TopCommand, ...]:
    groups: dict[str, list[Run]] = defaultdict(list)
    for run in runs:
        label = " ".join(run.command.split()) if run.command else "(piped into summarizer output)"
        if run.piped:
            label += f" | {run.piped}"  # the agent's own trimmer: the figures are counted after it
        groups[label].append(run)
    tops = [
        TopCommand(
            command=label,
            family=family(members[0].command),
            runs=len(members),
            tokens_in=sum(r.tokens_in for r in members),
            saved=sum(r.saved for r in members),
        )
        for label, members in groups.items()
    ]
    if by_saved:
        tops = [t for t in tops if t.saved > 0]
        tops.sort(key=lambda t: (-t.saved, t.command))
    else:
        tops.sort(key=lambda t: (-t.tokens_in, -t.runs, t.command))
    return tuple(tops[:TOP])


def matches_project(path: str, wanted: str | None) -> bool:
    """``--project`` is a project's directory or its folder name."""
    if wanted is None:
        return True
    wanted = wanted.rstrip("/") or "/"
    return path == wanted or path.rstrip("/").rsplit("/", 1)[-1] == wanted or path.startswith(wanted + "/")


def build_report(
    runs: Iterable[Run],
    *,
    since: dt.datetime | None = None,
    project: str | None = None,
    session: Callable[[int], SessionShare] | None = None,
    skipped: int = 0,
) -> GainReport:
    """The report over the runs at or after ``since`` in ``project``; ``session(saved)`` adds the
    whole-session share when transcripts were given."""
    chosen = [r for r in runs if (since is None or r.when >= since) and matches_project(r.project, project)]
    total = _row("total", chosen)
    return GainReport(
        since=since.isoformat() if since else None,
        project=project,
        total=total,
        families=_rows(chosen, lambda r: family(r.command), "saved"),
        days=_rows(chosen, lambda r: r.when.astimezone(dt.UTC).date().isoformat(), "key"),
        projects=_rows(chosen, lambda r: r.project, "saved"),
        top_saved=_top(chosen, by_saved=True),
        top_passed_through=_top((r for r in chosen if r.passthrough and not r.raw), by_saved=False),
        session=session(total.saved) if session is not None else None,
        skipped_records=skipped,
    )


def session_share(sessions: int, tool_results: int, tool_tokens: int, saved: int) -> SessionShare:
    """Savings as a share of what the sessions' tool output would have been without us."""
    without = tool_tokens + saved
    return SessionShare(
        sessions=sessions,
        tool_results=tool_results,
        tool_tokens=tool_tokens,
        saved=saved,
        without_us=without,
        saved_pct=_pct(saved, without),
    )
