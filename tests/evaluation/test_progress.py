"""Progress in a log: plain lines every N cells or every interval, with an ETA from provider cells."""

from __future__ import annotations

from summarizer.evaluation.cells import CellOutput, CellResult
from summarizer.evaluation.progress import Progress
from summarizer.evaluation.runner import Plan


def _cell(*, reused: bool = False, model: bool = False, calls: int = 0, fallback: bool = False) -> CellResult:
    output = CellOutput(
        text="x",
        source="template" if fallback or not model else "llm",
        provider_calls=calls,
        fallback=fallback,
        model_cell=model,
    )
    return CellResult(
        contender="v", case_id="c", dataset="d", kind="phase_gate", key="k", output=output, reused=reused
    )


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_log_gets_a_line_every_n_cells_and_a_last_one() -> None:
    """Every 4 cells, plus the final line; never a carriage return in a log."""
    lines: list[str] = []
    progress = Progress(write=lines.append, every=4, interval_s=1e9, clock=Clock())
    progress.start(Plan(total=10, stored=0, compute=10, provider=0))
    for _ in range(10):
        progress.cell(_cell())
    assert len(lines) == 1 + 3  # the plan, after 4, after 8, the last
    assert lines[-1].startswith("eval: 10/10 cells (100%)") and all("\r" not in line for line in lines)


def test_a_log_gets_a_line_after_the_interval_even_between_counts() -> None:
    """A slow provider: one line per interval, not one per 25 cells."""
    lines: list[str] = []
    clock = Clock()
    progress = Progress(write=lines.append, every=1000, interval_s=10, clock=clock)
    progress.start(Plan(total=100, stored=0, compute=100, provider=100))
    progress.cell(_cell(model=True, calls=1))
    clock.now += 10.5
    progress.cell(_cell(model=True, calls=2, fallback=True))
    assert len(lines) == 2
    assert "2/100 cells (2%), 0 reused, 3 provider requests, 1 fallbacks" in lines[-1]


def test_the_eta_counts_only_the_provider_cells_left() -> None:
    """40 stored cells done in no time do not make 10 provider cells look fast or slow."""
    clock = Clock()
    progress = Progress(write=lambda _: None, clock=clock)
    progress.start(Plan(total=50, stored=40, compute=10, provider=10))
    for _ in range(40):
        progress.cell(_cell(reused=True))
    assert progress.eta_s() is None  # no provider cell finished yet: unknown, not zero
    clock.now += 2.0
    progress.cell(_cell(model=True, calls=1))
    progress.cell(_cell(model=True, calls=1))
    assert progress.eta_s() == 8.0  # 8 left at one per second
    assert "ETA 8 s" in progress.line()


def test_a_terminal_gets_one_bar_redrawn_in_place() -> None:
    """On a TTY: carriage returns, a bar, a newline at the end."""
    out: list[str] = []
    progress = Progress(write=out.append, tty=True, clock=Clock())
    progress.start(Plan(total=2, stored=0, compute=2, provider=0))
    progress.cell(_cell())
    progress.cell(_cell())
    assert out[0].startswith("\r[") and out[-1].endswith("\n") and "2/2 cells" in out[-1]
