"""Ground truth for tool-output compression, and recall measured against it.

Two formats (see ``/work/shared/evaldata/README.md``):

* ``loghub/<System>/truth.json``: ``primary`` (must survive) and ``secondary`` (should survive)
  hold ``items`` of ``{line, value, content, line_text}``; an item survives when its CSV
  ``content`` field (or the whole ``line_text``) is present in the output.
* ``gen/<case>/truth.json``: ``must_survive`` / ``should_survive`` lists of ``{kind, value}``; an
  item survives when ``value`` is a substring of the output.

Both compare after stripping ANSI codes and expanding file-factored rows, and keeping any one
occurrence counts. This module is
shipped in the package because ``summarizer eval`` reuses it for coordinate recall.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from summarizer.core.errors import InputError
from summarizer.output.grouping import expand
from summarizer.output.lines import strip_ansi

__all__ = ["Case", "Recall", "TruthItem", "load_case", "load_cases", "recall"]


class TruthItem(BaseModel):
    """One thing that must (or should) survive: any of ``needles`` present counts."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    label: str
    needles: tuple[str, ...]


class Case(BaseModel):
    """One evaluation case: the output file and what must survive it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    path: Path
    must: tuple[TruthItem, ...]
    should: tuple[TruthItem, ...]
    exit_code: int | None = None
    runner_counts: tuple[int, int] | None = None  # (failed, passed) as the runner reported them


class Recall(BaseModel):
    """Recall of one item list on one text."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    found: int
    total: int
    missed: tuple[str, ...]

    @property
    def ratio(self) -> float:
        """found / total (1.0 when there is nothing to find)."""
        return self.found / self.total if self.total else 1.0


def _loghub_items(block: object) -> tuple[TruthItem, ...]:
    if not isinstance(block, dict):
        return ()
    items = []
    for item in block.get("items") or []:
        needles = tuple(x.strip() for x in (item.get("content"), item.get("line_text")) if x and x.strip())
        items.append(TruthItem(label=f"line {item.get('line')}: {item.get('content', '')}", needles=needles))
    return tuple(items)


def _gen_items(rows: object) -> tuple[TruthItem, ...]:
    if not isinstance(rows, list):
        return ()
    return tuple(TruthItem(label=f"{r.get('kind', '?')}: {r['value']}", needles=(r["value"],)) for r in rows)


def _runner_counts(block: object) -> tuple[int, int] | None:
    if not isinstance(block, dict):
        return None
    return int(block.get("failed", 0)), int(block.get("passed", 0))


def load_case(folder: Path) -> Case | None:
    """Read one case folder (either format); ``None`` when it has no truth.json."""
    truth_path = folder / "truth.json"
    if not truth_path.is_file():
        return None
    try:
        truth = json.loads(truth_path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise InputError(f"cannot read {str(truth_path)!r}: {exc}; fix or remove the case") from exc
    if "must_survive" in truth:
        return Case(
            name=folder.name,
            path=folder / "output.txt",
            must=_gen_items(truth.get("must_survive")),
            should=_gen_items(truth.get("should_survive")),
            exit_code=truth.get("exit_code"),
            runner_counts=_runner_counts(truth.get("runner_counts")),
        )
    log_file = truth.get("log_file") or next((p.name for p in folder.glob("*.log")), None)
    if log_file is None:
        return None
    return Case(
        name=folder.name,
        path=folder / log_file,
        must=_loghub_items(truth.get("primary")),
        should=_loghub_items(truth.get("secondary")),
    )


def load_cases(root: Path) -> list[Case]:
    """Every case under ``root`` (a case folder itself, or folders of them, at any depth)."""
    if (case := load_case(root)) is not None:
        return [case]
    found: list[Case] = []
    for truth in sorted(root.rglob("truth.json")):
        case = load_case(truth.parent)
        if case is not None:
            found.append(case)
    return found


def recall(items: tuple[TruthItem, ...], text: str) -> Recall:
    """How many items survive in ``text`` (compared after stripping ANSI codes).

    Rows factored under a ``@ file`` heading are read whole (:func:`grouping.expand`): the
    factoring is lossless, so ``file(12,5)`` shown as ``…(12,5)`` under ``@ file`` survives.
    """
    clean = strip_ansi(text)
    clean = clean + "\n" + expand(clean) if "\n@ " in clean else clean
    missed = [item.label for item in items if not any(n in clean for n in item.needles)]
    return Recall(found=len(items) - len(missed), total=len(items), missed=tuple(missed))
