"""The ``python`` assertion's sandbox: a separate interpreter, a time limit, no network, stdlib only.

Dataset authors write expressions over the answer (``len(output) < 400``); the answer is model
output, so the expression runs as if both were hostile:

* where the kernel allows it (``unshare -rn`` works: Linux with user namespaces), the interpreter
  runs in a network namespace of its own, which has no network at all;
* a fresh ``python -I -S`` (isolated: no ``PYTHONPATH``, no user or site packages, so nothing
  beyond the standard library can be imported), an empty environment, a temporary working folder;
* inside it, before any expression runs, ``__import__`` admits only standard-library modules and
  never the ones that reach the network or start processes (``socket``, ``ssl``, ``http``,
  ``urllib``, ``subprocess``, ``os``, ``ctypes``, ...); ``socket.socket`` itself refuses to connect;
* each expression gets ``limit_s`` seconds of CPU (``SIGALRM``), the process a memory cap, and the
  whole batch a wall-clock limit after which it is killed.

All of one answer's python checks share one interpreter (one start-up per cell). A check that
raises, times out or is refused fails with the reason (``ZeroDivisionError: ...``,
``timed out after 2 s``, ``import of 'socket' is not allowed``).

The import guard is a guard against accidents, not a security boundary (Python code can reach
around it); the network namespace is the boundary where it is available.
"""

from __future__ import annotations

import asyncio
import functools
import json
import shutil
import subprocess
import sys
import tempfile

__all__ = ["BLOCKED_MODULES", "run_python_checks"]

BLOCKED_MODULES = (
    "_socket",
    "socket",
    "ssl",
    "_ssl",
    "http",
    "urllib",
    "ftplib",
    "smtplib",
    "poplib",
    "imaplib",
    "telnetlib",
    "xmlrpc",
    "socketserver",
    "asyncio",
    "select",
    "selectors",
    "subprocess",
    "_posixsubprocess",
    "multiprocessing",
    "os",
    "posix",
    "pty",
    "ctypes",
    "_ctypes",
    "webbrowser",
    "shutil",
    "importlib",
)

# Runs in the child. Reads {"output", "checks", "limit_s"} on stdin, writes [[ok, reason], ...].
_CHILD = r"""
import builtins, json, resource, signal, sys
request = json.loads(sys.stdin.read())
blocked = set(request["blocked"])
allowed = set(sys.stdlib_module_names) - blocked
real_import = builtins.__import__
def guarded(name, globals=None, locals=None, fromlist=(), level=0):
    top = name.split(".")[0]
    if level or top not in allowed:
        raise ImportError(f"import of {name!r} is not allowed")
    return real_import(name, globals, locals, fromlist, level)
import math, re, json as _json, collections, itertools, statistics, string
builtins.__import__ = guarded
for name in list(sys.modules):
    if name.split(".")[0] in blocked:
        sys.modules[name] = None
for name in blocked:
    sys.modules[name] = None
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
class Timeout(Exception):
    pass
def alarm(signum, frame):
    raise Timeout()
signal.signal(signal.SIGALRM, alarm)
limit = float(request["limit_s"])
results = []
for expression in request["checks"]:
    scope = {"output": request["output"], "re": re, "json": _json, "math": math,
             "collections": collections, "itertools": itertools, "statistics": statistics,
             "string": string, "__builtins__": builtins}
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        ok, reason = bool(eval(expression, scope)), None
    except Timeout:
        ok, reason = False, f"timed out after {limit:g} s"
    except BaseException as exc:
        ok, reason = False, f"{type(exc).__name__}: {exc}"[:200]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    results.append([ok, None if ok else (reason or "false")])
sys.stdout.write(json.dumps(results))
"""


@functools.cache
def _no_network_prefix() -> tuple[str, ...]:
    """``("unshare", "-rn")`` when a child can be put in an empty network namespace here, else ()."""
    tool = shutil.which("unshare")
    if tool is None:
        return ()
    try:
        probe = subprocess.run([tool, "-rn", "true"], capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return ()
    return (tool, "-rn") if probe.returncode == 0 else ()


async def run_python_checks(
    output: str, expressions: list[str], *, limit_s: float = 2.0
) -> list[tuple[bool, str | None]]:
    """Evaluate each expression over ``output`` in the sandbox; ``(passed, reason)`` per expression."""
    if not expressions:
        return []
    request = {"output": output, "checks": expressions, "limit_s": limit_s, "blocked": BLOCKED_MODULES}
    with tempfile.TemporaryDirectory(prefix="summarizer-assert-") as cwd:
        proc = await asyncio.create_subprocess_exec(
            *_no_network_prefix(),
            sys.executable,
            "-I",
            "-S",
            "-c",
            _CHILD,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=cwd,
            env={},
        )
        budget = limit_s * len(expressions) + 10.0  # start-up on a loaded machine, then each check
        try:
            out, err = await asyncio.wait_for(proc.communicate(json.dumps(request).encode()), budget)
        except TimeoutError:
            proc.kill()
            await proc.wait()
            return [(False, f"the sandbox did not finish in {budget:g} s")] * len(expressions)
    try:
        answers = json.loads(out)
        return [(bool(ok), reason) for ok, reason in answers]
    except (ValueError, TypeError):
        why = (err.decode("utf-8", "replace").strip().splitlines() or ["no answer"])[-1][:200]
        return [(False, f"the sandbox failed: {why}")] * len(expressions)
