"""Fixtures for the LLM tests: provider fakes at the HTTP boundary, real prompts in tmp_path."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from summarizer.phasegate.models import SubtaskSummary
from summarizer.semantic.prompts import PromptLibrary
from summarizer.semantic.service import Summarizer
from summarizer.testing import DictCache, FakeCompleter, openai_chat_body

REPO_PROMPTS = Path(__file__).resolve().parents[2] / "prompts"
NONCE = "0123456789abcdef0123456789abcdef"


@dataclass(frozen=True)
class Provider:
    """One provider's wire format: where litellm posts and what a good answer looks like."""

    name: str
    model: str
    url: str
    reply: Callable[[str, str], dict[str, Any]]

    def ok(self, text: str, finish: str = "stop") -> httpx.Response:
        return httpx.Response(200, json=self.reply(text, finish))


def _openai(text: str, finish: str) -> dict[str, Any]:
    return openai_chat_body(text, finish=finish)


def _anthropic(text: str, finish: str) -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-haiku-4-5",
        "content": [{"type": "text", "text": text}],
        "stop_reason": "max_tokens" if finish == "length" else "end_turn",
        "usage": {"input_tokens": 120, "output_tokens": 30},
    }


OPENAI = Provider("openai", "openai/gpt-4o-mini", "https://api.openai.com/v1/chat/completions", _openai)
ANTHROPIC = Provider(
    "anthropic", "anthropic/claude-haiku-4-5", "https://api.anthropic.com/v1/messages", _anthropic
)


@pytest.fixture(params=[OPENAI, ANTHROPIC], ids=lambda p: p.name)
def provider(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Provider:
    """Each provider in turn, with a dummy key set (respx answers; no request leaves the process)."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-not-a-real-key")
    return request.param  # type: ignore[no-any-return]


@pytest.fixture
def prompt_dir(tmp_path: Path) -> Path:
    """A private copy of the packaged prompts, safe to edit."""
    target = tmp_path / "prompts"
    shutil.copytree(REPO_PROMPTS, target)
    return target


@pytest.fixture
def library(prompt_dir: Path) -> PromptLibrary:
    return PromptLibrary(prompt_dir)


@pytest.fixture
def make_service(library: PromptLibrary) -> Callable[..., Summarizer]:
    """Build the service around fakes (or a real adapter), with a fixed nonce."""

    def make(**kwargs: Any) -> Summarizer:
        kwargs.setdefault("completer", FakeCompleter())
        kwargs.setdefault("cache", DictCache())
        kwargs.setdefault("model", "openai/gpt-4o-mini")
        kwargs.setdefault("nonce", lambda: NONCE)
        return Summarizer(library, **kwargs)

    return make


@pytest.fixture
def hermes_entry() -> SubtaskSummary:
    """The classic JWT example, Hermes handing over to Aphrodite."""
    return SubtaskSummary.model_validate(
        {
            "summary": "Added JWT auth endpoint POST /api/auth/refresh with refresh token rotation; "
            "returns 200 with a new token pair or 401 when the refresh token was reused.",
            "files_changed": ["backend/routers/auth.py", "backend/services/auth_service.py"],
            "from": "hermes",
            "to": "aphrodite",
            "tests": "12 passed",
        }
    )


GOOD_CRITICAL = (
    "Added POST /api/auth/refresh, which returns 200 with a new token pair or 401 on reuse.\n"
    "Aphrodite must call it when a request fails with 401 and store the new pair.\n"
    "Refresh tokens rotate on every use, so a reused token is rejected."
)
