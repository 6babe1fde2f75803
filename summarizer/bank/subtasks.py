"""Which row of the bank each entry of a batch is: the subtask part of the key (date, phase, agent, subtask).

An agent often finishes several subtasks in one phase (so the idempotency key includes the
subtask). A batch speaks for
every (date, phase, agent) it contains: it is that agent's full list of subtasks for the phase.
For each such group:

1. an entry with its own ``id``/``subtask`` is the row with that id;
2. an entry without one is the row of the same content hash, when there is one (so reordering
   a batch changes nothing);
3. the entries left pair with the rows left, in order: an edited summary replaces its own row,
   in place;
4. entries still left are new rows, numbered ``#n`` with the smallest number the agent does not
   use yet (the first run numbers an agent's entries #1, #2, ... in batch order);
5. rows still left are dropped: the batch no longer lists them. They leave the active context
   (and are archived in full), so a re-run that omits one entry removes exactly its row.

Rows of agents the batch does not mention are never touched (a second agent gating the same
phase adds to it). Pure: values in, values out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from summarizer.bank.entry import BankEntry
from summarizer.bank.prepare import Prepared

__all__ = ["assign"]

_POSITION = re.compile(r"^#(\d+)$")


def _free_numbers(used: Iterable[str]) -> Iterator[str]:
    taken = {int(m.group(1)) for s in used if (m := _POSITION.match(s))}
    number = 1
    while True:
        if number not in taken:
            yield f"#{number}"
        number += 1


def _assign_group(batch: list[Prepared], rows: list[BankEntry]) -> tuple[dict[int, str], list[BankEntry]]:
    subtasks: dict[int, str] = {}
    by_id = {r.subtask: r for r in rows if not _POSITION.match(r.subtask)}
    open_rows = [r for r in rows if _POSITION.match(r.subtask)]
    seen_ids: set[str] = set()
    waiting: list[Prepared] = []
    for p in batch:
        if p.explicit is not None:
            subtasks[p.index] = p.explicit
            seen_ids.add(p.explicit)
            continue
        same = next((r for r in open_rows if r.digest == p.digest), None)
        if same is not None:
            open_rows.remove(same)
            subtasks[p.index] = same.subtask
        else:
            waiting.append(p)
    for p, row in zip(waiting, list(open_rows), strict=False):
        subtasks[p.index] = row.subtask
        open_rows.remove(row)
    fresh = _free_numbers([r.subtask for r in rows])
    for p in waiting:
        if p.index not in subtasks:
            subtasks[p.index] = next(fresh)
    dropped = open_rows + [r for sid, r in by_id.items() if sid not in seen_ids]
    return subtasks, dropped


def assign(
    batch: Sequence[Prepared], mentioned: Iterable[tuple[str, str, str]], stored: Iterable[BankEntry]
) -> tuple[dict[int, str], list[BankEntry]]:
    """Subtask of each compressible entry (by entry number) and the stored rows the batch drops.

    ``mentioned`` lists every (date, phase, agent) of the batch, compressible or not: an agent
    whose only entry is now ``in_progress`` no longer has a completed row for that phase.
    """
    groups = dict.fromkeys(mentioned)
    rows_of: dict[tuple[str, str, str], list[BankEntry]] = {g: [] for g in groups}
    for row in stored:
        group = (row.date, row.phase, row.agent)
        if group in rows_of:
            rows_of[group].append(row)
    subtasks: dict[int, str] = {}
    dropped: list[BankEntry] = []
    for group in groups:
        assigned, gone = _assign_group([p for p in batch if p.group == group], rows_of[group])
        subtasks.update(assigned)
        dropped.extend(gone)
    return subtasks, dropped
