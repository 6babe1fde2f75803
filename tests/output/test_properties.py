"""Property: a line matching a coordinate rule always survives, wherever it sits in any output."""

from __future__ import annotations

import io
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from summarizer.output import OriginalStore, OutputOptions, compress

_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=9)
_NUM = st.integers(min_value=1, max_value=99999)

# Ordinary lines: timestamped INFO records and plain build chatter (no error words).
_ORDINARY = st.one_of(
    st.builds(
        lambda w, n: f"2024-03-01 10:00:{n % 60:02d},000 INFO [main] app.Service: {w} step {n} done",
        _WORD,
        _NUM,
    ),
    st.builds(lambda w, n: f"   Compiling {w} v0.{n % 9}.0", _WORD, _NUM),
    st.builds(lambda w, n: f"downloading {w} chunk {n} of 800", _WORD, _NUM),
)

# One generator per coordinate rule family.
_COORDINATE = st.one_of(
    st.builds(
        lambda w, n: f"2024-03-01 10:00:00,000 ERROR [main] app.{w.title()}: {w} failed with code {n}",
        _WORD,
        _NUM,
    ),
    st.builds(lambda w, n: f"2024-03-01 10:00:00,000 WARN [io] app.Disk: {w} is slow ({n} ms)", _WORD, _NUM),
    st.builds(lambda w, n: f"src/{w}.py:{n}: error: name '{w}' is not defined", _WORD, _NUM),
    st.builds(lambda w, n: f"src/{w}.ts({n},{n % 80}): error TS2304: Cannot find name '{w}'.", _WORD, _NUM),
    st.builds(lambda w, n: f"FAILED tests/test_{w}.py::test_{w}_{n} - AssertionError", _WORD, _NUM),
    st.builds(lambda w, n: f"not ok {n} - {w} handles empty input", _WORD, _NUM),
    st.builds(lambda w, n: f"{w}-1 exited with code {n % 256}", _WORD, _NUM),
    st.builds(lambda w, n: f"error[E0{n % 900 + 100}]: cannot find value `{w}` in this scope", _WORD, _NUM),
    st.builds(lambda w, n: f"thread 'main' panicked at src/{w}.rs:{n}:5:", _WORD, _NUM),
    st.builds(lambda w, n: f"03-17 16:13:46.764  {n}  {n} E {w.title()}Manager: {w} is null", _WORD, _NUM),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    before=st.lists(_ORDINARY, min_size=50, max_size=300),
    after=st.lists(_ORDINARY, min_size=0, max_size=300),
    coordinate=_COORDINATE,
    target=st.integers(min_value=1, max_value=3000),
)
def test_a_coordinate_line_always_survives(
    tmp_path: Path, before: list[str], after: list[str], coordinate: str, target: int
) -> None:
    """Whatever surrounds it and whatever the target, the coordinate line is rendered verbatim."""
    text = "\n".join([*before, coordinate, *after]) + "\n"
    store = OriginalStore(tmp_path / "originals")
    result = compress(io.BytesIO(text.encode()), store, OutputOptions(target_tokens=target, floor_tokens=0))
    assert coordinate in result.text
    if not result.passthrough:
        line_no = len(before) + 1
        assert f"{line_no}: {coordinate}" in result.text
