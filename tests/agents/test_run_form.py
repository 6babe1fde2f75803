"""`run`'s fast path prints a small output's compact form without the engine, or the original."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.agents.conftest import run_cli
from tests.output.conftest import fixture_bytes


@pytest.mark.parametrize("status", [0, 3])
def test_a_small_listing_gets_its_form_and_the_status_joins_the_header(
    summarizer: str, tmp_path: Path, status: int
) -> None:
    """`ls -la` of 399 bytes (under the 500-byte bound): one header line, every name, the
    original one restore away; a failing status is in the header and is run's own."""
    original = fixture_bytes("forms_ls_la.txt")
    (tmp_path / "ls.txt").write_bytes(original)
    done = run_cli(summarizer, "run", f"cat {tmp_path / 'ls.txt'}; exit {status}", env={"SHELL": "/bin/sh"})
    assert done.returncode == status
    head, _, body = done.stdout.decode().partition("\n")
    assert head.startswith("[summarizer · listing · 5 entries")
    assert ("· exit code 3 ·" in head) == (status == 3)
    assert "libgpg-error.so.0 -> libgpg-error.so.0.33.1" in body
    restore_id = head.rsplit("restore ", 1)[1].rstrip("]")
    assert run_cli(summarizer, "restore", restore_id).stdout == original


def test_a_small_output_whose_form_saves_too_little_is_printed_as_it_is(
    summarizer: str, tmp_path: Path
) -> None:
    original = fixture_bytes("forms_git_status_short.txt")
    (tmp_path / "s.txt").write_bytes(original)
    done = run_cli(summarizer, "run", "--", "cat", str(tmp_path / "s.txt"))
    assert done.returncode == 0 and done.stdout == original
