"""A case's own checks (``assert``), the summary file, the HTML totals, and honest cost gates."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
import pytest
import respx
from click.testing import CliRunner

from summarizer.cli import main
from summarizer.core.errors import InputError
from summarizer.core.tokens import count_tokens
from summarizer.evaluation.assertions import Assertion, check_local
from summarizer.evaluation.dataset import load_dataset
from summarizer.evaluation.sandbox import run_python_checks
from tests.conftest import chat_completion

ROOT = Path(__file__).resolve().parents[2]
ASSERTS = ROOT / "evals" / "datasets" / "asserts.jsonl"
API = "http://127.0.0.1:8765/v1"


def _eval(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["eval", *args])
    return result.exit_code, result.stdout, result.stderr


def test_the_shipped_dataset_uses_every_kind() -> None:
    kinds = {c.type for case in load_dataset(ASSERTS).cases for c in case.checks}
    assert kinds == {"contains", "not-contains", "regex", "max-tokens", "json-valid", "python"}


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ({"regex": "(unclosed"}, "does not compile"),
        ({"python": "x = 1"}, "is not one expression"),
        ({"max-tokens": 0}, "positive whole number"),
        ({"contains": ""}, "non-empty text"),
        ({"sounds-like": "x"}, "should be 'contains'"),
    ],
)
def test_a_bad_check_names_its_line(tmp_path: Path, item: object, message: str) -> None:
    """Validated when the dataset loads: exit-2 material, before any cell runs."""
    line = json.loads(ASSERTS.read_text().splitlines()[0])
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps({**line, "assert": [item]}) + "\n")
    with pytest.raises(InputError, match=rf"d.jsonl:1.*{message}"):
        load_dataset(path)


def test_local_checks() -> None:
    text = 'Added POST /api/login.\n{"no": 1}'
    assert check_local(Assertion.model_validate({"contains": "POST /api"}), text).passed
    assert not check_local(Assertion.model_validate({"not-contains": "login"}), text).passed
    assert check_local(Assertion.model_validate({"regex": r"/api/\w+"}), text).passed
    limit = count_tokens(text)
    assert check_local(Assertion.model_validate({"max-tokens": limit}), text).passed
    failed = check_local(Assertion.model_validate({"max-tokens": limit - 1}), text)
    assert not failed.passed and failed.reason == f"{limit} tokens"
    assert not check_local(Assertion.model_validate("json-valid"), text).passed
    assert check_local(Assertion.model_validate("json-valid"), '{"ok": true}').passed


def test_the_python_check_runs_sandboxed() -> None:
    """Standard library only, no network, no processes, a time limit; a failure says why."""
    results = asyncio.run(
        run_python_checks(
            '{"ok": true}',
            [
                'json.loads(output)["ok"] is True',
                "len(output) > 100",
                "1 / 0",
                '__import__("socket").create_connection(("127.0.0.1", 9))',
                '__import__("os").system("true")',
                '__import__("subprocess")',
                '__import__("pydantic")',
                "[x for x in iter(int, 1)]",
            ],
            limit_s=0.5,
        )
    )
    assert results[0] == (True, None)
    assert results[1] == (False, "false")
    assert results[2] == (False, "ZeroDivisionError: division by zero")
    assert all(not ok and "not allowed" in str(why) for ok, why in results[3:7])
    assert results[7] == (False, "timed out after 0.5 s")


def test_an_eval_with_every_kind_reports_them_per_case_and_per_contender(tmp_path: Path) -> None:
    """summary.json and report.html carry each check; --require gates on the pass rate."""
    out = tmp_path / "out"
    args = [str(ASSERTS), "--offline", "--recorded", str(tmp_path), "--out", str(out), "--no-reuse"]
    code, stdout, _ = _eval(*args, "--require", "template:assert_pass_rate>=0.95")
    assert code == 1 and "template fails assert_pass_rate>=95.0%" in stdout
    summary = json.loads((out / "summary.json").read_text())
    checks = summary["assertions"]["asserts"]
    assert set(checks) == {f"as-00{i}" for i in range(1, 7)}
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    for row in rows:  # every check's verdict is what the answer says, case by case
        case = next(c for c in load_dataset(ASSERTS).cases if c.id == row["case_id"])
        assert [a["check"] for a in row["asserts"]] == [c.label() for c in case.checks]
        for check, got in zip(case.checks, row["asserts"], strict=True):
            if check.type != "python":
                assert got["passed"] == check_local(check, row["output"]["text"]).passed
    rate = summary["datasets"]["asserts"]["contenders"]["template"]["metrics"]["assert_pass_rate"]["mean"]
    passed = [a["passed"] for row in rows for a in row["asserts"]]
    per_cell = [sum(a["passed"] for a in r["asserts"]) / len(r["asserts"]) for r in rows]
    assert rate == pytest.approx(sum(per_cell) / len(per_cell)) and 0 < sum(passed) < len(passed)
    assert summary["gates"]["passed"] is False and summary["recommendations"]
    html = (out / "report.html").read_text()
    assert "FAIL: json-valid" in html and "asserts 1/2 passed" in html
    assert "<th>assert pass rate (pts)</th>" in html and "<th>latency p50 (ms)</th>" in html
    assert "<table class='totals'>" in html
    code, _, _ = _eval(*args, "--require", "template:asserts>=0.5")
    assert code == 0


def _reply(request: httpx.Request) -> httpx.Response:
    body = json.loads(request.content)
    wanted = 3 if "exactly 3 lines" in body["messages"][-1]["content"] else 2
    text = "\n".join(["Changed POST /api/v1/auth/login.", "The next agent adapts.", "Note it."][:wanted])
    return httpx.Response(200, json=chat_completion(body["model"], text))


def test_an_unknown_models_cost_is_never_a_silent_zero(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--require cost: exit 2 naming the model, unless --cost-per-1k prices it."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    monkeypatch.setenv("SUMMARIZER_CACHE_DIR", str(tmp_path / "cache"))
    base = [str(ASSERTS), "--model", "openai/local-llama", "--api-base", API, "--limit", "2"]
    base += ["--no-template", "--out", str(tmp_path / "out")]
    with respx.mock(assert_all_called=False) as mock:
        mock.post(f"{API}/chat/completions").mock(side_effect=_reply)
        code, _, err = _eval(*base, "--require", "cost<=0.01")
        assert code == 2
        assert err.strip().splitlines()[-1] == (
            "summarizer: --require 'cost<=0.01': the cost of openai/local-llama is unknown (not in litellm's "
            "cost map); pass --cost-per-1k USD to price its tokens"
        )
        code, stdout, _ = _eval(*base, "--require", "cost<=0.0001", "--cost-per-1k", "0.5", "--no-cache")
    assert code == 1 and "prompts fails cost<=$0.00010 ($0.12000)" in stdout  # 2 cells x 120 tokens


def test_the_cache_warning_names_a_flag_eval_accepts(tmp_path: Path) -> None:
    """The answer cache's fault line says --no-cache: eval takes it (it used to be a usage error)."""
    code, _, err = _eval(str(ASSERTS), "--offline", "--no-cache", "--out", str(tmp_path / "o"))
    assert code == 0, err
