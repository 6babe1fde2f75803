"""The phase gate's semantic summaries: CRITICAL (3 lines) and HIGH (2 lines) through the LLM service.

A use case over :class:`~summarizer.semantic.service.Summarizer`: every entry becomes an
:class:`EntryJob` carrying its deterministic template lines as the fallback, so the result is always
complete and ``source``/``reason`` say who answered and why. MEDIUM and LOW entries never reach the
model (they get mechanical one-line compression), so callers may pass a whole batch.

The service is handed in (built by :mod:`summarizer.app`); this module never builds adapters. It is
async like the service; the CLI runs it with one ``asyncio.run``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from summarizer.core.vocabulary import WARNING_SIGN, Band
from summarizer.phasegate.masks import masked_entry
from summarizer.phasegate.models import SubtaskSummary
from summarizer.semantic.service import Fallback, Generation, Summarizer
from summarizer.semantic.untrusted import Untrusted
from summarizer.semantic.validate import AnswerRules

if TYPE_CHECKING:
    from summarizer.phasegate.service import BatchResult, Compressed

__all__ = [
    "EntryJob",
    "entry_rules",
    "entry_text",
    "summarize_batch",
    "summarize_compressed",
    "summarize_entries",
    "summarize_entry",
]

_LINES: dict[str, int] = {"CRITICAL": 3, "HIGH": 2}  # the bands that get a semantic summary
_AGENT = re.compile(r"^[a-z0-9_-]{1,32}$")

OnDone = Callable[[Generation], None]


@dataclass(frozen=True, slots=True)
class EntryJob:
    """One entry to summarise, with its deterministic template answer."""

    entry: SubtaskSummary
    band: Band
    fallback: Fallback


def entry_rules(band: Band) -> AnswerRules:
    """The validator for a CRITICAL (3 lines) or HIGH (2 lines) answer (``band`` must be one)."""
    return AnswerRules(lines=_LINES[band], max_line_chars=240, max_chars=720)


async def summarize_entry(service: Summarizer, job: EntryJob) -> Generation:
    """The CRITICAL (3-line) or HIGH (2-line) summary of one entry, per its agent-pair variant."""
    entry = job.entry
    if job.band not in _LINES:
        text = job.fallback() if callable(job.fallback) else job.fallback
        return Generation(
            prompt=job.band.lower(),
            prompt_version="-",
            text=text,
            lines=tuple(line for line in text.splitlines() if line.strip()),
            source="template",
            reason=f"{job.band} entries use the one-line template, not the model",
        )
    values: dict[str, object] = {
        "band": job.band,
        "line_count": _LINES[job.band],
        "from_agent": _agent(entry.from_agent),
        "to_agents": [_agent(a) for a in entry.to_agent],
        "entry": Untrusted(entry_text(entry), label="subtask_summary"),
    }
    result = await service.generate(
        job.band.lower(), values, validate=entry_rules(job.band), fallback=job.fallback
    )
    if entry.status != "partial" or result.source == "template" or not result.lines:
        return result  # the template marks partial entries itself
    # The ruling marks partial entries with a warning sign; the model is not trusted to add it.
    lines = (f"{WARNING_SIGN} {result.lines[0]}", *result.lines[1:])
    return result.model_copy(update={"lines": lines, "text": "\n".join(lines)})


async def summarize_entries(
    service: Summarizer,
    jobs: Sequence[EntryJob],
    *,
    concurrency: int | None = None,
    on_done: OnDone | None = None,
) -> list[Generation]:
    """Summarise many entries concurrently (at most ``concurrency`` calls in flight), in order.

    ``on_done`` is called once per finished entry (for a progress display), in completion order.
    """
    limit = asyncio.Semaphore(max(1, concurrency or service.concurrency))

    async def one(job: EntryJob) -> Generation:
        async with limit:
            result = await summarize_entry(service, job)
        if on_done is not None:
            on_done(result)
        return result

    return list(await asyncio.gather(*(one(job) for job in jobs)))


async def summarize_compressed(
    service: Summarizer, entry: SubtaskSummary, compressed: Compressed
) -> Compressed:
    """Replace a compressed CRITICAL/HIGH entry's template lines with the semantic summary.

    Anything else (MEDIUM/LOW, a protected entry) is returned unchanged. The template lines are the
    fallback, so the result is always complete; ``source``/``reason`` say which answered and why.
    """
    from summarizer.phasegate.service import scrub_entry

    band = compressed.score.priority
    if not compressed.compressed or band not in _LINES:
        return compressed
    clean, _ = scrub_entry(entry)
    job = EntryJob(entry=clean, band=band, fallback="\n".join(compressed.lines))
    generation = await summarize_entry(service, job)
    _, fields = masked_entry(clean, band, generation.lines)
    return dataclasses.replace(
        compressed, lines=generation.lines, fields=fields, source=generation.source, reason=generation.reason
    )


async def summarize_batch(
    service: Summarizer, result: BatchResult, *, on_done: OnDone | None = None
) -> dict[str, Any]:
    """``result.as_dict()`` with every expanded CRITICAL/HIGH entry summarised by the service."""
    data = result.as_dict()
    by_id = {s.id: s for s in result.entries}
    rows = [
        row
        for phase in data["phases"]
        for row in phase["entries"]
        if row["mode"] == "expanded" and row["priority"] in _LINES
    ]
    jobs = [
        EntryJob(entry=by_id[row["id"]].entry, band=row["priority"], fallback="\n".join(row["lines"]))
        for row in rows
    ]
    for row, generation in zip(rows, await summarize_entries(service, jobs, on_done=on_done), strict=True):
        row["lines"], row["source"] = list(generation.lines), generation.source
        if generation.reason:
            row["reason"] = generation.reason
    return data


def _agent(name: str | None) -> str:
    """Agent names reach the prompt outside the data block, so only plain names pass."""
    cleaned = (name or "").strip().lower()
    return cleaned if _AGENT.match(cleaned) else "unknown"


def entry_text(entry: SubtaskSummary) -> str:
    """The entry as ``key: value`` lines: the data the model summarises, validation checks and the
    evals score hallucinations against (so all three see the same input)."""
    fields = {
        "agent": entry.from_agent,
        "next agents": ", ".join(entry.to_agent) or None,
        "phase": entry.phase,
        "status": entry.status + (f" ({entry.status_note})" if entry.status_note else ""),
        "title": entry.title,
        "summary": entry.summary,
        "files": ", ".join(entry.files_changed) or None,
        "tests": entry.tests,
        "coverage": entry.coverage,
        "verdict": entry.verdict,
        "critical issues": None if entry.critical_issues is None else str(entry.critical_issues),
        "blockers": entry.blockers,
        "unblocks": entry.unblocks,
    }
    return "\n".join(f"{key}: {value}" for key, value in fields.items() if value)
