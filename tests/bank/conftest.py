"""Fixtures for the memory-bank tests: a bank root, entry builders and a gate runner."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from summarizer.bank import GateReport, GateRequest, run_gate
from summarizer.phasegate.models import SubtaskSummary

DATE = "2026-06-20"

JWT = {
    "summary": "Added JWT auth endpoint POST /api/auth/login with refresh token rotation; "
    "returns 401 on a bad password. However refresh tokens are single-use.",
    "files_changed": ["backend/routers/auth.py", "backend/services/auth_service.py"],
    "from_agent": "hermes",
    "to_agent": "aphrodite",
    "tests": "12 passed",
}
TABLE = {
    "summary": "Created refresh_tokens table via migration 0012_refresh_tokens with FK to users. Must run "
    "before the auth endpoint ships.",
    "files_changed": ["backend/migrations/0012_refresh_tokens.py", "backend/models/token.py"],
    "from_agent": "demeter",
    "to_agent": "hermes",
}
TYPO = {"summary": "Fixed typo in README", "files_changed": ["README.md"], "from_agent": "prometheus"}
STYLE = {"summary": "Tweaked button CSS spacing", "files_changed": ["web/app.css"], "from_agent": "aphrodite"}


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (lock file excluded) by relative path."""
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != "compress.lock"
    }


@pytest.fixture
def bank(tmp_path: Path) -> Path:
    """An empty bank root."""
    return tmp_path / "bank"


Gate = Callable[..., GateReport]


@pytest.fixture
def gate(bank: Path) -> Gate:
    """Run a gate against ``bank``: ``gate(phase, [entry dicts], **request fields)``."""

    def run(phase: str, entries: list[dict[str, Any]], **kwargs: Any) -> GateReport:
        kwargs.setdefault("date", DATE)
        batch = tuple(SubtaskSummary.model_validate(e) for e in entries)
        return run_gate(kwargs.pop("root", bank), GateRequest(phase=phase, entries=batch, **kwargs))

    return run


def write_jsonl(path: Path, entries: list[dict[str, Any]]) -> Path:
    """Write entries as JSONL."""
    path.write_text("".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")
    return path
