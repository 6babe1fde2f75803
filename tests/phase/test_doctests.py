"""The examples in the phase modules' docstrings are true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "summarizer.keywords", "summarizer.scoring", "summarizer.facts", "summarizer.budget",
    "summarizer.masks", "summarizer.templates", "summarizer.entry_rules",
]  # fmt: skip


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    """doctest finds no failure, and every listed module has at least one example."""
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
