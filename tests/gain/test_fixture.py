"""``gain`` and ``discover`` on a real session (tests/gain/fixtures, made by running real tools):
every figure equals a recount made here from the outputs themselves, not from the ledger."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from summarizer.agents.run import STREAM_BYTES
from summarizer.agents.run_compress import shown_tokens
from summarizer.agents.wrap import exclude_prefixes
from summarizer.cli import main
from summarizer.cli.gain import _left_alone
from summarizer.core.tokens import count_tokens
from summarizer.output import OriginalStore, OutputOptions, compress

FIXTURES = Path(__file__).parent / "fixtures"
TRANSCRIPTS = FIXTURES / "projects"
OUTPUTS = FIXTURES / "outputs"
MANIFEST: list[dict[str, Any]] = json.loads((FIXTURES / "manifest.json").read_text())
# `run` decides pass-through without the tokenizer up to this many bytes (tokens <= bytes).
COLD_BYTES = 10_000
FAMILY = {
    "python -m pytest -v tests/test_many.py": "pytest",
    "python -m pytest -v tests/test_fail.py": "pytest",
    "python gen_log.py | head -n 1200": "python gen_log.py",
    "git status": "git status",
    "ls -la /usr/lib/python3/dist-packages": "ls",
    "python gen_log.py | tail -n 400": "python gen_log.py",
}


def _results() -> dict[str, str]:
    """tool_use_id -> the text the model was shown, read straight from the JSONL."""
    found = {}
    for path in TRANSCRIPTS.rglob("*.jsonl"):
        for line in path.read_text().splitlines():
            content = json.loads(line)["message"]["content"]
            if isinstance(content, list):
                for block in content:
                    if block.get("type") == "tool_result":
                        found[block["tool_use_id"]] = block["content"]
    return found


def _generated() -> bytes:
    """The log generator's whole output (deterministic), as the piped step's command printed it."""
    return subprocess.run(
        [sys.executable, str(FIXTURES / "gen_log.py")], capture_output=True, check=True
    ).stdout


def _head(data: bytes, lines: int) -> bytes:
    return b"".join(data.splitlines(keepends=True)[:lines])


def _recount_run(step: dict[str, Any]) -> tuple[int, int]:
    """(tokens in, tokens out) of one wrapped call, from the bytes themselves."""
    shown = (OUTPUTS / f"{step['tool_use_id']}.shown").read_bytes()
    if "--piped-into 'head -n 1200'" in step["ran"]:  # both sides as the agent's head saw them
        return count_tokens(_head(_generated(), 1200).decode()), count_tokens(_head(shown, 1200).decode())
    original_file = OUTPUTS / f"{step['tool_use_id']}.original"
    if not original_file.exists():  # passed through on the fast path: bytes/4 stands in, both sides
        assert len(shown) <= COLD_BYTES
        estimate = (len(shown) + 3) // 4
        return estimate, estimate
    original = original_file.read_bytes()
    tokens_in = count_tokens(original.decode())
    if shown == original:
        return tokens_in, tokens_in
    return tokens_in, count_tokens(shown.decode())


@pytest.fixture
def ledger_home(isolated_env: Path) -> Path:
    """The fixture's ledger where `summarizer gain` looks for it."""
    shutil.copytree(FIXTURES / "ledger", isolated_env / "cache" / "ledger")
    return isolated_env


def _json(args: list[str]) -> dict[str, Any]:
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    value: dict[str, Any] = json.loads(result.stdout)
    return value


def test_gain_figures_equal_a_recount(ledger_home: Path) -> None:
    """Per family and in total: tokens in, out and saved are what the outputs themselves count."""
    report = _json(["gain", "--transcripts", str(TRANSCRIPTS)])
    expected: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for step in MANIFEST:
        if step["hooked"]:
            tokens_in, tokens_out = _recount_run(step)
            row = expected[FAMILY[step["command"]]]
            row[0] += 1
            row[1] += tokens_in
            row[2] += tokens_out
    got = {r["key"]: [r["runs"], r["tokens_in"], r["tokens_out"]] for r in report["families"]}
    assert got == dict(expected)
    total_in = sum(v[1] for v in expected.values())
    total_saved = sum(v[1] - v[2] for v in expected.values())
    assert report["total"]["saved"] == total_saved
    assert report["total"]["saved_pct"] == round(100 * total_saved / total_in, 1)
    assert [d["key"] for d in report["days"]] == ["2026-12-02"]
    assert report["projects"][0]["key"] == "/tmp/gainfix/webapp"


def test_a_command_ending_in_head_is_credited_only_with_what_we_cut(ledger_home: Path) -> None:
    """The hook wrapped `gen_log.py | head -n 1200` as `run --piped-into 'head -n 1200' -- gen_log.py
    | head -n 1200`: run saw all 20,000 lines, yet only head's 1,200 count as what the agent would
    have seen, and only what head kept of our rendering as what it saw."""
    step = next(s for s in MANIFEST if s["command"].endswith("| head -n 1200"))
    assert step["ran"].startswith("summarizer run --piped-into 'head -n 1200' -- ")
    full = _generated()
    shown = (OUTPUTS / f"{step['tool_use_id']}.shown").read_bytes()
    assert results_text(step) == shown.decode().rstrip("\n")  # the transcript holds what head let through
    report = _json(["gain", "--no-transcripts"])
    row = next(t for t in report["top_saved"] if t["command"] == "python gen_log.py | head -n 1200")
    credited = count_tokens(_head(full, 1200).decode()) - count_tokens(_head(shown, 1200).decode())
    assert row["saved"] == credited > 0
    naive = count_tokens(full.decode()) - count_tokens(shown.decode())  # crediting what head dropped
    assert naive > 5 * credited


def results_text(step: dict[str, Any]) -> str:
    return _results()[step["tool_use_id"]]


def test_the_whole_session_share_counts_every_tool_result(ledger_home: Path) -> None:
    """The share is saved / (everything the session's tools showed + saved), all tools included."""
    report = _json(["gain", "--transcripts", str(TRANSCRIPTS)])
    seen = sum(count_tokens(text) for text in _results().values() if text)
    share = report["session"]
    assert share["tool_results"] == len(_results()) == len(MANIFEST) + 1  # the Bash calls and one Read
    assert share["tool_tokens"] == seen
    assert share["without_us"] == seen + report["total"]["saved"]
    assert share["saved_pct"] == round(100 * report["total"]["saved"] / (seen + report["total"]["saved"]), 1)


def test_gain_filters_by_project_and_since(ledger_home: Path) -> None:
    """--project by folder name or path; --since after the session leaves nothing."""
    assert _json(["gain", "--no-transcripts", "--project", "webapp"])["total"]["runs"] == 4
    assert _json(["gain", "--no-transcripts", "--project", "/tmp/gainfix/webapp"])["total"]["runs"] == 4
    assert _json(["gain", "--no-transcripts", "--project", "other"])["total"]["runs"] == 0
    assert _json(["gain", "--no-transcripts", "--since", "2026-12-01"])["total"]["runs"] == 4
    assert _json(["gain", "--no-transcripts", "--since", "2026-12-03"])["total"]["runs"] == 0


def test_discover_figures_equal_a_recount(ledger_home: Path, tmp_path: Path) -> None:
    """Unwrapped Bash calls over the floor, measured as run would have printed them."""
    results = _results()
    store = OriginalStore(tmp_path / "scratch")
    excludes = exclude_prefixes({})
    expected: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    alone = 0
    for step in MANIFEST:
        text = results[step["tool_use_id"]]
        if step["hooked"] or len(text.encode()) <= 500 or count_tokens(text) <= 500:
            continue
        if _left_alone(step["command"], excludes):
            alone += 1
            continue
        data = text.encode()
        would = min(
            shown_tokens(
                data, compress(io.BytesIO(data), store, OutputOptions(), progress=None), STREAM_BYTES
            ),
            count_tokens(text),
        )
        row = expected[FAMILY[step["command"]]]
        row[0] += 1
        row[1] += count_tokens(text)
        row[2] += would
    report = _json(["discover", str(TRANSCRIPTS)])
    got = {r["family"]: [r["outputs"], r["tokens"], r["would_show"]] for r in report["families"]}
    assert got == dict(expected)
    assert report["through_summarizer"] == sum(s["hooked"] for s in MANIFEST)
    assert sum(a["outputs"] for a in report["left_alone"]) == alone
    assert report["total"]["saved"] == sum(v[1] - v[2] for v in expected.values()) > 0


def test_discover_reports_progress_and_skips_a_torn_line(tmp_path: Path) -> None:
    """A large history is read with progress on stderr; a torn last line is counted, not fatal."""
    folder = tmp_path / "projects" / "p"
    shutil.copytree(TRANSCRIPTS, folder)
    session = next(folder.rglob("*.jsonl"))
    with session.open("a") as handle:
        handle.write('{"type": "user", "message": {"content": [{"type": "tool_re')
    result = CliRunner().invoke(main, ["discover", str(tmp_path / "projects"), "--progress"])
    assert result.exit_code == 0, result.output
    assert "reading transcripts: 1 files" in result.stderr
    assert "1 transcript lines were not JSON and were skipped" in result.stdout


def test_discover_without_transcripts_is_a_usage_error(tmp_path: Path) -> None:
    """A missing path is one line and exit 2."""
    result = CliRunner().invoke(main, ["discover", str(tmp_path / "nope")])
    assert result.exit_code == 2
    assert "not found" in result.stderr


@pytest.mark.parametrize(
    "content", [b"", b"not json\n", b"\xff\xfe\n"], ids=["empty", "not-json", "not-utf8"]
)
def test_discover_on_a_file_that_is_no_transcript_is_exit_2(tmp_path: Path, content: bytes) -> None:
    """The wrong file named by hand is one clear line and exit 2, not an empty report."""
    wrong = tmp_path / "wrong.jsonl"
    wrong.write_bytes(content)
    result = CliRunner().invoke(main, ["discover", str(wrong)])
    assert result.exit_code == 2
    assert "holds no Claude Code transcript records" in result.stderr
