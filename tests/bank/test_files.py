"""Parsing and rendering the bank files: round trips, hand-written banks, located errors."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from summarizer.bank.active_context import parse_active_context, render_active_context
from summarizer.bank.atomic import atomic_write, bank_lock, clean_stale_temp
from summarizer.bank.markdown import BankFormatError
from summarizer.bank.progress_log import parse_progress_log, render_progress_log
from summarizer.core.errors import StorageError

from .conftest import JWT, Gate, snapshot

HAND_WRITTEN = """# Active Context

## Current Focus
Shipping auth.

## Completed Phases
- Phase 0: scaffolding done by hand
| old | table |

## Plans
- Remember to archive the PLAN.

## Notes
Keep this.
"""


def test_a_hand_written_bank_loads_and_keeps_its_text(gate: Gate, bank: Path) -> None:
    """Unknown sections and foreign lines survive a gate verbatim, in place."""
    bank.mkdir()
    (bank / "01-active-context.md").write_text(HAND_WRITTEN)
    (bank / "02-progress-log.md").write_text("# Log\n\n### 2026-06-20 — 1: hermes\nwritten by hand\n")
    gate("1", [JWT])
    text = (bank / "01-active-context.md").read_text()
    for kept in (
        "## Current Focus\n\nShipping auth.",
        "- Phase 0: scaffolding done by hand",
        "| old | table |",
        "- Remember to archive the PLAN.",
        "## Notes\n\nKeep this.",
        "### Phase 1 — default",
    ):
        assert kept in text
    log = (bank / "02-progress-log.md").read_text()
    assert "written by hand" in log and "bank:h=" not in log  # a manual section is never rewritten


def test_rendering_is_a_fixed_point(gate: Gate, bank: Path) -> None:
    """parse(render(x)) renders to the same bytes, for both markdown state files."""
    gate("1", [JWT])
    for name, parse, render in (
        ("01-active-context.md", parse_active_context, render_active_context),
        ("02-progress-log.md", parse_progress_log, render_progress_log),
    ):
        text = (bank / name).read_text()
        assert render(parse(text, path=name)) == text  # type: ignore[operator]


@pytest.mark.parametrize(
    ("name", "text", "where"),
    [
        (
            "01-active-context.md",
            "# A\n\n## Completed Phases\n\n### Phase 1 — f\n- x <!-- bank:{bad} -->\n",
            "01-active-context.md:6: entry marker is not valid JSON",
        ),
        (
            "01-active-context.md",
            "# A\n\n## Budget Ledger\n\n| Feature | Phase |\n",
            "01-active-context.md:5: table header",
        ),
        ("01-active-context.md", "# A\n## Plans\n## Plans\n", "01-active-context.md:3: a second '## Plans'"),
        (
            "02-progress-log.md",
            "# L\n### 2026-01-01 — 1: a\n### 2026-01-01 — 1: a\n",
            "02-progress-log.md:3: heading",
        ),
        ("_xref/_next_id.json", '{"E": 1,\n "E2": x}', "_next_id.json:2: invalid JSON"),
        ("_xref/_next_id.json", '{"E": 0}', "_next_id.json:1: counter 'E'"),
        (
            "_xref/index.md",
            "# X\n\n## By Entity\n\n| Entity ID | Type | Name | Location | Phase | Agent |\n"
            "|---|---|---|---|---|---|\n"
            "| E1 | endpoint | GET /a | a | P1 | h |\n",
            "index.md:7: reference ID 'E1'",
        ),
    ],
)
def test_a_malformed_bank_file_is_a_located_error_and_nothing_changes(
    gate: Gate, bank: Path, name: str, text: str, where: str
) -> None:
    """Each broken file gives one error naming file and line; the bank is left as it was."""
    (bank / name).parent.mkdir(parents=True, exist_ok=True)
    (bank / name).write_text(text)
    before = snapshot(bank)
    with pytest.raises(StorageError) as info:
        gate("1", [JWT])
    assert where in str(info.value) and "\n" not in str(info.value)
    assert snapshot(bank) == before


def test_invalid_utf8_in_a_bank_file_names_the_line(gate: Gate, bank: Path) -> None:
    """Bytes that are not UTF-8: the error names the file and the line of the bad byte."""
    bank.mkdir()
    (bank / "02-progress-log.md").write_bytes(b"# Log\n\nok\n\xff\xfe\n")
    with pytest.raises(BankFormatError, match=r"02-progress-log\.md:4: invalid UTF-8"):
        gate("1", [JWT])


def test_atomic_write_validates_and_leaves_the_old_file(tmp_path: Path) -> None:
    """Empty content or markdown without a heading is refused; the target keeps its old bytes."""
    target = tmp_path / "d" / "a.md"
    atomic_write(target, "# ok\n")
    for bad in ("", "   \n", "no heading here\n"):
        with pytest.raises(StorageError, match="refusing to write"):
            atomic_write(target, bad)
    assert target.read_text() == "# ok\n" and list(target.parent.iterdir()) == [target]


def test_stale_cleanup_removes_only_old_tmp_files(tmp_path: Path) -> None:
    """*.tmp older than 5 minutes go; a young *.tmp, ZZ files and artifacts stay."""
    old, young = tmp_path / ".x.md.1.1.tmp", tmp_path / ".y.md.2.1.tmp"
    zz, artifact = tmp_path / "ZZ-phase1-context.md", tmp_path / "IMPL-phase1.md"
    for path in (old, young, zz, artifact):
        path.write_text("x")
    past = time.time() - 301
    for path in (old, zz, artifact):
        os.utime(path, (past, past))
    assert clean_stale_temp(tmp_path) == [old]
    assert young.exists() and zz.exists() and artifact.exists()


def test_a_held_lock_times_out_with_a_clear_error(tmp_path: Path) -> None:
    """A second holder waits, then fails with an error naming the lock file."""
    from filelock import FileLock

    (tmp_path / ".tmp").mkdir()
    holder = FileLock(str(tmp_path / ".tmp" / "compress.lock"))
    with (
        holder,
        pytest.raises(StorageError, match=r"locked by another gate .*compress\.lock"),
        bank_lock(tmp_path, timeout_s=0.2),
    ):
        pass
