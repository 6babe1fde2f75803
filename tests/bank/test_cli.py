"""``summarizer gate`` on the command line: output, --json, exit codes and bad input."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from summarizer.cli import main

from .conftest import JWT, TABLE, TYPO, snapshot, write_jsonl


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["gate", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def entries(tmp_path: Path) -> Path:
    """A three-entry batch file."""
    return write_jsonl(tmp_path / "p1.jsonl", [TABLE, JWT, TYPO])


def test_cli_prints_the_confirmation_line(tmp_path: Path, entries: Path) -> None:
    """Exit 0 and the confirmation line first."""
    code, out, _ = _run("--phase", "1", "--bank", str(tmp_path / "b"), "--date", "2026-06-20", str(entries))
    assert code == 0
    assert out.splitlines()[0] == (
        "Compression complete: 3 entries compressed (1 CRITICAL, 1 HIGH), 1 cross-refs added"
    )


def test_cli_json_is_one_object_with_the_figures(tmp_path: Path, entries: Path) -> None:
    """--json: the confirmation plus counts, budgets, flags and files."""
    code, out, _ = _run(
        "--phase", "1", "--bank", str(tmp_path / "b"), "--date", "2026-06-20", "--json", str(entries)
    )
    data = json.loads(out)
    assert code == 0 and data["compressed"] == 3 and data["cross_refs_added"] == 1
    assert data["budgets"][0]["allocated"] == 12 and data["confirmation"].startswith("Compression complete")


def test_cli_default_bank_comes_from_settings(entries: Path, isolated_env: Path) -> None:
    """No --bank: $SUMMARIZER_BANK (the test isolation points it into tmp)."""
    code, _, _ = _run("--phase", "1", str(entries))
    assert code == 0 and (isolated_env / "bank" / "01-active-context.md").exists()


def test_cli_inject_and_close_sprint(tmp_path: Path, entries: Path) -> None:
    """--inject prints the wisdom-bridge block; --close-sprint removes the ZZ files."""
    bank = str(tmp_path / "b")
    _run("--phase", "1", "--bank", bank, str(entries))
    code, out, _ = _run("--inject", "1", "--bank", bank)
    assert code == 0 and out.startswith("## Previous Wave Learnings")
    code, out, _ = _run("--close-sprint", "--bank", bank)
    assert code == 0 and out.startswith("Sprint closed: 1 ZZ files removed")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"summary": "x"\n', "line 1 column 16: Expecting ',' delimiter"),
        ('{"summary": "ok", "files": ["a"]}\n[1]\n', "line 2 must be a JSON object"),
        ('{"summary": "x", "files_chaged": ["a"]}\n', "unknown key 'files_chaged'"),
        ('{"summary": "x", "status": "someday"}\n', "unknown status 'someday'"),
        ("", "is empty"),
    ],
)
def test_cli_bad_entries_exit_2_with_one_line(tmp_path: Path, content: str, message: str) -> None:
    """Malformed JSONL, unknown keys, bad status, empty file: one line on stderr, exit 2, no bank."""
    bad = tmp_path / "bad.jsonl"
    bad.write_text(content)
    code, _, err = _run("--phase", "1", "--bank", str(tmp_path / "b"), str(bad))
    assert code == 2 and message in err and err.count("\n") == 1
    assert not (tmp_path / "b").exists()


def test_cli_usage_errors_exit_2(tmp_path: Path, entries: Path) -> None:
    """No --phase, a bad --date, two modes at once: exit 2."""
    assert _run(str(entries))[0] == 2
    assert _run("--phase", "1", "--date", "20-06-2026", str(entries))[0] == 2
    assert _run("--phase", "1", "--close-sprint", str(entries))[0] == 2


def test_cli_escalation_exits_1_and_writes_nothing(tmp_path: Path) -> None:
    """CRITICAL over 100 lines: the escalation on stderr, exit 1, no files."""
    many = write_jsonl(tmp_path / "m.jsonl", [{**TABLE, "from_agent": f"a{i}"} for i in range(34)])
    code, _, err = _run("--phase", "1", "--bank", str(tmp_path / "b"), str(many))
    assert code == 1 and "Options: (1) increase budget" in err
    assert not (tmp_path / "b" / "01-active-context.md").exists()


def test_cli_malformed_bank_file_exits_1_naming_it(tmp_path: Path, entries: Path) -> None:
    """A broken 01-active-context.md: one line naming file:line, exit 1, the file untouched."""
    bank = tmp_path / "b"
    bank.mkdir()
    (bank / "01-active-context.md").write_text("# A\n\n## Budget Ledger\n\n| a | b |\n")
    code, _, err = _run("--phase", "1", "--bank", str(bank), str(entries))
    assert code == 1 and "01-active-context.md:5: table header" in err and err.count("\n") == 1
    assert (bank / "01-active-context.md").read_text() == "# A\n\n## Budget Ledger\n\n| a | b |\n"


@pytest.mark.parametrize("blocker", ["_xref", ".tmp", "_notes"])
def test_cli_a_file_where_a_directory_is_expected_changes_nothing(
    tmp_path: Path, entries: Path, blocker: str
) -> None:
    """Unwritable bank paths (we run as root, so chmod cannot make them unwritable; a plain file where
    the bank needs a directory can): one line, exit 1, nothing changed."""
    bank = tmp_path / "b"
    _run("--phase", "1", "--bank", str(bank), "--estimated-phases", "1", str(entries))
    target = bank / blocker
    if target.exists():
        shutil.rmtree(target)
    target.write_text("in the way\n")
    many = write_jsonl(tmp_path / "m.jsonl", [{**TYPO, "from_agent": f"a{i}"} for i in range(210)])
    before = snapshot(bank)
    code, _, err = _run("--phase", "2", "--bank", str(bank), "--estimated-phases", "1", str(many))
    assert code == 1 and err.count("\n") == 1 and blocker in err
    assert snapshot(bank) == before


@pytest.fixture
def read_only_bank(tmp_path: Path, entries: Path) -> Iterator[Path]:
    """A populated bank seen through a read-only bind mount (needs root and mount; skipped otherwise)."""
    source, mount = tmp_path / "src", tmp_path / "ro"
    source.mkdir()
    mount.mkdir()
    _run("--phase", "1", "--bank", str(source / "bank"), str(entries))
    if shutil.which("mount") is None:
        pytest.skip("no mount binary")
    bind = subprocess.run(["mount", "--bind", str(source), str(mount)], capture_output=True)
    if bind.returncode != 0:
        pytest.skip(f"cannot bind-mount here: {bind.stderr.decode().strip()}")
    try:
        ro = subprocess.run(["mount", "-o", "remount,bind,ro", str(mount)], capture_output=True)
        if ro.returncode != 0:
            pytest.skip(f"cannot remount read-only: {ro.stderr.decode().strip()}")
        yield mount / "bank"
    finally:
        subprocess.run(["umount", str(mount)], capture_output=True)


@pytest.mark.parametrize("drop_lock", [False, True])
def test_cli_read_only_filesystem_changes_nothing(
    read_only_bank: Path, tmp_path: Path, drop_lock: bool
) -> None:
    """A bank on a read-only filesystem: one line, exit 1, every byte as before."""
    if drop_lock:  # without a lock file the gate cannot even create it
        subprocess.run(["mount", "-o", "remount,bind,rw", str(read_only_bank.parent)], check=True)
        (read_only_bank / ".tmp" / "compress.lock").unlink()
        subprocess.run(["mount", "-o", "remount,bind,ro", str(read_only_bank.parent)], check=True)
    before = snapshot(read_only_bank)
    batch = write_jsonl(tmp_path / "p2.jsonl", [{**JWT, "summary": "Changed: " + str(JWT["summary"])}])
    code, _, err = _run("--phase", "1", "--bank", str(read_only_bank), str(batch))
    assert code == 1 and "Read-only file system" in err and err.count("\n") == 1
    assert snapshot(read_only_bank) == before


def test_cli_entries_without_date_get_todays_utc_date(tmp_path: Path, entries: Path) -> None:
    """No --date: today's date in UTC (documented); --date pins it."""
    import datetime as dt

    bank = tmp_path / "b"
    today = dt.datetime.now(dt.UTC).date().isoformat()
    assert _run("--phase", "1", "--bank", str(bank), str(entries))[0] == 0
    assert f"### {today} — 1: hermes" in (bank / "02-progress-log.md").read_text()


def test_the_printed_inject_hint_works_when_pasted(tmp_path: Path, entries: Path) -> None:
    """The hint names --feature and --bank; run as printed (a real process), it prints the learnings."""
    import os
    import shlex
    import sys

    bank = tmp_path / "b"
    learnings = tmp_path / "learnings" / "auth-jwt" / "learnings.md"
    learnings.parent.mkdir(parents=True)
    learnings.write_text("- Refresh tokens are single-use: rotate on every call.\n")
    code, out, _ = _run("--phase", "1", "--feature", "auth-jwt", "--bank", str(bank), str(entries))
    hint = next(line for line in out.splitlines() if line.startswith("Learnings pending"))
    command = shlex.split(hint.split(": ", 1)[1])
    assert code == 0 and command[:4] == ["summarizer", "gate", "--inject", "1"]
    assert "--feature" in command and "--bank" in command
    script = Path(sys.executable).parent / "summarizer"
    done = subprocess.run([str(script), *command[1:]], capture_output=True, text=True, env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    assert "Refresh tokens are single-use" in done.stdout and "(none recorded)" not in done.stdout


def test_the_inject_hint_leaves_out_what_is_the_default(entries: Path, isolated_env: Path) -> None:
    """Default bank and feature: the command is just ``summarizer gate --inject 1``."""
    code, out, _ = _run("--phase", "1", str(entries))
    assert code == 0 and "The next agent's block: summarizer gate --inject 1" in out.splitlines()
