"""The MCP `output_compress` reply: the text `summarizer output` prints, not the envelope."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from summarizer.core.settings import Settings
from summarizer.core.tokens import count_tokens
from summarizer.mcp.server import build_server
from tests.agents.conftest import run_cli


def _pytest_log() -> str:
    """A ~30k-token pytest run: many passing tests, two failures with tracebacks, a summary."""
    lines = [
        "============================= test session starts ==============================",
        "platform linux -- Python 3.11.7, pytest-8.3.3",
        "collected 2403 items",
        "",
    ]
    lines += [f"tests/unit/test_module_{i // 40}.py::test_case_{i} PASSED" for i in range(2400)]
    lines += [
        "tests/api/test_orders.py::test_create_order FAILED",
        "=================================== FAILURES ===================================",
        "______________________________ test_create_order _______________________________",
        '  File "tests/api/test_orders.py", line 88, in test_create_order',
        "    assert resp.status_code == 201",
        "E   AssertionError: assert 500 == 201",
        "tests/api/test_orders.py:88: AssertionError",
        "FAILED tests/api/test_orders.py::test_create_order - AssertionError: assert 500 == 201",
        "FAILED tests/api/test_users.py::test_login - KeyError: 'token'",
        "================= 2 failed, 2400 passed in 41.22s =================",
    ]
    return "\n".join(lines) + "\n"


def _call(settings: Settings, **args: Any) -> str:
    server = build_server(settings)
    result = asyncio.run(server.call_tool("output_compress", args))
    content = result[0] if isinstance(result, tuple) else result
    items = content.content if hasattr(content, "content") else content
    return "".join(item.text for item in items)


def _settings(tmp_path: Path) -> Settings:
    return Settings.load({"SUMMARIZER_CACHE_DIR": str(tmp_path / "cache"), "HOME": str(tmp_path)})


def test_the_reply_for_a_30k_token_log_is_what_summarizer_output_prints(
    summarizer: str, tmp_path: Path
) -> None:
    """Within 5% of the tokens the CLI prints, ending with the restore line."""
    log = _pytest_log()
    assert 25_000 < count_tokens(log) < 40_000
    reply = _call(_settings(tmp_path), output=log, exit_code=1)
    printed = run_cli(
        summarizer,
        "output",
        "--exit-code",
        "1",
        stdin=log.encode(),
        env={"SUMMARIZER_CACHE_DIR": str(tmp_path / "cli")},
    ).stdout.decode()
    assert abs(count_tokens(reply) - count_tokens(printed)) <= 0.05 * count_tokens(printed)
    assert reply.rstrip().splitlines()[-1].startswith("[full output: summarizer restore ")
    assert "test_create_order" in reply and "exit code: 1" in reply


def test_a_small_input_comes_back_equal(tmp_path: Path) -> None:
    """A pass-through is the input itself, once, never wrapped in JSON."""
    small = "FAILED tests/test_a.py::test_b - AssertionError\n1 failed, 3 passed in 0.1s\n"
    assert _call(_settings(tmp_path), output=small) == small


def test_the_envelope_is_there_on_request_with_first_error_on_a_pass_through(tmp_path: Path) -> None:
    """envelope=true gives the JSON; first_error and failing tests are filled even when passed through."""
    small = "tests/test_a.py:3: AssertionError\nFAILED tests/test_a.py::test_b - AssertionError\n"
    envelope = json.loads(_call(_settings(tmp_path), output=small, envelope=True))
    assert envelope["passthrough"] is True
    assert envelope["first_error"]["line"] == 1
    assert envelope["failing_tests"] == ["tests/test_a.py::test_b"]
