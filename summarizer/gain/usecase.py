"""The two use cases the ``gain`` and ``discover`` commands call: each reads, counts and reports.

The edges hand in what touches the world: the ledger directory, the transcript files, a progress
callback, and for ``discover`` the function that compresses one output the way ``run`` would (it
needs a scratch originals store, which only the composition root builds).
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from summarizer.core.errors import InputError
from summarizer.core.tokens import count_tokens
from summarizer.gain import ledger
from summarizer.gain.discover import DiscoverReport, discover
from summarizer.gain.report import (
    GainReport,
    SessionShare,
    build_report,
    matches_project,
    runs_from_records,
    session_share,
)
from summarizer.gain.transcripts import ReadStats, ToolOutput, read_outputs, transcript_files

if TYPE_CHECKING:
    from summarizer.output.models import OutputResult
    from summarizer.output.originals import OriginalStore

__all__ = ["Progress", "discover_history", "gain_report", "run_would_show"]

Progress = Callable[[int, int, int], None]


def gain_report(
    ledger_dir: str,
    *,
    since: dt.datetime | None = None,
    project: str | None = None,
    transcripts: Path | None = None,
    progress: Progress | None = None,
) -> GainReport:
    """The gain report from the ledger; with ``transcripts``, the whole-session share too."""
    month = since.astimezone(dt.UTC).strftime("%Y-%m") if since is not None else None
    records = (record for _, _, record in ledger.read(ledger_dir, month))
    runs, skipped = runs_from_records(records)
    session = None
    if transcripts is not None:
        root = transcripts

        def session(saved: int) -> SessionShare:
            return _session_share(root, since, project, saved, progress)

    return build_report(runs, since=since, project=project, session=session, skipped=skipped)


def _session_share(
    root: Path, since: dt.datetime | None, project: str | None, saved: int, progress: Progress | None
) -> SessionShare:
    files = transcript_files(root, since.timestamp() if since is not None else None)
    stats = ReadStats()
    sessions: set[str] = set()
    results = tokens = 0
    for output in read_outputs(files, stats, progress):
        if since is not None and not _at_or_after(output.timestamp, since):
            continue
        if not matches_project(ledger.project_root(output.cwd) if output.cwd else "", project):
            continue
        sessions.add(output.session or output.file)
        results += 1
        tokens += count_tokens(output.text) if output.text else 0
    return session_share(len(sessions), results, tokens, saved)


def _at_or_after(stamp: str, since: dt.datetime) -> bool:
    try:
        when = dt.datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return True  # an undated record: counted rather than silently dropped
    return (when if when.tzinfo else when.replace(tzinfo=dt.UTC)) >= since


def discover_history(
    root: Path,
    *,
    would_show: Callable[[str], int],
    wrap_reason: Callable[[str], str | None] | None = None,
    since: dt.datetime | None = None,
    ledger_dir: str | None = None,
    floor: int = 500,
    progress: Progress | None = None,
) -> DiscoverReport:
    """Missed savings over the transcripts under ``root`` (a directory or one file); the run ledger
    in ``ledger_dir`` tells apart the calls ``run`` passed through unchanged."""
    files = transcript_files(root, since.timestamp() if since is not None else None)
    stats = ReadStats()
    outputs = read_outputs(files, stats, progress)
    if since is not None:
        outputs = (o for o in outputs if _at_or_after(o.timestamp, since))
    recorded = _recorded(ledger_dir) if ledger_dir is not None else None
    report = discover(
        outputs,
        stats,
        count_tokens=count_tokens,
        would_show=would_show,
        wrap_reason=wrap_reason,
        recorded=recorded,
        floor=floor,
    )
    if root.is_file() and report.sessions == 0:
        # One file the user named that holds no session at all is the wrong file, not an empty history.
        raise InputError(
            f"{str(root)!r} holds no Claude Code transcript records ({report.bad_lines} lines not JSON); "
            "give a session .jsonl file or the projects folder (~/.claude/projects)"
        )
    return report


# A transcript writes the result a moment after `run` writes its ledger line (whole seconds).
_MATCH_SECONDS = 30


def _recorded(ledger_dir: str) -> Callable[[ToolOutput], bool]:
    """Whether a Bash call's result matches a ledger record: the same command, ended within 30 s.

    Each record answers for one call only (the nearest in time), so the same command run again
    without the hook a moment later is not taken for a wrapped one."""
    runs: dict[str, list[float]] = {}
    for _, _, record in ledger.read(ledger_dir):
        command, stamp = record.get("cmd"), record.get("ts")
        if isinstance(command, str) and isinstance(stamp, str) and (when := _epoch(stamp)) is not None:
            runs.setdefault(" ".join(command.split()), []).append(when)

    def recorded(output: ToolOutput) -> bool:
        when = _epoch(output.timestamp)
        times = runs.get(" ".join((output.command or "").split()), [])
        if when is None or not times:
            return False
        nearest = min(range(len(times)), key=lambda i: abs(when - times[i]))
        if abs(when - times[nearest]) > _MATCH_SECONDS:
            return False
        del times[nearest]
        return True

    return recorded


def _epoch(stamp: str) -> float | None:
    try:
        when = dt.datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    return (when if when.tzinfo else when.replace(tzinfo=dt.UTC)).timestamp()


def run_would_show(store: OriginalStore, shown: Callable[[bytes, OutputResult], int]) -> Callable[[str], int]:
    """Tokens the agent would see of an output had ``summarizer run`` handled it (default options);
    ``shown(output, result)`` counts what ``run`` prints for a result."""
    from summarizer.output import OutputOptions, compress

    def measure(text: str) -> int:
        data = text.encode("utf-8")
        return shown(data, compress(io.BytesIO(data), store, OutputOptions(), progress=None))

    return measure
