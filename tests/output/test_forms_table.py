"""Tables (``coverage report -m``): a header of column names over aligned rows with distinct keys
is data, never repetition to sample. Truth: ``fixtures/table_coverage.json`` (``coverage json``,
see ``fixtures/make_tables.py``)."""

from __future__ import annotations

import io
import json

from summarizer.output import OriginalStore, OutputOptions, compress
from summarizer.output.forms_table import is_table, table_form
from tests.output.conftest import FIXTURES, fixture_bytes

TRUTH: dict[str, dict[str, object]] = json.loads((FIXTURES / "table_coverage.json").read_text())


def _lines(missing: str) -> list[int]:
    out: list[int] = []
    for part in filter(None, (p.strip() for p in missing.split(","))):
        low, _, high = part.partition("-")
        out += range(int(low), int(high or low) + 1)
    return out


def _rows(text: str, sep: str) -> dict[str, tuple[str, list[int]]]:
    """file -> (cover, missing lines) read back from a report's or a form's rows."""
    rows: dict[str, tuple[str, list[int]]] = {}
    for line in text.splitlines():
        cells = [c for c in line.split(sep) if c.strip()] if sep else line.split(None, 6)
        if cells and cells[0].strip() in TRUTH:
            cover = next(c.strip() for c in cells if c.strip().endswith("%"))
            tail = line.split(cover, 1)[1]
            rows[cells[0].strip()] = (cover, _lines(tail))
    return rows


def _expected() -> dict[str, tuple[str, list[int]]]:
    return {name: (str(v["cover"]), list(v["missing"])) for name, v in TRUTH.items()}  # type: ignore[call-overload]


def test_a_coverage_report_is_a_table_with_every_row() -> None:
    form = table_form(fixture_bytes("table_coverage.txt").decode().splitlines())
    assert form is not None and not form.lossy
    assert _rows("\n".join(form.body), "  ") == _expected()


def test_past_the_budget_every_key_and_the_columns_that_vary_stay(store: OriginalStore) -> None:
    """Branch and BrPart are 0 on every row: said once; every file keeps its cover and missing lines."""
    data = fixture_bytes("table_coverage.txt")
    result = compress(io.BytesIO(data), store, OutputOptions(target_tokens=300))
    head = result.text.splitlines()[0]
    assert head.startswith("[summarizer · table · ") and "Branch 0, BrPart 0" in head
    assert result.first_error is None and "first error" not in result.text
    assert _rows(result.text, "  ") == _expected()
    assert result.compressed_tokens < result.original_tokens


def test_under_the_pass_through_size_a_table_is_never_sampled(store: OriginalStore) -> None:
    result = compress(io.BytesIO(fixture_bytes("table_coverage.txt")), store, OutputOptions())
    assert _rows(result.text, "") == _expected()
    assert result.compressed_tokens <= result.original_tokens


def test_rows_without_distinct_keys_or_a_header_are_no_table() -> None:
    lines = fixture_bytes("table_coverage.txt").decode().splitlines()
    assert is_table(lines)
    assert not is_table(lines[2:])  # no header of column names
    same_key = [lines[0]] + [f"pkg {line}" for line in lines[2:]]
    assert not is_table(same_key)
