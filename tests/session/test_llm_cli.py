"""`summarizer session` with a model configured: real CLI, real litellm, respx as OpenAI, real cache."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx
from click.testing import CliRunner

from summarizer.cli import main
from tests.conftest import chat_completion

URL = "https://api.openai.com/v1/chat/completions"
DAY = "2026-11-29"
ANSWER = (
    f"## Session Compression — {DAY}\n### Context\n- Working on: the flaky token refresh test\n"
    "### Decisions\n- Inject a Clock protocol: tests must freeze time\n"
    "### Failed Approaches (avoid repeating)\n- Tried a retry loop: the race is inside one request\n"
)


def _reply(text: str) -> httpx.Response:
    return httpx.Response(
        200, json=chat_completion("gpt-4o-mini", text, prompt_tokens=900, completion_tokens=60)
    )


@pytest.fixture
def model_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """An OpenAI model configured with a dummy key; respx answers, nothing leaves the process."""
    monkeypatch.setenv("SUMMARIZER_MODEL", "openai/gpt-4o-mini")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")


def _session(fixture_dir: Path, *extra: str) -> dict[str, Any]:
    result = CliRunner().invoke(
        main, ["session", str(fixture_dir / "claude_code.jsonl"), "--date", DAY, "--json", *extra]
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_the_model_writes_the_document_once_then_the_cache_answers(
    fixture_dir: Path, model_env: None
) -> None:
    """One HTTP call; the re-run is a cache hit and leaves engram unchanged. No secret reaches the model."""
    with respx.mock(assert_all_mocked=True) as mock:
        route = mock.post(URL).mock(return_value=_reply(ANSWER))
        first = _session(fixture_dir)
        second = _session(fixture_dir, "--force")
    assert route.call_count == 1
    assert first["source"] == "llm" and first["action"] == "saved" and first["decisions"] == 3
    assert "- Inject a Clock protocol: tests must freeze time" in first["document"]
    assert any(line.startswith("- `src/auth/clock.py`") for line in first["document"].splitlines())
    assert second["source"] == "cache" and second["action"] == "unchanged"
    sent = json.loads(route.calls[0].request.content)
    assert "ghp_R8x2Kq7LmN4pZ1vB6tY3wC9sD0fG5hJ2kL8a" not in json.dumps(sent)


def test_a_failing_provider_falls_back_to_the_keyword_rules(fixture_dir: Path, model_env: None) -> None:
    """A 401 (not retried) means the offline extraction, saved as usual; the session is not lost."""
    with respx.mock(assert_all_mocked=True) as mock:
        mock.post(URL).mock(return_value=httpx.Response(401, json={"error": {"message": "bad key"}}))
        report = _session(fixture_dir)
    assert report["source"] == "keywords" and report["action"] == "saved" and report["decisions"] == 3
