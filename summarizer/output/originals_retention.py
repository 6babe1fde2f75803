"""Retention of the originals store: a size cap, an age limit, least recently used first.

Originals only grew before (254 MB after one afternoon). Now every store has a
:class:`RetentionPolicy`: at most ``max_bytes`` in total (default 1 GiB) and nothing unused for
longer than ``max_age_s`` (default 14 days). "Used" is the file's mtime: a write of an identical
output and every restore touch it, so eviction is least-recently-used, oldest first.

Invariants:

* A live writer's file is never removed. Writers hold an exclusive ``flock`` on their
  ``.incoming-*`` partial file for as long as they write; maintenance only removes a partial it
  can lock itself *and* that is older than the grace period (a killed ``run``/``output`` leaves
  such a file behind; the kernel drops the lock with the process).
* An original younger than the grace period is never evicted either: a running command may be
  about to print it back.
* Every eviction is written to ``.evicted`` (id, time, reason), so ``restore`` of an evicted id
  says that it was evicted and when, instead of "no such id".

Maintenance is cheap but not free (a directory scan), so writers run it at most once per
``every_s`` (a stamp file's mtime says when it last ran) and after storing a large original;
``summarizer cache prune`` runs it on demand. The standard library only: this runs on the cold
command path.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping

__all__ = [
    "EVICTED_LOG",
    "Maintenance",
    "RetentionPolicy",
    "Usage",
    "due",
    "evicted_entry",
    "maintain",
    "parse_age",
    "parse_size",
    "policy_from_env",
    "record_eviction",
    "usage",
]

EVICTED_LOG = ".evicted"
_STAMP = ".maintained"
_LOG_LIMIT = 1 << 20  # keep the eviction log small: past 1 MiB, the older half goes
_SIZE_UNITS = {
    "": 1,
    "b": 1,
    "k": 1 << 10,
    "kb": 1 << 10,
    "kib": 1 << 10,
    "m": 1 << 20,
    "mb": 1 << 20,
    "mib": 1 << 20,
    "g": 1 << 30,
    "gb": 1 << 30,
    "gib": 1 << 30,
    "t": 1 << 40,
    "tb": 1 << 40,
    "tib": 1 << 40,
}
_AGE_UNITS = {"": 1, "s": 1, "m": 60, "min": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


class RetentionPolicy:
    """How much the store keeps. ``max_input_bytes`` caps what one input may store."""

    __slots__ = ("every_s", "grace_s", "max_age_s", "max_bytes")

    def __init__(
        self,
        max_bytes: int = 1 << 30,
        max_age_s: float = 14 * 86400,
        *,
        grace_s: float = 600.0,
        every_s: float = 600.0,
    ) -> None:
        self.max_bytes = max_bytes
        self.max_age_s = max_age_s
        self.grace_s = grace_s
        self.every_s = every_s

    @property
    def max_input_bytes(self) -> int:
        """One input may store at most the whole cap (``SUMMARIZER_ORIGINALS_MAX_BYTES``)."""
        return self.max_bytes


def _split(text: str) -> tuple[float, str]:
    text = text.strip().lower().replace("_", "")
    cut = len(text)
    while cut and not (text[cut - 1].isdigit() or text[cut - 1] == "."):
        cut -= 1
    return float(text[:cut]), text[cut:].strip()


def _quantity(text: str, units: Mapping[str, float], kind: str, forms: str) -> float:
    try:
        number, unit = _split(text)
        factor = units[unit]
    except (ValueError, KeyError):
        raise ValueError(f"bad {kind} {text!r}; use {forms}") from None
    if number < 0:
        raise ValueError(f"bad {kind} {text!r}; it must not be negative")
    return number * factor


def parse_size(text: str) -> int:
    """``1073741824``, ``512M``, ``1GiB``... as bytes; ValueError names the accepted forms."""
    return int(_quantity(text, _SIZE_UNITS, "size", "bytes or a number with K, M, G or T (e.g. 1G)"))


def parse_age(text: str) -> float:
    """``14d``, ``12h``, ``90m``, ``3600`` (seconds)... as seconds."""
    return _quantity(text, _AGE_UNITS, "age", "seconds or a number with s, m, h, d, w (e.g. 14d)")


def policy_from_env(env: Mapping[str, str]) -> RetentionPolicy:
    """The policy from ``SUMMARIZER_ORIGINALS_MAX_BYTES`` / ``..._MAX_AGE`` (defaults otherwise).

    A malformed value is a ValueError whose message names the variable; callers turn it into
    their one-line error.
    """
    policy = RetentionPolicy()
    for name, attribute, parse in (
        ("SUMMARIZER_ORIGINALS_MAX_BYTES", "max_bytes", parse_size),
        ("SUMMARIZER_ORIGINALS_MAX_AGE", "max_age_s", parse_age),
    ):
        raw = env.get(name)
        if raw:
            try:
                setattr(policy, attribute, parse(raw))
            except ValueError as exc:
                raise ValueError(f"{name}: {exc}") from None
    return policy


class Usage:
    """What the store holds: originals (count, bytes) and partial files."""

    __slots__ = ("bytes", "count", "partial_bytes", "partials")

    def __init__(self) -> None:
        self.count = self.bytes = self.partials = self.partial_bytes = 0


class Maintenance:
    """What one maintenance pass removed."""

    __slots__ = ("evicted", "evicted_bytes", "partial_bytes", "partials")

    def __init__(self) -> None:
        self.evicted = self.evicted_bytes = self.partials = self.partial_bytes = 0


def _entries(directory: str) -> list[os.DirEntry[str]]:
    """The regular files directly in ``directory``; none when it is itself a link (never followed:
    a linked store would have maintenance delete files wherever the link points)."""
    if os.path.islink(directory):
        return []
    try:
        with os.scandir(directory) as it:
            return [e for e in it if e.is_file(follow_symlinks=False)]
    except OSError:
        return []


def _is_original(name: str) -> bool:
    return len(name) == 64 and all(c in "0123456789abcdef" for c in name)


def usage(directory: str) -> Usage:
    """Count the originals and the partial files under ``directory``."""
    result = Usage()
    for entry in _entries(directory):
        try:
            size = entry.stat(follow_symlinks=False).st_size
        except OSError:
            continue
        if _is_original(entry.name):
            result.count += 1
            result.bytes += size
        elif entry.name.startswith(".incoming-"):
            result.partials += 1
            result.partial_bytes += size
    return result


def _held_by_a_writer(path: str) -> bool:
    import fcntl

    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return True  # vanished or unreadable: not ours to remove
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)  # closing drops our lock
    return False


def maintain(
    directory: str, policy: RetentionPolicy, *, now: float | None = None, everything: bool = False
) -> Maintenance:
    """Remove orphaned partials and evict originals past the age limit or over the size cap.

    ``everything`` evicts every original (``cache prune --all``); a live writer's partial file is
    still never touched.
    """
    now = time.time() if now is None else now
    done = Maintenance()
    originals: list[tuple[float, int, str]] = []
    for entry in _entries(directory):
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        age = now - info.st_mtime
        if entry.name.startswith(".incoming-"):
            if age > policy.grace_s and not _held_by_a_writer(entry.path) and _remove(entry.path):
                done.partials += 1
                done.partial_bytes += info.st_size
        elif _is_original(entry.name):
            originals.append((info.st_mtime, info.st_size, entry.name))
    originals.sort()  # least recently used first
    total = sum(size for _, size, _ in originals)
    evicted: list[tuple[str, str]] = []
    for mtime, size, name in originals:
        if now - mtime <= policy.grace_s and not everything:
            break  # sorted: everything after is younger still
        if everything:
            reason = "cache prune --all"
        elif now - mtime > policy.max_age_s:
            reason = f"unused for more than {_age_words(policy.max_age_s)}"
        elif total > policy.max_bytes:
            reason = f"the store was over its {_size_words(policy.max_bytes)} cap"
        else:
            break
        if _remove(os.path.join(directory, name)):
            total -= size
            done.evicted += 1
            done.evicted_bytes += size
            evicted.append((name, reason))
    if evicted:
        record_eviction(directory, evicted, now)
    _stamp(directory)
    return done


def due(directory: str, policy: RetentionPolicy, now: float) -> bool:
    """True when the last maintenance pass is older than ``policy.every_s`` (or never ran)."""
    try:
        return now - os.stat(os.path.join(directory, _STAMP)).st_mtime >= policy.every_s
    except OSError:
        return True


def _stamp(directory: str) -> None:
    path = os.path.join(directory, _STAMP)
    try:
        with open(path, "a"):
            pass
        os.utime(path)
    except OSError:
        pass  # an unwritable stamp only means the next writer maintains again


def _remove(path: str) -> bool:
    if os.path.islink(os.path.dirname(path)):
        return False  # the store directory became a link since it was listed
    try:
        os.unlink(path)
    except OSError:
        return False
    return True


def record_eviction(directory: str, items: list[tuple[str, str]], now: float) -> None:
    """Append ``(id, reason)`` lines to the eviction log, trimming it past 1 MiB."""
    path = os.path.join(directory, EVICTED_LOG)
    lines = "".join(f"{rid}\t{now:.0f}\t{reason}\n" for rid, reason in items)
    try:
        if os.path.exists(path) and os.path.getsize(path) > _LOG_LIMIT:
            with open(path, encoding="utf-8", errors="replace") as handle:
                kept = handle.readlines()
            tmp = path + ".tmp"
            with open(tmp, "w", encoding="utf-8") as handle:
                handle.writelines(kept[len(kept) // 2 :])
            os.replace(tmp, path)
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(lines)
    except OSError:
        pass  # the log is a courtesy for restore's message; eviction itself already happened


def evicted_entry(directory: str, prefix: str) -> tuple[str, float, str] | None:
    """``(id, when, reason)`` of the newest log line whose id starts with ``prefix``, if any."""
    try:
        with open(os.path.join(directory, EVICTED_LOG), encoding="utf-8", errors="replace") as handle:
            found = None
            for line in handle:
                parts = line.rstrip("\n").split("\t", 2)
                if len(parts) == 3 and parts[0].startswith(prefix):
                    try:
                        found = (parts[0], float(parts[1]), parts[2])
                    except ValueError:
                        continue
            return found
    except OSError:
        return None


def _size_words(n: int) -> str:
    for unit, factor in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= factor:
            return f"{n / factor:g} {unit}"
    return f"{n} bytes"


def _age_words(seconds: float) -> str:
    for unit, factor in (("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= factor:
            return f"{seconds / factor:g} {unit}"
    return f"{seconds:g} seconds"
