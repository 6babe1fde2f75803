"""``summarizer cache stats`` and ``cache prune`` through the real CLI group and a real diskcache."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from summarizer_cache import DiskCache

from summarizer.cli import main
from summarizer.phasegate.models import SubtaskSummary
from summarizer.phasegate.summaries import EntryJob, summarize_entries
from summarizer.semantic.prompts import PromptLibrary
from summarizer.semantic.service import Summarizer
from summarizer.testing import FakeCompleter

REPO_PROMPTS = Path(__file__).resolve().parents[2] / "prompts"
ANSWER = "Added POST /api/items returning 201.\nAphrodite can now create items."


@pytest.fixture
def populated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """One current namespace and one made by an older copy of the HIGH prompt."""
    prompts = tmp_path / "prompts"
    shutil.copytree(REPO_PROMPTS, prompts)
    monkeypatch.setenv("SUMMARIZER_PROMPTS", str(prompts))
    cache = DiskCache(Path(os.environ["SUMMARIZER_CACHE_DIR"]) / "summaries")
    entry = SubtaskSummary.model_validate(
        {"summary": "Added POST /api/items returning 201.", "from": "hermes"}
    )
    job = EntryJob(entry, "HIGH", "t")
    old = tmp_path / "old-prompts"
    shutil.copytree(REPO_PROMPTS, old)
    (old / "high.md.j2").write_text((old / "high.md.j2").read_text() + "\nBe brief.")
    for directory in (old, prompts):
        svc = Summarizer(
            PromptLibrary(directory), completer=FakeCompleter([ANSWER]), cache=cache, model="m/x"
        )
        assert asyncio.run(summarize_entries(svc, [job]))[0].source == "llm"
    cache.close()
    return prompts


def test_stats_lists_namespaces_and_marks_the_stale_one(populated: Path) -> None:
    """Two namespaces: one current, one stale, one entry each."""
    result = CliRunner().invoke(main, ["cache", "stats", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["namespaces"]
    assert sorted(r["stale"] for r in rows) == [False, True]
    assert all(r["entries"] == 1 and r["prompt"] == "high" and r["misses"] == 1 for r in rows)
    table = CliRunner().invoke(main, ["cache", "stats"])
    assert "2 namespaces (1 stale), 2 entries" in table.output


def test_prune_stale_keeps_current_entries(populated: Path) -> None:
    """--stale removes only the namespace no current prompt uses."""
    result = CliRunner().invoke(main, ["cache", "prune", "--stale"])
    assert result.exit_code == 0 and "removed 1 stale namespaces (1 entries)" in result.output
    rows = json.loads(CliRunner().invoke(main, ["cache", "stats", "--json"]).output)["namespaces"]
    assert [r["stale"] for r in rows] == [False]


def test_prune_all_without_a_terminal_refuses_and_removes_nothing(populated: Path) -> None:
    """--all without --yes needs a person at a terminal; a script gets one line, exit 1, nothing removed."""
    refused = CliRunner().invoke(main, ["cache", "prune", "--all"], input="y\n")
    assert refused.exit_code == 1
    assert "pass --yes" in refused.stderr and "?" not in refused.stderr
    assert len(json.loads(CliRunner().invoke(main, ["cache", "stats", "--json"]).output)["namespaces"]) == 2


def test_prune_all_with_yes_does_not_ask(populated: Path) -> None:
    """--yes skips the question (for scripts)."""
    result = CliRunner().invoke(main, ["cache", "prune", "--all", "--yes"])
    assert result.exit_code == 0 and "removed 2 entries" in result.output


def test_prune_without_a_mode_is_a_usage_error() -> None:
    """Nothing is removed by accident: a mode is required (exit 2)."""
    result = CliRunner().invoke(main, ["cache", "prune"])
    assert result.exit_code == 2 and "--stale" in result.output


def test_stats_on_an_empty_cache() -> None:
    """A fresh cache says so."""
    result = CliRunner().invoke(main, ["cache", "stats"])
    assert result.exit_code == 0 and "empty" in result.output
