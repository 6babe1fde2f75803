"""Progress on stderr for inputs over 50 MB: shown past the threshold, on one line."""

from __future__ import annotations

import io
from pathlib import Path

from summarizer.output import OriginalStore, OutputOptions, compress
from summarizer.output.progress import Progress


def test_progress_appears_only_past_the_threshold_and_ends_its_line() -> None:
    """Below the threshold nothing is written; past it one ``\\r`` line, closed by a newline."""
    stream = io.StringIO()
    ticks = iter(range(100))
    progress = Progress(stream, show_after=1000, clock=lambda: float(next(ticks)))
    progress(999)
    assert stream.getvalue() == ""
    progress(2_000_000)
    progress.close()
    assert stream.getvalue().startswith("\rsummarizer output: 2 MB read")
    assert stream.getvalue().endswith("\n")


def test_compress_reports_bytes_read_to_the_progress(tmp_path: Path) -> None:
    """compress calls the progress with the bytes read so far; the figures grow to the size."""
    data = b"".join(f"line {i} of a long build log\n".encode() for i in range(200_000))
    stream = io.StringIO()
    ticks = (float(t) for t in range(10_000))
    progress = Progress(stream, show_after=0, clock=lambda: next(ticks))
    compress(io.BytesIO(data), OriginalStore(tmp_path / "o"), OutputOptions(), progress=progress)
    assert f"{len(data) / 1e6:,.0f} MB read" in stream.getvalue()
