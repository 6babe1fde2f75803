"""engram 1.7 names a project after its folder; newer engram (and we) after the git remote."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from summarizer_engram import Store

from summarizer.cli import main

DAY = "2026-11-29"


@pytest.fixture
def jobqueue(tmp_path: Path) -> Path:
    """A folder `jobqueue` whose git remote is `acme/job-queue`."""
    folder = tmp_path / "jobqueue"
    folder.mkdir()
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    subprocess.run(
        ["git", "-C", str(folder), "remote", "add", "origin", "git@github.com:acme/job-queue.git"], check=True
    )
    return folder


def _engram17_document(project: str) -> None:
    """What engram 1.7's plugin would have saved: today's document under the folder's name."""
    import os

    with Store(Path(os.environ["ENGRAM_DATA_DIR"]) / "engram.db") as store:
        store.start_session("old", project, "/w")
        store.save(
            "old",
            "Make the queue durable",
            f"## Session Compression — {DAY}\n### Instructions\n- Never drop a job on restart.\n",
            type="session",
            project=project,
            topic_key=f"session/{project}/compressed/{DAY}",
        )


def test_recover_finds_engram_17s_name_and_says_which_name_it_found(
    jobqueue: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Detected as `job-queue`; the memory is under `jobqueue`: found, and stderr names it."""
    _engram17_document("jobqueue")
    monkeypatch.chdir(jobqueue)
    result = CliRunner().invoke(main, ["recover", "--json"])
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert found["project"] == "jobqueue" and "Never drop a job on restart." in found["document"]
    assert "found under project 'jobqueue'" in result.stderr and "'job-queue'" in result.stderr


def test_the_session_upsert_goes_where_todays_document_already_is(
    jobqueue: Path, fixture_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Today's document under engram 1.7's name gets the new items, not a second document."""
    _engram17_document("jobqueue")
    monkeypatch.chdir(jobqueue)
    transcript = str(fixture_dir / "messages.jsonl")  # records no cwd: the current directory names it
    result = CliRunner().invoke(main, ["session", transcript, "--force", "--date", DAY, "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["project"] == "jobqueue" and report["action"] == "updated"
    assert "Never drop a job on restart." in report["document"]
    assert "found under project 'jobqueue'" in result.stderr


def test_without_an_older_document_the_git_remote_name_is_used(
    jobqueue: Path, fixture_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing under either name: the document is saved under the detected name, with no note."""
    monkeypatch.chdir(jobqueue)
    result = CliRunner().invoke(
        main, ["session", str(fixture_dir / "messages.jsonl"), "--force", "--date", DAY, "--json"]
    )
    assert json.loads(result.stdout)["project"] == "job-queue" and "found under" not in result.stderr
