"""Fixtures for the session tests: the two fixture transcripts, prefixes of them, a real store."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from summarizer_engram import Store

from summarizer.session.service import FileMarks
from summarizer.session.transcript import Transcript, parse_transcript

FIXTURES = Path(__file__).parent / "fixtures"
CLAUDE_CODE = FIXTURES / "claude_code.jsonl"
MESSAGES = FIXTURES / "messages.jsonl"


def load(path: Path) -> Transcript:
    """Parse a fixture transcript."""
    return parse_transcript(path.read_text(encoding="utf-8"), source=str(path))


def upto(transcript: Transcript, calls: int) -> Transcript:
    """The session as it stood right after the result of its ``calls``-th tool call."""
    seen = 0
    results = transcript.results()
    for index, event in enumerate(transcript.events):
        if event.kind == "tool_call":
            seen += 1
            if seen == calls:
                result = results[index]
                end = next(i for i, e in enumerate(transcript.events) if e is result) + 1
                return replace(transcript, events=transcript.events[:end])
    raise AssertionError(f"the transcript has fewer than {calls} tool calls")


@pytest.fixture(name="upto")
def upto_fixture() -> Callable[[Transcript, int], Transcript]:
    """:func:`upto`, for tests (helpers in conftest are not importable under importlib mode)."""
    return upto


@pytest.fixture
def fixture_dir() -> Path:
    """The directory holding the fixture transcripts."""
    return FIXTURES


@pytest.fixture
def claude_code() -> Transcript:
    """The Claude Code fixture session (53 tool calls)."""
    return load(CLAUDE_CODE)


@pytest.fixture
def messages() -> Transcript:
    """The same session as plain {role, content} messages with OpenAI tool calls."""
    return load(MESSAGES)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """A real engram database in a temporary directory."""
    with Store(tmp_path / "engram" / "engram.db") as db:
        yield db


@pytest.fixture
def marks(tmp_path: Path) -> FileMarks:
    """Compression marks in a temporary directory."""
    return FileMarks(tmp_path / "marks")
