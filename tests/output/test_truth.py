"""Ground-truth loading (both evaldata formats) and recall after ANSI stripping."""

from __future__ import annotations

import json
from pathlib import Path

from summarizer.output.truth import load_cases, recall


def _gen_case(root: Path) -> None:
    case = root / "gen" / "demo"
    case.mkdir(parents=True)
    (case / "output.txt").write_text("x\n")
    (case / "truth.json").write_text(
        json.dumps(
            {
                "exit_code": 1,
                "must_survive": [{"kind": "loc", "value": "a.py:3"}, {"kind": "msg", "value": "boom"}],
                "should_survive": [{"kind": "frame", "value": "b.py:9"}],
            }
        )
    )


def _loghub_case(root: Path) -> None:
    case = root / "loghub" / "Sys"
    case.mkdir(parents=True)
    (case / "Sys_2k.log").write_text("l\n")
    (case / "truth.json").write_text(
        json.dumps(
            {
                "log_file": "Sys_2k.log",
                "primary": {
                    "items": [
                        {"line": 7, "value": "WARN", "content": "disk slow ", "line_text": "t WARN disk slow"}
                    ]
                },
                "secondary": None,
            }
        )
    )


def test_both_formats_load_from_one_root(tmp_path: Path) -> None:
    """A root holding gen/ and loghub/ cases yields both, with their must/should items."""
    _gen_case(tmp_path)
    _loghub_case(tmp_path)
    cases = {c.name: c for c in load_cases(tmp_path)}
    assert set(cases) == {"demo", "Sys"}
    assert cases["demo"].exit_code == 1 and len(cases["demo"].must) == 2 and len(cases["demo"].should) == 1
    assert cases["Sys"].path.name == "Sys_2k.log" and cases["Sys"].must[0].needles[0] == "disk slow"


def test_recall_strips_ansi_and_names_the_misses(tmp_path: Path) -> None:
    """Values split by colour codes still count; missing values are listed."""
    _gen_case(tmp_path)
    case = load_cases(tmp_path)[0]
    result = recall(case.must, "at \x1b[1ma.py\x1b[0m:3 something")
    assert result.found == 1 and result.total == 2
    assert result.missed == ("msg: boom",)
    assert recall((), "").ratio == 1.0


def test_loghub_content_or_whole_line_counts(tmp_path: Path) -> None:
    """A LogHub item survives when its content (or its whole line) is present."""
    _loghub_case(tmp_path)
    case = load_cases(tmp_path)[0]
    assert recall(case.must, "7: t WARN disk slow").found == 1
    assert recall(case.must, "7: t WARN disk").found == 0
