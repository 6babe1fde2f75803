"""The lines around a failure that belong to it: a Rust panic's message, a Go Example's got/want."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from summarizer.output import OriginalStore, OutputOptions, compress
from summarizer.output.grouping import expand
from tests.output.conftest import fixture_bytes

# A real `cargo test --no-fail-fast` of dtolnay/semver with three planted bugs (RUST_BACKTRACE=0):
# four failing tests, each panic's message on the lines under its `panicked at file:line:col:`.
RAW = fixture_bytes("real_cargo_test_panics.txt").decode()


def _messages(text: str) -> list[list[str]]:
    """Each panic's message lines in ``text``: from under `panicked at` to a blank or `note:` line."""
    found: list[list[str]] = []
    lines = text.splitlines()
    for n, line in enumerate(lines):
        if "panicked at " in line:
            rest = lines[n + 1 :]
            end = next(i for i, row in enumerate(rest) if not row.strip() or row.startswith("note: "))
            found.append(rest[:end])
    return found


@pytest.mark.parametrize("target", [None, 300])
def test_every_panic_keeps_its_message_lines_whatever_the_budget(tmp_path: Path, target: int | None) -> None:
    """`  left: ...`/` right: ...` and a custom `did not match 1.0.0` are what failed: each panic's
    message stays under its `panicked at` row, at the default budget and at a tight one."""
    messages = _messages(RAW)
    assert len(messages) == 4 and sum(len(m) for m in messages) == 6
    options = OutputOptions(target_tokens=target, floor_tokens=0) if target else OutputOptions()
    rendering = compress(io.BytesIO(RAW.encode()), OriginalStore(tmp_path / "o"), options).text
    body = [row for row in expand(rendering).splitlines() if row[:1].isdigit() and " " in row]
    rows = {row.split(" ", 1)[1] for row in body}
    for message in messages:
        for line in message:
            assert line in rows, (line, rendering)
    assert "note: run with `RUST_BACKTRACE=1`" not in rendering


# A real `go test -v ./...` of pkg/errors with two planted bugs: five failing Examples, each with
# go's `got:` and `want:` output under its `--- FAIL: ExampleX (0.00s)`.
GO = fixture_bytes("real_go_test_v_examples.txt").decode()


def _example_outputs(text: str) -> dict[str, list[str]]:
    """Each failing Example's lines under its `--- FAIL:` row, up to go's next `===`/`---`/`FAIL` row."""
    found: dict[str, list[str]] = {}
    lines = text.splitlines()
    for n, line in enumerate(lines):
        if line.startswith("--- FAIL: Example"):
            rest = lines[n + 1 :]
            end = next(i for i, row in enumerate(rest) if row.startswith(("=== ", "--- ", "FAIL")))
            found[line.split()[2]] = rest[:end]
    return found


@pytest.mark.parametrize("target", [1200, 300])
def test_every_failing_go_example_keeps_its_got_and_want_lines(tmp_path: Path, target: int) -> None:
    """What a failing Example printed and what it should have is its whole message: it stays."""
    outputs = _example_outputs(GO)
    assert len(outputs) == 5 and all(lines[0] == "got:" and "want:" in lines for lines in outputs.values())
    options = OutputOptions(target_tokens=target, floor_tokens=0)
    rendering = compress(io.BytesIO(GO.encode()), OriginalStore(tmp_path / "o"), options).text
    body = [row for row in expand(rendering).splitlines() if row[:1].isdigit() and " " in row]
    # A line repeated word for word is one row with its count: `error  [×2, lines 150…151]`.
    rows = {re.sub(r"  \[×\d+, lines [\d…, ]+\]$", "", row.split(" ", 1)[1]) for row in body}
    for name, lines in outputs.items():
        for line in lines:
            assert line in rows, (name, line, rendering)
