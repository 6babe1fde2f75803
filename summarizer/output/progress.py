"""Progress on stderr for big inputs: a reader of a 200 MB log should see that work is going on.

Shown only when stderr is a terminal (never in pipes, logs or tests) and only once the input
passes :data:`SHOW_AFTER` bytes; updated at most every half second, on one line (``\\r``).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

TYPE_CHECKING = False  # typing stays off the cold path (docs/cold-path.md)
if TYPE_CHECKING:
    from typing import TextIO

__all__ = ["SHOW_AFTER", "Progress", "terminal_progress"]

SHOW_AFTER = 50_000_000
_EVERY_S = 0.5


class Progress:
    """Called with the bytes read so far; writes ``N MB read (R MB/s)`` to ``stream``."""

    def __init__(
        self, stream: TextIO, *, show_after: int = SHOW_AFTER, clock: Callable[[], float] = time.monotonic
    ):
        self.stream = stream
        self.show_after = show_after
        self.clock = clock
        self.started = clock()
        self.last = 0.0
        self.shown = False

    def __call__(self, done: int) -> None:
        """Report ``done`` bytes read, if past the threshold and not reported too recently."""
        if done < self.show_after:
            return
        now = self.clock()
        if self.shown and now - self.last < _EVERY_S:
            return
        rate = done / 1e6 / max(now - self.started, 1e-9)
        self.stream.write(f"\rsummarizer output: {done / 1e6:,.0f} MB read ({rate:,.1f} MB/s)")
        self.stream.flush()
        self.last, self.shown = now, True

    def close(self) -> None:
        """End the progress line, if one was written."""
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


def terminal_progress() -> Progress | None:
    """A :class:`Progress` on stderr when stderr is a terminal, else ``None``."""
    stream = sys.stderr
    return Progress(stream) if stream is not None and stream.isatty() else None
