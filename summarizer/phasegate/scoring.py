"""Priority scoring: the deterministic, keyword-driven engine of docs/phase-gate.md.

    score = 0.30 impact + 0.25 risk + 0.20 novelty + 0.15 blockers + 0.10 downstream

* impact / risk / novelty: the maximum over the concepts of :mod:`summarizer.phasegate.keywords` found in the
  summary (and title); 0.0 when none matches. File paths count only through the file-count rule:
  5 or more files raise novelty to at least 0.8, 10 or more to 1.0 (never lowering it).
* blockers: 1.0 when the entry unblocked others (an ``unblocks`` field, or unblock/unblocked in the
  text); 0.6 when it was itself blocked and is now complete (a ``blockers`` field, or "was blocked",
  "blocked by", with status ``complete``); otherwise 0.0.
* downstream: the agent-pair table below; 0.5 for an unknown or missing agent; the max over several
  next agents.

The weighted sum is computed in :class:`~decimal.Decimal` and rounded half-up to 2 decimals *before*
banding, so 0.745 is CRITICAL while binary floats would make it 0.74 (HIGH). Bands: CRITICAL >= 0.75,
HIGH >= 0.50, MEDIUM >= 0.25, LOW below.

The safety preflight runs with the score: ``in_progress``, ``blocked``, ``escalated``,
``needs_revision`` and ``failed`` entries (or a NEEDS_REVISION/FAILED verdict) are never compressed,
only flagged; ``partial`` entries are compressed, flagged with a warning sign and banded at least
MEDIUM. Everything here is pure: values in, values out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from summarizer.core.vocabulary import BANDS, WARNING_SIGN, Band
from summarizer.phasegate.entry_rules import EntryLike
from summarizer.phasegate.keywords import Concept, find_concepts

__all__ = [
    "AGENTS",
    "BANDS",
    "DOWNSTREAM",
    "NEVER_COMPRESS",
    "WARNING_SIGN",
    "WEIGHTS",
    "Band",
    "Dimensions",
    "Preflight",
    "Score",
    "band_for",
    "blockers_score",
    "downstream_relevance",
    "file_novelty",
    "preflight",
    "round_score",
    "score_entry",
]

_THRESHOLDS: tuple[tuple[Decimal, Band], ...] = (
    (Decimal("0.75"), "CRITICAL"),
    (Decimal("0.50"), "HIGH"),
    (Decimal("0.25"), "MEDIUM"),
)
_RANK: dict[Band, int] = {"CRITICAL": 3, "HIGH": 2, "MEDIUM": 1, "LOW": 0}

WEIGHTS: dict[str, Decimal] = {
    "impact": Decimal("0.30"),
    "risk": Decimal("0.25"),
    "novelty": Decimal("0.20"),
    "blockers": Decimal("0.15"),
    "downstream": Decimal("0.10"),
}

NEVER_COMPRESS = frozenset({"in_progress", "blocked", "escalated", "needs_revision", "failed"})
_BAD_VERDICTS = frozenset({"needs_revision", "failed"})

AGENTS: tuple[str, ...] = (
    "hermes",
    "aphrodite",
    "demeter",
    "themis",
    "mnemosyne",
    "hephaestus",
    "prometheus",
)
# Downstream relevance: rows = from agent, columns = to agent (order of AGENTS).
_TABLE: dict[str, tuple[float, ...]] = {
    "hermes": (1.0, 0.9, 0.8, 0.7, 0.3, 0.6, 0.5),
    "aphrodite": (0.9, 1.0, 0.3, 0.7, 0.3, 0.5, 0.3),
    "demeter": (0.9, 0.3, 1.0, 0.7, 0.3, 0.6, 0.6),
    "themis": (0.8, 0.8, 0.8, 1.0, 0.5, 0.8, 0.8),
    "hephaestus": (0.6, 0.5, 0.6, 0.7, 0.3, 1.0, 0.4),
    "prometheus": (0.6, 0.4, 0.6, 0.7, 0.3, 0.4, 1.0),
    "mnemosyne": (0.3, 0.3, 0.3, 0.5, 1.0, 0.3, 0.3),
}
DOWNSTREAM: dict[str, dict[str, float]] = {
    src: dict(zip(AGENTS, row, strict=True)) for src, row in _TABLE.items()
}
UNKNOWN_DOWNSTREAM = 0.5

_UNBLOCKED = re.compile(r"\bunblock(?:s|ed|ing)?\b", re.IGNORECASE)
# "not blocked by anything" is no blocker: the lookbehinds reject a negation right before.
_WAS_BLOCKED = re.compile(
    r"\b(?:was|were|had been|previously|been) blocked\b|(?<![\w-])(?<!not )(?<!never )blocked (?:by|on)\b",
    re.IGNORECASE,
)
_CENT = Decimal("0.01")
_DEC_CACHE: dict[float, Decimal] = {}
_KEYWORD_DIMS: dict[tuple[str, ...], tuple[float, float, float]] = {}
_ROUNDED: dict[tuple[float, ...], tuple[float, Band]] = {}
# Bounded by the agent names a caller uses; a stream of made-up names could grow it, hence the cap.
_DOWNSTREAM_CACHE: dict[tuple[str | None, tuple[str, ...]], float] = {}
_PREFLIGHT: dict[tuple[str, str | None, str | None], Preflight] = {}


def _dec(value: float) -> Decimal:
    # repr() gives the shortest decimal that round-trips (0.9 -> "0.9"), so table values stay exact.
    cached = _DEC_CACHE.get(value)
    if cached is None:
        cached = _DEC_CACHE[value] = Decimal(repr(value))
    return cached


def round_score(raw: Decimal | float | str) -> Decimal:
    """Round a raw score half-up to 2 decimals (``0.745 -> 0.75``, ``0.7449 -> 0.74``).

    Floats are read through ``repr`` so that ``0.745`` means the decimal 0.745, not the binary
    0.74499999... it is stored as.
    """
    value = raw if isinstance(raw, Decimal) else Decimal(repr(raw) if isinstance(raw, float) else raw)
    return value.quantize(_CENT, rounding=ROUND_HALF_UP)


def band_for(score: Decimal | float | str) -> Band:
    """Band of a score after half-up rounding: CRITICAL >= 0.75, HIGH >= 0.50, MEDIUM >= 0.25, else LOW."""
    rounded = round_score(score)
    for threshold, band in _THRESHOLDS:
        if rounded >= threshold:
            return band
    return "LOW"


def file_novelty(n_files: int, keyword_novelty: float) -> float:
    """Apply the file-count rule: >= 5 files -> at least 0.8, >= 10 -> 1.0; never lowers novelty."""
    if n_files >= 10:
        return 1.0
    if n_files >= 5:
        return max(0.8, keyword_novelty)
    return keyword_novelty


def blockers_score(entry: EntryLike) -> float:
    """1.0 if the entry unblocked others, 0.6 if it was blocked and is now complete, else 0.0."""
    text = _scanned_text(entry)
    # A substring test first: almost no entry mentions blocking, and the regexes cost more.
    mentions = "block" in text.lower()
    if entry.unblocks or (mentions and _UNBLOCKED.search(text)):
        return 1.0
    if entry.status == "complete" and (entry.blockers or (mentions and _WAS_BLOCKED.search(text))):
        return 0.6
    return 0.0


def downstream_relevance(from_agent: str | None, to_agents: Iterable[str]) -> float:
    """Look up the agent-pair table; 0.5 for unknown agents or no next agent; max over several."""
    row = DOWNSTREAM.get((from_agent or "").strip().lower())
    values = [
        row.get(to.strip().lower(), UNKNOWN_DOWNSTREAM) if row else UNKNOWN_DOWNSTREAM
        for to in to_agents
        if to.strip()
    ]
    return max(values, default=UNKNOWN_DOWNSTREAM)


@dataclass(frozen=True, slots=True)
class Preflight:
    """The safety preflight's verdict: may the entry be compressed, and what to flag."""

    compress: bool
    warning: bool
    flag: str | None


def preflight(status: str, verdict: str | None = None, note: str | None = None) -> Preflight:
    """Never compress in_progress/blocked/escalated/needs_revision/failed; compress partial with a warning."""
    why = f" ({note})" if note else ""
    verdict_key = (verdict or "").strip().lower().replace(" ", "_")
    if status in NEVER_COMPRESS:
        return Preflight(False, False, f"not compressed: status {status!r}{why}; flag to the orchestrator")
    if verdict_key in _BAD_VERDICTS:
        return Preflight(False, False, f"not compressed: verdict {verdict!r}; leave the review in .tmp/")
    if status == "partial":
        return Preflight(True, True, f"{WARNING_SIGN} partial{why}: compressed, banded at least MEDIUM")
    return Preflight(True, False, None)


@dataclass(frozen=True, slots=True)
class Dimensions:
    """The five dimension values (0.0-1.0) that the weighted sum combines."""

    impact: float
    risk: float
    novelty: float
    blockers: float
    downstream: float

    def weighted(self) -> Decimal:
        """The exact (unrounded) weighted sum."""
        return (
            WEIGHTS["impact"] * _dec(self.impact)
            + WEIGHTS["risk"] * _dec(self.risk)
            + WEIGHTS["novelty"] * _dec(self.novelty)
            + WEIGHTS["blockers"] * _dec(self.blockers)
            + WEIGHTS["downstream"] * _dec(self.downstream)
        )

    def as_dict(self) -> dict[str, float]:
        """Plain mapping, in weight order."""
        return {
            "impact": self.impact,
            "risk": self.risk,
            "novelty": self.novelty,
            "blockers": self.blockers,
            "downstream": self.downstream,
        }


@dataclass(frozen=True, slots=True)
class Score:
    """The result of scoring one entry: the number, the band, and why.

    ``priority`` is the band used downstream (raised to MEDIUM for partial entries); ``band`` is
    the band of the number alone. ``compress`` is False for entries the preflight protects.
    """

    score: float
    priority: Band
    band: Band
    dimensions: Dimensions
    keywords: tuple[str, ...]
    files: int
    to_agents: tuple[str, ...]
    compress: bool = True
    warning: bool = False
    flags: tuple[str, ...] = field(default=())

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready mapping (what ``summarizer score --json`` prints)."""
        return {
            "score": self.score,
            "priority": self.priority,
            "band": self.band,
            "dimensions": self.dimensions.as_dict(),
            "weights": {k: float(v) for k, v in WEIGHTS.items()},
            "keywords": list(self.keywords),
            "files": self.files,
            "to_agents": list(self.to_agents),
            "compress": self.compress,
            "warning": self.warning,
            "flags": list(self.flags),
        }


def _keyword_dimensions(concepts: tuple[Concept, ...], key: tuple[str, ...]) -> tuple[float, float, float]:
    # Per dimension, the max over every matched concept (docs/phase-gate.md, "Scoring"). Memoised by
    # names: hashing the Concept rows themselves would cost more than the max() it saves.
    cached = _KEYWORD_DIMS.get(key)
    if cached is None:
        cached = (
            max((c.impact for c in concepts), default=0.0),
            max((c.risk for c in concepts), default=0.0),
            max((c.novelty for c in concepts), default=0.0),
        )
        if len(_KEYWORD_DIMS) < 65536:
            _KEYWORD_DIMS[key] = cached
    return cached


def _rounded_and_band(dims: Dimensions) -> tuple[float, Band]:
    # Dimension values come from small finite sets, so a batch reuses a few hundred results; the
    # key is a plain tuple because hashing the dataclass costs more than the Decimal sum it saves.
    key = (dims.impact, dims.risk, dims.novelty, dims.blockers, dims.downstream)
    cached = _ROUNDED.get(key)
    if cached is None:
        rounded = round_score(dims.weighted())
        cached = (float(rounded), band_for(rounded))
        if len(_ROUNDED) < 65536:
            _ROUNDED[key] = cached
    return cached


def _scanned_text(entry: EntryLike) -> str:
    return f"{entry.summary}\n{entry.title}" if entry.title else entry.summary


def score_entry(entry: EntryLike, to: str | Iterable[str] | None = None) -> Score:
    """Score one entry; ``to`` overrides the entry's ``to_agent`` (one agent or several).

    >>> from summarizer.phasegate.models import SubtaskSummary
    >>> e = SubtaskSummary(summary="Added JWT auth endpoint with refresh token rotation",
    ...                    files_changed=("a.py", "b.py"), from_agent="hermes", to_agent="aphrodite")
    >>> s = score_entry(e); (s.score, s.priority)
    (0.74, 'HIGH')
    """
    if to is None:
        to_agents = entry.to_agent
    elif isinstance(to, str):
        to_agents = tuple(t.strip().lower() for t in to.split(",") if t.strip())
    else:
        to_agents = tuple(t.strip().lower() for t in to if t.strip())
    concepts = find_concepts(_scanned_text(entry))
    names = tuple(c.name for c in concepts)
    impact, risk, novelty = _keyword_dimensions(concepts, names)
    downstream_key = (entry.from_agent, to_agents)
    downstream = _DOWNSTREAM_CACHE.get(downstream_key)
    if downstream is None:
        downstream = downstream_relevance(entry.from_agent, to_agents)
        if len(_DOWNSTREAM_CACHE) < 4096:
            _DOWNSTREAM_CACHE[downstream_key] = downstream
    dims = Dimensions(
        impact=impact,
        risk=risk,
        novelty=file_novelty(len(entry.files_changed), novelty),
        blockers=blockers_score(entry),
        downstream=downstream,
    )
    rounded, band = _rounded_and_band(dims)
    preflight_key = (entry.status, entry.verdict, entry.status_note)
    check = _PREFLIGHT.get(preflight_key)
    if check is None:
        check = preflight(*preflight_key)
        if len(_PREFLIGHT) < 4096:
            _PREFLIGHT[preflight_key] = check
    priority: Band = "MEDIUM" if check.warning and _RANK[band] < _RANK["MEDIUM"] else band
    return Score(
        score=rounded,
        priority=priority,
        band=band,
        dimensions=dims,
        keywords=names,
        files=len(entry.files_changed),
        to_agents=to_agents,
        compress=check.compress,
        warning=check.warning,
        flags=(check.flag,) if check.flag else (),
    )
