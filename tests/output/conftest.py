"""Helpers for the tool-output tests: a real store in tmp_path and a forced-compression runner."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest

from summarizer.output import OriginalStore, OutputOptions, OutputResult, compress

FIXTURES = Path(__file__).parent / "fixtures"

Run = Callable[..., OutputResult]


@pytest.fixture
def store(tmp_path: Path) -> OriginalStore:
    """A real content-addressed store under the test's cache directory."""
    return OriginalStore(tmp_path / "cache" / "originals")


@pytest.fixture
def run(store: OriginalStore) -> Run:
    """Compress bytes; by default forced (floor 0, tiny target) so the rules always apply."""

    def _run(
        data: bytes, *, target: int | None = 50, floor: int = 0, exit_code: int | None = None
    ) -> OutputResult:
        options = OutputOptions(target_tokens=target, floor_tokens=floor, exit_code=exit_code)
        return compress(io.BytesIO(data), store, options)

    return _run


def fixture_bytes(name: str) -> bytes:
    """A fixture produced by running the real tool (see tests/output/fixtures/README.md)."""
    return (FIXTURES / name).read_bytes()


def every_fixture_line() -> list[bytes]:
    """Every distinct line of the repo's fixtures and zoo outputs, cut as the engine cuts them."""
    root = Path(__file__).resolve().parents[2]
    paths = [p for p in (root / "tests").rglob("*") if p.suffix in (".txt", ".log") and p.is_file()]
    paths += sorted((root / "evals" / "zoo" / "cases").glob("*/output.txt"))
    lines: dict[bytes, None] = {}
    for path in paths:
        for raw in path.read_bytes().replace(b"\r\n", b"\n").split(b"\n"):
            lines.setdefault(raw[:4096], None)
    return list(lines)
