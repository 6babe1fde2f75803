"""The words every feature shares: priority bands, answer sources and the partial-entry sign.

Kernel module (no imports from features): the phase gate, the memory bank, the LLM service and the
evals all speak of a ``Band`` and of where an answer came from; one definition keeps them equal.
"""

from __future__ import annotations

from typing import Literal

__all__ = ["BANDS", "WARNING_SIGN", "Band", "Source"]

Band = Literal["CRITICAL", "HIGH", "MEDIUM", "LOW"]
BANDS: tuple[Band, ...] = ("CRITICAL", "HIGH", "MEDIUM", "LOW")

Source = Literal["llm", "cache", "template"]
"""Who answered: the model, the cache (a validated model answer) or the deterministic template."""

WARNING_SIGN = "⚠️"
"""Marks a ``partial`` entry in every rendering (partial entries are compressed, and flagged)."""
