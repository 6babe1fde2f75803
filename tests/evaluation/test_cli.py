"""``summarizer eval`` at the edge: offline runs, reuse across runs, usage errors, git revisions."""

from __future__ import annotations

import shutil
import subprocess
from contextlib import ExitStack
from pathlib import Path

import pytest
from click.testing import CliRunner

from summarizer.cli import main
from summarizer.core.errors import NotFound
from summarizer.core.settings import default_prompt_dir
from summarizer.evaluation.versions import materialise_prompts


def test_offline_eval_prints_the_table_writes_reports_and_reuses_cells(
    tmp_path: Path, small_dataset: Path
) -> None:
    """The template runs offline; the second invocation recomputes nothing."""
    out = tmp_path / "out"
    runner = CliRunner()
    first = runner.invoke(main, ["eval", str(small_dataset), "--offline", "--out", str(out)])
    assert first.exit_code == 0, first.output
    assert "== phase_gate ==" in first.output and "template" in first.output
    assert "16 computed, 0 reused" in first.output
    assert {p.name for p in out.iterdir()} == {"report.md", "report.html", "results.jsonl", "summary.json"}
    assert len((out / "results.jsonl").read_text(encoding="utf-8").splitlines()) == 16
    second = runner.invoke(main, ["eval", str(small_dataset), "--offline", "--out", str(out)])
    assert second.exit_code == 0 and "0 computed, 16 reused" in second.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.jsonl", "--offline"], "dataset 'missing.jsonl' not found"),
        (["{ds_dir}", "--offline"], "is a directory; pass a JSONL file in it"),
        (["{ds}", "--prompts", "{ds_dir}"], "--prompts needs at least one --model"),
        (["{ds}", "--offline", "--require", "recall>=90"], "recall is a rate; write 0.9 or 90%"),
        (["{ds}", "--offline", "--require", "speed>=1"], "unknown metric 'speed'"),
        (["{ds}", "--offline", "--case", "nope"], "--case nope: no such case id"),
        (["{ds}", "--offline", "--no-regression-vs", "v9"], "--no-regression-vs 'v9': no such contender"),
        (["{ds}", "--offline", "--judge", "openai/x"], "--judge needs a provider; drop --offline"),
    ],
)
def test_usage_errors_exit_2_with_one_line(
    tmp_path: Path, small_dataset: Path, args: list[str], message: str
) -> None:
    """Bad input is exit 2 and one line on stderr saying what to do."""
    argv = [a.format(ds=small_dataset, ds_dir=small_dataset.parent) for a in args]
    result = CliRunner().invoke(main, ["eval", *argv, "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert message in result.output and len(result.output.strip().splitlines()) == 1


def test_tool_output_cases_need_the_evaldata_root(tmp_path: Path, datasets_dir: Path) -> None:
    """Without --evaldata the tool-output dataset says which flag is missing."""
    result = CliRunner().invoke(
        main, ["eval", str(datasets_dir / "tool_output.jsonl"), "--offline", "--out", str(tmp_path / "o")]
    )
    assert result.exit_code == 2 and "--evaldata" in result.output


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_git_revision_of_prompts_is_materialised_as_committed(tmp_path: Path) -> None:
    """``--prompts HEAD`` reads the committed templates, not the edited working copy."""
    repo = tmp_path / "repo"
    shutil.copytree(default_prompt_dir({}), repo / "prompts")

    def git(*args: str) -> None:
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
            cwd=repo,
            check=True,
            capture_output=True,
        )

    git("init", "-q")
    git("add", "prompts")
    git("commit", "-q", "-m", "prompts v1")
    committed = (repo / "prompts" / "high.md.j2").read_text(encoding="utf-8")
    (repo / "prompts" / "high.md.j2").write_text(committed + "edited\n", encoding="utf-8")
    with ExitStack() as stack:
        label, directory = materialise_prompts("HEAD", stack, repo=repo)
        assert label == "prompts@HEAD"
        assert (directory / "high.md.j2").read_text(encoding="utf-8") == committed
    assert not directory.exists()  # the temporary copy goes away with the run
    with ExitStack() as stack, pytest.raises(NotFound, match="neither a directory nor a git revision"):
        materialise_prompts("no-such-rev", stack, repo=repo)


def test_limit_and_case_pick_the_cells_of_a_quick_run(tmp_path: Path, small_dataset: Path) -> None:
    """--limit keeps the first N cases; --case (repeatable) keeps exactly those ids."""
    import json

    ids = [json.loads(line)["id"] for line in small_dataset.read_text(encoding="utf-8").splitlines()]
    runner = CliRunner()
    limited = runner.invoke(
        main, ["eval", str(small_dataset), "--offline", "--limit", "3", "--out", str(tmp_path / "a")]
    )
    assert limited.exit_code == 0, limited.output
    rows = (tmp_path / "a" / "results.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(r)["case_id"] for r in rows] == ids[:3]
    picked = runner.invoke(
        main,
        [
            "eval",
            str(small_dataset),
            "--offline",
            "--case",
            ids[7],
            "--case",
            ids[2],
            "--out",
            str(tmp_path / "b"),
        ],
    )
    assert picked.exit_code == 0, picked.output
    rows = (tmp_path / "b" / "results.jsonl").read_text(encoding="utf-8").splitlines()
    assert sorted(json.loads(r)["case_id"] for r in rows) == sorted([ids[7], ids[2]])
