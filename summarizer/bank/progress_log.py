"""``02-progress-log.md``: one ``### YYYY-MM-DD — <phase>: <agent>`` section per compressed entry.

Section layout (C2: the IMPL archive; C3: the REVIEW line)::

    ### 2026-06-20 — 1: hermes
    <!-- bank:h=0123456789abcdef -->
    - HIGH 0.74 · auth-jwt · complete
    - Files: backend/routers/auth.py, backend/services/auth_service.py
    - Tests: 12 passed
    - [hermes] — Added JWT auth endpoint with refresh token rotation — auth.py, auth_service.py
    - Impl: IMPL-phase1-hermes.md archived
    **Review:** APPROVED — REVIEW-phase1.md (critical issues: 0)

Idempotency (seed §17, SPEC.md): the heading is the key. A section we wrote carries the content
hash on its marker line; same hash: skip; new hash: its generated lines are replaced in place and
the lines added later (``- Impl:``, ``**Review:**``, ``- Discussion:``) are kept. A section without a
marker was written by hand: it is never rewritten, only missing Impl/Review lines are added. A
``**Review:**`` line is skipped when the section already has one with the same text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from summarizer.bank.markdown import BankFormatError

__all__ = ["LogSection", "ProgressLog", "parse_progress_log", "render_progress_log", "section_heading"]

TITLE = "# Progress Log"
_HEADING_RE = re.compile(r"^### (\d{4}-\d{2}-\d{2}) — (\S+): (.+?)\s*$")
_MARKER_RE = re.compile(r"^<!-- bank:h=([0-9a-f]{16}) -->$")
_EXTRA_PREFIXES = ("- Impl:", "**Review:**", "- Discussion:", "- Plan:")


def section_heading(date: str, phase: str, agent: str) -> str:
    """The seed's heading, which is also the section's idempotency key."""
    return f"### {date} — {phase}: {agent}"


def is_extra(line: str) -> bool:
    """Lines appended by artifact processing, which survive a replacement of the section."""
    return line.startswith(_EXTRA_PREFIXES)


@dataclass(slots=True)
class LogSection:
    """One ``### `` section. ``digest`` is None for hand-written or foreign sections."""

    heading: str
    digest: str | None = None
    body: list[str] = field(default_factory=list)  # generated lines (ours) or verbatim lines
    extras: list[str] = field(default_factory=list)

    @property
    def keyed(self) -> bool:
        """Whether the heading follows the seed's ``date — phase: agent`` form."""
        return _HEADING_RE.match(self.heading) is not None

    def add_extra(self, line: str) -> bool:
        """Append ``line`` unless the section already has it; True when added."""
        if line in self.extras or line in self.body:
            return False
        self.extras.append(line)
        return True

    def render(self) -> list[str]:
        """Lines of the section, heading first."""
        marker = [f"<!-- bank:h={self.digest} -->"] if self.digest else []
        body = list(self.body)
        while body and not body[-1].strip():
            body.pop()
        return [self.heading, *marker, *body, *self.extras]


@dataclass(slots=True)
class ProgressLog:
    """The parsed log: preamble lines then sections, in file order."""

    preamble: list[str] = field(default_factory=lambda: [TITLE])
    sections: list[LogSection] = field(default_factory=list)

    def find(self, heading: str) -> LogSection | None:
        """The section with exactly this heading."""
        for section in self.sections:
            if section.heading == heading:
                return section
        return None

    def upsert(self, heading: str, digest: str, body: list[str]) -> str:
        """Write our generated lines under ``heading``: "added", "replaced", "unchanged" or "manual"."""
        section = self.find(heading)
        if section is None:
            self.sections.append(LogSection(heading, digest, body))
            return "added"
        if section.digest is None:
            return "manual"
        if section.digest == digest:
            return "unchanged"
        section.digest, section.body = digest, body
        return "replaced"


def parse_progress_log(text: str | None, *, path: Path | str) -> ProgressLog:
    """Parse the log (``None`` = absent). A repeated keyed heading is an error naming its line."""
    log = ProgressLog()
    if text is None:
        return log
    lines = text.split("\n")
    log.preamble = []
    current: LogSection | None = None
    seen: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        if line.startswith("### "):
            heading = line.rstrip()
            if _HEADING_RE.match(heading) and heading in seen:
                raise BankFormatError(path, number, f"heading {heading!r} repeats line {seen[heading]}")
            seen[heading] = number
            current = LogSection(heading)
            log.sections.append(current)
            continue
        if current is None:
            log.preamble.append(line)
            continue
        marker = _MARKER_RE.match(line.strip())
        if marker and not current.body and not current.extras and current.digest is None:
            current.digest = marker.group(1)
        elif line.startswith("<!-- bank:"):
            raise BankFormatError(path, number, f"malformed section marker {line.strip()!r}")
        elif is_extra(line):
            current.extras.append(line)
        else:
            current.body.append(line)
    return log


def render_progress_log(log: ProgressLog) -> str:
    """The whole file; one blank line between sections."""
    preamble = list(log.preamble)
    while preamble and not preamble[-1].strip():
        preamble.pop()
    out = preamble or [TITLE]
    for section in log.sections:
        out.extend(["", *section.render()])
    return "\n".join(out).rstrip("\n") + "\n"
