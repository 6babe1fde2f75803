"""The one "today" rule and ``--date`` validator that the gate and the session commands share."""

from __future__ import annotations

import datetime as dt

import pytest

from summarizer.core.dates import check_date, today
from summarizer.core.errors import InputError

# 23:30 on 31 Dec in New York is already 1 Jan in UTC: "today" is the user's own calendar day.
EVENING_WEST = dt.datetime(2026, 12, 31, 23, 30, tzinfo=dt.timezone(dt.timedelta(hours=-5)))


def test_today_is_the_local_calendar_day_not_utc() -> None:
    """An evening user west of Greenwich still files under today, not tomorrow."""
    assert today(lambda: EVENING_WEST) == "2026-12-31"


def test_no_date_means_today() -> None:
    """Without --date, the clock decides."""
    assert check_date(None, lambda: EVENING_WEST) == "2026-12-31"


def test_a_valid_date_is_normalised() -> None:
    """ISO dates pass (surrounding blanks ignored)."""
    assert check_date(" 2026-02-03 ") == "2026-02-03"


@pytest.mark.parametrize("bad", ["2026-13-01", "yesterday", "", "2026/01/02"])
def test_anything_else_is_a_one_line_input_error(bad: str) -> None:
    """A bad --date names the value and the expected form."""
    with pytest.raises(InputError, match="YYYY-MM-DD"):
        check_date(bad)
