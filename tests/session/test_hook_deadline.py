"""The PreCompact hook finishes in time: a model that never answers cannot keep the document unsaved."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from summarizer_engram import Store

from summarizer import app
from summarizer.core.settings import Settings, default_prompt_dir
from summarizer.semantic.prompts import PromptLibrary
from summarizer.semantic.service import Summarizer
from summarizer.session import service
from summarizer.session.service import SAVE_RESERVE_S, FileMarks, compress_session
from summarizer.session.transcript import Transcript
from summarizer.testing import FakeCompleter

DAY = "2026-11-29"


@pytest.fixture
def silent_server() -> Iterator[str]:
    """An HTTP address on loopback that accepts connections and never says a word."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except (TimeoutError, OSError):
                continue
            held.append(conn)  # read nothing, answer nothing

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
    stop.set()
    thread.join(timeout=5)
    for conn in held:
        conn.close()
    listener.close()


def test_a_precompact_hook_with_a_silent_model_saves_the_keyword_document(
    silent_server: str, fixture_dir: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The model never answers; the hook's deadline hands over to the keyword document, which is saved."""
    monkeypatch.setenv("SUMMARIZER_API_BASE", silent_server)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    payload = {
        "session_id": "5b1f0c8e",
        "transcript_path": str(fixture_dir / "claude_code.jsonl"),
        "cwd": str(tmp_path / "shopapi"),
        "hook_event_name": "PreCompact",
        "trigger": "auto",
    }
    deadline = SAVE_RESERVE_S + 3
    result = CliRunner().invoke(
        app_main(),
        [
            "session",
            "--hook",
            "--json",
            "--date",
            DAY,
            "--model",
            "openai/silent",
            "--deadline",
            str(deadline),
        ],
        input=json.dumps(payload),
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["action"] == "saved" and report["source"] == "keywords"
    reason = report["fallback_reason"]
    # Either the deadline cut the wait, or the per-call timeout fitted inside it ran out first.
    assert "deadline" in reason or "did not answer in time" in reason, reason
    assert "### Tests and Build" in report["document"]
    assert "the keyword document was saved instead" in result.stderr


def app_main() -> object:
    from summarizer.cli import main

    return main


def test_the_models_timeout_and_retries_are_fitted_inside_the_deadline() -> None:
    """Two attempts of at most half the model's budget each, with a short wait between them."""
    settings = Settings.load({}, model="openai/x", timeout_s=60.0)
    built = app.session_llm(settings, budget_s=20.0)
    assert built is not None and built.timeout_s == 10.0
    retry = built.completer._retry  # type: ignore[union-attr]  # the adapter's one retry policy
    assert retry.attempts == 2 and retry.wait_max_s <= 1.0
    assert app.session_llm(settings, budget_s=None).timeout_s == 60.0  # type: ignore[union-attr]


def test_the_model_gets_what_is_left_of_the_deadline_less_the_saves_reserve(
    claude_code: Transcript, store: Store, marks: FileMarks
) -> None:
    """A model that would take an hour: the wait ends at the deadline and the keyword document is saved."""
    slow = Summarizer(
        PromptLibrary(default_prompt_dir({})),
        completer=FakeCompleter(default="never used", delay_s=3600),
        model="fake/model",
    )
    report = asyncio.run(
        compress_session(
            claude_code,
            project="shopapi",
            date=DAY,
            memory=store,
            marks=marks,
            session_key="k",
            force=True,
            summarizer=slow,
            deadline_at=time.monotonic() + SAVE_RESERVE_S + 0.5,
        )
    )
    assert report.action == "saved" and report.source == "keywords"
    assert report.fallback_reason is not None and "deadline" in report.fallback_reason
    assert service.model_budget(time.monotonic() + SAVE_RESERVE_S - 1) == 0.0
    assert store.latest_by_topic(f"session/shopapi/compressed/{DAY}", project="shopapi") is not None
