"""One compressed entry as the bank stores it, and the content hash that keys idempotency.

An entry in ``## Completed Phases`` is a bullet whose first line ends with a machine-readable
marker, ``<!-- bank:{json} -->``, holding the structured fields (key, hash, band, cost, files,
...). The visible text is for people and agents; the marker is what a re-run compares. Only the
fields the seed's Layer 1 allows are stored (dates, phase, agent names, status, verdicts, file
paths, test counts) plus the rendered, scrubbed summary lines; the raw summary never is.

Rendering, one entry (1-line bands keep their text on the header line)::

    - **CRITICAL 0.82** 2026-06-20 · hermes → aphrodite · complete <!-- bank:{...} -->
      - What changed: ...
      - To next agent: ...
      - Gotcha: ...
    - **MEDIUM 0.45** 2026-06-20 · demeter · complete — [demeter] — Added ... <!-- bank:{...} -->
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from summarizer.bank.markdown import BankFormatError
from summarizer.vocabulary import BANDS, Band

__all__ = ["MARKER_RE", "Band", "BankEntry", "content_hash", "format_cost", "parse_entry_block"]

MARKER_RE = re.compile(r"\s*<!-- bank:(\{.*\}) -->\s*$")
_WARN = "⚠️ "


def content_hash(date: str, phase: str, agent: str, summary: str) -> str:
    """First 16 hex of sha256 over the canonical JSON of ``[date, phase, agent, summary]``.

    SPEC.md "Idempotency": taken before masking and scrubbing, so the same input always maps to
    the same hash whatever the renderer does.
    """
    canonical = json.dumps([date, phase, agent, summary], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


def format_cost(value: float) -> str:
    """Budget-lines without a useless ``.0`` (``3``, ``0.5``, ``5.5``)."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


@dataclass(frozen=True, slots=True)
class BankEntry:
    """A compressed entry: key (date, phase, agent), hash, band, budget cost and rendered lines."""

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

    @property
    def key(self) -> tuple[str, str, str]:
        """The idempotency key."""
        return (self.date, self.phase, self.agent)

    def marker(self) -> str:
        """The ``<!-- bank:{...} -->`` marker; ``>`` is escaped so no value can close the comment."""
        payload: dict[str, Any] = {
            "d": self.date,
            "p": self.phase,
            "a": self.agent,
            "h": self.digest,
            "f": self.feature,
            "b": self.band,
            "s": self.score,
            "c": self.cost,
            "st": self.status,
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
        }
        payload.update({k: v for k, v in optional.items() if v not in (None, [], "", False)})
        text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        return "<!-- bank:" + text.replace(">", "\\u003e").replace("--", "-\\u002d") + " -->"

    def render(self) -> list[str]:
        """The bullet lines for ``## Completed Phases``."""
        who = self.agent + (" → " + ", ".join(self.to_agents) if self.to_agents else "")
        status = (_WARN if self.status == "partial" else "") + self.status
        head = f"- **{self.band} {self.score:.2f}** {self.date} · {who} · {status}"
        if len(self.lines) == 1:
            return [f"{head} — {self.lines[0]} {self.marker()}"]
        return [f"{head} {self.marker()}", *(f"  - {line}" for line in self.lines)]


def _text(payload: dict[str, Any], name: str, *, path: Path | str, line: int) -> str:
    value = payload.get(name)
    if not isinstance(value, str) or not value:
        raise BankFormatError(path, line, f"entry marker lacks a text field {name!r}")
    return value


def parse_entry_block(lines: list[str], *, path: Path | str, line: int) -> BankEntry:
    """Rebuild a :class:`BankEntry` from its header line and its ``  - `` continuation lines."""
    head = lines[0]
    match = MARKER_RE.search(head)
    if match is None:
        raise BankFormatError(path, line, "entry line lacks its <!-- bank:{...} --> marker")
    try:
        payload = json.loads(match.group(1))
    except json.JSONDecodeError as exc:
        raise BankFormatError(path, line, f"entry marker is not valid JSON ({exc.msg})") from exc
    if not isinstance(payload, dict):
        raise BankFormatError(path, line, "entry marker must hold a JSON object")
    band = payload.get("b")
    if band not in BANDS:
        raise BankFormatError(path, line, f"entry marker has an unknown band {band!r}")
    score, cost = payload.get("s"), payload.get("c")
    if not isinstance(score, (int, float)) or not isinstance(cost, (int, float)) or cost < 0:
        raise BankFormatError(path, line, "entry marker needs a numeric score 's' and cost 'c'")
    digest = _text(payload, "h", path=path, line=line)
    if not re.fullmatch(r"[0-9a-f]{16}", digest):
        raise BankFormatError(path, line, f"entry hash {digest!r} is not 16 hex digits")
    if len(lines) == 1:
        visible = head[: match.start()]
        _, sep, text = visible.partition(" — ")
        if not sep:
            raise BankFormatError(path, line, "a one-line entry needs ' — ' before its text")
        rendered: tuple[str, ...] = (text.strip(),)
    else:
        rendered = tuple(part.strip()[2:].strip() for part in lines[1:])
    critical_issues = payload.get("ci")
    return BankEntry(
        date=_text(payload, "d", path=path, line=line),
        phase=_text(payload, "p", path=path, line=line),
        agent=_text(payload, "a", path=path, line=line),
        digest=digest,
        band=band,
        score=float(score),
        cost=float(cost),
        lines=rendered,
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
    )
