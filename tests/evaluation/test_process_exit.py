"""A finished ``summarizer eval`` process ends without the interpreter's teardown, all written.

Once litellm is loaded, freeing its ~3,000 modules at exit takes a quarter of a second, so the
launcher ends an eval with ``os._exit`` after the exit handlers ran and output was flushed. These
run the installed command as a user does, against the local fake provider, and read back
everything the run wrote.
"""

from __future__ import annotations

import csv
import json
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest


def _eval(tmp_path: Path, dataset: Path, api_base: str, *extra: str) -> subprocess.CompletedProcess[str]:
    command = Path(sys.executable).parent / "summarizer"
    env = {
        **os.environ,
        "HOME": str(tmp_path / "home"),
        "SUMMARIZER_CACHE_DIR": str(tmp_path / "cache"),
        "OPENAI_API_KEY": "sk-local",
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    }
    args = [str(command), "eval", str(dataset), "--model", "openai/gpt-4o-mini", "--api-base", api_base]
    return subprocess.run(
        [*args, "--concurrency", "4", *extra],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.slow
def test_a_live_eval_process_ends_with_its_reports_complete_and_its_stores_closed(
    tmp_path: Path, small_dataset: Path, fake_server: str
) -> None:
    """Exit code, the last line of stdout, every report row and every stored cell are there."""
    out, table = tmp_path / "out", tmp_path / "cells.csv"
    first = _eval(tmp_path, small_dataset, fake_server, "--out", str(out), "--csv", str(table))
    assert first.returncode == 0, first.stderr + first.stdout
    # The last line the command prints, into a pipe, before the process ends at once.
    assert first.stdout.rstrip().splitlines()[-1].startswith("reports: ")
    rows = (out / "results.jsonl").read_text(encoding="utf-8").splitlines()
    cells = len(rows)
    assert cells == 32 and all(json.loads(row)["error"] is None for row in rows)  # template + prompts
    assert json.loads((out / "summary.json").read_text(encoding="utf-8"))["datasets"]
    assert (out / "report.html").read_text(encoding="utf-8").rstrip().endswith("</html>")
    with table.open(encoding="utf-8", newline="") as handle:
        assert len(list(csv.DictReader(handle))) == cells
    # Closed, not abandoned: SQLite folds its write-ahead log back and deletes it when the last
    # connection to a database closes; a killed or torn-down-by-luck process leaves it behind.
    cache = tmp_path / "cache"
    assert sorted(p.name for p in cache.rglob("*-wal")) == []
    with closing(sqlite3.connect(cache / "eval" / "results.sqlite3")) as db:
        assert db.execute("SELECT count(*) FROM cells").fetchone()[0] == 16 + 16  # template + prompts

    gate = ("--require", "cost<=0")
    again = _eval(tmp_path, small_dataset, fake_server, "--out", str(tmp_path / "again"), *gate)
    assert again.returncode == 1, again.stderr + again.stdout  # the failed gate's code survives the exit
    assert "0 computed, 32 reused" in again.stdout
    assert again.stdout.rstrip().splitlines()[-1].startswith("reports: ")
    assert sorted(p.name for p in cache.rglob("*-wal")) == []
