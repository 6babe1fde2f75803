"""``summarizer compress`` / ``batch --json`` with --model: CRITICAL/HIGH lines through the service.

End to end in-process: the real CLI, the real litellm, respx as OpenAI, a real diskcache.
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
import respx
from click.testing import CliRunner

from summarizer.cli import main

from .conftest import GOOD_CRITICAL, OPENAI, Provider

ENTRY = {
    "summary": "Added JWT auth endpoint POST /api/auth/refresh with refresh token rotation; returns 200 "
    "with a new token pair or 401 when the refresh token was reused. Chose rotation over sliding "
    "expiry, trading one extra write per refresh for reuse detection.",
    "files_changed": ["backend/routers/auth.py", "backend/services/auth_service.py"],
    "from": "hermes",
    "to": "aphrodite",
    "unblocks": "aphrodite login screen",
}


@pytest.fixture
def entry_file(tmp_path: Path, provider: Provider) -> Path:
    path = tmp_path / "entry.json"
    path.write_text(json.dumps(ENTRY))
    return path


pytestmark = pytest.mark.parametrize("provider", [OPENAI], indirect=True, ids=["openai"])


def _compress(entry_file: Path, *extra: str) -> tuple[int, dict[str, object], str]:
    result = CliRunner().invoke(main, ["compress", str(entry_file), "--json", *extra])
    return result.exit_code, json.loads(result.stdout), result.stderr


def test_compress_with_a_model_uses_the_llm_then_the_cache(entry_file: Path, provider: Provider) -> None:
    """First run asks the model, second is served from the cache; both print the model's lines."""
    with respx.mock(assert_all_mocked=True) as mock:
        route = mock.post(provider.url).mock(return_value=provider.ok(GOOD_CRITICAL))
        code, first, _ = _compress(entry_file, "--model", provider.model)
        _, second, _ = _compress(entry_file, "--model", provider.model)
    assert code == 0 and route.call_count == 1
    assert first["priority"] == "CRITICAL"
    assert first["lines"] == GOOD_CRITICAL.splitlines() and first["source"] == "llm"
    assert second["source"] == "cache" and second["lines"] == first["lines"]
    assert first["fields"]["summary_semantic"]  # the mask sees the semantic lines


def test_compress_falls_back_when_the_provider_refuses(entry_file: Path, provider: Provider) -> None:
    """A rejected key: exit 0, the template's lines, the reason in the JSON and on stderr in text mode.

    (A 401 is not retried, so this runs without the production backoff; the retry-cap path is
    covered with an injected zero-wait policy in test_semantic_provider.py.)
    """
    with respx.mock(assert_all_mocked=True) as mock:
        mock.post(provider.url).mock(return_value=httpx.Response(401, json={"error": {"message": "bad key"}}))
        code, data, _ = _compress(entry_file, "--model", provider.model, "--no-cache")
        text = CliRunner().invoke(main, ["compress", str(entry_file), "--model", provider.model])
    template = CliRunner().invoke(main, ["compress", str(entry_file), "--json"])
    assert code == 0 and data["source"] == "template"
    assert data["lines"] == json.loads(template.stdout)["lines"]
    assert "OPENAI_API_KEY" in str(data["reason"])
    assert text.exit_code == 0 and "template used" in text.stderr


def test_compress_offline_never_calls_the_model(entry_file: Path, provider: Provider) -> None:
    """--offline: no HTTP at all (respx would fail an unexpected call), the reason says offline."""
    with respx.mock(assert_all_mocked=True, assert_all_called=False) as mock:
        route = mock.post(provider.url).mock(return_value=provider.ok(GOOD_CRITICAL))
        code, data, _ = _compress(entry_file, "--model", provider.model, "--offline")
    assert code == 0 and route.call_count == 0
    assert data["source"] == "template" and "offline" in str(data["reason"])


def test_batch_json_summarises_expanded_entries_concurrently(tmp_path: Path, provider: Provider) -> None:
    """batch --json --model: CRITICAL entries carry the model's lines; MEDIUM/LOW stay templates."""
    batch = tmp_path / "batch.jsonl"
    low = {"summary": "Fixed a typo in the README.", "files_changed": ["README.md"], "from": "hermes"}
    critical = [dict(ENTRY, summary=ENTRY["summary"] + f" Variant {i}.") for i in range(3)]
    batch.write_text("\n".join(json.dumps(e) for e in [*critical, low]))
    with respx.mock(assert_all_mocked=True) as mock:
        route = mock.post(provider.url).mock(return_value=provider.ok(GOOD_CRITICAL))
        result = CliRunner().invoke(
            main, ["batch", str(batch), "--json", "--model", provider.model, "--concurrency", "2"]
        )
    assert result.exit_code == 0, result.output
    rows = [row for phase in json.loads(result.stdout)["phases"] for row in phase["entries"]]
    sources = {row["priority"]: row.get("source") for row in rows}
    assert route.call_count == 3
    assert sources == {"CRITICAL": "llm", "LOW": None}
    assert "summarising" not in result.stderr  # no progress bar when stderr is not a terminal


def test_compress_max_tokens_reaches_the_provider(entry_file: Path, provider: Provider) -> None:
    """--max-tokens sets the answer limit the model is asked for (and keys the cache apart)."""
    with respx.mock(assert_all_mocked=True) as mock:
        route = mock.post(provider.url).mock(return_value=provider.ok(GOOD_CRITICAL))
        code, data, _ = _compress(entry_file, "--model", provider.model, "--max-tokens", "777")
    assert code == 0 and data["source"] == "llm"
    assert json.loads(route.calls[0].request.content)["max_tokens"] == 777
