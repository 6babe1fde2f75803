"""Zoo cases for the compact forms: small git, listing and search outputs of an agent's session,
whose rows say "error" without being failures.

Truth from machine sources: ``git status --porcelain``, ``git log --format``, ``os.listdir`` and a
scan of the searched files with Python's ``re`` (never the output itself). None has a failure:
the header must name none.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from cases_ops import _git, _repo
from zoo_lib import Made, Truth, case, fresh, run, write

_SUBJECTS = (
    "parser: raise InputError on an empty header",
    "fix the error message when the cache is missing",
    "tests: the failing fixture is fixed",
    "Traceback printer: keep the last frame",
    "build: fail fast when the compiler is missing",
    "errors: one exception class per module",
    "log ERROR lines with their request id",
    "revert: the panic handler",
)


@case("git_status_small")
def git_status_small(_: Path) -> Made:
    """A git status an agent sees mid-task: a few modified files, an untracked error log."""
    work = _repo("git_status_small", 12)
    for n in (1, 4, 7, 9):
        (work / f"src/module_{n:03d}.py").write_text("changed = 1\n")
    write(work, {"error.log": "x\n", "tests/test_errors.py": "x\n"})
    _git(work, "git add src/module_004.py")
    cmd = "git status"
    out, rc = run(cmd, work)
    truth = Truth(source="git status --porcelain=v1 (every path as git status lists it; no failure)")
    for line in _git(work, "git status --porcelain=v1").splitlines():
        truth.must.append(("path", line[3:]))
    return Made(out, cmd, rc, truth)


@case("git_log_error_subjects")
def git_log_error_subjects(_: Path) -> Made:
    """git log whose subjects and bodies say error, fail, Traceback, panic: none is a failure."""
    work = _repo("git_log_error_subjects", 10)
    for n, subject in enumerate(_SUBJECTS):
        write(work, {f"src/module_{n:03d}.py": f"value_0 = {n}\n"})
        body = "\\n\\nThe old code raised ValueError and printed ERROR: failed to parse." if n % 2 else ""
        _git(work, f"git commit -q -am $'{subject}{body}'")
    cmd = "git log"
    out, rc = run(cmd, work)
    truth = Truth(source="git log --format=%H and %s (every hash and subject; no failure)")
    for line in _git(work, "git log --format=%H%x09%s").splitlines():
        commit, subject = line.split("\t", 1)
        truth.must += [("commit", commit), ("subject", subject)]
    return Made(out, cmd, rc, truth)


@case("grep_rn_error_class")
def grep_rn_error_class(_: Path) -> Made:
    """grep -rn for an exception class: every hit says Error, none is a failure of grep."""
    work = fresh("grep_rn_error_class")
    files = {}
    for n in range(4):
        body = [
            f"def check_{k}(value):\n    if not value:\n        raise InputError('empty {k}')\n"
            for k in range(6)
        ]
        files[f"pkg/checks_{n}.py"] = "from pkg.errors import InputError\n\n" + "\n".join(body)
    files["pkg/errors.py"] = "class InputError(ValueError):\n    '''Bad input.'''\n"
    write(work, files)
    cmd = "grep -rn InputError pkg"
    out, rc = run(cmd, work)
    truth = Truth(source="a scan of the searched files with Python's re (every file:line; no failure)")
    for path in sorted((work / "pkg").rglob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if re.search("InputError", line):
                truth.must.append(("hit", f"{path.relative_to(work)}:{number}:"))
    return Made(out, cmd, rc, truth)


@case("ls_la_small")
def ls_la_small(_: Path) -> Made:
    """ls -la of a small project folder (names with error words)."""
    work = fresh("ls_la_small")
    names = ["error_handling.md", "libgpg-error.so.0", "Fail.pm", "exceptions.py", "README.md", "setup.cfg"]
    write(work, {f"proj/{name}": "x" * (100 * len(name)) for name in names})
    for folder in ("src", "tests", "docs", ".git"):
        (work / "proj" / folder).mkdir()
    os.symlink("README.md", work / "proj" / "README")
    cmd = "ls -la proj"
    out, rc = run(cmd, work)
    truth = Truth(source="os.listdir (every name; no failure)")
    truth.must += [("name", name) for name in sorted(os.listdir(work / "proj"))]
    return Made(out, cmd, rc, truth)
