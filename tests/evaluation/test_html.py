"""report.html is self-contained and renders the matrix in a real headless Chromium."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from summarizer.evaluation.report import write_reports
from summarizer.evaluation.suite import EvalOptions

from .conftest import run_eval_now

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)


@pytest.fixture
def report(tmp_path: Path, small_dataset: Path) -> Path:
    """An offline run (template + one recorded contender) written to tmp_path/out."""
    recorded = tmp_path / "recorded"
    recorded.mkdir()
    rows = [
        {
            "case": "pg-001",
            "text": "Added POST /api/v1/auth/login, see https://example.com/docs.\nNever refresh twice.",
        },
        {
            "case": "pg-002",
            "text": "Paginated GET /api/v1/invoices with next_cursor.\nnext_cursor is null at the end.",
        },
    ]
    (recorded / "rec.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    options = EvalOptions(datasets=(small_dataset,), offline=True, recorded_dir=recorded)
    matrix, analysis = run_eval_now(options, completer=None, answer_cache=None, results_cache=None)
    return write_reports(tmp_path / "out", matrix, analysis)["html"]


def test_report_html_references_no_url(report: Path) -> None:
    """No http(s) URL, no external src/href, no @import: the page works offline and leaks nothing."""
    page = report.read_text(encoding="utf-8")
    assert "http://" not in page and "https://" not in page
    assert not re.search(r"""\b(?:src|href)\s*=""", page, re.IGNORECASE)
    assert "@import" not in page and "url(" not in page
    assert "<table class='matrix'" in page and "<svg" in page and "id='only-diff'" in page
    # The recorded answer quoted a URL: it is displayed, but defused.
    assert "https:&#47;&#47;example.com" in page


def test_report_html_renders_the_matrix_in_headless_chromium(report: Path, tmp_path: Path) -> None:
    """Chromium loads the page and its DOM holds the matrix rows and the case diff view."""
    if CHROMIUM is None:
        pytest.skip("chromium is not installed (apt-get install -y chromium); the render check needs it")
    done = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            f"--user-data-dir={tmp_path / 'chrome'}",
            "--dump-dom",
            report.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout
    matrix = re.search(r'<table class="matrix".*?</table>', dom, re.DOTALL)
    assert matrix is not None
    assert "<th>template</th>" in matrix.group(0) and "<th>rec</th>" in matrix.group(0)
    assert "fact recall" in matrix.group(0)
    assert 'class="differs"' in dom and 'class="same"' in dom
