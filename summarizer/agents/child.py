"""The child process of ``summarizer run``: start it on one pipe, read its output, reap it.

Shared by the cold half (:mod:`summarizer.agents.run`) and the compressing half
(:mod:`summarizer.agents.run_compress`); the standard library only.
"""

from __future__ import annotations

import os
import select
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal
else:
    # The C module behind `signal`: the same functions and constants without importing enum
    # (the `signal` wrapper turns numbers into IntEnums; `run` starts before every agent command).
    import _signal as signal

__all__ = ["ChildOutput", "Forwarder", "cannot_start", "exit_status", "spawn", "write_all"]

_READ = 65536


def exit_status(wait_status: int) -> int:
    """The shell's convention: the exit code, or 128+N for a signal N.

    Agents read the status the way their shell reports it, so a wrapped command must end with the
    status the bare command would have had.
    """
    code = os.waitstatus_to_exitcode(wait_status)
    return code if code >= 0 else 128 - code


def cannot_start(command: str, exc: OSError) -> int:
    """Print the shell's usual message; 127 for not found, 126 for found but not executable.

    The agent then sees the error and status the bare command would have given it.
    """
    if isinstance(exc, FileNotFoundError):
        reason, code = ("No such file or directory" if "/" in command else "command not found"), 127
    elif isinstance(exc, IsADirectoryError) or os.path.isdir(command):
        reason, code = "Is a directory", 126
    else:
        reason, code = (exc.strerror or str(exc)), 126
    os.write(2, f"summarizer: {command}: {reason}\n".encode("utf-8", "replace"))
    return code


def spawn(argv: list[str], out_fd: int) -> int:
    """Start ``argv`` with stdout and stderr both on ``out_fd`` (stdin inherited); its pid.

    SIGPIPE and SIGXFSZ go back to their defaults: Python ignores them, and an ignored signal
    would stay ignored in the child (``yes | head`` would then never end).
    """
    actions = [(os.POSIX_SPAWN_DUP2, out_fd, 1), (os.POSIX_SPAWN_DUP2, out_fd, 2)]
    return os.posix_spawnp(
        argv[0], argv, os.environ, file_actions=actions, setsigdef=(signal.SIGPIPE, signal.SIGXFSZ)
    )


class ChildOutput:
    """The read end of the child's pipe: ``read(n)`` blocks until ``n`` bytes or the end.

    The end is EOF, or the child having exited while a background grandchild still holds the
    pipe open (``cmd &``): then whatever is buffered is drained and the stream ends, instead of
    waiting for the grandchild. :attr:`status` is the wait status once the child was reaped.
    """

    def __init__(self, fd: int, pid: int) -> None:
        self.fd = fd
        self.pid = pid
        self.status: int | None = None
        self._done = False

    def _reap(self, flags: int) -> bool:
        if self.status is None:
            pid, status = os.waitpid(self.pid, flags)
            if pid == 0:
                return False
            self.status = status
        return True

    def read_some(self, deadline: float | None = None) -> bytes | None:
        """The next bytes the child wrote (as few as are ready), or b"" at the end; ``None`` when
        ``deadline`` (a ``time.monotonic()`` value) passes first."""
        while not self._done:
            wait = 0.2 if self.status is None else 0
            if deadline is not None and self.status is None:
                wait = max(0.0, min(wait, deadline - time.monotonic()))
                if wait == 0:
                    return None
            ready, _, _ = select.select([self.fd], [], [], wait)
            if ready:
                data = os.read(self.fd, _READ)
                if data:
                    return data
                self._done = True
            elif self._reap(os.WNOHANG):
                # The child is gone but the pipe is still open: drain what is there and stop.
                os.set_blocking(self.fd, False)
                try:
                    data = os.read(self.fd, _READ)
                except BlockingIOError:
                    data = b""
                if data:
                    return data
                self._done = True
        return b""

    def read(self, size: int = -1) -> bytes:
        """Up to ``size`` bytes (all when negative), fewer only at the end."""
        parts: list[bytes] = []
        got = 0
        while size < 0 or got < size:
            data = self.read_some()
            assert data is not None  # no deadline
            if not data:
                break
            parts.append(data)
            got += len(data)
        return b"".join(parts)

    def wait(self) -> int:
        """Reap the child; its exit status (128+N for a signal)."""
        self._reap(0)
        assert self.status is not None
        return exit_status(self.status)


class Forwarder:
    """Signal handler: pass the signal to the child while it runs; exit once it is gone."""

    def __init__(self) -> None:
        self.child: ChildOutput | None = None

    def __call__(self, signum: int, frame: object) -> None:
        """Pass ``signum`` on while the child runs (it decides, as it would without us); after it
        ended, exit at once with 128+N, since the user interrupted the compression, not a command."""
        child = self.child
        if child is not None and child.status is None:
            try:
                os.kill(child.pid, signum)
            except ProcessLookupError:
                return  # it ended between our check and the kill
            return
        if child is not None:  # the command has ended and we are compressing: stop now
            os._exit(128 + signum)


def write_all(fd: int, data: bytes | memoryview) -> bool:
    """Write everything; False when the reader went away (the run still completes and stores)."""
    view = memoryview(data)
    try:
        while view:
            view = view[os.write(fd, view) :]
    except BrokenPipeError:
        return False
    return True
