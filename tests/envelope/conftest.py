"""Envelope fixtures: realistic agentic-workspace/v1 tool results (see _make_fixtures.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).with_name("fixtures")


def load(name: str) -> dict[str, Any]:
    """One fixture envelope as a fresh dict."""
    value: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return value


def string_values(tree: Any) -> set[str]:
    """Every string value anywhere in a JSON tree."""
    if isinstance(tree, dict):
        return {s for v in tree.values() for s in string_values(v)}
    if isinstance(tree, list):
        return {s for v in tree for s in string_values(v)}
    return {tree} if isinstance(tree, str) else set()
