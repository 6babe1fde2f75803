"""Resolve dataset cases into what contenders read: source text, band, ground truth and a hash.

* phase gate: the entry as ``key: value`` lines (what the model sees and what a hallucination is
  checked against); the band is the case's ``expected_band``, else the scorer's priority band, so
  every contender answers in the same band;
* session: the transcript text as given;
* tool output: the output file of an evaldata folder under ``root`` and its truth: ``gen`` cases'
  ``must_survive``/``should_survive`` values, LogHub's ``primary``/``secondary`` CSV ``content``
  fields (evaldata/README.md). The output file's bytes are part of the case hash.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from summarizer.core.errors import InputError, NotFound
from summarizer.evaluation.cells import ResolvedCase
from summarizer.evaluation.dataset import Dataset, PhaseGateCase, SessionCase, ToolOutputCase, case_hash
from summarizer.output.truth import Case as TruthCase
from summarizer.output.truth import load_case
from summarizer.phasegate.summaries import entry_text

__all__ = ["resolve_all", "resolve_case"]


def _truth_case(case: ToolOutputCase, root: Path) -> TruthCase:
    """The evaldata folder's output file and truth items, read by the tool-output issue's loader."""
    folder = root / case.folder
    if not folder.is_dir():
        raise NotFound(
            f"tool-output case {case.id!r}: folder {str(folder)!r} not found; pass --evaldata "
            "pointing at the evaldata root (the folder holding gen/ and loghub/)"
        )
    found = load_case(folder)
    if found is None or not found.path.is_file():
        raise NotFound(f"tool-output case {case.id!r}: no truth.json and output file in {str(folder)!r}")
    return found


def _band_of(case: PhaseGateCase) -> str:
    if case.expected_band is not None:
        return case.expected_band
    from summarizer.phasegate.scoring import score_entry  # deterministic, litellm-free

    to = case.next_agent or None
    return score_entry(case.subtask_summary, to).priority


def resolve_case(
    case: PhaseGateCase | SessionCase | ToolOutputCase, dataset: str, evaldata: Path | None
) -> ResolvedCase:
    """Everything contenders and metrics need for ``case``; tool output needs ``evaldata``."""
    if isinstance(case, PhaseGateCase):
        source = entry_text(case.subtask_summary)
        band = _band_of(case)
        return ResolvedCase(
            case=case,
            dataset=dataset,
            source=source,
            digest=case_hash(case, band),
            band=band,  # type: ignore[arg-type]  # scoring's Band literal is the same four names
            facts=case.facts,
        )
    if isinstance(case, SessionCase):
        # The document header carries the project and date: inputs, not inventions.
        source = f"project: {case.project}\ndate: {case.date or ''}\n{case.transcript or ''}"
        return ResolvedCase(
            case=case, dataset=dataset, source=source, digest=case_hash(case), facts=case.facts
        )
    if evaldata is None:
        raise InputError(
            f"dataset {dataset!r} has tool-output cases; pass --evaldata PATH "
            "(the folder holding gen/ and loghub/)"
        )
    truth = _truth_case(case, evaldata)
    raw = truth.path.read_bytes()
    return ResolvedCase(
        case=case,
        dataset=dataset,
        source=raw.decode("utf-8", errors="replace"),
        digest=case_hash(case, hashlib.sha256(raw).hexdigest()),
        must=truth.must,
        should=truth.should,
        raw=raw,
    )


def resolve_all(datasets: list[Dataset], evaldata: Path | None) -> list[ResolvedCase]:
    """Resolve every case of every dataset, in order."""
    return [resolve_case(case, ds.name, evaldata) for ds in datasets for case in ds.cases]
