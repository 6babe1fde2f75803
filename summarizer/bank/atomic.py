"""Crash-safe file I/O for the memory bank: atomic writes, stale temp cleanup and the batch lock.

Invariants (docs/memory-bank.md):

* A bank file is always either its old or its new complete content, never truncated. Every write
  goes to a uniquely named ``.<name>.<pid>.<n>.tmp`` in the *same* directory (``os.replace`` is only
  atomic within one filesystem), is fsynced, validated (non-empty; markdown has a heading line),
  renamed over the target, and the directory is fsynced so the rename itself survives power loss.
* Stale cleanup removes only ``*.tmp`` partial writes older than five minutes. A younger ``.tmp``
  may belong to a writer that is still running; ours never collide with it (pid + counter names).
* A whole batch runs under one lock (``<bank>/.tmp/compress.lock``, the ``filelock`` library): one
  lock, one write per file.

Test-only crash injection: when the environment variable ``SUMMARIZER_BANK_CRASH_AFTER`` holds an
integer N, the process kills itself with SIGKILL right after its N-th completed file write (and
``SUMMARIZER_BANK_CRASH_IN_WRITE=N`` kills it after the N-th temp file is written but before the
rename). They exist so the crash tests can interrupt a real gate between two writes; never set them
in production.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

from filelock import FileLock, Timeout

from summarizer.core.errors import StorageError

__all__ = [
    "CRASH_AFTER_ENV",
    "CRASH_IN_WRITE_ENV",
    "STALE_AFTER_S",
    "atomic_write",
    "bank_lock",
    "check_writable",
    "clean_stale_temp",
    "remove_file",
]

STALE_AFTER_S = 300.0
CRASH_AFTER_ENV = "SUMMARIZER_BANK_CRASH_AFTER"
CRASH_IN_WRITE_ENV = "SUMMARIZER_BANK_CRASH_IN_WRITE"

_counter = itertools.count(1)
_writes_done = 0
_temps_done = 0


def _maybe_crash(env_name: str, done: int) -> None:
    """Test-only: SIGKILL this process after the configured number of writes (see module doc)."""
    raw = os.environ.get(env_name)
    if raw and raw.strip().isdigit() and int(raw) == done:
        os.kill(os.getpid(), signal.SIGKILL)


def _validate(path: Path, data: bytes) -> None:
    if not data.strip():
        raise StorageError(f"refusing to write {str(path)!r}: the new content is empty")
    if path.suffix == ".md" and not any(line.startswith(b"#") for line in data.splitlines()):
        raise StorageError(f"refusing to write {str(path)!r}: the new markdown has no heading line")


def _fsync_dir(directory: Path) -> None:
    # Directory fsync makes the rename durable; some filesystems refuse O_RDONLY on dirs (EINVAL).
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` atomically (temp file, fsync, validate, rename, dir fsync).

    Raises :class:`StorageError` when the content fails validation; ``OSError`` from the
    filesystem propagates (the CLI maps it to one line). The target is untouched on any failure.
    """
    global _writes_done, _temps_done
    data = text.encode("utf-8")
    _validate(path, data)
    directory = path.parent
    directory.mkdir(parents=True, exist_ok=True)
    tmp = directory / f".{path.name}.{os.getpid()}.{next(_counter)}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fsync(fd)
        finally:
            os.close(fd)
        # Re-read the size from disk: a full disk can accept the write call and still lose data.
        if os.path.getsize(tmp) != len(data):
            raise StorageError(f"write validation failed for {str(path)!r}: size mismatch; check free space")
        _temps_done += 1
        _maybe_crash(CRASH_IN_WRITE_ENV, _temps_done)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(directory)
    _writes_done += 1
    _maybe_crash(CRASH_AFTER_ENV, _writes_done)


def check_writable(paths: list[Path]) -> None:
    """Refuse the whole batch up front when any target cannot be written.

    Atomic writes protect each file, but a target found unwritable half-way would leave the bank
    with some files new and some old; checking first keeps "an error changes nothing".
    """
    for path in paths:
        if path.is_dir():
            raise StorageError(f"cannot write {str(path)!r}: it is a directory; move it away and re-run")
        ancestor = path.parent
        while not ancestor.exists():
            ancestor = ancestor.parent
        if not ancestor.is_dir():
            raise StorageError(
                f"cannot write {str(path)!r}: {str(ancestor)!r} is a file where a directory "
                "is expected; move it away and re-run"
            )
        if not os.access(ancestor, os.W_OK | os.X_OK):
            raise StorageError(
                f"cannot write {str(path)!r}: {str(ancestor)!r} is not writable (read-only "
                "filesystem or permissions); nothing was changed"
            )


def remove_file(path: Path) -> bool:
    """Delete ``path``; a file that is already gone is a silent skip. True if removed."""
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    _fsync_dir(path.parent)
    return True


def clean_stale_temp(root: Path, *, now: float | None = None, max_age_s: float = STALE_AFTER_S) -> list[Path]:
    """Remove ``*.tmp`` partial writes older than ``max_age_s`` anywhere under ``root``.

    Only ``*.tmp`` files are candidates, so ZZ files, artifacts and ADR notes are never touched.
    Returns the removed paths, sorted.
    """
    if not root.is_dir():
        return []
    current = time.time() if now is None else now
    removed: list[Path] = []
    for candidate in root.rglob("*.tmp"):
        try:
            if candidate.is_file() and current - candidate.stat().st_mtime > max_age_s:
                candidate.unlink()
                removed.append(candidate)
        except FileNotFoundError:  # another cleaner got there first
            continue
    return sorted(removed)


@contextlib.contextmanager
def bank_lock(root: Path, *, timeout_s: float = 120.0) -> Iterator[None]:
    """Hold ``<root>/.tmp/compress.lock`` for one whole batch.

    A timeout is a :class:`StorageError` that names the lock file, so the user can see which gate
    holds it (or delete it if no gate is running).
    """
    lock_path = root / ".tmp" / "compress.lock"
    try:
        lock_path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StorageError(
            f"cannot create the bank's lock directory {str(lock_path.parent)!r}: "
            f"{exc.strerror or exc}; check that the bank path is a writable directory"
        ) from exc
    lock = FileLock(str(lock_path), timeout=timeout_s)
    try:
        lock.acquire()
    except Timeout as exc:
        raise StorageError(
            f"the memory bank is locked by another gate ({str(lock_path)!r}) for more than "
            f"{timeout_s:.0f}s; wait for it to finish, or remove the lock if no gate is running"
        ) from exc
    except OSError as exc:
        raise StorageError(
            f"cannot lock the memory bank ({str(lock_path)!r}): {exc.strerror or exc}; "
            "check that the bank is on a writable filesystem"
        ) from exc
    try:
        yield
    finally:
        lock.release()
