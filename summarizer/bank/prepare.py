"""The first, pure step of a gate: each entry preflighted, scrubbed, scored and hashed.

:func:`prepare_entries` needs only the request, so the optional LLM step can run it before the
bank lock is taken. The entry's subtask key is assigned later, against the bank
(:mod:`summarizer.bank.subtasks`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from summarizer.bank.entry import EntryKey, content_hash, normalise_verdict
from summarizer.bank.request import GateRequest
from summarizer.core.errors import InputError
from summarizer.core.scrub import scrub
from summarizer.phasegate.facts import shorten
from summarizer.phasegate.models import SubtaskSummary
from summarizer.phasegate.scoring import Score, score_entry
from summarizer.phasegate.service import scrub_entry
from summarizer.phasegate.templates import first_sentence

__all__ = ["Prepared", "Unfinished", "full_summary_name", "prepare_entries"]

_PHASE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._]*$")
_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:/ -]{0,63}$")


@dataclass(frozen=True, slots=True)
class Prepared:
    """One entry after preflight: hash, score, the scrubbed entry it may promote, and its key."""

    index: int
    phase: str
    date: str
    digest: str
    score: Score
    clean: SubtaskSummary  # every free-text field and path scrubbed (Layer 2)
    title: str
    redactions: int
    explicit: str | None = None  # the entry's own id/subtask, if it has one
    subtask: str = "#1"  # assigned against the bank (subtasks.assign)
    full: str | None = None  # the whole scrubbed summary when it was cut (archived by the gate)

    @property
    def agent(self) -> str:
        """The producing agent."""
        return self.clean.agent

    @property
    def group(self) -> tuple[str, str, str]:
        """(date, phase, agent): the rows a batch speaks for."""
        return (self.date, self.phase, self.agent)

    @property
    def key(self) -> EntryKey:
        """(date, phase, agent, subtask)."""
        return (self.date, self.phase, self.agent, self.subtask)


@dataclass(frozen=True, slots=True)
class Unfinished:
    """An entry the preflight did not compress (or compressed as partial): who, status, why."""

    phase: str
    date: str
    agent: str
    status: str
    reason: str


def _reason(clean: SubtaskSummary) -> str:
    why = clean.status_note or (clean.blockers if clean.status == "blocked" else None)
    return shorten(why or first_sentence(clean.summary), 100)


def full_summary_name(digest: str) -> str:
    """Where a cut summary's full (scrubbed) text is archived, relative to the bank root."""
    return f"_notes/archive/summaries/{digest}.md"


def _size(text: str) -> str:
    size = len(text.encode("utf-8"))
    return f"{size / 1048576:.1f} MB" if size >= 1048576 else f"{size / 1024:.0f} KB"


def _cut_summary(entry: SubtaskSummary, limit: int) -> tuple[str | None, int, SubtaskSummary]:
    """A summary over ``limit`` UTF-8 bytes: scrubbed whole, then cut at a word boundary.

    The gate's text rules (order detection, facts, templates) then see at most ``limit`` bytes;
    the full scrubbed text is returned so the gate can archive it (the cut part stays
    restorable). Returns (full text or None, redactions in it, the entry to use).
    """
    if len(entry.summary) <= limit // 4 or len(entry.summary.encode("utf-8")) <= limit:
        return None, 0, entry
    full, found = scrub(entry.summary)
    head = full.encode("utf-8")[:limit].decode("utf-8", errors="ignore")
    cut = head.rsplit(None, 1)[0] if " " in head[-200:] or "\n" in head[-200:] else head
    return full, len(found), entry.replaced(summary=cut.rstrip() + " …")


def _shown_status(clean: SubtaskSummary) -> str:
    """The entry's own word: its status, or the verdict that kept a review entry out.

    A review entry rarely states a status; the ``complete`` that pydantic fills in would then
    contradict the ``NEEDS_REVISION`` verdict that stopped it.
    """
    if clean.verdict and (clean.status == "complete" or "status" not in clean.model_fields_set):
        return normalise_verdict(clean.verdict)
    return clean.status


def prepare_entries(
    request: GateRequest,
) -> tuple[list[Prepared], list[str], list[Unfinished], list[Prepared]]:
    """Preflight, score, hash and scrub every entry.

    Returns the compressible entries, the flags, the entries that stay unfinished (never
    compressed), and every entry with a review verdict (compressible or not). The hash is taken
    over the raw summary (before masking, so the key is stable); scoring and rendering see the scrubbed entry,
    as ``summarizer score`` and ``compress`` do.
    """
    out: list[Prepared] = []
    flags: list[str] = []
    unfinished: list[Unfinished] = []
    reviews: list[Prepared] = []
    for number, entry in enumerate(request.entries, start=1):
        phase = entry.phase or request.phase
        if not _PHASE_RE.fullmatch(phase):
            raise InputError(f"entry {number}: phase {phase!r} must be letters, digits, '.' or '_' (like 2a)")
        explicit = entry.subtask
        if explicit is not None and not _ID_RE.fullmatch(explicit):
            raise InputError(
                f"entry {number}: id/subtask {explicit!r} must be up to 64 letters, digits, '.', '_', "
                "':', '/', '-' or spaces, starting with a letter or digit"
            )
        if explicit is not None and scrub(explicit)[1]:
            raise InputError(f"entry {number}: its id/subtask looks like a secret; use a plain name")
        date = entry.date or request.date
        digest = content_hash(date, phase, entry.agent, entry.summary)
        full, cut_found, entry = _cut_summary(entry, request.max_summary_bytes)
        if full is not None:
            flags.append(
                f"entry {number} ({entry.agent}, phase {phase}): summary of {_size(full)} cut to "
                f"{_size(entry.summary)}; the full scrubbed text is archived in {full_summary_name(digest)}"
            )
        clean, redactions = scrub_entry(entry)
        score = score_entry(clean)
        if not score.compress or score.warning:
            flags.append(f"entry {number} ({entry.agent}, phase {phase}): " + "; ".join(score.flags))
        prepared = Prepared(
            index=number,
            phase=phase,
            date=date,
            score=score,
            clean=clean,
            digest=digest,
            title=clean.title or shorten(first_sentence(clean.summary), 60),
            redactions=len(redactions) + cut_found,
            explicit=explicit,
            full=full,
        )
        if clean.verdict:
            reviews.append(prepared)
        if not score.compress:
            who = clean.agent + (f" [{explicit}]" if explicit else "")
            unfinished.append(Unfinished(phase, date, who, _shown_status(clean), _reason(clean)))
            continue
        out.append(prepared)
    return out, flags, unfinished, reviews
