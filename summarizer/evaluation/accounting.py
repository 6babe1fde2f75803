"""Who paid for a cell: provider requests (retries included) and the provider's own time.

The litellm adapter reports every HTTP attempt to an observer (:data:`observe` is the one the eval
passes through :func:`summarizer.app.build_completer`). Cells run concurrently in one event loop, so
the attempt is attributed to the cell through a :class:`~contextvars.ContextVar`: each cell runs
inside :func:`metering`, and asyncio copies the context into every task the cell starts.

Why not count in a wrapper around the completer: the retries happen inside the adapter (the one
retry layer), so a wrapper sees one call where the provider saw four requests.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from summarizer.evaluation.cells import CellResult

__all__ = [
    "Meter",
    "Totals",
    "metering",
    "observe",
    "observe_http",
    "percentile",
    "priced",
    "short_reason",
    "totals",
]

_EXC_PREFIX = re.compile(r"^[A-Z]\w*(Error|Unavailable|Limited|Answer|Exception): ")


@dataclass
class Meter:
    """Requests sent and seconds spent waiting on the provider for one cell."""

    requests: int = 0
    failed: int = 0
    provider_s: float = 0.0  # as the adapter timed its attempts (includes litellm's client work)
    http_requests: int = 0
    http_s: float = 0.0  # request sent to last byte, timed in the HTTP layer (http_timing.py)

    @property
    def latency_s(self) -> float | None:
        """The provider's time: the HTTP layer's when it saw the requests, else the adapter's."""
        if self.http_requests:
            return self.http_s
        return self.provider_s if self.requests else None


_current: ContextVar[Meter | None] = ContextVar("summarizer_eval_meter", default=None)


def observe(seconds: float, ok: bool) -> None:
    """The adapter's attempt observer: add one request to the cell running now (if any)."""
    meter = _current.get()
    if meter is None:
        return
    meter.requests += 1
    meter.failed += 0 if ok else 1
    meter.provider_s += seconds


def observe_http(seconds: float) -> None:
    """One HTTP request's time, request sent to last byte, for the cell running now (if any)."""
    meter = _current.get()
    if meter is None:
        return
    meter.http_requests += 1
    meter.http_s += seconds


@contextmanager
def metering() -> Iterator[Meter]:
    """Attribute the attempts made inside the block to a fresh :class:`Meter`."""
    meter = Meter()
    token = _current.set(meter)
    try:
        yield meter
    finally:
        _current.reset(token)


@dataclass(frozen=True, slots=True)
class Totals:
    """What one contender cost on one dataset, in units (requests, ms, tokens, USD).

    Reused cells carry the figures of the run that computed them, so totals describe the
    contender, whatever this run happened to find in the store; ``requests_now`` is this run's.
    """

    dataset: str
    contender: str
    cells: int
    model_cells: int
    fallbacks: int
    errors: int
    requests: int
    failed_requests: int
    requests_now: int
    tokens_in: int
    tokens_out: int
    cost_usd: float | None
    latency_p50_ms: float
    latency_p95_ms: float
    client_p50_ms: float  # our own time per cell: queueing behind other cells and client work
    reason: str | None  # the most common fallback or error reason, shortened

    @property
    def never_answered(self) -> bool:
        """True when the model was meant to answer and never did (every such cell fell back)."""
        return self.model_cells > 0 and self.fallbacks + self.errors >= self.model_cells

    def outcome(self) -> str | None:
        """``v2: 50/50 cells fell back to the template (no API key: set OPENAI_API_KEY)``, or None."""
        failed = self.fallbacks + self.errors
        if not self.model_cells or not failed:
            return None
        what = "fell back to the template" if self.fallbacks else "failed"
        if self.fallbacks and self.errors:
            what = f"fell back to the template or failed ({self.errors} errors)"
        because = f" ({self.reason})" if self.reason else ""
        return f"{self.contender}: {failed}/{self.model_cells} cells {what}{because}"


def priced(result: CellResult, usd_per_1k: float) -> CellResult:
    """``result`` with a cost for tokens its model's price is unknown for (``--cost-per-1k``)."""
    out = result.output
    if out is None or out.cost_usd is not None or not out.provider_calls:
        return result
    cost = (out.prompt_tokens + out.completion_tokens) / 1000 * usd_per_1k
    return result.model_copy(
        update={
            "output": out.model_copy(update={"cost_usd": cost}),
            "metrics": {**result.metrics, "cost_usd": cost},
        }
    )


def short_reason(reason: str) -> str:
    """The part of a fallback reason a verdict quotes: no exception name, up to the first ``;``."""
    text = reason.split(": ", 1)[1] if _EXC_PREFIX.match(reason) else reason
    return text.split(";", 1)[0].strip()[:160]


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0-100) of ``values``; 0.0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def totals(results: Iterable[CellResult]) -> list[Totals]:
    """One :class:`Totals` per (dataset, contender), in the order the cells come."""
    groups: dict[tuple[str, str], list[CellResult]] = {}
    for r in results:
        groups.setdefault((r.dataset, r.contender), []).append(r)
    out = []
    for (dataset, contender), cells in groups.items():
        outputs = [c.output for c in cells if c.output is not None]
        model = [o for o in outputs if o.model_cell]
        failed = [c for c in cells if c.error is not None]
        reasons = Counter(short_reason(o.reason) for o in model if o.fallback and o.reason)
        reasons.update(short_reason(c.error) for c in failed if c.error)
        timed = [o.latency_s * 1000 for o in (model or outputs)]
        costs = [o.cost_usd for o in outputs if o.cost_usd is not None]
        out.append(
            Totals(
                dataset=dataset,
                contender=contender,
                cells=len(cells),
                model_cells=len(model) + len(failed),
                fallbacks=sum(1 for o in model if o.fallback),
                errors=len(failed),
                requests=sum(o.provider_calls for o in outputs),
                failed_requests=sum(o.failed_calls for o in outputs),
                requests_now=sum(c.output.provider_calls for c in cells if c.output and not c.reused),
                tokens_in=sum(o.prompt_tokens for o in outputs),
                tokens_out=sum(o.completion_tokens for o in outputs),
                cost_usd=sum(costs) if costs else None,
                latency_p50_ms=percentile(timed, 50),
                latency_p95_ms=percentile(timed, 95),
                client_p50_ms=percentile([o.client_s * 1000 for o in outputs], 50),
                reason=reasons.most_common(1)[0][0] if reasons else None,
            )
        )
    return out
