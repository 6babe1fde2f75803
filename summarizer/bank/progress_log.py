"""``02-progress-log.md``: one ``### YYYY-MM-DD — <phase>: <agent>`` section per compressed entry.

Section layout (C2: the IMPL archive; C3: the REVIEW line)::

    ### 2026-06-20 — 1: hermes
    - HIGH 0.74 · auth-jwt · complete
    - Files: backend/routers/auth.py, backend/services/auth_service.py
    - Tests: 12 passed
    - [hermes] — Added JWT auth endpoint with refresh token rotation — auth.py, auth_service.py
    - Impl: IMPL-phase1-hermes.md archived
    **Review:** APPROVED — REVIEW-phase1.md (critical issues: 0)

An agent's second and later subtasks of a phase get their own section, ``### 2026-06-20 — 1:
hermes #2`` (or ``hermes [login-api]`` for an explicit id); the first keeps the plain heading.

Idempotency: the heading is the key. The content hash of a section we wrote
is kept in the sidecar state file with its generated lines (the previous version kept it in a
``<!-- bank:h=... -->`` marker line, still read); same hash: skip; new hash: its generated lines are
replaced in place and the lines added later (``- Impl:``, ``**Review:**``, ``- Discussion:``) are
kept. A section the sidecar does not know was written by hand: it is never rewritten, only missing
Impl/Review lines are added. A ``**Review:**`` line is skipped when the section already has one
with the same text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from summarizer.bank.entry import Repair, block_digest, subtask_label
from summarizer.bank.markdown import BankFormatError

__all__ = ["LogSection", "ProgressLog", "parse_progress_log", "render_progress_log", "section_heading"]

Known = Mapping[str, list[tuple[str, str]]]  # heading -> [(content hash, digest of the generated lines)]

TITLE = "# Progress Log"
_HEADING_RE = re.compile(r"^### (\d{4}-\d{2}-\d{2}) — (\S+): (.+?)\s*$")
_MARKER_RE = re.compile(r"^<!-- bank:h=([0-9a-f]{16}) -->$")
_EXTRA_PREFIXES = ("- Impl:", "**Review:**", "- Discussion:", "- Plan:")


def section_heading(date: str, phase: str, agent: str, subtask: str = "#1") -> str:
    """The ``date — phase: agent`` heading (plus the subtask label after the first): the section's key."""
    return f"### {date} — {phase}: {agent}{subtask_label(subtask)}"


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
    cache: tuple[list[str], int, str] | None = field(default=None, repr=False, compare=False)

    @property
    def keyed(self) -> bool:
        """Whether the heading follows the ``date — phase: agent`` form."""
        return _HEADING_RE.match(self.heading) is not None

    def add_extra(self, line: str) -> bool:
        """Append ``line`` unless the section already has it; True when added."""
        if line in self.extras or line in self.body:
            return False
        self.extras.append(line)
        return True

    def generated(self) -> tuple[str, ...]:
        """The body without trailing blank lines (what the sidecar records for our sections)."""
        end = len(self.body)
        while end and not self.body[end - 1].strip():
            end -= 1
        return tuple(self.body[:end])

    def shown(self) -> str:
        """Digest of :meth:`generated`, cached: a gate asks for it several times per section."""
        if self.cache is None or self.cache[0] is not self.body or self.cache[1] != len(self.body):
            self.cache = (self.body, len(self.body), block_digest(self.generated()))
        return self.cache[2]

    def render(self) -> list[str]:
        """Lines of the section, heading first."""
        return [self.heading, *self.generated(), *self.extras]


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

    def remove(self, heading: str) -> bool:
        """Drop our section ``heading`` unless artifact lines (Impl/Review) hang on it; True if dropped."""
        section = self.find(heading)
        if section is None or section.digest is None or section.extras:
            return False
        self.sections.remove(section)
        return True

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


def _adopt(section: LogSection, known: Known) -> None:
    """Give a section the digest of its sidecar record: the one whose lines it shows (see state_file)."""
    candidates = known.get(section.heading)
    if not candidates or section.digest is not None:
        return
    shown = section.shown()
    section.digest = next((d for d, body in candidates if body == shown), candidates[0][0])


def parse_progress_log(
    text: str | None, *, path: Path | str, known: Known | None = None, repairs: list[Repair] | None = None
) -> ProgressLog:
    """Parse the log (``None`` = absent). A repeated keyed heading is an error naming its line.

    With ``repairs`` (``gate --repair``) the later section is removed and recorded there instead.

    ``known`` maps our headings to their sidecar records (current first); a section with a
    ``<!-- bank:h=... -->`` marker line (previous version) takes its digest from the marker.
    """
    log = ProgressLog()
    if text is None:
        return log
    lines = text.split("\n")
    log.preamble = []
    current: LogSection | None = None
    seen: dict[str, int] = {}
    removed: list[tuple[int, LogSection]] = []
    for number, line in enumerate(lines, start=1):
        if line.startswith("### "):
            heading = line.rstrip()
            if _HEADING_RE.match(heading) and heading in seen:
                problem = f"heading {heading!r} repeats line {seen[heading]}"
                if repairs is None:
                    raise BankFormatError(
                        path, number, f"{problem}; `summarizer gate --repair` removes the later section"
                    )
                current = LogSection(heading)  # collected, not kept
                repairs.append(Repair(f"{path}:{number}: removed a section whose {problem}", lines=()))
                removed.append((len(repairs) - 1, current))
                continue
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
    for at, section in removed:
        assert repairs is not None
        repairs[at] = replace(repairs[at], lines=tuple(section.render()))
    for section in log.sections:
        _adopt(section, known or {})
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
