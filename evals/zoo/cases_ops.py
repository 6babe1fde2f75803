"""Zoo generators: package managers, shell tracing, version control, listings, file content."""

from __future__ import annotations

import json
import os
from pathlib import Path

from zoo_lib import Made, Truth, case, fresh, quiet, run, write


@case("pip_resolution_impossible")
def pip_resolution_impossible(_: Path) -> Made:
    work = fresh("pip_resolution_impossible")
    reqs = "requests==2.31.0\nurllib3<1.21\nidna>=3.4\n"
    write(work, {"requirements.txt": reqs})
    pip = os.environ.get("ZOO_PIP", "/tmp/ob/pyenv/bin/pip")
    cmd = "pip install --dry-run --no-cache-dir -r requirements.txt"
    out, rc = run(f"{pip} install --dry-run --no-cache-dir -r requirements.txt", work)
    truth = Truth(
        source="planted: requests 2.31 needs urllib3>=1.21.1, pinned below it", first_failure="urllib3<1.21"
    )
    truth.must += [
        ("package", "urllib3<1.21"),
        ("package", "requests==2.31.0"),
        ("error", "ResolutionImpossible"),
    ]
    return Made(out, cmd, rc, truth)


@case("npm_eresolve_peer")
def npm_eresolve_peer(_: Path) -> Made:
    work = fresh("npm_eresolve_peer")
    pkg = {
        "name": "zoo-npm",
        "version": "1.0.0",
        "private": True,
        "dependencies": {"react": "17.0.2", "react-dom": "18.2.0"},
    }
    write(work, {"package.json": json.dumps(pkg, indent=2)})
    cmd = "npm install --no-audit --no-fund"
    out, rc = run(f"{cmd} --cache {work}/.npm-cache", work)
    raw = quiet(f"npm install --no-audit --no-fund --json --cache {work}/.npm-cache", work)
    error = json.loads(raw[raw.find("{") :])["error"]
    truth = Truth(source="npm install --json (error.code)", first_failure=error["code"])
    truth.must += [("code", error["code"]), ("package", "react-dom@18.2.0"), ("package", "react@17.0.2")]
    return Made(out.replace(str(work).encode(), b"/work/zoo-npm"), cmd, rc, truth)


@case("apt_get_unresolvable")
def apt_get_unresolvable(_: Path) -> Made:
    work = fresh("apt_get_unresolvable")
    cmd = "apt-get install -s zz-planted-no-such-pkg bash=0.0.1 libssl-dev"
    out, rc = run(cmd, work)
    truth = Truth(
        source="planted: a package name no archive has, a version bash does not have",
        first_failure="zz-planted-no-such-pkg",
    )
    truth.must += [("package", "zz-planted-no-such-pkg"), ("version", "'0.0.1' for 'bash'")]
    return Made(out, cmd, rc, truth)


DEPLOY = """#!/bin/bash
set -euo pipefail
mkdir -p dist/config dist/static
for name in {names}; do
  install -m 644 build/config/$name.env dist/config/
done
for n in $(seq 1 60); do
  cp build/static/asset-$n.js dist/static/
done
echo "release ready"
"""


@case("bash_x_deploy_trace")
def bash_x_deploy_trace(_: Path) -> Made:
    work = fresh("bash_x_deploy_trace")
    names = [f"svc{n:02d}" for n in range(30)]
    names.insert(23, "payments")
    files = {f"build/config/{n}.env": f"NAME={n}\n" for n in names if n != "payments"}
    files.update({f"build/static/asset-{n}.js": "//\n" for n in range(1, 61)})
    files["deploy.sh"] = DEPLOY.format(names=" ".join(names))
    write(work, files)
    cmd = "bash -x deploy.sh"
    out, rc = run(cmd, work)
    truth = Truth(source="planted: build/config/payments.env is missing", first_failure="payments.env")
    truth.must += [
        ("command", "install -m 644 build/config/payments.env dist/config/"),
        ("file", "payments.env"),
    ]
    return Made(out, cmd, rc, truth)


def _git(work: Path, script: str) -> str:
    env = {
        "GIT_AUTHOR_NAME": "Zoo",
        "GIT_AUTHOR_EMAIL": "zoo@example.com",
        "GIT_COMMITTER_NAME": "Zoo",
        "GIT_COMMITTER_EMAIL": "zoo@example.com",
        "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
        "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
    }
    return quiet(f"set -e; {script}", work, env)


def _repo(name: str, files: int) -> Path:
    work = fresh(name)
    _git(work, "git init -q -b main . && git config commit.gpgsign false")
    for n in range(files):
        write(work, {f"src/module_{n:03d}.py": "".join(f"value_{k} = {k}\n" for k in range(30))})
    _git(work, "git add -A && git commit -q -m 'initial import'")
    return work


@case("git_merge_many_automerge")
def git_merge_many_automerge(_: Path) -> Made:
    return _merge("git_merge_many_automerge", 300, {17, 88, 140, 251})


@case("git_merge_automerge_8k")
def git_merge_automerge_8k(_: Path) -> Made:
    """An 8k-token output that is 95%+ one line shape (``Auto-merging <file>``) around a few conflicts."""
    return _merge("git_merge_automerge_8k", 1000, {41, 377, 702, 958})


def _merge(name: str, files: int, conflicted: set[int]) -> Made:
    work = _repo(name, files)
    _git(work, "git checkout -q -b feature")
    for n in range(files):
        p = work / f"src/module_{n:03d}.py"
        lines = p.read_text().splitlines()
        lines[2] = f"value_2 = 'feature {n}'"
        if n in conflicted:
            lines[20] = f"value_20 = 'feature side {n}'"
        p.write_text("\n".join(lines) + "\n")
    _git(work, "git commit -q -am 'feature: rename values'")
    _git(work, "git checkout -q main")
    for n in range(files):
        p = work / f"src/module_{n:03d}.py"
        lines = p.read_text().splitlines()
        lines[27] = f"value_27 = 'main {n}'"
        if n in conflicted:
            lines[20] = f"value_20 = 'main side {n}'"
        p.write_text("\n".join(lines) + "\n")
    _git(work, "git commit -q -am 'main: tune values'")
    cmd = "git merge feature"
    out, rc = run(cmd, work)
    unmerged = _git(work, "git diff --name-only --diff-filter=U").split()
    truth = Truth(
        source="git diff --name-only --diff-filter=U", first_failure=unmerged[0] if unmerged else None
    )
    truth.must += [("path", p) for p in unmerged]
    return Made(out, cmd, rc, truth)


@case("git_rebase_stop")
def git_rebase_stop(_: Path) -> Made:
    work = _repo("git_rebase_stop", 20)
    _git(work, "git checkout -q -b topic")
    for n in range(6):
        write(work, {f"src/module_{n:03d}.py": f"value_0 = 'topic {n}'\n"})
        _git(work, f"git commit -q -am 'topic step {n}'")
    _git(work, "git checkout -q main")
    write(work, {"src/module_003.py": "value_0 = 'main changed'\n"})
    _git(work, "git commit -q -am 'main edit'")
    _git(work, "git checkout -q topic")
    cmd = "git rebase main"
    out, rc = run(cmd, work)
    status = _git(work, "git status --porcelain=v1")
    stopped = _git(work, "git rev-parse --short REBASE_HEAD").strip()
    paths = [line[3:] for line in status.splitlines() if line[:2] in ("UU", "AA", "DU", "UD")]
    truth = Truth(
        source="git status --porcelain (unmerged) and git rev-parse REBASE_HEAD", first_failure=paths[0]
    )
    truth.must += [("path", p) for p in paths] + [("commit", stopped)]
    return Made(out, cmd, rc, truth)


@case("git_status_long")
def git_status_long(_: Path) -> Made:
    work = _repo("git_status_long", 60)
    for n in range(0, 60, 3):
        (work / f"src/module_{n:03d}.py").write_text("changed = 1\n")
    for n in range(1, 60, 10):
        (work / f"src/module_{n:03d}.py").unlink()
    write(work, {f"notes/draft_{n}.md": "x\n" for n in range(8)})
    _git(work, "git mv src/module_059.py src/renamed_059.py && git add src/module_000.py")
    cmd = "git status"
    out, rc = run(cmd, work)
    truth = Truth(source="git status --porcelain=v1 -uall (every path)")
    for line in _git(work, "git status --porcelain=v1").splitlines():
        truth.must.append(("path", line[3:].split(" -> ")[-1].rstrip("/")))
    return Made(out, cmd, rc, truth)


@case("git_log_stat")
def git_log_stat(_: Path) -> Made:
    work = _repo("git_log_stat", 30)
    for n in range(45):
        write(work, {f"src/module_{n % 30:03d}.py": f"value_0 = {n}\n"})
        _git(work, f"git commit -q -am 'step {n}: adjust module {n % 30}'")
    cmd = "git log --stat -n 40"
    out, rc = run(cmd, work)
    truth = Truth(source="git log --format=%H -n 40 (every hash, first 7 characters)")
    truth.must += [("commit", h[:7]) for h in _git(work, "git log --format=%H -n 40").split()]
    return Made(out, cmd, rc, truth)


@case("find_ls_error_names")
def find_ls_error_names(_: Path) -> Made:
    work = fresh("find_ls_error_names")
    roots = "/usr/share/perl /usr/lib/x86_64-linux-gnu/perl-base /usr/share/doc/libgpg-error0"
    cmd = f"find {roots} -ls"
    out, rc = run(cmd, work)
    listed = quiet(f"find {roots} -print", work).split()
    truth = Truth(source="find -print of the same roots (no failure; the first and last path)")
    truth.must += [("path", listed[0]), ("path", listed[-1])]
    return Made(out, cmd, rc, truth)


@case("ls_la_error_names")
def ls_la_error_names(_: Path) -> Made:
    work = fresh("ls_la_error_names")
    cmd = "ls -la /usr/lib/x86_64-linux-gnu"
    out, rc = run(cmd, work)
    truth = Truth(source="a listing (no failure): the header must name none")
    return Made(out, cmd, rc, truth)


@case("cat_python_source")
def cat_python_source(_: Path) -> Made:
    work = fresh("cat_python_source")
    path = quiet("python3 -c 'import logging; print(logging.__file__)'", work).strip()
    cmd = "cat logging/__init__.py  # CPython's stdlib"
    out, rc = run(f"cat {path}", work)
    truth = Truth(source="file content (no failure): the header must name none")
    return Made(out, cmd, rc, truth)
