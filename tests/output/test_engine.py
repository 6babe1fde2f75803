"""The streaming engine's memory bounds: pruning never loses a coordinate or a count."""

from __future__ import annotations

import pytest

from summarizer.output import blocks
from summarizer.output.engine import Engine
from summarizer.output.lines import Chunk


def test_pruning_keeps_coordinates_and_totals() -> None:
    """With a tiny template table, 1,000 distinct errors all survive and every line is counted."""
    engine = Engine(max_templates=100)
    for batch in range(20):
        lines = []
        for i in range(batch * 50, batch * 50 + 50):
            word = "".join(chr(97 + (i // 26**k) % 26) for k in range(4))
            lines.extend([f"ERROR request {word} failed", "ok 1 - passes", f"plain line {word}"])
        engine.feed(Chunk("\n".join(lines).encode()))
        assert len(engine.templates) <= 100
    engine.finish()
    assert len(engine.coords) == 1000
    assert engine.passed == 1000
    assert engine.line_no == 3000
    assert sum(engine.counts.values()) + engine.pruned_lines == 3000


def test_blocks_spanning_chunks_are_closed_correctly() -> None:
    """A traceback split across two chunks still yields its frames and exception line."""
    engine = Engine()
    engine.feed(Chunk(b'start\nTraceback (most recent call last):\n  File "/app/a.py", line 3, in main'))
    engine.feed(Chunk(b"    run()\nRuntimeError: boom\nafter"))
    engine.finish()
    kinds = {entry.raw.decode().strip(): entry.kind for entry in engine.coords.values()}
    assert kinds['File "/app/a.py", line 3, in main'] == "frame"
    assert kinds["RuntimeError: boom"] in {"exception", "error"}


def test_a_flood_of_warnings_never_crowds_out_a_later_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Warnings have a cap of their own: past it they are counted, and errors after them are kept."""
    monkeypatch.setattr(blocks, "MAX_WARNINGS", 50)
    monkeypatch.setattr(blocks, "MAX_COORDINATES", 50)
    engine = Engine()
    warnings = [f"src/m{i}.c:{i}:1: warning: unused variable 'v{i}' [-Wunused-variable]" for i in range(500)]
    errors = [f"src/e{i}.c:{i}:5: error: 'x{i}' undeclared" for i in range(40)]
    engine.feed(Chunk("\n".join([*warnings, *errors]).encode()))
    engine.finish()
    kept = {entry.raw.decode() for entry in engine.coords.values()}
    assert all(error in kept for error in errors)
    assert engine.coords_not_listed == 450
