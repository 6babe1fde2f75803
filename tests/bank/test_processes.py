"""Real processes against one bank: 8 concurrent gates, and gates killed with SIGKILL between writes."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from summarizer.bank.atomic import CRASH_AFTER_ENV, CRASH_IN_WRITE_ENV
from summarizer.bank.layout import load_state

from .conftest import DATE, JWT, TABLE, TYPO, snapshot, write_jsonl

pytestmark = pytest.mark.slow
_CLI = "import sys; from summarizer.cli import main; sys.exit(main())"


def _gate(
    bank: Path, phase: str, entries: Path, env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    args = [
        sys.executable,
        "-c",
        _CLI,
        "gate",
        "--phase",
        phase,
        "--bank",
        str(bank),
        "--date",
        DATE,
        "--estimated-phases",
        "8",
        str(entries),
    ]
    return subprocess.Popen(
        args, env={**os.environ, **(env or {})}, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )


def _batch(i: int) -> list[dict[str, Any]]:
    shared = {
        "summary": f"Schema migration: added POST /api/shared and POST /api/p{i}",
        "from_agent": "hermes",
        "to_agent": "aphrodite",
        "files_changed": [f"api/p{i}.py"],
    }
    return [
        shared,
        {**TYPO, "summary": f"Fixed typo {i}"},
        {**JWT, "from_agent": "aphrodite", "to_agent": "hermes"},
    ]


def test_eight_concurrent_gates_lose_and_duplicate_nothing(tmp_path: Path) -> None:
    """8 processes, phases 1..8, one bank: 24 entries exactly once, every file parses, IDs unique."""
    bank = tmp_path / "bank"
    procs = [_gate(bank, str(i), write_jsonl(tmp_path / f"p{i}.jsonl", _batch(i))) for i in range(1, 9)]
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err.decode()
    state = load_state(bank)  # every file parses
    keys = [e.key for e in state.active.entries()]
    assert len(keys) == 24 and len(set(keys)) == 24
    assert {e.phase for e in state.active.entries()} == {str(i) for i in range(1, 9)}
    refs = [e.ref for e in state.xref.entities]
    assert len(refs) == len(set(refs)) == 9  # /api/shared once + one per phase
    assert [e.name for e in state.xref.entities].count("POST /api/shared") == 1
    assert state.xref.next_ids["E"] == 10
    assert len([s for s in state.log.sections if s.digest]) == 24
    assert len(state.active.ledger) == 8
    assert len(list((bank / ".tmp").glob("ZZ-phase*-context.md"))) == 8
    assert not _temps(bank)


def _rerun(bank: Path, phase: str, batch: Path) -> None:
    """The same gate in-process (only the killed run needs its own process)."""
    from summarizer.bank import GateRequest, run_gate
    from summarizer.cli.gate import parse_entries

    entries = parse_entries(batch.read_text(), source=str(batch))
    run_gate(bank, GateRequest(phase=phase, entries=entries, date=DATE, estimated_phases=8))


def _temps(bank: Path) -> list[Path]:
    return [p for p in bank.rglob("*.tmp") if p.is_file()]


Snapshot = dict[str, bytes]


def _prepare(tmp_path: Path, *, rerun: bool = False) -> tuple[Path, str, Path, Snapshot, Snapshot]:
    """A bank after phase 1, the batch to kill, the old snapshot and the snapshot of a clean run.

    ``rerun=False``: the phase-2 batch (new rows only). ``rerun=True``: phase 1 again with one of
    hermes' three subtasks edited and another dropped: rows replaced and removed, which is what the
    sidecar's ``previous`` records must carry through a crash.
    """
    bank = tmp_path / "bank"
    subtasks = [{**JWT, "summary": f"Added POST /api/s{i} returning 201."} for i in range(3)]
    _rerun(bank, "1", write_jsonl(tmp_path / "p1.jsonl", [TABLE, TYPO, *subtasks]))
    (bank / ".tmp" / "REVIEW-phase2.md").write_text("Verdict: APPROVED\n")
    old = snapshot(bank)
    if rerun:
        edited = [TABLE, TYPO, {**subtasks[0], "summary": "Added POST /api/s0 returning 202."}, subtasks[2]]
        phase, batch = "1", write_jsonl(tmp_path / "p1b.jsonl", edited)
    else:
        phase, batch = "2", write_jsonl(tmp_path / "p2.jsonl", _batch(2))
    reference = tmp_path / "reference"
    shutil.copytree(bank, reference)
    _rerun(reference, phase, batch)
    return bank, phase, batch, old, snapshot(reference)


@pytest.mark.parametrize("rerun", [False, True], ids=["new-rows", "replaced-and-dropped-rows"])
def test_sigkill_between_writes_leaves_old_or_new_files_and_the_rerun_completes(
    tmp_path: Path, rerun: bool
) -> None:
    """Kill after the k-th file write, for every k: each file is its old or its new complete bytes;
    a second run finishes the gate with exactly the bytes of an uninterrupted run."""
    bank, phase, batch, old, new = _prepare(tmp_path, rerun=rerun)
    writes = sum(1 for name in new if old.get(name) != new[name])
    assert writes >= 5
    pristine = tmp_path / "pristine"
    shutil.copytree(bank, pristine)
    for k in range(1, writes + 1):
        shutil.rmtree(bank)
        shutil.copytree(pristine, bank)
        proc = _gate(bank, phase, batch, {CRASH_AFTER_ENV: str(k)})
        assert proc.wait(timeout=60) == -signal.SIGKILL
        after = snapshot(bank)
        for name, data in after.items():
            assert data in (old.get(name), new.get(name)), f"k={k}: {name} is neither old nor new"
        load_state(bank)
        _rerun(bank, phase, batch)
        final = snapshot(bank)
        if old.get("_xref/_next_id.json") != final.get("_xref/_next_id.json") and k == 1:
            # Killed right after the counter was written: its IDs are spent, the re-run takes the next
            # ones (a gap, never a reuse). Everything else converges.
            state = load_state(bank)
            refs = [e.ref for e in state.xref.entities]
            assert len(refs) == len(set(refs))
            for name in ("01-active-context.md", "02-progress-log.md"):
                assert final[name] == new[name]
        else:
            assert final == new, f"k={k}: the re-run did not converge"


def test_sigkill_inside_a_write_leaves_a_temp_file_that_the_next_run_cleans(tmp_path: Path) -> None:
    """Killed after the temp file is written, before the rename: the target is untouched; the stale
    temp file is removed by a later run once it is older than 5 minutes."""
    bank, phase, batch, old, new = _prepare(tmp_path)
    proc = _gate(bank, phase, batch, {CRASH_IN_WRITE_ENV: "1"})
    assert proc.wait(timeout=60) == -signal.SIGKILL
    leftovers = _temps(bank)
    assert len(leftovers) == 1
    for name, data in snapshot(bank).items():
        if not name.endswith(".tmp"):
            assert data in (old.get(name), new.get(name))
    past = time.time() - 600
    os.utime(leftovers[0], (past, past))
    _rerun(bank, phase, batch)
    assert not _temps(bank)
    assert snapshot(bank) == new
