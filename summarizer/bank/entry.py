"""One compressed entry as the bank stores it, and the content hash that keys idempotency.

An entry in ``## Completed Phases`` is a bullet a person could have written: band, score, date,
agent (with its subtask when the agent has several), next agents, status, and the rendered summary
lines. Its structured fields (content hash, budget cost, files, tests, ...) live in the sidecar
state file (:mod:`summarizer.bank.state_file`), keyed by the entry's key, never in the markdown.
Only the fields Layer 1 of the bank allows are stored (dates, phase, agent names, status, verdicts,
file paths, test counts) plus the rendered, scrubbed summary lines; the raw summary never is.

The key is (date, phase, agent, subtask). ``subtask`` is the entry's explicit ``id``/``subtask``
(shown as ``hermes [login-api]``) or a position ``#n`` among the agent's entries (``hermes #2``;
``#1`` is not shown, so a bank written before subtasks existed reads the same).

Rendering, one entry (1-line bands keep their text on the header line)::

    - **CRITICAL 0.82** 2026-06-20 · hermes → aphrodite · complete
      - What changed: ...
      - To next agent: ...
      - Gotcha: ...
    - **MEDIUM 0.45** 2026-06-20 · demeter #2 · complete — [demeter] — Added ...

Banks written by the previous version carried a ``<!-- bank:{json} -->`` marker on each header
line; :func:`parse_marked_block` still reads it, so such a bank migrates on its first gate.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from summarizer.bank.markdown import BankFormatError
from summarizer.core.vocabulary import BANDS, Band

__all__ = [
    "MARKER_RE",
    "WHO_RE",
    "Band",
    "BankEntry",
    "EntryKey",
    "Repair",
    "block_digest",
    "content_hash",
    "format_cost",
    "normalise_verdict",
    "parse_header",
    "parse_marked_block",
    "subtask_label",
]

EntryKey = tuple[str, str, str, str]  # (date, phase, agent, subtask)
MARKER_RE = re.compile(r"\s*<!-- bank:(\{.*\}) -->\s*$")
FIRST = "#1"
_WARN = "⚠️ "
_HEADER_RE = re.compile(
    r"^- \*\*(CRITICAL|HIGH|MEDIUM|LOW) \d+\.\d\d\*\* (\d{4}-\d{2}-\d{2}) · (.+?)(?: → [^·]+?)? · "
    r"(?:⚠️ )?[a-z_]+(?: · [A-Z][A-Z _]*)?(?: — .*)?$"
)
WHO_RE = re.compile(r"^(.+?)(?: (#\d+)| \[([^\]]+)\])?$")


def block_digest(lines: list[str] | tuple[str, ...]) -> str:
    """First 16 hex of sha256 over text lines: how the sidecar recognises a block or a section."""
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()[:16]


def content_hash(date: str, phase: str, agent: str, summary: str) -> str:
    """First 16 hex of sha256 over the canonical JSON of ``[date, phase, agent, summary]``.

    Idempotency: taken before masking and scrubbing, so the same input always maps to
    the same hash whatever the renderer does.
    """
    canonical = json.dumps([date, phase, agent, summary], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


def format_cost(value: float) -> str:
    """Budget-lines without a useless ``.0`` (``3``, ``0.5``, ``5.5``)."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def subtask_label(subtask: str) -> str:
    """How the subtask shows after the agent: nothing for ``#1``, `` #2``, or `` [login-api]``."""
    if subtask == FIRST:
        return ""
    return f" {subtask}" if subtask[:1] == "#" and subtask[1:].isdigit() else f" [{subtask}]"


@dataclass(frozen=True, slots=True)
class BankEntry:
    """A compressed entry: key (date, phase, agent, subtask), hash, band, budget cost and lines."""

    date: str
    phase: str
    agent: str
    digest: str
    band: Band
    score: float
    cost: float
    lines: tuple[str, ...]
    feature: str = "default"
    status: str = "complete"
    to_agents: tuple[str, ...] = ()
    files: tuple[str, ...] = ()
    tests: str | None = None
    coverage: str | None = None
    verdict: str | None = None
    critical_issues: int | None = None
    title: str = ""
    trimmed: bool = False
    subtask: str = FIRST
    note: str | None = None  # why a partial entry is not complete ("waiting on API")

    @property
    def key(self) -> EntryKey:
        """The idempotency key."""
        return (self.date, self.phase, self.agent, self.subtask)

    @property
    def who(self) -> str:
        """The agent with its subtask label (``hermes #2``)."""
        return self.agent + subtask_label(self.subtask)

    def record(self) -> dict[str, Any]:
        """The entry's fields for the sidecar state file (short keys, empty values left out)."""
        payload: dict[str, Any] = {
            "d": self.date,
            "p": self.phase,
            "a": self.agent,
            "t": self.subtask,
            "h": self.digest,
            "f": self.feature,
            "b": self.band,
            "s": self.score,
            "c": self.cost,
            "st": self.status,
            "r": block_digest(self.render()),
        }
        optional: dict[str, Any] = {
            "to": list(self.to_agents),
            "files": list(self.files),
            "tests": self.tests,
            "cov": self.coverage,
            "verdict": self.verdict,
            "ci": self.critical_issues,
            "title": self.title,
            "trim": self.trimmed,
            "note": self.note,
        }
        payload.update({k: v for k, v in optional.items() if v not in (None, [], "", False)})
        return payload

    def render(self) -> list[str]:
        """The bullet lines for ``## Completed Phases`` (and the archive)."""
        who = self.who + (" → " + ", ".join(self.to_agents) if self.to_agents else "")
        status = (_WARN if self.status == "partial" else "") + self.status
        verdict = f" · {normalise_verdict(self.verdict)}" if self.verdict else ""
        head = f"- **{self.band} {self.score:.2f}** {self.date} · {who} · {status}{verdict}"
        if len(self.lines) == 1:
            return [f"{head} — {self.lines[0]}"]
        return [head, *(f"  - {line}" for line in self.lines)]


@dataclass(frozen=True, slots=True)
class Repair:
    """One change ``gate --repair`` made: what it says, and the entry or section lines it removed."""

    message: str
    entry: BankEntry | None = None
    lines: tuple[str, ...] = ()


_APPROVED = {"approved", "approve", "lgtm", "accepted", "pass", "passed"}
_CHANGES = {
    "request_changes",
    "requested_changes",
    "changes_requested",
    "needs_revision",
    "needs_changes",
    "rejected",
    "revise",
}


def normalise_verdict(raw: str) -> str:
    """A review verdict as people write it: ``APPROVED``, ``REQUEST CHANGES``, else the words upper-cased."""
    key = "_".join(re.findall(r"[a-z]+", raw.lower()))
    if key in _APPROVED:
        return "APPROVED"
    if key in _CHANGES:
        return "REQUEST CHANGES"
    return " ".join(re.findall(r"[A-Za-z]+", raw)).upper() or "UNKNOWN"


def parse_header(line: str) -> tuple[str, str, str] | None:
    """``(date, agent, subtask)`` of an entry's header line, or None if it is not one of ours."""
    match = _HEADER_RE.match(line)
    if match is None:
        return None
    who = WHO_RE.match(match.group(3))
    if who is None:  # pragma: no cover - the pattern matches any non-empty text
        return None
    subtask = who.group(2) or who.group(3) or FIRST
    return match.group(2), who.group(1), subtask


def visible_lines(block: list[str]) -> tuple[str, ...]:
    """The rendered summary lines of a block: the header's text after `` — ``, or its sub-bullets."""
    if len(block) == 1:
        _, sep, text = MARKER_RE.sub("", block[0]).partition(" — ")
        return (text.strip(),) if sep else ()
    return tuple(part.strip()[2:].strip() for part in block[1:])


def _text(payload: dict[str, Any], name: str, *, path: Path | str, line: int | None) -> str:
    value = payload.get(name)
    if not isinstance(value, str) or not value:
        raise BankFormatError(path, line, f"entry record lacks a text field {name!r}")
    return value


def from_record(
    payload: object, *, path: Path | str, line: int | None, lines: tuple[str, ...] = ()
) -> BankEntry:
    """Rebuild a :class:`BankEntry` from its record (sidecar) or its old marker payload.

    Neither holds the rendered lines: they are the markdown's, passed as ``lines``.
    """
    if not isinstance(payload, dict):
        raise BankFormatError(path, line, "an entry record must be a JSON object")
    band = payload.get("b")
    if band not in BANDS:
        raise BankFormatError(path, line, f"entry record has an unknown band {band!r}")
    score, cost = payload.get("s"), payload.get("c")
    if not isinstance(score, (int, float)) or not isinstance(cost, (int, float)) or cost < 0:
        raise BankFormatError(path, line, "entry record needs a numeric score 's' and cost 'c'")
    digest = _text(payload, "h", path=path, line=line)
    if not re.fullmatch(r"[0-9a-f]{16}", digest):
        raise BankFormatError(path, line, f"entry hash {digest!r} is not 16 hex digits")
    critical_issues = payload.get("ci")
    return BankEntry(
        date=_text(payload, "d", path=path, line=line),
        phase=_text(payload, "p", path=path, line=line),
        agent=_text(payload, "a", path=path, line=line),
        subtask=str(payload.get("t") or FIRST),
        digest=digest,
        band=band,
        score=float(score),
        cost=float(cost),
        lines=lines,
        feature=str(payload.get("f") or "default"),
        status=str(payload.get("st") or "complete"),
        to_agents=tuple(str(a) for a in payload.get("to", [])),
        files=tuple(str(f) for f in payload.get("files", [])),
        tests=payload.get("tests"),
        coverage=payload.get("cov"),
        verdict=payload.get("verdict"),
        critical_issues=critical_issues if isinstance(critical_issues, int) else None,
        title=str(payload.get("title") or ""),
        trimmed=bool(payload.get("trim", False)),
        note=payload.get("note") if isinstance(payload.get("note"), str) else None,
    )


def parse_marked_block(lines: list[str], *, path: Path | str, line: int) -> BankEntry:
    """Read an entry written by the previous version (``<!-- bank:{json} -->`` on its header)."""
    match = MARKER_RE.search(lines[0])
    if match is None:
        raise BankFormatError(path, line, "entry line lacks its <!-- bank:{...} --> marker")
    try:
        payload = json.loads(match.group(1))
    except json.JSONDecodeError as exc:
        raise BankFormatError(path, line, f"entry marker is not valid JSON ({exc.msg})") from exc
    visible = visible_lines(lines)
    if not visible:
        raise BankFormatError(path, line, "a one-line entry needs ' — ' before its text")
    return from_record(payload, path=path, line=line, lines=visible)
