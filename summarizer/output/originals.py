"""The content-addressed store of full originals: the promise that nothing is ever lost.

Every compressed output keeps its original under ``Settings.store_dir`` (``<cache_dir>/originals``,
never ``/tmp``), named by the SHA-256 of its bytes. The writer streams: it hashes as it writes to
a temporary file in the same directory and renames it to its id at the end, so a crash never
leaves a half-written original under a valid id, and identical outputs are stored once.
``restore`` prints it back byte-identical, whole or by 1-based inclusive line range.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from summarizer.errors import InputError, NotFound, StorageError

__all__ = ["OriginalStore", "OriginalWriter", "parse_range"]

_ID = re.compile(r"^[0-9a-f]{8,64}$")
_BLOCK = 1 << 20


class OriginalWriter:
    """Streams one original into the store; :meth:`commit` returns its id."""

    def __init__(self, directory: Path) -> None:
        try:
            directory.mkdir(parents=True, exist_ok=True)
            fd, name = tempfile.mkstemp(prefix=".incoming-", dir=directory)
        except OSError as exc:
            raise StorageError(
                f"cannot write originals to {str(directory)!r}: {exc}; check the cache dir"
            ) from exc
        self._dir = directory
        self._tmp = Path(name)
        self._file = os.fdopen(fd, "wb")
        self._hash = hashlib.sha256()
        self.size = 0

    def write(self, data: bytes) -> None:
        """Append bytes (hashing them as they go)."""
        self._hash.update(data)
        self._file.write(data)
        self.size += len(data)

    def commit(self) -> str:
        """Close, rename to the content id, and return the id."""
        self._file.close()
        digest = self._hash.hexdigest()
        final = self._dir / digest
        if final.exists():
            self._tmp.unlink(missing_ok=True)
        else:
            os.replace(self._tmp, final)
        return digest

    def abort(self) -> None:
        """Drop the partial file (used when reading the input failed)."""
        self._file.close()
        self._tmp.unlink(missing_ok=True)


class TeeReader:
    """A binary reader that copies everything it reads into an :class:`OriginalWriter`."""

    def __init__(self, source: BinaryIO, writer: OriginalWriter) -> None:
        self._source = source
        self._writer = writer

    def read(self, size: int = -1) -> bytes:
        """Read from the source and store what was read."""
        data = self._source.read(size)
        if data:
            self._writer.write(data)
        return data


def parse_range(spec: str) -> tuple[int, int | None]:
    """Parse ``A:B`` (1-based, inclusive; either side may be empty) into (start, end)."""
    match = re.fullmatch(r"\s*(\d*)\s*:\s*(\d*)\s*", spec)
    if match is None or (match.group(1) == "" and match.group(2) == ""):
        raise InputError(f"bad line range {spec!r}; use A:B, A: or :B with 1-based line numbers")
    start = int(match.group(1) or 1)
    end = int(match.group(2)) if match.group(2) else None
    if start < 1 or (end is not None and end < start):
        raise InputError(f"bad line range {spec!r}; need 1 <= A <= B")
    return start, end


class OriginalStore:
    """Read side of the store: resolve an id (or a unique prefix) and stream it back."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def writer(self) -> OriginalWriter:
        """Start storing a new original."""
        return OriginalWriter(self.directory)

    def path(self, restore_id: str) -> Path:
        """The file holding ``restore_id``; a unique prefix of at least 8 hex digits also works."""
        rid = restore_id.strip().lower()
        if not _ID.match(rid):
            raise InputError(f"bad restore id {restore_id!r}; pass the hex id printed by `summarizer output`")
        exact = self.directory / rid
        if exact.is_file():
            return exact
        matches = sorted(self.directory.glob(f"{rid}*")) if self.directory.is_dir() else []
        matches = [m for m in matches if not m.name.startswith(".")]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise NotFound(
                f"no stored original {restore_id!r} in {str(self.directory)!r}; "
                "compress the output again with `summarizer output`"
            )
        raise InputError(f"restore id {restore_id!r} is ambiguous; give more of its hex digits")

    def iter_bytes(self, restore_id: str, lines: tuple[int, int | None] | None = None) -> Iterator[bytes]:
        """Yield the original's bytes, whole or only lines ``start..end`` (1-based, inclusive).

        The id is the sha256 of the content, so the file is checked against it first: a damaged or
        truncated original is a :class:`StorageError`, never silently returned as if intact.
        """
        path = self.path(restore_id)
        with path.open("rb") as handle:
            if hashlib.file_digest(handle, "sha256").hexdigest() != path.name:
                raise StorageError(
                    f"stored original {path.name[:12]!r} is damaged (its bytes no longer match its id); "
                    "run `summarizer output` on the source again"
                )
            handle.seek(0)
            if lines is None:
                while block := handle.read(_BLOCK):
                    yield block
                return
            start, end = lines
            for number, line in enumerate(handle, 1):
                if number < start:
                    continue
                if end is not None and number > end:
                    return
                yield line
