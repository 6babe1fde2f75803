"""The semantic-summary seam: LLM lines for CRITICAL/HIGH entries, templates otherwise."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from summarizer import app
from summarizer.bank import GateRequest, run_gate
from summarizer.bank.layout import load_state
from summarizer.core.settings import Settings
from summarizer.phasegate.models import SubtaskSummary
from summarizer.phasegate.scoring import Band

from .conftest import DATE, JWT, TABLE, TYPO, snapshot, write_jsonl

Job = tuple[SubtaskSummary, Band, tuple[str, ...]]


def _request(entries: list[dict[str, object]]) -> GateRequest:
    return GateRequest(phase="1", entries=tuple(SubtaskSummary.model_validate(e) for e in entries), date=DATE)


def test_semantic_lines_replace_the_template_and_get_labels(bank: Path) -> None:
    """CRITICAL/HIGH entries take the summarizer's lines (labelled); LOW is never sent."""
    seen: list[Job] = []

    def fake(jobs: Sequence[Job]) -> list[tuple[str, ...]]:
        seen.extend(jobs)
        return [tuple(f"model line {i} for {band}" for i in range(len(lines))) for _, band, lines in jobs]

    run_gate(bank, _request([TABLE, JWT, TYPO]), summarize=fake)
    assert [band for _, band, _ in seen] == ["CRITICAL", "HIGH"]
    entries = {e.agent: e for e in load_state(bank).active.entries()}
    assert entries["demeter"].lines == (
        "What changed: model line 0 for CRITICAL",
        "To next agent: model line 1 for CRITICAL",
        "Gotcha: model line 2 for CRITICAL",
    )
    assert entries["hermes"].lines[0] == "What changed: model line 0 for HIGH"
    assert entries["prometheus"].lines == ("[Prometheus] — README.md",)


def test_an_answer_with_the_wrong_line_count_falls_back_to_the_template(bank: Path) -> None:
    """A 1-line answer for a 3-line CRITICAL entry is ignored: the template lines are stored."""
    run_gate(bank, _request([TABLE]), summarize=lambda jobs: [("only one line",) for _ in jobs])
    entry = load_state(bank).active.entries()[0]
    assert entry.lines[0].startswith("What changed: Created refresh_tokens table") and len(entry.lines) == 3


def test_rerun_with_a_different_model_answer_keeps_the_bank_bytes(bank: Path) -> None:
    """Unchanged entries (same key and hash) are skipped, whatever the model says the second time."""
    run_gate(bank, _request([TABLE]), summarize=lambda jobs: [("a", "b", "c") for _ in jobs])
    before = snapshot(bank)
    run_gate(bank, _request([TABLE]), summarize=lambda jobs: [("x", "y", "z") for _ in jobs])
    assert snapshot(bank) == before


def test_no_model_means_templates_and_no_litellm(tmp_path: Path) -> None:
    """Without a model (or offline) the root builds no service and the gate never imports litellm."""
    assert app.llm_service(Settings.load({"HOME": str(tmp_path)})) is None
    env = {"HOME": str(tmp_path), "SUMMARIZER_MODEL": "openai/x", "SUMMARIZER_OFFLINE": "1"}
    offline = Settings.load(env)
    assert app.llm_service(offline) is None
    batch = write_jsonl(tmp_path / "e.jsonl", [TABLE, JWT])
    code = (
        "import sys; from summarizer.cli import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "print('litellm' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, "gate", "--phase", "1", "--bank", str(tmp_path / "b"), str(batch)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.stdout.strip().splitlines()[-1] == "False", out.stderr
