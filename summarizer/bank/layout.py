"""Where the bank's files live, and reading all of them into one :class:`BankState` (the effect edge).

Layout under the bank root (default ``.pantheon/memory-bank``, docs/memory-bank.md)::

    01-active-context.md            Unfinished, Review Verdicts, Completed Phases, Plans, Budget Ledger
    02-progress-log.md              one section per compressed entry
    _bank-state.json                the sidecar: entry records, log hashes (state_file.py)
    _xref/index.md                  By Feature, By Entity, Decision Links
    _xref/_next_id.json             next ID per prefix (C, D, E, M)
    .tmp/                           artifacts, ZZ-phase{P}-context.md, compress.lock
    _notes/archive/                 trimmed entries, sprint snapshots (ADR notes in _notes/ are never touched)

Reading is strict where it must be: every parse error names the file and the line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from summarizer.bank.active_context import ActiveContext, parse_active_context
from summarizer.bank.artifacts import Artifact, classify
from summarizer.bank.entry import Repair
from summarizer.bank.markdown import BankFormatError, read_bank_text
from summarizer.bank.progress_log import ProgressLog, parse_progress_log
from summarizer.bank.state_file import StateFile, parse_state_file
from summarizer.bank.xref import XrefIndex, parse_xref

__all__ = ["BankPaths", "BankState", "load_state"]


@dataclass(frozen=True, slots=True)
class BankPaths:
    """Every path of one bank, relative names included for messages."""

    root: Path

    @property
    def active(self) -> Path:
        """``01-active-context.md``."""
        return self.root / "01-active-context.md"

    @property
    def progress(self) -> Path:
        """``02-progress-log.md``."""
        return self.root / "02-progress-log.md"

    @property
    def state(self) -> Path:
        """``_bank-state.json``: the sidecar state file."""
        return self.root / "_bank-state.json"

    @property
    def xref(self) -> Path:
        """``_xref/index.md``."""
        return self.root / "_xref" / "index.md"

    @property
    def next_ids(self) -> Path:
        """``_xref/_next_id.json``."""
        return self.root / "_xref" / "_next_id.json"

    @property
    def tmp(self) -> Path:
        """``.tmp/``: artifacts and ZZ files."""
        return self.root / ".tmp"

    def zz(self, phase: str) -> Path:
        """``.tmp/ZZ-phase{phase}-context.md``."""
        return self.tmp / f"ZZ-phase{phase}-context.md"

    def rel(self, path: Path) -> str:
        """``path`` relative to the root, for messages and reports."""
        try:
            return str(path.relative_to(self.root))
        except ValueError:
            return str(path)


@dataclass(slots=True)
class BankState:
    """Everything a gate reads, parsed; ``texts`` keeps the raw text to detect unchanged files."""

    paths: BankPaths
    active: ActiveContext
    log: ProgressLog
    xref: XrefIndex
    artifacts: list[tuple[Artifact, str]] = field(default_factory=list)
    texts: dict[Path, str | None] = field(default_factory=dict)
    sidecar: StateFile = field(default_factory=StateFile)

    def current(self, path: Path) -> str | None:
        """The text ``path`` had when loaded (reading it now if it was not part of the load)."""
        if path not in self.texts:
            self.texts[path] = read_bank_text(path)
        return self.texts[path]


def _artifacts(paths: BankPaths) -> list[tuple[Artifact, str]]:
    if not paths.tmp.is_dir():
        return []
    found: list[tuple[Artifact, str]] = []
    for entry in sorted(paths.tmp.iterdir()):
        if not entry.is_file():
            continue
        artifact = classify(entry.name)
        if artifact.kind == "OWN":
            continue
        text = ""
        if artifact.kind in ("REVIEW", "DISC"):  # only these need their text (verdict, decision)
            text = read_bank_text(entry) or ""
        found.append((artifact, text))
    return found


def load_state(root: Path, *, repairs: list[Repair] | None = None) -> BankState:
    """Read and parse the whole bank at ``root`` (missing files are empty state).

    ``repairs`` (``gate --repair``): what a past bug could leave repeated is removed and recorded
    there instead of stopping the load.
    """
    paths = BankPaths(root)
    if root.exists() and not root.is_dir():
        raise BankFormatError(root, None, "the bank path is a file, not a directory")
    names = (paths.active, paths.progress, paths.xref, paths.next_ids, paths.state)
    texts = {p: read_bank_text(p) for p in names}
    sidecar = parse_state_file(texts[paths.state], path=paths.state)
    return BankState(
        paths=paths,
        active=parse_active_context(
            texts[paths.active], path=paths.active, known=sidecar.entry_candidates(), repairs=repairs
        ),
        log=parse_progress_log(
            texts[paths.progress], path=paths.progress, known=sidecar.log_candidates(), repairs=repairs
        ),
        xref=parse_xref(texts[paths.xref], texts[paths.next_ids], path=paths.xref, ids_path=paths.next_ids),
        artifacts=_artifacts(paths),
        texts=texts,
        sidecar=sidecar,
    )
