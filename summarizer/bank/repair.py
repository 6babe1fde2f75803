"""``gate --repair``: a bank that an earlier version left inconsistent, made loadable again.

Earlier versions accepted agent names that could make two headings collide (a name holding a
newline, ``hermes #2`` next to an agent's second subtask). Such a bank stops every later gate with
``heading ... repeats line N`` or ``entry key ... repeats line N``. The repair loads the bank in a
mode that removes the *later* copy of each repeated progress-log section or entry (the earlier one
is the row every gate has been reading), archives what it removed to
``_notes/archive/YYYY-MM-compressed-entries.md`` so nothing is lost, rewrites the sidecar, and says
what it changed, line by line. Anything else that does not parse is reported as the strict load
reports it: the file and the exact line to fix. A bank that loads cleanly is left alone.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict

from summarizer.bank import atomic
from summarizer.bank.active_context import render_active_context
from summarizer.bank.archive import append_block, append_entries, archive_file
from summarizer.bank.gate import log_records, next_state_file
from summarizer.bank.layout import load_state
from summarizer.bank.progress_log import render_progress_log
from summarizer.bank.state_file import render_state_file
from summarizer.core.errors import InputError

__all__ = ["RepairReport", "repair_bank"]

_REASON = "removed by gate --repair: its key repeats an earlier entry"


class RepairReport(BaseModel):
    """What the repair changed (one line each) and the files it wrote."""

    model_config = ConfigDict(frozen=True)

    changes: tuple[str, ...] = ()
    written: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        """The human report."""
        if not self.changes:
            return ["Nothing to repair: the bank loads cleanly."]
        return [
            f"Repaired {len(self.changes)} problem(s); wrote {', '.join(self.written)}",
            *(f"  {change}" for change in self.changes),
        ]


def repair_bank(root: Path, *, date: str, lock_timeout_s: float = 120.0) -> RepairReport:
    """Remove the later copy of every repeated entry or log section of the bank at ``root``."""
    if not root.is_dir():
        raise InputError(f"no bank at {str(root)!r}; pass --bank DIR")
    with atomic.bank_lock(root, timeout_s=lock_timeout_s):
        repairs: list = []  # type: ignore[type-arg]
        state = load_state(root, repairs=repairs)
        if not repairs:
            return RepairReport()
        paths = state.paths
        writes: list[tuple[Path, str]] = []
        archive = archive_file(root, date, "compressed-entries")
        text = state.current(archive)
        removed = [(r.entry, _REASON) for r in repairs if r.entry is not None]
        if removed:
            text = append_entries(text, date, removed) or text
        for r in repairs:
            if r.lines:
                text = append_block(
                    text, "# Compressed Entries Archive", f"{date} — {r.message}", list(r.lines)
                )
        if text is not None and text != state.current(archive):
            writes.append((archive, text))
        loaded = state.active.entries()
        sidecar = next_state_file(state.sidecar, loaded, log_records(state.log), state)
        for path, new in (
            (paths.state, render_state_file(sidecar)),
            (paths.progress, render_progress_log(state.log)),
            (paths.active, render_active_context(state.active)),
        ):
            if new != state.current(path):
                writes.append((path, new))
        atomic.check_writable([p for p, _ in writes])
        for path, new in writes:
            atomic.atomic_write(path, new)
    return RepairReport(
        changes=tuple(r.message.replace(f"{root}/", "", 1) for r in repairs),
        written=tuple(paths.rel(p) for p, _ in writes),
    )
