"""The examples in the phase modules' docstrings are true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "summarizer.phasegate.keywords",
    "summarizer.phasegate.scoring",
    "summarizer.phasegate.facts",
    "summarizer.phasegate.budget",
    "summarizer.phasegate.masks",
    "summarizer.phasegate.templates",
    "summarizer.phasegate.entry_rules",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    """doctest finds no failure, and every listed module has at least one example."""
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
