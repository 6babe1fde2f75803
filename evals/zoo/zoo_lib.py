"""Shared helpers of the zoo generators: run a real tool, write a case folder.

A case folder holds ``output.txt`` (what the tool printed, stdout and stderr merged in write
order, capped at :data:`CAP` bytes), ``cmd.txt`` (the command that printed it) and
``truth.json``: ``must_survive`` (failure values, each taken from the tool's machine-readable
mode or from the list of what the generator planted), ``first_failure`` (a string the header's
first error must contain; ``null`` when the output holds no failure), ``exit_code`` and, for test
runners, ``runner_counts``. The text we compress is never read to make the truth.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ZOO = Path(__file__).resolve().parent
CAP = 1_000_000
WORK = Path(os.environ.get("ZOO_WORK", "/tmp/zoo-work"))


@dataclass
class Truth:
    """What a case must keep, and the first failure the header must name."""

    must: list[tuple[str, str]] = field(default_factory=list)
    should: list[tuple[str, str]] = field(default_factory=list)
    first_failure: str | None = None
    runner_counts: tuple[int, int] | None = None  # (failed, passed)
    source: str = ""


@dataclass
class Made:
    """One generated case: the merged output, the command, its exit code, and its truth."""

    output: bytes
    command: str
    exit_code: int
    truth: Truth


CASES: dict[str, Callable[[Path], Made]] = {}


def case(name: str) -> Callable[[Callable[[Path], Made]], Callable[[Path], Made]]:
    """Register a generator under ``name`` (the case folder's name)."""

    def register(fn: Callable[[Path], Made]) -> Callable[[Path], Made]:
        CASES[name] = fn
        return fn

    return register


def fresh(name: str) -> Path:
    """An empty work directory for one case (same path on every run, so outputs are stable)."""
    path = WORK / name
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path


def write(root: Path, files: dict[str, str]) -> None:
    """Write ``files`` (relative path -> text) under ``root``."""
    for rel, text in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)


def run(cmd: str, cwd: Path, env: dict[str, str] | None = None, timeout: int = 300) -> tuple[bytes, int]:
    """Run a shell command with stdout and stderr on one pipe (write order kept)."""
    full = {**os.environ, "LC_ALL": "C.UTF-8", "NO_COLOR": "1", "TERM": "dumb", **(env or {})}
    done = subprocess.run(
        ["bash", "-c", cmd],
        cwd=cwd,
        env=full,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=timeout,
        check=False,
    )
    return done.stdout, done.returncode


def quiet(cmd: str, cwd: Path, env: dict[str, str] | None = None, timeout: int = 300) -> str:
    """Run a setup or truth command; its stdout (stderr discarded) as text."""
    full = {**os.environ, "LC_ALL": "C.UTF-8", "NO_COLOR": "1", "TERM": "dumb", **(env or {})}
    done = subprocess.run(
        ["bash", "-c", cmd],
        cwd=cwd,
        env=full,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        timeout=timeout,
        check=False,
    )
    return done.stdout.decode("utf-8", "replace")


def line_of(text: str, marker: str) -> int:
    """1-based number of the first line of ``text`` holding ``marker`` (for planted bugs)."""
    for number, line in enumerate(text.splitlines(), 1):
        if marker in line:
            return number
    raise ValueError(f"marker {marker!r} not found")


# Registry host names are kept out of the repository; the lines stay, the host reads "registry".
_HOSTS = (b"files.pythonhosted.org", b"pypi.org", b"registry.npmjs.org", b"www.npmjs.com", b"deb.debian.org")


def scrub_hosts(data: bytes) -> bytes:
    """``data`` with the package registries' host names replaced by ``registry.invalid``."""
    for host in _HOSTS:
        data = data.replace(host, b"registry.invalid")
    return data


def save(name: str, made: Made) -> dict[str, object]:
    """Write the case folder; returns the truth as written."""
    folder = ZOO / "cases" / name
    folder.mkdir(parents=True, exist_ok=True)
    data = scrub_hosts(made.output)[:CAP]
    if len(made.output) > CAP:
        data = data[: data.rfind(b"\n") + 1]
    (folder / "output.txt").write_bytes(data)
    (folder / "cmd.txt").write_text(made.command + "\n")
    t = made.truth
    truth: dict[str, object] = {
        "case": name,
        "exit_code": 128 - made.exit_code if made.exit_code < 0 else made.exit_code,
        "truth_source": t.source,
        "first_failure": t.first_failure,
        "must_survive": [{"kind": k, "value": v} for k, v in t.must],
        "should_survive": [{"kind": k, "value": v} for k, v in t.should],
    }
    if t.runner_counts is not None:
        # Kept apart from "runner_counts" (which the package's eval compares with the header):
        # runners disagree on what an xpass or a setup error counts as.
        truth["reported_counts"] = {"failed": t.runner_counts[0], "passed": t.runner_counts[1]}
    (folder / "truth.json").write_text(json.dumps(truth, indent=1) + "\n")
    return truth
