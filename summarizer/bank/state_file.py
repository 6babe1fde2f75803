"""The sidecar state file ``_bank-state.json``: the bank's bookkeeping, out of the human files.

The markdown files are what a person would write; what a re-run must compare lives here:

* ``entries``: one record per entry of ``## Completed Phases`` (key, content hash, band, score,
  budget cost, files, tests, status, ...) and ``r``, a digest of the block the gate rendered;
* ``log``: one record per progress-log section the gate wrote (heading, content hash and ``r``, a
  digest of its generated lines). A section without a record was written by hand and is never
  rewritten.

The text itself is the markdown's: a record never repeats it, so the sidecar stays small.

**Crash safety without markers.** The sidecar is written *before* the markdown files. It also keeps,
under ``previous`` and ``log_previous``, the version of every record the last gate replaced or
removed. Loading matches each entry block (by the key its header shows) and each log section (by
its heading) against the current record and the previous one by the digest of what the file shows,
so whichever of the two versions the markdown holds after a crash is read back as that version:
the re-run then makes the same changes, and writes the same bytes, as an uninterrupted gate. A
block that matches neither was edited by hand: its visible text is kept, the current record
supplies the rest. A gate that changes no record keeps ``previous`` as it was, so re-running it
rewrites nothing.

The file is written atomically under the bank lock like every other bank file; one record per line
keeps its diffs readable.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from summarizer.bank.entry import BankEntry, from_record
from summarizer.bank.markdown import BankFormatError

__all__ = ["FORMAT", "LogRecord", "StateFile", "parse_state_file", "render_state_file"]

FORMAT = 2  # the previous version kept this state in markers inside the markdown (format 1)


Record = dict[str, Any]
EntryCandidates = dict[tuple[str, str, str, str, str], list[tuple[BankEntry, str]]]


@dataclass(frozen=True, slots=True)
class LogRecord:
    """A progress-log section written by the gate: heading, content hash, digest of its lines."""

    heading: str
    digest: str
    shown: str

    def as_json(self) -> Record:
        """The record as stored."""
        return {"heading": self.heading, "h": self.digest, "r": self.shown}


@dataclass(slots=True)
class StateFile:
    """The parsed sidecar (all lists empty when the file does not exist); entry records stay raw."""

    entries: list[Record] = field(default_factory=list)
    previous: list[Record] = field(default_factory=list)
    log: list[LogRecord] = field(default_factory=list)
    log_previous: list[LogRecord] = field(default_factory=list)
    path: Path | str = "_bank-state.json"

    def entry_candidates(self) -> EntryCandidates:
        """(feature, date, phase, agent, subtask) -> [(entry without lines, block digest)], current first."""
        out: EntryCandidates = {}
        for record in (*self.entries, *self.previous):
            entry = from_record(record, path=self.path, line=None)
            shown = record.get("r")
            if not isinstance(shown, str):
                raise BankFormatError(self.path, None, "an entry record needs the digest 'r' of its block")
            out.setdefault((entry.feature, *entry.key), []).append((entry, shown))
        return out

    def log_candidates(self) -> dict[str, list[tuple[str, str]]]:
        """heading -> [(content hash, digest of the generated lines)], current first."""
        out: dict[str, list[tuple[str, str]]] = {}
        for record in (*self.log, *self.log_previous):
            out.setdefault(record.heading, []).append((record.digest, record.shown))
        return out


def _log_record(raw: object, *, path: Path | str) -> LogRecord:
    if not isinstance(raw, dict):
        raise BankFormatError(path, None, "a log record must be a JSON object")
    heading, digest, shown = raw.get("heading"), raw.get("h"), raw.get("r")
    if not isinstance(heading, str) or not isinstance(digest, str) or not isinstance(shown, str):
        raise BankFormatError(path, None, "a log record needs 'heading', 'h' and 'r'")
    return LogRecord(heading, digest, shown)


def parse_state_file(text: str | None, *, path: Path | str) -> StateFile:
    """Parse the sidecar (``None`` = absent: a bank written by hand or by the previous version)."""
    state = StateFile(path=path)
    if text is None:
        return state
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BankFormatError(path, exc.lineno, f"invalid JSON ({exc.msg})") from exc
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise BankFormatError(path, 1, f'must be an object with "format": {FORMAT}')
    for name in ("entries", "previous", "log", "log_previous"):
        if not isinstance(raw.get(name, []), list):
            raise BankFormatError(path, None, f"{name!r} must be a list")
    for name in ("entries", "previous"):
        if not all(isinstance(r, dict) for r in raw.get(name, [])):
            raise BankFormatError(path, None, f"every record of {name!r} must be a JSON object")
    state.entries = list(raw.get("entries", []))
    state.previous = list(raw.get("previous", []))
    state.log = [_log_record(r, path=path) for r in raw.get("log", [])]
    state.log_previous = [_log_record(r, path=path) for r in raw.get("log_previous", [])]
    return state


_ENCODER = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _dump(value: object) -> str:
    return _ENCODER.encode(value)


def render_state_file(state: StateFile) -> str:
    """The sidecar's text: stable bytes for the same state, one record per line."""
    parts = [f'{{"format": {FORMAT}']
    sections: list[tuple[str, list[Record]]] = [
        ("entries", state.entries),
        ("log", [r.as_json() for r in state.log]),
        ("log_previous", [r.as_json() for r in state.log_previous]),
        ("previous", state.previous),
    ]
    for name, records in sections:
        if not records:
            parts.append(f',\n "{name}": []')
            continue
        body = ",\n".join("  " + _dump(r) for r in records)
        parts.append(f',\n "{name}": [\n{body}\n ]')
    return "".join(parts) + "}\n"
