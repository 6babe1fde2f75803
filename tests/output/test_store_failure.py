"""When the originals store cannot be written, ``summarizer output`` hands the input back unchanged.

A compressed rendering without a stored original would lose the cut lines for good, so the whole
input goes to stdout byte-identical, one line on stderr says why and what to do, and the exit
code is 1. These tests break the store for real (a cache dir under a regular file, a directory
removed mid-run) or hand in a store whose disk fills up part-way through a multi-MB stream.
"""

from __future__ import annotations

import errno
import io
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

import summarizer.output
from summarizer.cli import main
from summarizer.core.errors import StorageError
from summarizer.output import OriginalNotStored, OriginalStore
from summarizer.output.compressor import Plan
from summarizer.output.deliver import deliver
from summarizer.output.originals import OriginalWriter, ReadSoFar


def _log(lines: int) -> bytes:
    # CRLF, an invalid UTF-8 byte and no final newline: byte-identical must mean byte-identical.
    body = b"".join(b"INFO compiling module number %d of the project ok\r\n" % i for i in range(lines))
    return body + b"ERROR foo.py:12 boom \xff"


class _FillingWriter(OriginalWriter):
    """A disk that takes ``budget`` bytes, the last write only in part, then says ENOSPC."""

    budget = 0
    taken = 0

    def _write_some(self, data: memoryview) -> int:
        room = self.budget - self.taken
        if room <= 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        written = super()._write_some(data[:room])
        self.taken += written
        return written


class _VanishingWriter(OriginalWriter):
    """Someone clears the cache while the input streams in: the store dir is gone by commit."""

    def _write_some(self, data: memoryview) -> int:
        written = super()._write_some(data)
        shutil.rmtree(self._dir, ignore_errors=True)
        return written


@dataclass
class Delivered:
    stdout: bytes
    error: str


def _deliver(
    writer: type[OriginalWriter], data: bytes | Path, store_dir: Path, *, as_json: bool = False
) -> Delivered:
    """What `summarizer output` prints with a store whose disk misbehaves as ``writer`` does."""

    class Store(OriginalStore):
        def writer(self) -> OriginalWriter:
            return writer(self.directory)

    out = io.BytesIO()
    stream = data.open("rb") if isinstance(data, Path) else io.BytesIO(data)
    with stream, pytest.raises(StorageError) as caught:
        deliver(stream, Store(store_dir), Plan(), out=out, as_json=as_json)
    return Delivered(out.getvalue(), str(caught.value))


def _assert_handed_back(result: Delivered, data: bytes) -> None:
    assert result.stdout == data
    assert "\n" not in result.error
    assert "printed the input unchanged" in result.error
    assert "SUMMARIZER_CACHE_DIR" in result.error


def test_an_unusable_cache_dir_prints_the_input_unchanged(tmp_path: Path) -> None:
    """Cache dir under a regular file, real process: stdout is the input, one stderr line, exit 1."""
    (tmp_path / "notadir").write_bytes(b"")
    data = _log(3000)
    env = {**os.environ, "SUMMARIZER_CACHE_DIR": str(tmp_path / "notadir" / "c")}
    done = subprocess.run(
        [sys.executable, "-c", "from summarizer.cli import main; main()", "output"],
        input=data,
        capture_output=True,
        env=env,
        check=False,
    )
    assert done.returncode == 1
    assert done.stdout == data
    stderr = done.stderr.decode()
    assert stderr.count("\n") == 1
    assert stderr.startswith("summarizer: could not store the original (")
    assert "Not a directory" in stderr and "printed the input unchanged" in stderr
    assert "set SUMMARIZER_CACHE_DIR to a writable directory" in stderr


def test_a_disk_that_fills_part_way_loses_nothing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """ENOSPC in the middle of a write, 2.5 MB into a 5 MB stream: stdout is the whole input."""
    data = _log(100_000)
    assert len(data) > 5_000_000
    monkeypatch.setattr(_FillingWriter, "budget", 2_500_001)  # mid-block: the last write is partial
    result = _deliver(_FillingWriter, data, tmp_path / "originals")
    _assert_handed_back(result, data)
    assert "failed after 2,500,001 bytes: No space left on device" in result.error
    assert list((tmp_path / "originals").iterdir()) == []  # no half-written original left behind


def test_json_consumers_also_get_the_input_and_exit_1(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """--json cannot describe an original that was not stored: the raw input, exit 1, 'instead of JSON'."""
    data = _log(30_000)
    monkeypatch.setattr(_FillingWriter, "budget", 1_000_000)
    result = _deliver(_FillingWriter, data, tmp_path / "originals", as_json=True)
    _assert_handed_back(result, data)
    assert "instead of JSON" in result.error


def test_a_store_dir_removed_before_commit_loses_nothing(tmp_path: Path) -> None:
    """The whole input was read, then the rename failed: it comes back from the unlinked file."""
    data = _log(40_000)
    source = tmp_path / "build.log"
    source.write_bytes(data)
    result = _deliver(_VanishingWriter, source, tmp_path / "originals")
    _assert_handed_back(result, data)


def test_the_normal_path_still_compresses_and_restores() -> None:
    """With a working store: a compressed rendering, exit 0, and restore gives the input back."""
    data = _log(3000)
    runner = CliRunner()
    result = runner.invoke(main, ["output", "-"], input=data)
    assert result.exit_code == 0, result.stderr
    assert len(result.stdout_bytes) < len(data) // 10
    restore_id = result.stdout.rstrip().splitlines()[-1].split("restore ", 1)[1].split()[0]
    back = runner.invoke(main, ["restore", restore_id])
    assert back.exit_code == 0 and back.stdout_bytes == data


def test_compress_raises_a_storage_error_carrying_what_was_read(tmp_path: Path) -> None:
    """Library callers get an OriginalNotStored whose read_so_far plus the unread stream is the input."""
    data = _log(50_000)
    stream = io.BytesIO(data)

    class Store(OriginalStore):
        def writer(self) -> OriginalWriter:
            writer = _FillingWriter(self.directory)
            writer.budget = 1_234_567
            return writer

    with pytest.raises(OriginalNotStored) as caught:
        summarizer.output.compress(stream, Store(tmp_path / "originals"))
    with caught.value.read_so_far as read_so_far:
        recovered = b"".join(read_so_far)
    assert recovered + stream.read() == data
    assert "SUMMARIZER_CACHE_DIR" in str(caught.value)


def test_bytes_that_cannot_be_read_back_are_named_not_hidden(tmp_path: Path) -> None:
    """If the partial file cannot be read back either, the tail still comes out and the gap is reported."""
    unreadable = io.FileIO(tmp_path / "partial", "w")  # write-only: pread fails with EBADF
    read_so_far = ReadSoFar(unreadable, size=10, tail=b"tail")
    assert list(read_so_far) == [b"tail"]
    assert read_so_far.missing == (0, 10)
    assert unreadable.closed
