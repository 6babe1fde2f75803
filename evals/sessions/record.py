"""Record a scripted agent session on a real project: raw output, exit code, truth, RTK's calls.

Usage:
    python evals/sessions/record.py SESSION PROJECT_DIR [--path-prepend DIR ...]

For each command of ``scripts.SESSIONS[SESSION]`` (run in PROJECT_DIR, a git checkout with its
dependencies installed):

1. the command as the agent's shell runs it: stdout and stderr merged, exit code;
2. its failures from a second run with the tool's structured reporter (``truths.py``);
3. RTK's hook route, live: ``rtk rewrite CMD``, then the rewritten command with the tools on
   PATH replaced by recording shims (``shim.py``), so every call RTK makes (its own flags
   included) is kept with its stdout, stderr and exit code; RTK's own output is kept too, to
   check that the replay reproduces it;
4. what RTK reads from the disk instead of through a tool: the text of a file that ``cat`` /
   ``head`` showed, and the paths that ``find`` listed.

Writes ``evals/sessions/recorded/SESSION.jsonl`` (one command per line).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import truths
from scripts import SESSIONS, Step
from truths import TRUTH

HERE = Path(__file__).resolve().parent
TOOLS = [
    "git",
    "ls",
    "find",
    "grep",
    "rg",
    "cat",
    "head",
    "tail",
    "wc",
    "sed",
    "python",
    "python3",
    "pytest",
    "mypy",
    "ruff",
    "npx",
    "npm",
    "node",
    "vitest",
    "tsc",
    "eslint",
    "prettier",
    "pnpm",
    "yarn",
    "tree",
]


def make_shims(folder: Path) -> None:
    """One executable per tool name, each running shim.py under this interpreter."""
    folder.mkdir(parents=True, exist_ok=True)
    for tool in TOOLS:
        path = folder / tool
        path.write_text(
            f"#!{sys.executable}\nimport os, runpy\n"
            f"os.environ['SHIM_TOOL'] = {tool!r}\nos.environ['SHIM_DIR'] = {str(folder)!r}\n"
            f"runpy.run_path({str(HERE / 'shim.py')!r}, run_name='__main__')\n"
        )
        path.chmod(0o755)


def sh(cmd: str, cwd: Path, env: dict[str, str]) -> tuple[str, int]:
    """Run as an agent's shell does: one pipe for stdout and stderr, no terminal."""
    done = subprocess.run(
        ["bash", "-c", cmd],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        check=False,
    )
    return done.stdout.decode("utf-8", "surrogateescape"), done.returncode


def rtk_live(cmd: str, cwd: Path, env: dict[str, str], shims: Path) -> dict[str, object]:
    """RTK's hook route on the live project, with every tool call recorded."""
    done = subprocess.run(
        ["rtk", "rewrite", cmd], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    rewrite = done.stdout.strip()
    entry: dict[str, object] = {"rewrite": rewrite, "rewrite_rc": done.returncode}
    if done.returncode not in (0, 3) or not rewrite:
        return entry
    with tempfile.NamedTemporaryFile(suffix=".jsonl", delete=False) as log:
        log_path = Path(log.name)
    shim_env = {
        **env,
        "PATH": f"{shims}:{env['PATH']}",
        "SHIM_MODE": "record",
        "SHIM_LOG": str(log_path),
        "SHIM_ROOT": str(cwd),
    }
    output, rc = sh(rewrite, cwd, shim_env)
    entry["live_output"], entry["live_rc"] = output, rc
    entry["calls"] = [json.loads(line) for line in log_path.read_text().splitlines()]
    log_path.unlink()
    return entry


_HEAD = re.compile(r"^(cat|head|tail)\b")


def disk_reads(cmd: str, output: str) -> dict[str, object]:
    """What RTK reads itself: a shown file's text (``cat``/``head``), or ``find``'s paths."""
    words = shlex.split(cmd)
    if _HEAD.match(cmd):
        return {"files": {words[-1]: output}}
    if words[0] == "find":
        return {"touch": [line for line in output.splitlines() if line]}
    if words[0] == "wc":
        return {"files": {w: "" for w in words[1:] if not w.startswith("-")}}
    return {}


def apply(step: Step, project: Path, env: dict[str, str]) -> None:
    """An edit or a git command between recorded commands."""
    if step[0] == "edit":
        _, rel, old, new = step
        path = project / rel
        text = path.read_text()
        if old not in text:
            raise SystemExit(f"edit: {old!r} not in {rel}")
        path.write_text(text.replace(old, new, 1))
    else:
        out, rc = sh(step[1], project, env)
        if rc:
            raise SystemExit(f"{step[1]} failed: {out}")


def _save(target: Path, rows: list[dict[str, object]]) -> None:
    with target.open("w", encoding="utf-8", errors="surrogateescape") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


def main(argv: list[str] | None = None) -> int:
    """Record the session."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("session", choices=sorted(SESSIONS))
    parser.add_argument("project", type=Path)
    parser.add_argument("--path-prepend", action="append", default=[])
    args = parser.parse_args(argv)
    project = args.project.resolve()
    env = {**os.environ, "PATH": os.pathsep.join([*args.path_prepend, os.environ["PATH"]])}
    env.pop("NO_COLOR", None)
    truths.ENV.clear()
    truths.ENV.update(env)
    out_dir = HERE / "recorded"
    out_dir.mkdir(exist_ok=True)
    target = out_dir / f"{args.session}.jsonl"
    with tempfile.TemporaryDirectory() as tmp:
        shims = Path(tmp) / "shims"
        make_shims(shims)
        rows = []
        for step in SESSIONS[args.session]:
            if step[0] != "cmd":
                apply(step, project, env)
                continue
            _, cmd, family, truth = step
            output, rc = sh(cmd, project, env)
            row: dict[str, object] = {
                "n": len(rows) + 1,
                "cmd": cmd,
                "family": family,
                "exit_code": rc,
                "output": output,
            }
            row["failures"] = TRUTH[truth](cmd, project) if truth else []
            row["rtk"] = rtk_live(cmd, project, env, shims)
            row.update(disk_reads(cmd, output))
            rows.append(row)
            _save(target, rows)  # after every command: a late failure keeps what was recorded
            print(
                f"{row['n']:>2} {cmd}: exit {rc}, {len(output):,} bytes, {len(row['failures'])} failures, "  # type: ignore[arg-type]
                f"rtk: {row['rtk'].get('rewrite') or '(no rewrite)'}",
                flush=True,
            )  # type: ignore[attr-defined]
    print(f"wrote {target} ({target.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
