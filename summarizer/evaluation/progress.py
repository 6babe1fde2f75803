"""Progress of an eval run that works on a terminal and in a CI log alike.

On a terminal: a bar that redraws in place. Anywhere else (a CI log, a file, a pipe): one plain
line every ``every`` cells or ``interval_s`` seconds, whichever comes first, plus a last one::

    eval: 120/400 cells (30%), 80 reused, 38 provider requests, 2 fallbacks, ETA 41 s

"reused" counts cells read back from the store and cells shared with another contender in this run
(a prompt's MEDIUM entry is the template's cell).

The ETA divides the provider cells still to compute by the rate at which provider cells finished
since the provider client was ready (litellm imported), and is given only once the first wave of
provider cells (as many as run at once) has finished: before that, ``ETA unknown``. Stored and
template cells take milliseconds, and the import takes seconds: counting either made a 21 s run say
35 minutes and a 47 s run say 7.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from summarizer.evaluation.cells import CellResult
from summarizer.evaluation.runner import Plan

__all__ = ["Progress", "eta_text"]


def eta_text(seconds: float | None) -> str:
    """``ETA 41 s`` / ``ETA 3 min`` / ``ETA unknown`` (before the first provider cell finishes)."""
    if seconds is None:
        return "ETA unknown"
    if seconds < 90:
        return f"ETA {seconds:.0f} s"
    return f"ETA {seconds / 60:.0f} min"


@dataclass
class Progress:
    """Counts finished cells and reports them through ``write`` (one line each time).

    Args:
        write: where text goes (stderr in the CLI), newlines included.
        tty: redraw one bar in place after every cell instead of writing lines.
        every: a line every this many cells...
        interval_s: ...or this many seconds, whichever comes first.
        clock: a monotonic clock (tests pass a fake).
    """

    write: Callable[[str], None]
    tty: bool = False
    every: int = 25
    interval_s: float = 10.0
    clock: Callable[[], float] = time.monotonic
    concurrency: int = 1
    plan: Plan = field(default_factory=lambda: Plan(0, 0, 0, 0))
    done: int = 0
    stored: int = 0
    requests: int = 0
    fallbacks: int = 0
    provider_done: int = 0
    _started: float = 0.0
    _ready: float | None = None
    _last_line: float = 0.0
    _last_count: int = 0

    def start(self, plan: Plan) -> None:
        """Remember the plan and say what the run will do."""
        self.plan = plan
        self._started = self._last_line = self.clock()
        if not self.tty:
            self.write(
                f"eval: {plan.total} cells, {plan.stored} from the store, {plan.compute} to compute "
                f"({plan.provider} call a model)\n"
            )

    def ready(self) -> None:
        """The provider client is set up: provider cells are timed from now on."""
        if self._ready is None:
            self._ready = self.clock()

    def cell(self, result: CellResult) -> None:
        """Count one finished cell; write a line when one is due."""
        self.done += 1
        out = result.output
        if result.reused:
            self.stored += 1
        elif out is not None:
            self.requests += out.provider_calls
            self.fallbacks += int(out.fallback)
            self.provider_done += int(out.model_cell)
        last = self.done == self.plan.total
        if self.tty:
            width = 30
            filled = width * self.done // max(1, self.plan.total)
            self.write(f"\r[{'#' * filled}{'.' * (width - filled)}] " + self.line() + ("\n" if last else ""))
            return
        now = self.clock()
        due = self.done - self._last_count >= self.every or now - self._last_line >= self.interval_s
        if due or last:
            self._last_line, self._last_count = now, self.done
            self.write(self.line() + "\n")

    def eta_s(self) -> float | None:
        """Seconds left, from the provider cells still to compute and their rate so far."""
        left = max(0, self.plan.provider - self.provider_done)
        if left == 0:
            return 0.0
        first_wave = min(max(1, self.concurrency), self.plan.provider)
        if self.provider_done < first_wave:
            return None
        elapsed = self.clock() - (self._started if self._ready is None else self._ready)
        if elapsed <= 0:
            return None
        return left * elapsed / self.provider_done

    def line(self) -> str:
        """The status line."""
        total = max(1, self.plan.total)
        return (
            f"eval: {self.done}/{self.plan.total} cells ({100 * self.done / total:.0f}%), "
            f"{self.stored} reused, {self.requests} provider requests, "
            f"{self.fallbacks} fallbacks, {eta_text(self.eta_s())}"
        )
