"""``summarizer run``: run a command the way an agent's shell would, and hand back what it printed.

The unit an agent calls (docs/agents.md): one merged stream, the command's own exit
status, the original kept for ``restore``, small outputs streamed as they come.

* **One stream, in write order.** The child's stdout and stderr are the *same* pipe, so the
  kernel orders the bytes as the child wrote them. A pty would also merge them, but it makes the
  child think it talks to a terminal (colours, progress bars, pagers) and is not what an agent's
  shell gives it.
* **Exit status.** The child's, or 128+N when a signal N ended it; a command that cannot start
  gets the shell's message and 127 (not found) or 126 (not executable). A shell string
  (``summarizer run "make && make test"``) runs through ``$SHELL -c``.
* **Signals.** SIGINT, SIGTERM, SIGHUP and SIGQUIT are forwarded to the child, which stays in our
  process group (an agent that kills the group, or a terminal's Ctrl-C, reaches it directly too;
  standard signals do not queue, so a doubled delivery collapses into one). The child's output up
  to that point is still compressed and stored.
* **Interactive.** With a terminal on stdin the command is executed in place of this process,
  untouched: nothing to compress, and the terminal stays the child's.
* **Fast start.** This module is the standard library only. The output is read into memory up to
  the pass-through bound (the floor, 500 tokens by default, or ``--target``): a token is at least
  one byte of valid UTF-8, so an output that fits in that many bytes passes through without the
  tokenizer, pydantic or the compression engine ever being imported; one whose first lines look
  like a git status, a listing or search hits (a bytes test) gets its compact form from
  :mod:`summarizer.agents.run_form`, still without the engine. Larger outputs go to
  :mod:`summarizer.agents.run_compress`, where the output's shape decides (docs/tool-output.md).
  A command still running after :data:`STREAM_DELAY` seconds has the first :data:`STREAM_BYTES`
  written as they arrive.

A large output whose head was already streamed is followed by a marker line and the compressed
rendering of the whole output (every coordinate in one place, at the cost of at most
:data:`STREAM_BYTES` printed twice).
"""

from __future__ import annotations

import os
import sys
import time

from summarizer.agents.child import ChildOutput, Forwarder, cannot_start, spawn, write_all
from summarizer.rules.raw import raw_requested

TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal
else:
    import _signal as signal  # without enum: see summarizer.agents.child

__all__ = [
    "COLD_MAX_BYTES",
    "DEFAULT_THRESHOLD",
    "STREAM_BYTES",
    "USAGE",
    "RunCall",
    "main",
    "parse",
    "passthrough_bound",
]

# The compressor's default pass-through threshold in tokens (summarizer.output.models, which
# imports pydantic: tests/agents/test_run.py checks the two agree).
DEFAULT_THRESHOLD = 10_000
DEFAULT_FLOOR = 500
# A command still running after STREAM_DELAY seconds gets the head of its output printed as it
# comes, up to STREAM_BYTES. Past the bound it is printed again inside the compressed rendering:
# 512 bytes (about 150 tokens) keep that repeat small; fast commands repeat nothing.
STREAM_BYTES = 512
STREAM_DELAY = 1.0
# The cold path holds at most this much in memory; past it (a huge --floor or --target) the
# compressor decides, streaming, with bounded memory.
COLD_MAX_BYTES = 1 << 20
_FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)

USAGE = """\
Usage: summarizer run [OPTIONS] -- CMD [ARGS...]
       summarizer run [OPTIONS] "shell string"

  Run CMD with stdout and stderr merged in write order and print its output: unchanged when
  small (streamed as it comes), compressed when large, with every error coordinate kept and the
  full original stored for `summarizer restore`. Exits with CMD's own status (128+N for a
  signal; 127/126 when it cannot start). A shell string runs through $SHELL -c.

Options:
  --target N   Token budget; outputs of at most N tokens pass through (default: a test run,
               report, listing or one-shape log above the floor is compressed; other
               output above 10,000 tokens gets 3,000).
  --floor N    Outputs with at most N tokens pass through (default: 500), but for the
               compact forms of git, listing and search output that save a quarter.
  --raw        Pass the output through untouched: no compression, no rules, nothing stored
               (SUMMARIZER_RAW=1 in the environment does the same for a whole session).
  --content    The output is content to read (a file the agent opened): never compressed as a
               log; a source file past about 3,000 tokens is shown as an outline, anything
               else passes through unchanged.
  --piped-into CMD  The display trimmer the output goes into (`tail -20`, `head -n 50`):
               `summarizer gain` then credits only what was cut from what it keeps; for `tail`,
               a compressed run ends with its verdict (exit code, first error, failing ids).
  -h, --help   Show this message and exit.
"""


class RunCall:
    """A parsed ``summarizer run`` command line (``raw``: pass the output through untouched)."""

    __slots__ = ("argv", "content", "floor", "piped", "raw", "target", "text")

    def __init__(
        self,
        argv: list[str],
        target: int | None = None,
        floor: int = DEFAULT_FLOOR,
        raw: bool = False,
        text: str | None = None,
        piped: str | None = None,
        content: bool = False,
    ) -> None:
        self.argv = argv
        self.content = content
        self.target = target
        self.floor = floor
        self.raw = raw
        self.piped = piped
        # The command as the agent wrote it (the shell string, or the words joined): the ledger's label.
        self.text = text if text is not None else " ".join(_shown(word) for word in argv)


def _shown(word: str) -> str:
    """A word as a shell would need it written (for display only: the argv is what runs)."""
    if word and all(c.isalnum() or c in "-_./=:,+%@" for c in word):
        return word
    return "'" + word.replace("'", "'\"'\"'") + "'"


def parse(args: list[str], env: dict[str, str] | os._Environ[str]) -> RunCall | str:
    """The call, or ``"help"``, or a one-line usage error (a string starting with ``error:``)."""
    target: int | None = None
    floor = DEFAULT_FLOOR
    raw = raw_requested(env)
    piped: str | None = None
    content = False
    rest = list(args)
    while rest and rest[0].startswith("-") and rest[0] != "--":
        option = rest.pop(0)
        if option in ("-h", "--help"):
            return "help"
        if option == "--raw":
            raw = True
            continue
        if option == "--content":
            content = True
            continue
        name, has_value, value = option.partition("=")
        if name == "--piped-into":
            if not has_value and not rest:
                return "error: option --piped-into requires a command; see `summarizer run --help`"
            piped = value if has_value else rest.pop(0)
            continue
        if name not in ("--target", "--floor"):
            return f"error: no such option: {option}; see `summarizer run --help`"
        if not has_value:
            if not rest:
                return f"error: option {name} requires a number; see `summarizer run --help`"
            value = rest.pop(0)
        if not value.isdigit() or (name == "--target" and int(value) < 1):
            kind = "positive whole number" if name == "--target" else "whole number"
            return f"error: {name} needs a {kind}, not {value!r}"
        if name == "--target":
            target = int(value)
        else:
            floor = int(value)
    text = None
    if rest and rest[0] == "--":
        argv = rest[1:]
    elif len(rest) == 1:
        argv = [env.get("SHELL") or "/bin/sh", "-c", rest[0]]
        text = rest[0]
    else:
        argv = rest
    if not argv or not argv[0]:
        return "error: no command given; use `summarizer run -- CMD [ARGS...]`"
    return RunCall(argv, target, floor, raw, text, piped, content)


def passthrough_bound(call: RunCall) -> int:
    """Outputs of at most this many bytes (valid UTF-8) surely pass through: tokens <= bytes.

    Without ``--target`` the bound is the floor: above it the compressor reads the output's shape
    (a test run, a listing, a report is compressed at any size; content to read passes through).
    Capped at :data:`COLD_MAX_BYTES`: above it the compressor decides."""
    return min(max(call.floor, call.target if call.target is not None else 0), COLD_MAX_BYTES)


def _exec_untouched(argv: list[str]) -> int:
    try:
        os.execvp(argv[0], argv)
    except OSError as exc:
        return cannot_start(argv[0], exc)
    raise AssertionError("unreachable: exec does not return")


def main(args: list[str]) -> int:
    """Run ``summarizer run ARGS``; the exit status."""
    call = parse(args, os.environ)
    if call == "help":
        sys.stdout.write(USAGE)
        return 0
    if isinstance(call, str):
        os.write(2, f"summarizer run: {call.removeprefix('error: ')}\n".encode("utf-8", "replace"))
        return 2
    if os.isatty(0):
        return _exec_untouched(call.argv)
    forwarder = Forwarder()
    for signum in _FORWARDED:
        signal.signal(signum, forwarder)
    read_fd, write_fd = os.pipe()
    try:
        pid = spawn(call.argv, write_fd)
    except OSError as exc:
        return cannot_start(call.argv[0], exc)
    finally:
        os.close(write_fd)
    child = ChildOutput(read_fd, pid)
    forwarder.child = child
    if call.raw:
        return _relay_raw(call, child)
    return _relay(call, child)


def _record(call: RunCall, size: int, *, raw: bool = False, data: bytes | None = None) -> None:
    """The ledger line of an output that passed through here (tokens not counted: see ledger);
    with ``--piped-into``, the size is what the trimmer keeps of ``data``."""
    from summarizer.agents.paths import cache_dir
    from summarizer.gain.ledger import LEDGER_DIR, append

    if call.piped is not None and data is not None:
        from summarizer.gain.trim import parse_trimmer

        trimmer = parse_trimmer(call.piped)
        size = len(trimmer.apply(data)) if trimmer is not None else size
    directory = os.path.join(cache_dir(os.environ), LEDGER_DIR)
    append(
        directory,
        tool="run",
        command=call.text,
        size=size,
        tokens_in=None,
        tokens_out=None,
        passthrough=True,
        raw=raw,
        piped=call.piped,
    )


def _relay_raw(call: RunCall, child: ChildOutput) -> int:
    """``--raw``: every byte as it comes, nothing held, compressed or stored."""
    size = 0
    stdout_open = True
    while data := child.read_some():
        size += len(data)
        if stdout_open:
            stdout_open = write_all(1, data)
    status = child.wait()
    _record(call, size, raw=True)
    return status


def _relay(call: RunCall, child: ChildOutput) -> int:
    """Hold the output up to the pass-through bound, decide, print.

    Nothing is printed before the decision unless the command is still running after
    :data:`STREAM_DELAY` seconds: then the head held so far (at most :data:`STREAM_BYTES`) is
    printed, so a slow command shows it is alive, and the rest is held as before.
    """
    bound = passthrough_bound(call)
    held: list[bytes] = []
    size = 0
    streamed = 0
    stdout_open = True
    deadline: float | None = time.monotonic() + STREAM_DELAY
    while size <= bound:
        data = child.read_some(deadline)
        if data is None:
            deadline = None
            streamed, stdout_open = _stream_head(held, streamed, stdout_open)
            continue
        if not data:
            break
        held.append(data)
        size += len(data)
        if deadline is None:
            streamed, stdout_open = _stream_head(held, streamed, stdout_open)
    head = b"".join(held)
    if size <= bound and _is_utf8(head):
        if stdout_open and not streamed and not call.content and call.piped is None and _may_have_form(head):
            # A small git status, listing or search: its compact form, or the original as below.
            status = child.wait()
            from summarizer.agents.run_form import print_small_form

            if print_small_form(head, status, call.text, call.piped):
                return status
            write_all(1, head)
            _record(call, size, data=head)
            return status
        if stdout_open and size > streamed:
            write_all(1, memoryview(head)[streamed:])
        status = child.wait()
        _record(call, size, data=head)
        return status
    from summarizer.agents.run_compress import compress_run

    return compress_run(
        call.target,
        call.floor,
        child,
        head,
        streamed if stdout_open else None,
        call.text,
        call.piped,
        content=call.content,
    )


def _may_have_form(head: bytes) -> bool:
    """A small listing, git or search output goes to the compressor for its compact form."""
    from summarizer.output.forms_sniff import may_have_form

    return may_have_form(head)


def _stream_head(held: list[bytes], streamed: int, stdout_open: bool) -> tuple[int, bool]:
    """Print what is held past ``streamed``, up to :data:`STREAM_BYTES` in all."""
    if not stdout_open or streamed >= STREAM_BYTES:
        return streamed, stdout_open
    piece = b"".join(held)[streamed:STREAM_BYTES]
    if piece:
        stdout_open = write_all(1, piece)
        streamed += len(piece)
    return streamed, stdout_open


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
