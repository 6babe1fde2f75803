"""The one "today" rule and the one ``--date`` validator every command shares.

"Today" is the user's local calendar date: a session document or a gate run dated by UTC would land on
tomorrow's page for an evening user west of Greenwich, and both the memory bank and engram's session
documents are read by people by their own calendar. Stored timestamps stay UTC (engram's rule); only
the *day* a run belongs to is local. The clock is a parameter so tests fix it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from summarizer.core.errors import InputError

__all__ = ["Clock", "check_date", "today"]

Clock = Callable[[], dt.datetime]


def _local_now() -> dt.datetime:
    return dt.datetime.now().astimezone()


def today(clock: Clock = _local_now) -> str:
    """The local calendar date as ``YYYY-MM-DD``."""
    return clock().date().isoformat()


def check_date(value: str | None, clock: Clock = _local_now) -> str:
    """``value`` as an ISO date, or today when ``None``; anything else is an :class:`InputError`."""
    if value is None:
        return today(clock)
    try:
        return dt.date.fromisoformat(value.strip()).isoformat()
    except ValueError as exc:
        raise InputError(f"--date {value!r} is not a date; use YYYY-MM-DD") from exc
