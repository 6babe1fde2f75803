"""Neither store follows a symbolic link in place of its own folder: nothing is written through it,
nothing is read through it, and prune never deletes what it points at."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from summarizer_cache import DiskCache

from summarizer.cli import main
from summarizer.core.errors import StorageError

ORIGINAL_ID = "a" * 64


@pytest.fixture
def linked_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache dir whose `originals` and `summaries` are links to a folder of someone else's files."""
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / ORIGINAL_ID).write_text("precious\n")
    (victim / "notes.txt").write_text("also precious\n")
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "originals").symlink_to(victim, target_is_directory=True)
    (cache / "summaries").symlink_to(victim, target_is_directory=True)
    monkeypatch.setenv("SUMMARIZER_CACHE_DIR", str(cache))
    return victim


def _untouched(victim: Path) -> bool:
    return sorted(p.name for p in victim.iterdir()) == sorted([ORIGINAL_ID, "notes.txt"])


def test_prune_all_never_deletes_through_a_linked_originals_folder(linked_cache: Path) -> None:
    """`cache prune --all --yes`: one line saying the folder is a link, exit 1, the files stay."""
    result = CliRunner().invoke(main, ["cache", "prune", "--all", "--yes"])
    assert result.exit_code == 1
    assert "symbolic link" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert _untouched(linked_cache)


def test_output_never_writes_through_a_linked_originals_folder(tmp_path: Path, linked_cache: Path) -> None:
    """The original is not stored (exit 1, one line), nothing lands in the link's target."""
    log = tmp_path / "build.log"
    log.write_text("".join(f"2026-11-29 INFO step {i} ok password=Hunter2Hunter{i}\n" for i in range(600)))
    result = CliRunner().invoke(main, ["output", str(log)])
    assert result.exit_code == 1
    assert "symbolic link" in result.stderr
    assert "Hunter2Hunter" not in result.stdout and "INFO step 599 ok" in result.stdout
    assert _untouched(linked_cache)


def test_restore_never_reads_through_a_linked_originals_folder(linked_cache: Path) -> None:
    """A planted file behind the link is not handed out as a stored original."""
    result = CliRunner().invoke(main, ["restore", ORIGINAL_ID])
    assert result.exit_code == 1 and "symbolic link" in result.stderr
    assert "precious" not in result.stdout


def test_the_summary_cache_refuses_a_linked_folder(linked_cache: Path) -> None:
    """DiskCache on a link is a StorageError naming the fix; the target is not opened."""
    with pytest.raises(StorageError, match="symbolic link"):
        DiskCache(Path(os.environ["SUMMARIZER_CACHE_DIR"]) / "summaries")
    assert _untouched(linked_cache)
