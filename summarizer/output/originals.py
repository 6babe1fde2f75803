"""The content-addressed store of full originals: the promise that nothing is ever lost.

Every compressed output keeps its original under ``Settings.store_dir`` (``<cache_dir>/originals``,
never ``/tmp``), named by the SHA-256 of its bytes. The writer streams: it hashes as it writes to
a temporary file in the same directory and renames it to its id at the end, so a crash never
leaves a half-written original under a valid id, and identical outputs are stored once.
``restore`` prints it back byte-identical, whole or by 1-based inclusive line range.

Retention (:mod:`summarizer.output.originals_retention`): the store has a size cap and an age
limit, evicts least recently used originals first, never removes a live writer's file, and
remembers what it evicted so that ``restore`` can say so. One input stores at most
``policy.max_input_bytes``: past it the writer drops the partial file and only keeps hashing, so
the compression still completes (``/dev/zero`` no longer fills the disk); :attr:`OriginalStore.dropped`
and ``restore`` say that the original was not kept.

Writers lock their partial file (``flock``) for as long as they write: maintenance removes the
partials of killed runs, never a live writer's. The module uses the standard library only (no
``tempfile``, and ``pathlib`` only on the read side) because
``summarizer run`` and ``summarizer output`` import it on their cold path.

When the store cannot be written (the directory is unusable, the disk fills up part-way), the
writer raises :class:`OriginalNotStored`, which still holds every byte already read from the
input (:class:`ReadSoFar`), so the caller can hand the input back instead of losing it. The
partial file doubles as that spool: a second copy in the system temp dir would double the I/O on
every run and, on a single-filesystem machine, fill up at the same moment as the store.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import time
from collections.abc import Iterator

from summarizer.core.errors import InputError, NotFound, StorageError
from summarizer.output import originals_retention as retention

TYPE_CHECKING = False  # not typing's: it is imported on the cold path
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from types import TracebackType
    from typing import Any, BinaryIO

    _Committed = Callable[[str, int, bool], None]  # the writer's commit callback: (id, size, dropped)

__all__ = ["OriginalNotStored", "OriginalStore", "OriginalWriter", "ReadSoFar", "parse_range"]

_HEX = frozenset("0123456789abcdef")
_BLOCK = 1 << 20
# A large original triggers maintenance right away instead of at the next interval.
_LARGE_FRACTION = 16


# Under this many bytes an original is hashed by the interpreter's own SHA-256: loading OpenSSL's
# (hashlib) costs more CPU than hashing a small output does, several ms on every cold start.
_SMALL_HASH_BYTES = 1 << 20


class _Sha256:
    """SHA-256 of a stream: held back until it passes :data:`_SMALL_HASH_BYTES` (then OpenSSL's,
    several times faster per byte), or ends before (then the built-in one, cheap to load)."""

    def __init__(self) -> None:
        self._held: list[bytes] | None = []
        self._held_bytes = 0
        self._big: Any = None

    def update(self, data: bytes) -> None:
        if self._held is None:
            self._big.update(data)
            return
        self._held.append(data)
        self._held_bytes += len(data)
        if self._held_bytes > _SMALL_HASH_BYTES:
            import hashlib

            self._big = hashlib.sha256()
            for held in self._held:
                self._big.update(held)
            self._held = None

    def hexdigest(self) -> str:
        if self._held is None:
            return str(self._big.hexdigest())
        try:
            from _sha256 import sha256  # type: ignore[import-not-found]  # Python 3.11
        except ImportError:
            try:
                from _sha2 import sha256  # type: ignore[import-not-found]  # Python 3.12 and later
            except ImportError:
                from hashlib import sha256
        return str(sha256(b"".join(self._held)).hexdigest())


def _valid_id(rid: str) -> bool:
    return 8 <= len(rid) <= 64 and all(c in _HEX for c in rid)


class ReadSoFar:
    """The input bytes the store took before it failed, readable once, in order.

    They are the first :attr:`size` bytes of the partial file, read back through its still-open
    descriptor (the file itself is already unlinked, so nothing half-written stays in the store),
    followed by the part of the failing write the disk did not take. If reading back fails too,
    iteration still yields the tail, and :attr:`missing` says which bytes could not be recovered.
    """

    def __init__(self, file: io.FileIO | None = None, size: int = 0, tail: bytes = b"") -> None:
        self._file = file
        self.size = size
        self._tail = tail
        self.missing: tuple[int, int] | None = None  # (first byte offset, byte count) not recovered
        self.missing_reason = ""

    def __iter__(self) -> Iterator[bytes]:
        offset = 0
        try:
            if self._file is not None:
                fd = self._file.fileno()
                while offset < self.size:
                    block = os.pread(fd, min(_BLOCK, self.size - offset), offset)
                    if not block:
                        raise OSError(errno.EIO, "the partial file is shorter than what was written")
                    yield block
                    offset += len(block)
        except OSError as exc:
            self.missing = (offset, self.size - offset)
            self.missing_reason = exc.strerror or str(exc)
        finally:
            self.close()
        if self._tail:
            yield self._tail

    def close(self) -> None:
        """Release the partial file (its disk space is freed here)."""
        if self._file is not None:
            self._file.close()

    def __enter__(self) -> ReadSoFar:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __del__(self) -> None:
        # Callers that only report the error (the MCP tool holds its input in memory) never read
        # this; closing here frees the unlinked file's space without a ResourceWarning.
        self.close()


class OriginalNotStored(StorageError):
    """The original could not be stored; :attr:`read_so_far` still holds what was read of the input.

    Raised when the store directory cannot be used (nothing read yet) or when a write fails
    part-way (disk full, I/O error). The input past :attr:`read_so_far` is still unread in the
    caller's stream.
    """

    def __init__(self, reason: str, read_so_far: ReadSoFar | None = None) -> None:
        super().__init__(
            f"could not store the original ({reason}); set SUMMARIZER_CACHE_DIR to a writable "
            "directory with free space"
        )
        self.reason = reason
        self.read_so_far = read_so_far if read_so_far is not None else ReadSoFar()


class OriginalWriter:
    """Streams one original into the store; :meth:`commit` returns its id.

    Writes are unbuffered so that, when one fails, :attr:`size` is exactly what the partial file
    holds and the rest of the failing block is still in hand (a buffered writer loses count of
    which bytes reached the disk).
    """

    def __init__(
        self, directory: str | os.PathLike[str], limit: int | None = None, on_commit: _Committed | None = None
    ) -> None:
        folder = os.fspath(directory)
        try:
            os.makedirs(folder, exist_ok=True)
            fd, name = _partial_file(folder)
        except OSError as exc:
            raise OriginalNotStored(f"cannot write to {folder!r}: {exc.strerror or exc}") from exc
        self._dir = folder
        self._tmp = name
        self._file = os.fdopen(fd, "r+b", buffering=0)
        self._hash = _Sha256()
        self._failed = False
        self._limit = limit
        self._on_commit = on_commit
        self._last = b""
        self.dropped = False  # past the per-input limit: hashed and counted, not stored
        self.size = 0

    @property
    def ends_with_newline(self) -> bool:
        """Whether the last byte written was a newline (known even when the original was dropped)."""
        return self._last == b"\n"

    def write(self, data: bytes) -> None:
        """Append bytes (hashing them as they go); :class:`OriginalNotStored` if the disk refuses."""
        if not data:
            return
        if self._limit is not None and not self.dropped and self.size + len(data) > self._limit:
            self._drop()
        if self.dropped:
            self._hash.update(data)
            self.size += len(data)
            self._last = data[-1:]
            return
        view = memoryview(data)
        done = 0
        try:
            while done < len(view):
                written = self._write_some(view[done:])
                if not written:
                    raise OSError(errno.EIO, "the store accepted no bytes")
                done += written
        except OSError as exc:
            raise self._fail(exc, tail=bytes(view[done:]), written=done) from exc
        self._hash.update(data)
        self.size += len(data)
        self._last = data[-1:]

    def _drop(self) -> None:
        """Stop storing: the input is over the per-input limit (the compression still completes)."""
        self.dropped = True
        self._file.close()
        with contextlib.suppress(OSError):
            os.unlink(self._tmp)

    def _write_some(self, data: memoryview) -> int:
        """One write(2): the kernel may take only part of ``data`` (a disk about to fill does)."""
        return self._file.write(data)

    def commit(self) -> str:
        """Rename to the content id (the file is still open, so a failure can be recovered), return it."""
        digest = self._hash.hexdigest()
        if self.dropped:
            reason = (
                f"not stored: {self.size:,} bytes is over the per-input limit of {self._limit:,} "
                "bytes, SUMMARIZER_ORIGINALS_MAX_BYTES"
            )
            retention.record_eviction(self._dir, [(digest, reason)], time.time())
            if self._on_commit is not None:
                self._on_commit(digest, self.size, True)
            return digest
        final = os.path.join(self._dir, digest)
        try:
            if os.path.exists(final):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self._tmp)
                os.utime(final)  # used again: least recently used counts from now
            else:
                os.replace(self._tmp, final)
        except OSError as exc:
            raise self._fail(exc, tail=b"", written=0) from exc
        self._file.close()  # also drops the writer's lock
        if self._on_commit is not None:
            self._on_commit(digest, self.size, False)
        return digest

    def abort(self) -> None:
        """Drop the partial file (used when reading the input failed)."""
        if self._failed or self.dropped:
            return  # the partial file now belongs to the ReadSoFar handed out with the error
        self._file.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self._tmp)

    def _fail(self, exc: OSError, *, tail: bytes, written: int) -> OriginalNotStored:
        self._failed = True
        with contextlib.suppress(OSError):
            os.unlink(self._tmp)
        size = self.size + written
        reason = f"writing to {self._dir!r} failed after {size:,} bytes: {exc.strerror or exc}"
        return OriginalNotStored(reason, ReadSoFar(self._file, size, tail))


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
    import re

    # At most 18 digits per side: a 5,000-digit "line number" is a bad range, checked before int()
    # (which refuses past 4,300 digits with a ValueError that is no user's business).
    match = re.fullmatch(r"\s*(\d{0,18})\s*:\s*(\d{0,18})\s*", spec[:100])
    if match is None or len(spec) > 100 or (match.group(1) == "" and match.group(2) == ""):
        raise InputError(f"bad line range {spec!r}; use A:B, A: or :B with 1-based line numbers")
    start = int(match.group(1) or 1)
    end = int(match.group(2)) if match.group(2) else None
    if start < 1 or (end is not None and end < start):
        raise InputError(f"bad line range {spec!r}; need 1 <= A <= B")
    return start, end


def _partial_file(directory: str) -> tuple[int, str]:
    """Create and lock ``.incoming-<pid>-<random>``: the lock marks a live writer (mkstemp would
    cost the cold path the import of tempfile, and gives no lock)."""
    import fcntl

    for _ in range(100):
        name = os.path.join(directory, f".incoming-{os.getpid()}-{os.urandom(6).hex()}")
        try:
            fd = os.open(name, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue
        fcntl.flock(fd, fcntl.LOCK_EX)
        return fd, name
    raise FileExistsError(errno.EEXIST, "no free partial-file name", directory)


class OriginalStore:
    """The store: writers for new originals, retention, and the read side (id or unique prefix).

    ``policy`` None means the default policy (1 GiB, 14 days); :meth:`configured` reads the
    ``SUMMARIZER_ORIGINALS_*`` environment variables. :attr:`dropped` is set when the last
    commit was over the per-input limit: ``(id, size)``.
    """

    def __init__(
        self, directory: str | os.PathLike[str], policy: retention.RetentionPolicy | None = None
    ) -> None:
        self._folder = os.fspath(directory)
        self.policy = policy if policy is not None else retention.RetentionPolicy()
        self.dropped: tuple[str, int] | None = None

    @classmethod
    def configured(
        cls, directory: str | os.PathLike[str], env: dict[str, str] | os._Environ[str]
    ) -> OriginalStore:
        """The store with the policy from the environment; a malformed value is an InputError."""
        try:
            return cls(directory, retention.policy_from_env(env))
        except ValueError as exc:
            raise InputError(str(exc)) from None

    @property
    def directory(self) -> Path:
        """The store's directory (pathlib is loaded here, off the write path)."""
        from pathlib import Path

        return Path(self._folder)

    def _refuse_a_link(self) -> str | None:
        """Why the store directory cannot be used, when it is a symbolic link (never followed:
        writes would land, and prune would delete, wherever it points)."""
        if os.path.islink(self._folder):
            return (
                f"{self._folder!r} is a symbolic link, which the store never follows; "
                "remove the link or point SUMMARIZER_CACHE_DIR at a real directory"
            )
        return None

    def writer(self) -> OriginalWriter:
        """Start storing a new original (maintaining the store first when that is due)."""
        if reason := self._refuse_a_link():
            raise OriginalNotStored(reason)
        self.dropped = None
        if retention.due(self._folder, self.policy, time.time()):
            self.maintain()
        return OriginalWriter(self._folder, self.policy.max_input_bytes, self._committed)

    def _committed(self, restore_id: str, size: int, dropped: bool) -> None:
        if dropped:
            self.dropped = (restore_id, size)
        elif size * _LARGE_FRACTION >= self.policy.max_bytes:
            self.maintain()

    def maintain(self, *, everything: bool = False) -> retention.Maintenance:
        """Remove orphaned partial files and evict by age and size (everything: all but the newest)."""
        if reason := self._refuse_a_link():
            raise StorageError(f"not pruned: {reason}")
        return retention.maintain(self._folder, self.policy, everything=everything)

    def usage(self) -> retention.Usage:
        """How many originals, how many bytes, how many partial files."""
        if reason := self._refuse_a_link():
            raise StorageError(reason)
        return retention.usage(self._folder)

    def path(self, restore_id: str) -> Path:
        """The file holding ``restore_id``; a unique prefix of at least 8 hex digits also works."""
        from pathlib import Path

        return Path(self.location(restore_id))

    def location(self, restore_id: str) -> str:
        """:meth:`path` as a string, without pathlib (the cold path reads originals back too)."""
        rid = restore_id.strip().lower()
        if not _valid_id(rid):
            raise InputError(f"bad restore id {restore_id!r}; pass the hex id printed by `summarizer output`")
        if reason := self._refuse_a_link():
            raise StorageError(reason)
        exact = os.path.join(self._folder, rid)
        if os.path.isfile(exact):
            return exact
        names = sorted(os.listdir(self._folder)) if os.path.isdir(self._folder) else []
        matches = [os.path.join(self._folder, n) for n in names if n.startswith(rid)]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            if (gone := retention.evicted_entry(self._folder, rid)) is not None:
                full, when, reason = gone
                stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(when))
                what = f"was {reason}" if reason.startswith("not stored") else f"was evicted ({reason})"
                raise NotFound(
                    f"stored original {full[:12]!r} {what} on {stamp}; run the command again to get its "
                    "output (SUMMARIZER_ORIGINALS_MAX_BYTES and _MAX_AGE set how much is kept)"
                )
            raise NotFound(
                f"no stored original {restore_id!r} in {self._folder!r}; "
                "compress the output again with `summarizer output`"
            )
        raise InputError(f"restore id {restore_id!r} is ambiguous; give more of its hex digits")

    def iter_bytes(self, restore_id: str, lines: tuple[int, int | None] | None = None) -> Iterator[bytes]:
        """Yield the original's bytes, whole or only lines ``start..end`` (1-based, inclusive).

        The id is the sha256 of the content, so the file is checked against it first: a damaged or
        truncated original is a :class:`StorageError`, never silently returned as if intact.
        """
        path = self.location(restore_id)
        name = os.path.basename(path)
        with contextlib.suppress(OSError):
            os.utime(path)  # restored: recently used
        import hashlib

        with open(path, "rb") as handle:
            if hashlib.file_digest(handle, "sha256").hexdigest() != name:
                raise StorageError(
                    f"stored original {name[:12]!r} is damaged (its bytes no longer match its id); "
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
