"""Session cells through the production session service, with the fake server's answering rules."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from summarizer.evaluation.suite import EvalOptions
from summarizer.semantic.ports import CompletionRequest
from summarizer.testing import FakeCompleter

from .conftest import run_eval_now

ROOT = Path(__file__).resolve().parents[2]


def _server() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "fake_openai_server", ROOT / "evals" / "fake_openai_server.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_session_cells_reach_the_model_through_the_session_service(
    tmp_path: Path, datasets_dir: Path
) -> None:
    """Each session case is one model call (bridged back to the runner's loop) and is measured."""
    server = _server()
    lines = (datasets_dir / "session.jsonl").read_text(encoding="utf-8").splitlines()[:3]
    dataset = datasets_dir / "session.jsonl"
    small = tmp_path / "session.jsonl"
    small.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "sessions").symlink_to(dataset.parent / "sessions")

    def reply(request: CompletionRequest) -> str:
        return str(server.answer([{"content": request.system}, {"content": request.user}]))

    fake = FakeCompleter(default=reply)
    options = EvalOptions(
        datasets=(small,), prompts=(str(ROOT / "prompts"),), models=("openai/fake",), concurrency=3
    )
    matrix, analysis = run_eval_now(options, completer=fake, answer_cache=None, results_cache=None)
    model_cells = [r for r in matrix.results if r.contender == "prompts"]
    assert len(fake.calls) == 3 == matrix.provider_calls
    assert all(r.output is not None and r.output.source == "llm" for r in model_cells)
    assert all("fact_recall" in r.metrics and r.metrics["format_ok"] == 1.0 for r in model_cells)
    assert {s.contender for s in analysis.stats} == {"template", "prompts"}


def test_the_fake_server_honours_a_request_for_endpoints_and_status_codes() -> None:
    """The obedient fake adds contract details only when the prompt asks for them."""
    server = _server()
    entry = (
        "summary: Added POST /api/v1/auth/login; a wrong password returns 401. Tokens rotate, so never "
        "refresh in parallel.\nnext agents: aphrodite"
    )
    plain = server.phase_gate_answer(f"Write exactly 3 lines.\n{entry}")
    asked = server.phase_gate_answer(
        f"Write exactly 2 lines.\nName every endpoint path and every status code.\n{entry}"
    )
    assert len(plain.splitlines()) == 3 and "never refresh in parallel" in plain.splitlines()[2]
    assert len(asked.splitlines()) == 2
    assert "POST /api/v1/auth/login" in asked.splitlines()[0] and "401" in asked.splitlines()[0]
