"""Fixtures for the eval tests: two prompt versions and an echoing fake model.

The fake model answers what the prompt asks: it writes the number of lines the prompt demands, and
it puts the entry's endpoint (``METHOD /path``) into the first line only when the prompt asks for
the endpoint path. ``v2`` differs from ``v1`` exactly by that request, so v2 must win on fact
recall, by a margin that comes from the data, not from a hard-coded result.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from summarizer.core.settings import default_prompt_dir
from summarizer.evaluation.comparison import Analysis
from summarizer.evaluation.runner import Matrix
from summarizer.evaluation.suite import run_eval
from summarizer.output import OriginalStore
from summarizer.semantic.ports import CompletionRequest

ASK = "Always state the endpoint path with its HTTP method."
_LINES = re.compile(r"exactly (\d+) lines")
_ENDPOINT = re.compile(r"\b(GET|POST|PUT|PATCH|DELETE) (/[\w/{}.:-]+)")
_SUMMARY = re.compile(r"^summary: (.*)$", re.MULTILINE)


def echo_model(request: CompletionRequest) -> str:
    """A deterministic 'model' that does what the prompt asks (see the module docstring)."""
    wanted = int(m.group(1)) if (m := _LINES.search(request.user)) else 2
    summary = m.group(1) if (m := _SUMMARY.search(request.user)) else "the entry"
    first = "Changed the contract described in the summary."
    if ASK in request.user and (endpoint := _ENDPOINT.search(summary)):
        first = f"Changed {endpoint.group(1)} {endpoint.group(2)} as described."
    lines = [first, "The next agent must adapt its side to this change.", "Watch the stated trade-off."]
    return "\n".join(lines[:wanted])


def make_versions(root: Path) -> tuple[Path, Path]:
    """Copy the packaged prompts to ``root/v1`` and ``root/v2``; v2 asks for the endpoint path."""
    source = default_prompt_dir({})
    v1, v2 = root / "v1", root / "v2"
    shutil.copytree(source, v1)
    shutil.copytree(source, v2)
    for name in ("critical", "high"):
        path = v2 / f"{name}.md.j2"
        path.write_text(path.read_text(encoding="utf-8") + f"\n{ASK}\n", encoding="utf-8")
    return v1, v2


@pytest.fixture
def versions(tmp_path: Path) -> tuple[Path, Path]:
    """Two prompt directories, v1 and v2."""
    return make_versions(tmp_path / "prompts")


@pytest.fixture
def datasets_dir() -> Path:
    """The shipped datasets."""
    return Path(__file__).resolve().parents[2] / "evals" / "datasets"


@pytest.fixture
def small_dataset(tmp_path: Path, datasets_dir: Path) -> Path:
    """The first 16 shipped phase-gate cases (endpoints, tables, one CRITICAL), to keep tests fast."""
    lines = (datasets_dir / "phase_gate.jsonl").read_text(encoding="utf-8").splitlines()[:16]
    path = tmp_path / "phase_gate.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run_eval_now(options: Any, **kwargs: Any) -> tuple[Matrix, Analysis]:
    """``run_eval`` to completion, with a throwaway originals store for tool-output cases."""
    with tempfile.TemporaryDirectory(prefix="eval-originals-") as store:
        kwargs.setdefault("originals", OriginalStore(Path(store)))
        return asyncio.run(run_eval(options, **kwargs))


@pytest.fixture
def fake_server() -> Iterator[str]:
    """evals/fake_openai_server.py on a free port; yields its base URL."""
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(
        [sys.executable, str(root / "evals" / "fake_openai_server.py"), "--port", "0", "--idle", "120"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # "fake OpenAI server on http://127.0.0.1:PORT/v1"
        yield line.split(" on ", 1)[1].strip()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
