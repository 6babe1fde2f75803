"""A stand-in for a tool on PATH that records (live) or replays (benchmark) its calls.

Linked under a tool's name (``git``, ``pytest``, ``vitest``...) in a shim folder put first on
PATH. ``SHIM_MODE=record``: run the real tool (found on PATH after the shim folder), append
``{tool, args, cwd, stdout, stderr, rc}`` to ``$SHIM_LOG`` (JSON lines), and pass its output and
status on. ``SHIM_MODE=replay``: answer from ``$SHIM_LOG`` (the calls recorded for one
command), in the order they were recorded for the same tool, arguments and folder; an unknown
call prints one line on stderr and exits 127. Calls made while another shim runs (a node script
started by ``vitest``) go straight to the real tool, unrecorded.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def _real(tool: str, shim_dir: str) -> str | None:
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        if not folder or os.path.realpath(folder) == os.path.realpath(shim_dir):
            continue
        candidate = Path(folder) / tool
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


def _key(tool: str, args: list[str]) -> str:
    return json.dumps([tool, args, os.path.relpath(os.getcwd(), os.environ.get("SHIM_ROOT", "/"))])


def record(tool: str, args: list[str], shim_dir: str) -> int:
    """Run the real tool, log the call, pass its output on."""
    real = _real(tool, shim_dir)
    if real is None:
        sys.stderr.write(f"{tool}: command not found\n")
        return 127
    if os.environ.get("SHIM_ACTIVE"):
        os.execv(real, [real, *args])
    done = subprocess.run(
        [real, *args], capture_output=True, env={**os.environ, "SHIM_ACTIVE": "1"}, check=False
    )
    entry = {
        "key": _key(tool, args),
        "stdout": done.stdout.decode("utf-8", "surrogateescape"),
        "stderr": done.stderr.decode("utf-8", "surrogateescape"),
        "rc": done.returncode,
    }
    with open(os.environ["SHIM_LOG"], "a", encoding="utf-8", errors="surrogateescape") as log:
        log.write(json.dumps(entry) + "\n")
    sys.stdout.buffer.write(done.stdout)
    sys.stderr.buffer.write(done.stderr)
    return done.returncode


def replay(tool: str, args: list[str]) -> int:
    """Answer the call from the log (the n-th call of the same key gets the n-th answer)."""
    key = _key(tool, args)
    log = Path(os.environ["SHIM_LOG"])
    used_path = log.with_suffix(".used")
    used = used_path.read_text().splitlines() if used_path.exists() else []
    seen = used.count(key)
    matches = [e for e in map(json.loads, log.read_text().splitlines()) if e["key"] == key]
    if seen >= len(matches):
        sys.stderr.write(f"shim: no recorded call for {key}\n")
        with open(log.with_suffix(".missed"), "a") as missed:
            missed.write(key + "\n")
        return 127
    with open(used_path, "a") as handle:
        handle.write(key + "\n")
    entry = matches[seen]
    sys.stdout.buffer.write(entry["stdout"].encode("utf-8", "surrogateescape"))
    sys.stdout.flush()
    sys.stderr.buffer.write(entry["stderr"].encode("utf-8", "surrogateescape"))
    return int(entry["rc"])


def main() -> int:
    """Dispatch on SHIM_MODE."""
    # Set by the stand-in script (runpy replaces sys.argv[0] with this file's path); not passed on.
    tool = os.environ.pop("SHIM_TOOL")
    shim_dir = os.environ.pop("SHIM_DIR")
    if os.environ.get("SHIM_MODE") == "replay":
        return replay(tool, sys.argv[1:])
    return record(tool, sys.argv[1:], shim_dir)


if __name__ == "__main__":
    raise SystemExit(main())
