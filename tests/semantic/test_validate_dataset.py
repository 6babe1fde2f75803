"""The validator against the project's phase-gate eval set: honest summaries are never rejected.

The deterministic template builds its lines only from the entry, so it is the reference honest
answer: if the validator refused it, it would also refuse good model answers (a false positive that
silently turns every LLM summary into a template one).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from summarizer.phasegate.models import SubtaskSummary
from summarizer.phasegate.service import compress_one, scrub_entry
from summarizer.phasegate.summaries import entry_rules, entry_text

DATASET = Path(__file__).resolve().parents[2] / "evals" / "datasets" / "phase_gate.jsonl"


def _cases() -> list[SubtaskSummary]:
    if not DATASET.is_file():
        return []
    lines = DATASET.read_text(encoding="utf-8").splitlines()
    return [
        SubtaskSummary.model_validate(json.loads(line)["subtask_summary"]) for line in lines if line.strip()
    ]


@pytest.mark.skipif(not DATASET.is_file(), reason=f"{DATASET} is not in this checkout")
def test_template_answers_for_every_critical_and_high_entry_pass_validation() -> None:
    """Every CRITICAL/HIGH entry's template lines pass the same rules a model answer must pass."""
    checked = 0
    for entry in _cases():
        compressed = compress_one(entry)
        band = compressed.score.priority
        if not compressed.compressed or band not in ("CRITICAL", "HIGH"):
            continue
        clean, _ = scrub_entry(entry)
        entry_rules(band)("\n".join(compressed.lines), entry_text(clean))
        checked += 1
    assert checked >= 10
