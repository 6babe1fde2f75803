"""``summarizer eval`` end to end: the real CLI, the real litellm, respx as an OpenAI-compatible API."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import httpx
import pytest
import respx
from click.testing import CliRunner

from summarizer.cli import main
from summarizer.core.settings import default_prompt_dir
from tests.conftest import chat_completion

ROOT = Path(__file__).resolve().parents[2]
API = "http://127.0.0.1:8765/v1"


def _server() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "fake_openai_server", ROOT / "evals" / "fake_openai_server.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def litellm_offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """A dummy key and litellm's local cost map: respx answers, nothing leaves the process."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # before the import: no cost-map download


def test_eval_through_litellm_reports_v2_better_then_reuses_every_cell(
    tmp_path: Path, datasets_dir: Path, litellm_offline: None
) -> None:
    """v2 asks for endpoints and status codes and wins; the second run sends no request."""
    server = _server()
    rows = [json.loads(line) for line in (datasets_dir / "phase_gate.jsonl").read_text().splitlines()[:10]]
    dataset = tmp_path / "pg.jsonl"
    dataset.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    v1, v2 = tmp_path / "v1", tmp_path / "v2"
    shutil.copytree(default_prompt_dir({}), v1)
    shutil.copytree(default_prompt_dir({}), v2)
    for name in ("critical", "high"):
        path = v2 / f"{name}.md.j2"
        path.write_text(path.read_text() + "\nName every endpoint path and every status code.\n")

    def reply(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        return httpx.Response(200, json=chat_completion(body["model"], server.answer(body["messages"])))

    args = [
        "eval",
        str(dataset),
        "--prompts",
        str(v1),
        "--prompts",
        str(v2),
        "--model",
        "openai/gpt-4o-mini",
        "--api-base",
        API,
        "--out",
        str(tmp_path / "out"),
    ]
    with respx.mock(assert_all_mocked=True) as mock:
        route = mock.post(f"{API}/chat/completions").mock(side_effect=reply)
        first = CliRunner().invoke(main, args)
        assert first.exit_code == 0, first.output
        calls = route.call_count
        second = CliRunner().invoke(main, args)
    assert calls == 20  # ten CRITICAL/HIGH entries, two versions
    assert "v2 beats v1 on fact recall: +" in first.output
    assert second.exit_code == 0 and route.call_count == calls
    assert "provider calls: 0" in second.output and "0 computed" in second.output


_FRESH_PROCESS = """
import sys
from click.testing import CliRunner
from summarizer.cli import main

args = sys.argv[1:]
template = CliRunner().invoke(main, [a for a in args if a not in ("--model", "openai/gpt-4o-mini")])
assert template.exit_code == 0, template.output
assert "litellm" not in sys.modules, "a template-only run imported litellm"
stored = CliRunner().invoke(main, args)
assert stored.exit_code == 0, stored.output
assert "0 computed" in stored.output, stored.output
assert "litellm" not in sys.modules, "a run the store answers imported litellm"
"""


def test_litellm_is_imported_only_when_a_model_cell_is_left_to_compute(
    tmp_path: Path, datasets_dir: Path, litellm_offline: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a fresh process, neither a template-only run nor a run the store answers imports litellm."""
    server = _server()
    monkeypatch.setenv("SUMMARIZER_CACHE_DIR", str(tmp_path / "cache"))

    def reply(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        return httpx.Response(200, json=chat_completion(body["model"], server.answer(body["messages"])))

    args = [
        "eval",
        str(datasets_dir / "phase_gate.jsonl"),
        "--limit",
        "4",
        "--model",
        "openai/gpt-4o-mini",
        "--api-base",
        API,
        "--out",
        str(tmp_path / "out"),
    ]
    with respx.mock(assert_all_mocked=True) as mock:
        route = mock.post(f"{API}/chat/completions").mock(side_effect=reply)
        first = CliRunner().invoke(main, args)
    assert first.exit_code == 0, first.output
    assert route.call_count > 0  # the store now holds model cells
    fresh = subprocess.run(
        [sys.executable, "-c", _FRESH_PROCESS, *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert fresh.returncode == 0, fresh.stderr[-3000:]
