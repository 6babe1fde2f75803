"""The ``.tmp/`` artifacts a gate processes (C2 IMPL, C3 REVIEW, C4 PLAN, DISC) and the safety rules.

Names (our convention for the artifact types; case-insensitive prefix)::

    IMPL-phase<P>[-<agent>].md    archived to the agent's 02-progress-log section, then deleted
    REVIEW-phase<P>[-<agent>].md  APPROVED: a **Review:** line (+ a Decision Links row when it has a
                                  ``## Decision`` section or an ADR reference), then deleted;
                                  NEEDS_REVISION / FAILED / no verdict: flagged, left in place
    PLAN-<feature>.md             the active plan: left alone, unless the gate is that feature's last
                                  (``--final``): a ``## Plans`` row, then deleted
    DISC-<name>.md                approved by the user: archived and deleted; REQUEST CHANGES:
                                  flagged, left; DISCARD: deleted, not archived; undecided: flagged
    ADR-*.md                      never compressed, never touched (flagged: ADRs belong in _notes/)
    ZZ-*.md, compress.lock, *.tmp the bank's own files: ignored here (ZZ files go at sprint close)
    anything else                 "unrecognised .tmp/ artifact": flagged, left in place

Artifacts naming another phase belong to another gate and are not looked at. Only structured facts
are promoted (Layer 1): the file name, the verdict, counts, the one decision sentence, the ADR path;
never the artifact's body.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

__all__ = ["Artifact", "ArtifactAction", "classify", "decide"]

Kind = Literal["IMPL", "REVIEW", "PLAN", "DISC", "ADR", "OWN", "UNKNOWN"]
_KINDS: dict[str, Kind] = {"IMPL": "IMPL", "REVIEW": "REVIEW", "PLAN": "PLAN", "DISC": "DISC"}
_NAME_RE = re.compile(r"^(IMPL|REVIEW|PLAN|DISC)(?:-phase([A-Za-z0-9.]+))?(?:-(.+?))?\.md$", re.IGNORECASE)
_VERDICT_LINE = re.compile(r"verdict\W{0,4}\s*(APPROVED|NEEDS[_ ]REVISION|FAILED)", re.IGNORECASE)
_VERDICT_ANY = re.compile(r"\b(APPROVED|NEEDS[_ ]REVISION|FAILED)\b")
_CRITICAL = re.compile(r"critical[_ ]issues?\W{0,3}\s*(\d+)", re.IGNORECASE)
_COVERAGE = re.compile(r"coverage\W{0,3}\s*(\d+(?:\.\d+)?\s*%)", re.IGNORECASE)
_ADR_REF = re.compile(r"(?<![\w/])((?:\.pantheon/memory-bank/)?_notes/ADR[\w.\-]*\.md|ADR-\d+[\w\-]*)")
_DISC = re.compile(r"\b(REQUEST[_ ]CHANGES|DISCARD(?:ED)?|APPROVED?)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Artifact:
    """A file found in ``.tmp/``: its name, parsed kind, phase and agent (if the name has them)."""

    name: str
    kind: Kind
    phase: str | None = None
    agent: str | None = None


@dataclass(frozen=True, slots=True)
class ArtifactAction:
    """What the gate does with one artifact; all text here is Layer 1 (structured facts only)."""

    artifact: Artifact
    delete: bool = False
    log_line: str | None = None  # appended to the progress-log section(s)
    decision: tuple[str, str, str] | None = None  # (type, summary, links_to) for Decision Links
    plan: bool = False
    flag: str | None = None
    verdict: str | None = None  # a REVIEW's verdict (APPROVED, NEEDS_REVISION, FAILED)
    details: str = ""  # "critical issues: 0, coverage: 87%"


def classify(name: str) -> Artifact:
    """Parse a ``.tmp/`` file name."""
    if name.startswith(("ZZ-", ".")) or name == "compress.lock" or name.endswith(".tmp"):
        return Artifact(name, "OWN")
    if name.upper().startswith("ADR"):
        return Artifact(name, "ADR")
    match = _NAME_RE.match(name)
    if match is None:
        return Artifact(name, "UNKNOWN")
    kind: Kind = _KINDS[match.group(1).upper()]
    agent = match.group(3).lower() if match.group(3) and kind != "PLAN" else None
    return Artifact(name, kind, match.group(2), agent if kind != "PLAN" else match.group(3))


def _verdict(text: str) -> str | None:
    match = _VERDICT_LINE.search(text) or _VERDICT_ANY.search(text)
    return match.group(1).upper().replace(" ", "_") if match else None


def _decision_sentence(text: str) -> str | None:
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if re.match(r"^#{2,3}\s+Decision\b", line, re.IGNORECASE):
            for following in lines[index + 1 :]:
                if following.startswith("#"):
                    break
                if following.strip():
                    sentence = following.strip().lstrip("-*• ").strip()
                    return sentence[:160]
    return None


def _review(artifact: Artifact, text: str) -> ArtifactAction:
    verdict = _verdict(text)
    details = []
    if match := _CRITICAL.search(text):
        details.append(f"critical issues: {match.group(1)}")
    if match := _COVERAGE.search(text):
        details.append(f"coverage: {match.group(1).replace(' ', '')}")
    if verdict != "APPROVED":
        why = f"verdict {verdict}" if verdict else "no verdict found"
        return ArtifactAction(
            artifact,
            flag=f"{artifact.name}: {why}; not compressed, left in .tmp/",
            verdict=verdict,
            details=", ".join(details),
        )
    line = f"**Review:** APPROVED — {artifact.name}" + (f" ({', '.join(details)})" if details else "")
    decision: tuple[str, str, str] | None = None
    adr = _ADR_REF.search(text)
    sentence = _decision_sentence(text)
    if sentence:
        decision = ("ADR" if adr else "decision", sentence, adr.group(1) if adr else "02-progress-log.md")
    elif adr:
        decision = ("ADR", f"ADR referenced by {artifact.name}", adr.group(1))
    return ArtifactAction(
        artifact, delete=True, log_line=line, decision=decision, verdict=verdict, details=", ".join(details)
    )


def _disc(artifact: Artifact, text: str) -> ArtifactAction:
    match = _DISC.search(text)
    word = match.group(1).upper().replace(" ", "_") if match else ""
    if word == "REQUEST_CHANGES":
        return ArtifactAction(
            artifact, flag=f"{artifact.name}: REQUEST CHANGES; flag to the user, not archived"
        )
    if word.startswith("DISCARD"):
        return ArtifactAction(artifact, delete=True)
    if word.startswith("APPROVE"):
        return ArtifactAction(
            artifact, delete=True, log_line=f"- Discussion: {artifact.name} approved by the user"
        )
    return ArtifactAction(artifact, flag=f"{artifact.name}: no user decision yet; left in .tmp/")


def decide(
    artifact: Artifact, text: str, *, phase: str, final: bool, feature: str = "default"
) -> ArtifactAction | None:
    """The action for one artifact at a gate of ``phase`` (None: not this gate's business).

    A ``PLAN-<name>.md`` belongs to the feature ``<name>`` (``PLAN.md``: to any feature).
    """
    if artifact.kind == "OWN":
        return None
    if artifact.kind == "UNKNOWN":
        return ArtifactAction(artifact, flag=f"unrecognised .tmp/ artifact {artifact.name!r}: left in place")
    if artifact.kind == "ADR":
        return ArtifactAction(
            artifact, flag=f"{artifact.name}: ADR notes are never compressed; move it to _notes/"
        )
    if artifact.kind in ("IMPL", "REVIEW", "DISC") and artifact.phase not in (None, phase):
        return None
    if artifact.kind == "IMPL":
        return ArtifactAction(artifact, delete=True, log_line=f"- Impl: {artifact.name} archived")
    if artifact.kind == "REVIEW":
        return _review(artifact, text)
    if artifact.kind == "DISC":
        return _disc(artifact, text)
    # PLAN: the current active plan is never compressed; archive it only at feature completion (C4).
    if not final or artifact.agent not in (None, feature):
        return None
    return ArtifactAction(artifact, delete=True, plan=True)
