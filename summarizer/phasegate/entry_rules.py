"""How a ``subtask_summary`` mapping is read: aliases, status words, agent and file lists.

These rules are the single source for two readers of the same shape:

* :class:`summarizer.phasegate.models.SubtaskSummary`, the boundary model, calls them from its validators;
* :func:`light_entry`, the cold path of ``summarizer score``, applies them without importing
  pydantic, because building the first pydantic model costs more than ten interpreter start-ups
  and ``summarizer score`` has a measured cold-start goal (``evals/bench_score.py``).

:func:`light_entry` only *accepts*: it returns ``None`` for anything it is not certain the model
would read identically (a bool where a number goes, an unknown key, an odd whitespace character),
and the caller then takes the pydantic path, which gives the authoritative value or error.
``tests/phasegate/test_light_entry.py`` checks with generated inputs that whatever it accepts, the
model accepts with equal fields.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

__all__ = [
    "ALIASES",
    "STATUSES",
    "TEXT_FROM_SCALARS",
    "EntryLike",
    "LightEntry",
    "Status",
    "agents_from",
    "canonical_mapping",
    "files_from",
    "flag_mapping",
    "light_entry",
    "lower_agent",
    "normalise_status",
    "scalar_to_text",
]

Status = Literal["complete", "partial", "in_progress", "blocked", "escalated", "needs_revision", "failed"]
STATUSES: tuple[Status, ...] = (
    "complete",
    "partial",
    "in_progress",
    "blocked",
    "escalated",
    "needs_revision",
    "failed",
)

_STATUS_SYNONYMS: dict[str, Status] = {
    "complete": "complete",
    "completed": "complete",
    "done": "complete",
    "finished": "complete",
    "success": "complete",
    "approved": "complete",
    "partial": "partial",
    "partially_complete": "partial",
    "in_progress": "in_progress",
    "inprogress": "in_progress",
    "wip": "in_progress",
    "ongoing": "in_progress",
    "blocked": "blocked",
    "escalated": "escalated",
    "needs_revision": "needs_revision",
    "failed": "failed",
    "fail": "failed",
}

# Text fields that agents also write as a number ("phase": 2) or a list ("tests": [...]).
TEXT_FROM_SCALARS = ("phase", "tests", "coverage", "blockers", "unblocks", "subtask")

# Keys agents commonly use for the same field (batch examples write from/to/agent).
# ``id`` names the subtask: the gate keys an entry by (date, phase, agent, subtask).
ALIASES = {
    "from": "from_agent",
    "to": "to_agent",
    "agent": "from_agent",
    "files": "files_changed",
    "id": "subtask",
}


def normalise_status(raw: str) -> tuple[Status, str | None]:
    """Map a free-form status to a :data:`Status` and the note in parentheses, if any.

    >>> normalise_status("partial (waiting on API)")
    ('partial', 'waiting on API')
    """
    text = raw.strip()
    note: str | None = None
    # The whole string first, so "in-progress" is a status and not "in" with the note "progress".
    if re.sub(r"[\s\-]+", "_", text.lower()) not in _STATUS_SYNONYMS and (
        match := re.match(r"^(.+?)\s*(?:\((.*?)\)?|:\s*(.*)|\s[-–—]\s*(.*)|[–—]\s*(.*))$", text)
    ):
        text = match.group(1)
        note = next((g.strip() for g in match.groups()[1:] if g and g.strip()), None)
    key = re.sub(r"[\s\-]+", "_", text.strip().lower())
    if key not in _STATUS_SYNONYMS:
        raise ValueError(f"unknown status {raw!r}; use one of {', '.join(STATUSES)}")
    return _STATUS_SYNONYMS[key], note


def canonical_mapping(data: Mapping[str, Any]) -> dict[str, Any]:
    """Resolve the aliases and normalise the status word (its note goes to ``status_note``)."""
    out = dict(data)
    for alias, field in ALIASES.items():
        if alias in out:
            value = out.pop(alias)
            if alias == "to" or field not in out:
                out.setdefault(field, value)
    if isinstance(out.get("status"), str):
        out["status"], note = normalise_status(out["status"])
        if note and not out.get("status_note"):
            out["status_note"] = note
    return out


def flag_mapping(
    text: str,
    *,
    files: str | Sequence[str] | None = None,
    status: str | None = None,
    from_agent: str | None = None,
    to_agent: str | Sequence[str] | None = None,
    phase: str | None = None,
) -> dict[str, Any]:
    """The entry that CLI flags (``--text --files --status --from --to --phase``) describe."""
    data: dict[str, Any] = {"summary": text}
    for key, value in (
        ("files_changed", files),
        ("status", status),
        ("from_agent", from_agent),
        ("to_agent", to_agent),
        ("phase", phase),
    ):
        if value is not None:
            data[key] = value
    return data


def files_from(value: Any) -> Any:
    """``"a.py, b.py"`` becomes ``("a.py", "b.py")``; anything else is left to the type check."""
    if isinstance(value, str):
        return tuple(part.strip() for part in value.split(",") if part.strip())
    return value


def agents_from(value: Any) -> tuple[str, ...]:
    """One agent, a comma-separated string or a list of agents, as lower-case names."""
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(part.strip().lower() for part in value.split(",") if part.strip())
    if isinstance(value, (list, tuple)):
        return tuple(str(v).strip().lower() for v in value)
    raise ValueError(f"expected an agent name or a list of names, not {type(value).__name__}")


def lower_agent(value: Any) -> Any:
    """An agent name compares case-insensitively, so it is stored lower-case."""
    return value.strip().lower() if isinstance(value, str) else value


def scalar_to_text(value: Any) -> Any:
    """Numbers (``"phase": 2``) and lists (``"tests": ["a", "b"]``) become text."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, list):
        return "; ".join(str(v) for v in value)
    return value


class EntryLike(Protocol):
    """What scoring and scrubbing read from an entry: either reader's result fits."""

    @property
    def summary(self) -> str: ...
    @property
    def files_changed(self) -> tuple[str, ...]: ...
    @property
    def status(self) -> Status: ...
    @property
    def status_note(self) -> str | None: ...
    @property
    def from_agent(self) -> str | None: ...
    @property
    def to_agent(self) -> tuple[str, ...]: ...
    @property
    def verdict(self) -> str | None: ...
    @property
    def blockers(self) -> str | None: ...
    @property
    def unblocks(self) -> str | None: ...
    @property
    def title(self) -> str | None: ...


@dataclass(frozen=True, slots=True)
class LightEntry:
    """The fields of :class:`~summarizer.phasegate.models.SubtaskSummary`, read without pydantic."""

    summary: str
    files_changed: tuple[str, ...] = ()
    status: Status = "complete"
    status_note: str | None = None
    from_agent: str | None = None
    to_agent: tuple[str, ...] = ()
    phase: str | None = None
    date: str | None = None
    tests: str | None = None
    coverage: str | None = None
    verdict: str | None = None
    critical_issues: int | None = None
    blockers: str | None = None
    unblocks: str | None = None
    title: str | None = None
    type: Literal["subtask"] | None = None
    subtask: str | None = None

    @property
    def agent(self) -> str:
        """The producing agent, ``unknown`` when not given."""
        return self.from_agent or "unknown"

    def replaced(self, **update: Any) -> LightEntry:
        """A copy with ``update`` applied (values already valid: this is not a reader)."""
        return dataclasses.replace(self, **update)


class _Unsure(Exception):
    """The model might read this value differently: leave the entry to the pydantic path."""


# pydantic-core strips with Rust's char::is_whitespace; Python's str.strip() also strips
# U+001C..U+001F. Stripping exactly the shared set, and declining when a Python-only whitespace
# character is left at an edge, keeps both readers equal.
_SHARED_WHITESPACE = "".join(
    map(
        chr,
        (
            *range(0x09, 0x0E),
            0x20,
            0x85,
            0xA0,
            0x1680,
            *range(0x2000, 0x200B),
            0x2028,
            0x2029,
            0x202F,
            0x205F,
            0x3000,
        ),
    )
)
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_TEXT_FIELDS = (
    "status_note",
    "phase",
    "tests",
    "coverage",
    "verdict",
    "blockers",
    "unblocks",
    "title",
    "subtask",
)
_FIELDS = frozenset(f.name for f in dataclasses.fields(LightEntry))


def _text(value: Any) -> str:
    if type(value) is not str:
        raise _Unsure
    stripped = value.strip(_SHARED_WHITESPACE)
    if stripped != stripped.strip():
        raise _Unsure
    return stripped


def _optional_text(value: Any) -> str | None:
    return None if value is None else _text(value)


def _read(data: Mapping[str, Any]) -> LightEntry:
    try:
        raw = canonical_mapping(data)
    except ValueError:
        raise _Unsure from None
    if not raw.keys() <= _FIELDS:
        raise _Unsure
    fields: dict[str, Any] = {"summary": _text(raw.get("summary"))}
    if not fields["summary"]:
        raise _Unsure
    for name in _TEXT_FIELDS:
        value = raw.get(name)
        fields[name] = _optional_text(scalar_to_text(value) if name in TEXT_FROM_SCALARS else value)
    files = files_from(raw.get("files_changed", ()))
    if not isinstance(files, (list, tuple)):
        raise _Unsure
    fields["files_changed"] = tuple(_text(path) for path in files)
    status = raw.get("status", "complete")
    if status not in STATUSES:
        raise _Unsure
    fields["status"] = status
    fields["from_agent"] = _optional_text(lower_agent(raw.get("from_agent")))
    try:
        fields["to_agent"] = tuple(_text(agent) for agent in agents_from(raw.get("to_agent")))
    except ValueError:
        raise _Unsure from None
    fields["date"] = _optional_text(raw.get("date"))
    if fields["date"] is not None and not _DATE.fullmatch(fields["date"]):
        raise _Unsure
    issues = raw.get("critical_issues")
    if issues is not None and not (type(issues) is int and 0 <= issues < 2**63):
        raise _Unsure
    fields["critical_issues"] = issues
    if raw.get("type") not in (None, "subtask"):
        raise _Unsure
    fields["type"] = raw.get("type")
    return LightEntry(**fields)


def light_entry(data: object) -> LightEntry | None:
    """Read ``data`` as the model would, or ``None`` when only the model can say (see module doc)."""
    if type(data) is not dict:
        return None
    try:
        return _read(data)
    except _Unsure:
        return None
