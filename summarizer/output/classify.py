"""What kind of output this is: BUILD_OUTPUT, TEST_TRACE, LOG_DUMP, CONTAINER_LOG or MIXED.

The decision uses line counts weighted over the distinct templates the engine already keeps, so it
costs nothing per line: the share of lines that are timestamped records, and the share carrying
each tool family's markers (see :data:`summarizer.output.formats.FAMILIES`).
"""

from __future__ import annotations

from summarizer.core.records import record

TYPE_CHECKING = False  # typing stays off the cold path (docs/cold-path.md)
if TYPE_CHECKING:
    from summarizer.output.models import Classification

__all__ = ["FamilyCounts", "decide"]


@record
class FamilyCounts:
    """Lines seen per family (a line may count for several)."""

    lines: int = 0
    records: int = 0
    build: int = 0
    test: int = 0
    container: int = 0
    tracebacks: int = 0


def decide(counts: FamilyCounts) -> Classification:
    """Pick the classification from the weighted counts."""
    total = max(counts.lines, 1)
    shares: dict[Classification, float] = {
        "BUILD_OUTPUT": counts.build / total,
        "TEST_TRACE": (counts.test + counts.tracebacks) / total,
        "CONTAINER_LOG": counts.container / total,
    }
    strong: list[Classification] = [name for name, share in shares.items() if share >= 0.05]
    if counts.records / total >= 0.6 and shares["CONTAINER_LOG"] < 0.2:
        return "LOG_DUMP" if len(strong) <= 1 else "MIXED"
    if len(strong) > 1:
        # Test runners print build steps and vice versa: the clearly dominant family wins.
        ranked = sorted(strong, key=lambda n: -shares[n])
        if shares[ranked[0]] >= 3 * shares[ranked[1]]:
            return ranked[0]
        return "MIXED"
    if strong:
        return strong[0]
    if counts.records / total >= 0.3:
        return "LOG_DUMP"
    return "MIXED"
