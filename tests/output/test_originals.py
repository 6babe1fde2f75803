"""The originals store: content-addressed, never in /tmp, restorable whole or by line range."""

from __future__ import annotations

import hashlib

import pytest

from summarizer.core.errors import InputError, NotFound
from summarizer.output import OriginalStore, parse_range
from tests.output.conftest import Run


def test_restore_whole_is_byte_identical(run: Run, store: OriginalStore) -> None:
    """Whatever went in (CRLF, no final newline, odd bytes) comes back exactly."""
    data = b"line one\r\nline two \xff\r\n" * 500 + b"ERROR last line without newline"
    result = run(data)
    assert b"".join(store.iter_bytes(result.restore_id)) == data


def test_restore_by_range_returns_exactly_those_lines(run: Run, store: OriginalStore) -> None:
    """--lines A:B prints lines A..B inclusive, 1-based, with their own endings."""
    data = b"".join(b"row %d\r\n" % i for i in range(1, 1001))
    result = run(data)
    assert b"".join(store.iter_bytes(result.restore_id, (10, 12))) == b"row 10\r\nrow 11\r\nrow 12\r\n"
    assert b"".join(store.iter_bytes(result.restore_id, (999, None))) == b"row 999\r\nrow 1000\r\n"


def test_the_id_is_the_sha256_and_a_prefix_resolves(run: Run, store: OriginalStore) -> None:
    """Ids are content addresses: the same input gets the same id, a unique prefix works."""
    first = run(b"ERROR same\n" * 300)
    second = run(b"ERROR same\n" * 300)
    assert first.restore_id == second.restore_id and len(first.restore_id) == 64
    assert store.path(first.restore_id[:12]) == store.path(first.restore_id)
    assert not any(p.name.startswith(".incoming") for p in store.directory.iterdir())


@pytest.mark.parametrize("sizes", [[100], [700_000, 700_000], [1 << 20, 1, 3 << 20]])
def test_the_id_is_the_sha256_of_small_and_big_inputs(store: OriginalStore, sizes: list[int]) -> None:
    """Small originals are hashed without OpenSSL, big ones with it: the id is the same sha256."""
    parts = [bytes([65 + i]) * size for i, size in enumerate(sizes)]
    writer = store.writer()
    for part in parts:
        writer.write(part)
    assert writer.commit() == hashlib.sha256(b"".join(parts)).hexdigest()


def test_the_store_lives_under_the_cache_dir_not_tmp(tmp_path: object) -> None:
    """Settings put originals under cache_dir/originals."""
    from summarizer.core.settings import Settings

    settings = Settings.load({"SUMMARIZER_CACHE_DIR": "/var/cache/sx", "HOME": "/home/u"})
    assert str(settings.store_dir) == "/var/cache/sx/originals"


def test_unknown_and_malformed_ids_are_input_errors(store: OriginalStore) -> None:
    """A missing id is NotFound; a non-hex id is an InputError; both say what to do."""
    with pytest.raises(NotFound, match="summarizer output"):
        store.path("deadbeefdeadbeef")
    with pytest.raises(InputError, match="hex id"):
        store.path("../etc/passwd")


@pytest.mark.parametrize(("spec", "expected"), [("3:7", (3, 7)), ("5:", (5, None)), (":4", (1, 4))])
def test_line_ranges_parse(spec: str, expected: tuple[int, int | None]) -> None:
    """A:B, A: and :B are accepted."""
    assert parse_range(spec) == expected


@pytest.mark.parametrize("spec", ["0:3", "9:2", "x", ":"])
def test_bad_line_ranges_are_rejected(spec: str) -> None:
    """Zero, reversed or malformed ranges are input errors."""
    with pytest.raises(InputError):
        parse_range(spec)
