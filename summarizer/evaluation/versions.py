"""Prompt versions: ``--prompts`` names a directory, or a git revision of ``prompts/``.

A revision is extracted with ``git archive REV prompts`` (no checkout, the working tree is left
alone) into a temporary directory that lives as long as the run's ``ExitStack``. The revision is
resolved in the repository of ``repo`` (the current directory by default), and ``prompts/`` is
taken relative to where you are in that repository, as git itself would.
"""

from __future__ import annotations

import io
import subprocess
import tarfile
import tempfile
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

from summarizer.core.errors import NotFound

__all__ = ["materialise_prompts"]


def materialise_prompts(
    spec: str,
    stack: ExitStack,
    *,
    repo: Path | None = None,
    runner: Callable[..., subprocess.CompletedProcess[bytes]] = subprocess.run,
) -> tuple[str, Path]:
    """A prompt version as a directory: ``spec`` is a directory, or a git revision of ``prompts/``.

    A revision is extracted with ``git archive REV prompts`` into a temporary directory that lives
    as long as ``stack``. Returns ``(label, directory)``.
    """
    path = Path(spec)
    if path.is_dir():
        return (path.name if path.name not in ("", ".") else str(path)), path
    cwd = str(repo) if repo else None
    rev = runner(
        ["git", "rev-parse", "--verify", "--quiet", f"{spec}^{{commit}}"],
        cwd=cwd,
        capture_output=True,
        check=False,
    )
    if rev.returncode != 0:
        raise NotFound(
            f"--prompts {spec!r} is neither a directory nor a git revision; pass a prompt "
            "directory or a revision such as HEAD~1"
        )
    top = runner(["git", "rev-parse", "--show-prefix"], cwd=cwd, capture_output=True, check=True)
    prefix = top.stdout.decode().strip()
    archive = runner(
        ["git", "archive", "--format=tar", spec, f"{prefix}prompts"],
        cwd=cwd,
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        raise NotFound(f"git revision {spec!r} has no prompts/ directory: {archive.stderr.decode().strip()}")
    target = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="summarizer-prompts-")))
    with tarfile.open(fileobj=io.BytesIO(archive.stdout), mode="r:") as tar:
        _extract(tar, target)
    return f"prompts@{spec}", target / prefix / "prompts"


def _extract(tar: tarfile.TarFile, target: Path) -> None:
    """Extract a prompt archive, refusing members that would land outside ``target``.

    Python 3.11.4+ has extraction filters (``filter="data"``); Debian 12's 3.11.2 does not, so the
    same rule (no absolute or climbing paths, no links) is checked by hand there.
    """
    if hasattr(tarfile, "data_filter"):
        tar.extractall(target, filter="data")
        return
    root = target.resolve()
    for member in tar.getmembers():
        if member.issym() or member.islnk() or not (root / member.name).resolve().is_relative_to(root):
            raise NotFound(f"the prompt archive holds an unsafe member {member.name!r}; refusing it")
    tar.extractall(target)  # every member was checked above
