"""The cross-reference index (``_xref/index.md``) and its ID counters (``_xref/_next_id.json``).

IDs are ``<prefix><4+ digits>``: D decision, E endpoint, M migration, C component. The counter
file holds the next number per prefix (``{"C": 1, "D": 1, "E": 3, "M": 1}``). An entity is
deduplicated by (type, normalised name), so a re-run finds the ID it allocated before and never
allocates a new one. Allocating an ID that the index already uses for a *different* entity
(a counter that was reset or edited by hand) is an error: silently reusing it would make two
entities share one reference.

The counter file is written before the index, so a crash between the two can only leave a gap
in the numbering, never a counter that points at a used ID.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from summarizer.bank.markdown import BankFormatError, around_table, render_table, split_sections, table_rows
from summarizer.core.errors import StorageError

__all__ = [
    "PREFIXES",
    "EntityRow",
    "FeatureRow",
    "LinkRow",
    "XrefIndex",
    "normalise_name",
    "parse_next_ids",
    "parse_xref",
    "render_next_ids",
    "render_xref",
]

Prefix = Literal["D", "E", "M", "C"]
PREFIXES: dict[str, Prefix] = {"endpoint": "E", "migration": "M", "component": "C", "decision": "D"}
TITLE = "# Cross-Reference Index"
FEATURE_COLUMNS = ("Feature", "Phase(s)", "Agent(s)", "Priority", "Summary")
ENTITY_COLUMNS = ("Entity ID", "Type", "Name", "Location", "Phase", "Agent")
LINK_COLUMNS = ("Ref ID", "Type", "Summary", "Links To", "Phase")
_ID_RE = re.compile(r"^([DEMC])(\d{4,})$")
_RANK = {"CRITICAL": 3, "HIGH": 2, "MEDIUM": 1, "LOW": 0}


def normalise_name(name: str) -> str:
    """Dedupe form of an entity name: case-folded, whitespace collapsed, no trailing slash."""
    return " ".join(name.casefold().split()).rstrip("/")


@dataclass(frozen=True, slots=True)
class FeatureRow:
    """A ``## By Feature`` row."""

    feature: str
    phases: tuple[str, ...]
    agents: tuple[str, ...]
    priority: str
    summary: str


@dataclass(frozen=True, slots=True)
class EntityRow:
    """A ``## By Entity`` row (endpoint, migration or component)."""

    ref: str
    type: str
    name: str
    location: str
    phase: str
    agent: str


@dataclass(frozen=True, slots=True)
class LinkRow:
    """A ``## Decision Links`` row (ADR/decision notes, blocked → unblocked links)."""

    ref: str
    type: str
    summary: str
    links_to: str
    phase: str


@dataclass(slots=True)
class XrefIndex:
    """The parsed index plus the counters; :meth:`allocate` is the only way to create an ID."""

    features: list[FeatureRow] = field(default_factory=list)
    entities: list[EntityRow] = field(default_factory=list)
    links: list[LinkRow] = field(default_factory=list)
    next_ids: dict[str, int] = field(default_factory=lambda: {p: 1 for p in "CDEM"})
    prose: dict[str, tuple[list[str], list[str]]] = field(default_factory=dict)
    preamble: list[str] = field(default_factory=lambda: [TITLE])
    raw: list[tuple[str, list[str]]] = field(default_factory=list)
    added: int = 0

    def _owner(self, ref: str) -> tuple[str, str] | None:
        for row in self.entities:
            if row.ref == ref:
                return (row.type, normalise_name(row.name))
        for link in self.links:
            if link.ref == ref:
                return (link.type, normalise_name(link.summary))
        return None

    def find(self, kind: str, name: str) -> str | None:
        """The ID already given to (kind, name), if any."""
        wanted = normalise_name(name)
        for row in self.entities:
            if row.type == kind and normalise_name(row.name) == wanted:
                return row.ref
        for link in self.links:
            if link.type == kind and normalise_name(link.summary) == wanted:
                return link.ref
        return None

    def _next(self, prefix: Prefix, kind: str, name: str) -> str:
        number = self.next_ids.get(prefix, 1)
        ref = f"{prefix}{number:04d}"
        owner = self._owner(ref)
        if owner is not None and owner != (kind, normalise_name(name)):
            raise StorageError(
                f"_xref/_next_id.json would reuse {ref} for {kind} {name!r}, but _xref/index.md already "
                f"gives {ref} to {owner[0]} {owner[1]!r}; set {prefix!r} in _next_id.json above the "
                "highest ID in use and re-run"
            )
        self.next_ids[prefix] = number + 1
        self.added += 1
        return ref

    def add_entity(self, kind: str, name: str, location: str, phase: str, agent: str) -> str:
        """The entity's ID: the existing one, or a newly allocated one with its row appended."""
        if (ref := self.find(kind, name)) is not None:
            return ref
        ref = self._next(PREFIXES[kind], kind, name)
        self.entities.append(EntityRow(ref, kind, name, location, f"P{phase}", agent))
        return ref

    def add_link(self, kind: str, summary: str, links_to: str, phase: str) -> str:
        """A Decision Links row (kind ``ADR``, ``decision`` or ``unblocked``), deduplicated likewise."""
        if (ref := self.find(kind, summary)) is not None:
            return ref
        ref = self._next("D", kind, summary)
        self.links.append(LinkRow(ref, kind, summary, links_to, f"P{phase}"))
        return ref

    def touch_feature(self, feature: str, phase: str, agents: list[str], priority: str, summary: str) -> None:
        """Merge a gate into the feature's row: phases and agents accumulate, the top priority wins."""
        for index, row in enumerate(self.features):
            if row.feature != feature:
                continue
            phases = row.phases + ((phase,) if phase not in row.phases else ())
            known = {a.casefold() for a in row.agents}  # a hand-written "Hermes" is our "hermes"
            merged = row.agents + tuple(a for a in dict.fromkeys(agents) if a.casefold() not in known)
            better = _RANK.get(priority, -1) > _RANK.get(row.priority, -1)
            self.features[index] = FeatureRow(
                feature,
                phases,
                merged,
                priority if better else row.priority,
                summary if better else row.summary,
            )
            return
        self.features.append(FeatureRow(feature, (phase,), tuple(dict.fromkeys(agents)), priority, summary))


def _check_ids(index: XrefIndex, rows: list[tuple[int, str, str, str]], path: Path | str) -> None:
    """IDs are well-formed, match their type's prefix and are unique (line, ref, type, name)."""
    seen: dict[str, tuple[int, str, str]] = {}
    for line, ref, kind, name in rows:
        match = _ID_RE.match(ref)
        if match is None:
            raise BankFormatError(path, line, f"reference ID {ref!r} is not like E0001")
        expected = PREFIXES.get(kind, "D")
        if match.group(1) != expected:
            raise BankFormatError(path, line, f"{kind} {name!r} needs a {expected}-prefixed ID, not {ref!r}")
        if ref in seen and seen[ref][1:] != (kind, normalise_name(name)):
            raise BankFormatError(
                path, line, f"ID {ref} is already used on line {seen[ref][0]} for another entity"
            )
        seen[ref] = (line, kind, normalise_name(name))


def parse_xref(
    text: str | None, next_ids_text: str | None, *, path: Path | str, ids_path: Path | str
) -> XrefIndex:
    """Parse the index and the counters (either may be absent)."""
    index = XrefIndex()
    if next_ids_text is not None:
        index.next_ids = parse_next_ids(next_ids_text, path=ids_path)
    if text is None:
        return index
    checked: list[tuple[int, str, str, str]] = []
    for section in split_sections(text):
        if section.title is None:
            index.preamble = list(section.lines)
        elif section.title == "By Feature":
            for _, c in table_rows(section, FEATURE_COLUMNS, path=path):
                index.features.append(FeatureRow(c[0], _split(c[1]), _split(c[2]), c[3], c[4]))
        elif section.title == "By Entity":
            for line, c in table_rows(section, ENTITY_COLUMNS, path=path):
                index.entities.append(EntityRow(*c))
                checked.append((line, c[0], c[1], c[2]))
        elif section.title == "Decision Links":
            for line, c in table_rows(section, LINK_COLUMNS, path=path):
                index.links.append(LinkRow(*c))
                checked.append((line, c[0], "decision", c[2]))
        else:  # a hand-written section: kept verbatim after the tables
            index.raw.append((section.title, list(section.lines)))
            continue
        if section.title is not None:
            index.prose[section.title] = around_table(section)
    _check_ids(index, checked, path)
    if next_ids_text is None:
        # No counter file (a hand-written index): start above the highest ID in use. A counter file
        # that exists and is behind stays an error (see XrefIndex._next), never silently healed.
        for _, ref, _, _ in checked:
            prefix, number = ref[0], int(ref[1:])
            index.next_ids[prefix] = max(index.next_ids.get(prefix, 1), number + 1)
    return index


def _split(value: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in value.split(",") if part.strip())


def parse_next_ids(text: str, *, path: Path | str) -> dict[str, int]:
    """``{"C": n, "D": n, "E": n, "M": n}``; anything else is a located error."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BankFormatError(path, exc.lineno, f"invalid JSON ({exc.msg})") from exc
    if not isinstance(raw, dict):
        raise BankFormatError(path, 1, 'must hold an object like {"E": 1}')
    out = {p: 1 for p in "CDEM"}
    for key, value in raw.items():
        if key not in out or not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise BankFormatError(
                path, 1, f"counter {key!r}: {value!r} must be a prefix C/D/E/M with an integer >= 1"
            )
        out[key] = value
    return out


def render_next_ids(next_ids: dict[str, int]) -> str:
    """The counter file's text (sorted keys, stable bytes)."""
    return json.dumps(dict(sorted(next_ids.items())), indent=2) + "\n"


def render_xref(index: XrefIndex) -> str:
    """The index file's text."""
    preamble = list(index.preamble)
    while preamble and not preamble[-1].strip():
        preamble.pop()
    out = preamble or [TITLE]
    tables = (
        (
            "By Feature",
            FEATURE_COLUMNS,
            [
                [r.feature, ", ".join(r.phases), ", ".join(r.agents), r.priority, r.summary]
                for r in index.features
            ],
        ),
        (
            "By Entity",
            ENTITY_COLUMNS,
            [[r.ref, r.type, r.name, r.location, r.phase, r.agent] for r in index.entities],
        ),
        (
            "Decision Links",
            LINK_COLUMNS,
            [[r.ref, r.type, r.summary, r.links_to, r.phase] for r in index.links],
        ),
    )
    for title, columns, rows in tables:
        before, after = index.prose.get(title, ([], []))
        before = [line for line in before if line.strip()]
        after = [line for line in after if line.strip()]
        out.extend(
            [
                "",
                f"## {title}",
                "",
                *before,
                *([""] if before else []),
                *render_table(columns, rows),
                *([""] if after else []),
                *after,
            ]
        )
    for title, lines in index.raw:
        body = list(lines)
        while body and not body[-1].strip():
            body.pop()
        out.extend(["", f"## {title}", *body])
    return "\n".join(out) + "\n"
