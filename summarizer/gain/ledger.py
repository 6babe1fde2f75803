"""The run ledger: one JSON line per output that ``run`` or ``output`` handled, for ``summarizer gain``.

The originals store keeps the bytes of what was compressed, named by hash, and nothing else: not
the command, the project, the day or what the agent was shown. Each call therefore appends one
small record to ``<cache_dir>/ledger/runs-YYYY-MM.jsonl`` (a file per month, so old months can be
deleted by hand and a reader skips what ``--since`` excludes):

=========  ======================================================================================
field      meaning
=========  ======================================================================================
``v``      record version (1)
``ts``     UTC time the output ended, ``YYYY-MM-DDTHH:MM:SSZ``
``tool``   ``run`` or ``output``
``cwd``    the working directory; ``project`` the nearest directory above it holding ``.git``
``cmd``    the command line (``run``; cut to 2,000 characters), or ``null`` (``output`` reads a pipe)
``bytes``  size of the output the command printed (what reached us)
``in``     its tokens (real tokenizer), ``null`` when the output passed through on the fast path,
           where counting would cost more than the command (``gain`` then estimates from ``bytes``)
``out``    tokens the agent was shown (``in`` when passed through)
``pass``   whether the output passed through unchanged
``raw``    passed through because ``--raw`` / ``SUMMARIZER_RAW=1`` asked for it
``rid``    the restore id of the stored original, when one was stored
``piped``  the display trimmer the output went into (``run --piped-into 'tail -20'``), or ``null``
=========  ======================================================================================

Honesty: ``in`` is what the agent would have seen without us. When the agent's own line ended in
``| head``, ``| tail`` or ``| grep`` and the whole line ran inside ``summarizer run``, the pipe had
already cut the output before it reached us; when only the command ran inside (``summarizer run
--piped-into 'tail -20' -- pytest | tail -20``), ``in`` and ``out`` are both counted after the
trimmer (:mod:`summarizer.gain.trim`). Either way only the part we cut counts as saved.

Writing never fails the command: an unwritable ledger is skipped silently (the output matters, the
figure does not). Lines are written with one ``O_APPEND`` write each, so concurrent runs do not
interleave. Writing does not import :mod:`json` (whose decoder pulls in :mod:`re`): ``run`` writes a
record on its fast path, through :mod:`summarizer.core.fastjson`.
"""

from __future__ import annotations

import os
import time

from summarizer.core.fastjson import dumps

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from summarizer.output.models import OutputResult

__all__ = [
    "LEDGER_DIR",
    "MAX_COMMAND_CHARS",
    "append",
    "append_raw",
    "append_result",
    "encode",
    "ledger_files",
    "project_root",
    "read",
]

LEDGER_DIR = "ledger"
MAX_COMMAND_CHARS = 2000
_VERSION = 1


def encode(record: Mapping[str, object]) -> bytes:
    """One ledger line (JSON, ASCII, newline-terminated) for a flat record of str/int/bool/None."""
    return (dumps(dict(record), compact=True) + "\n").encode("ascii")


def project_root(cwd: str) -> str:
    """The nearest directory at or above ``cwd`` that holds ``.git``, else ``cwd`` itself."""
    here = cwd
    while True:
        if os.path.exists(os.path.join(here, ".git")):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return cwd
        here = parent


def append(
    directory: str,
    *,
    tool: str,
    command: str | None,
    size: int,
    tokens_in: int | None,
    tokens_out: int | None,
    passthrough: bool,
    raw: bool = False,
    restore_id: str | None = None,
    piped: str | None = None,
    cwd: str | None = None,
    now: float | None = None,
) -> None:
    """Append one record; any failure to write is ignored (a figure is never worth a failed run)."""
    when = time.gmtime(time.time() if now is None else now)
    try:
        here = cwd if cwd is not None else os.getcwd()
    except OSError:
        here = ""
    record = {
        "v": _VERSION,
        "ts": time.strftime("%Y-%m-%dT%H:%M:%SZ", when),
        "tool": tool,
        "cwd": here,
        "project": project_root(here) if here else "",
        "cmd": command[:MAX_COMMAND_CHARS] if command is not None else None,
        "bytes": size,
        "in": tokens_in,
        "out": tokens_out,
        "pass": passthrough,
        "raw": raw,
        "rid": restore_id,
        "piped": piped,
    }
    name = os.path.join(directory, time.strftime("runs-%Y-%m.jsonl", when))
    try:
        os.makedirs(directory, exist_ok=True)
        fd = os.open(name, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    except OSError:
        return
    try:
        os.write(fd, encode(record))
    except OSError:
        pass
    finally:
        os.close(fd)


def ledger_files(directory: str, since_month: str | None = None) -> list[str]:
    """The monthly files, oldest first; ``since_month`` (``YYYY-MM``) skips older months."""
    try:
        names = sorted(n for n in os.listdir(directory) if n.startswith("runs-") and n.endswith(".jsonl"))
    except OSError:
        return []
    if since_month is not None:
        names = [n for n in names if n[5:12] >= since_month]
    return [os.path.join(directory, n) for n in names]


def read(directory: str, since_month: str | None = None) -> Iterator[tuple[str, int, dict[str, object]]]:
    """Every record as ``(file, line number, record)``; lines that are not a JSON object (a torn
    last line after a crash, a hand edit) are skipped: the ledger is a figure, not a source of truth."""
    import json

    for path in ledger_files(directory, since_month):
        try:
            handle = open(path, encoding="utf-8", errors="replace")  # noqa: SIM115 - closed below
        except OSError:
            continue
        with handle:
            for number, line in enumerate(handle, 1):
                try:
                    value = json.loads(line)
                except ValueError:
                    continue
                if isinstance(value, dict):
                    yield path, number, value


def append_result(directory: str, result: OutputResult, *, tool: str, command: str | None = None) -> None:
    """The record of one compression result (``summarizer output``, the MCP tool)."""
    shown = result.original_tokens if result.passthrough else result.compressed_tokens
    append(
        directory,
        tool=tool,
        command=command,
        size=result.bytes,
        tokens_in=result.original_tokens,
        tokens_out=shown,
        passthrough=result.passthrough,
        restore_id=result.restore_id,
    )


def append_raw(directory: str, size: int, *, tool: str, command: str | None = None) -> None:
    """The record of an input passed through untouched in raw mode (``SUMMARIZER_RAW``)."""
    append(
        directory,
        tool=tool,
        command=command,
        size=size,
        tokens_in=None,
        tokens_out=None,
        passthrough=True,
        raw=True,
    )
