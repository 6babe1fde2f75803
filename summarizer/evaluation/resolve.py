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
import json
from pathlib import Path
from typing import Any

from summarizer.errors import InputError, NotFound
from summarizer.evaluation.cells import ResolvedCase
from summarizer.evaluation.dataset import Dataset, PhaseGateCase, SessionCase, ToolOutputCase, case_hash
from summarizer.models import SubtaskSummary

__all__ = ["entry_text", "resolve_all", "resolve_case", "tool_output_file"]


def entry_text(entry: SubtaskSummary) -> str:
    """The entry as ``key: value`` lines, in the seed's field order, empty fields left out."""
    fields = {
        "agent": entry.from_agent,
        "next agents": ", ".join(entry.to_agent) or None,
        "phase": entry.phase,
        "date": entry.date,
        "status": entry.status + (f" ({entry.status_note})" if entry.status_note else ""),
        "title": entry.title,
        "summary": entry.summary,
        "files": ", ".join(entry.files_changed) or None,
        "tests": entry.tests,
        "coverage": entry.coverage,
        "verdict": entry.verdict,
        "critical issues": None if entry.critical_issues is None else str(entry.critical_issues),
        "blockers": entry.blockers,
        "unblocks": entry.unblocks,
    }
    return "\n".join(f"{key}: {value}" for key, value in fields.items() if value)


def tool_output_file(case: ToolOutputCase, root: Path) -> Path:
    """The output file of an evaldata folder (``output.txt`` or LogHub's ``<System>_2k.log``)."""
    folder = root / case.folder
    if not folder.is_dir():
        raise NotFound(
            f"tool-output case {case.id!r}: folder {str(folder)!r} not found; pass --evaldata "
            "pointing at the evaldata root (the folder holding gen/ and loghub/)"
        )
    if case.format == "gen":
        return folder / "output.txt"
    logs = sorted(folder.glob("*.log"))
    if not logs:
        raise NotFound(f"tool-output case {case.id!r}: no *.log file in {str(folder)!r}")
    return logs[0]


def _truth(case: ToolOutputCase, root: Path) -> tuple[tuple[str, ...], tuple[str, ...]]:
    path = root / case.folder / "truth.json"
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise NotFound(f"tool-output case {case.id!r}: {str(path)!r} not found") from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"tool-output case {case.id!r}: {str(path)!r} is not valid JSON: {exc}") from exc
    if case.format == "gen":
        must = [item["value"] for item in data.get("must_survive", [])]
        should = [item["value"] for item in data.get("should_survive", [])]
    else:
        must = [item["content"] for item in (data.get("primary") or {}).get("items", [])]
        should = [item["content"] for item in (data.get("secondary") or {}).get("items", [])]
    return tuple(dict.fromkeys(must)), tuple(dict.fromkeys(should))


def _band_of(case: PhaseGateCase) -> str:
    if case.expected_band is not None:
        return case.expected_band
    from summarizer.scoring import score_entry  # deterministic, litellm-free

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
    file = tool_output_file(case, evaldata)
    raw = file.read_bytes()
    must, should = _truth(case, evaldata)
    text = raw.decode("utf-8", errors="replace")
    return ResolvedCase(
        case=case,
        dataset=dataset,
        source=text,
        digest=case_hash(case, hashlib.sha256(raw).hexdigest()),
        must=must,
        should=should,
    )


def resolve_all(datasets: list[Dataset], evaldata: Path | None) -> list[ResolvedCase]:
    """Resolve every case of every dataset, in order."""
    return [resolve_case(case, ds.name, evaldata) for ds in datasets for case in ds.cases]
