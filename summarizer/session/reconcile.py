"""A later compression reconciles with the stored document instead of appending to it.

:func:`merge` takes the stored document and this run's document and returns one that is true now:

* **Near-duplicates merge.** Two items of one section are the same item when their comparison forms
  (session tag dropped; case, punctuation, backticks and spacing ignored; a leading label such as
  ``Completed:`` must be equal) are equal, or similar: ``difflib`` ratio >= :data:`SIMILAR` (0.85),
  or the content words of the shorter one (4 or more) are at least :data:`CONTAINED` (90%) inside
  the longer one ("X? That is still open." and "X?"). Items that name different specifics (tokens
  with a digit, ``_``, ``.`` or ``/``: ``t1`` and ``t2``, two paths) are never twins. The merged
  item keeps the stored position, the longer wording and the union of the session tags. Nothing
  else is reordered, so merging the same run twice is a no-op.
* **Answered questions leave Open Questions**: a stored question is answered when an item of this
  run outside Open Questions (a decision, discovery, progress item, instruction...) carries at least
  :data:`ANSWERED` (60%, and 2 or more) of its content words; that item is where the answer went.
* **Finished work leaves In progress and Next Steps**: ``Completed: X`` retires ``In progress: X``
  and a next step similar to X.
* **One line per file**: the same path is one line; the edit counts of different sessions add up
  (kept per session in the tag), a re-run of the same session replaces its own count, an untagged
  line (a transcript without a session id) counts as the larger of the two tallies, and "created"
  sticks.
* **Status is current**: this run's line for a command replaces the stored line for that command.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from summarizer.session.conversation import Said, changes, current
from summarizer.session.document import SECTIONS, SessionDocument, item_key, split_tag, tag
from summarizer.session.extract import UNANSWERED

__all__ = ["ANSWERED", "CONTAINED", "SIMILAR", "merge", "similar"]

SIMILAR = 0.85
CONTAINED = 0.9
ANSWERED = 0.6
_LABEL = re.compile(r"^(completed|in progress|blocked|next|working on|answered)\s+", re.IGNORECASE)
_WORD = re.compile(r"[a-z0-9_./-]{3,}")
_STOP = frozenset(
    (  # noqa: SIM905 - a word list reads better as one string
        "the and for that this with from have what which there their about should would could will "
        "into then than them they your just also been were does when where while still open "
        "question unclear sure whether"
    ).split()
)
_FILE = re.compile(
    r"^`(?P<path>[^`]+)` — (?P<verb>created|edited|deleted|renamed)(?: \((?P<n>\d+) edits\))?(?P<rest>.*)$"
)
_CHANGED = re.compile(r"\((?:superseded|relaxes): (?P<old>.*)\)$")
_TOKEN = re.compile(r"[\w./-]+")
_STATUS = re.compile(r"^`(?P<cmd>[^`]+)`")


def _label(key: str) -> tuple[str, str]:
    found = _LABEL.match(key)
    return (found.group(1).lower(), key[found.end() :]) if found else ("", key)


def _words(text: str) -> set[str]:
    return {w.strip("./-") for w in _WORD.findall(text.lower()) if w not in _STOP}


def similar(a: str, b: str) -> bool:
    """Whether two items are near-duplicates (see the module docstring for the thresholds)."""
    (label_a, ka), (label_b, kb) = _label(item_key(a)), _label(item_key(b))
    if label_a != label_b:
        return False
    if ka == kb:
        return True
    fa, fb = _facts(a), _facts(b)
    if fa == fb and SequenceMatcher(None, ka, kb, autojunk=False).ratio() >= SIMILAR:
        return True
    wa, wb = _words(ka), _words(kb)
    (short, short_facts), (long_, long_facts) = sorted(((wa, fa), (wb, fb)), key=lambda p: len(p[0]))
    return len(short) >= 4 and short_facts <= long_facts and len(short & long_) >= CONTAINED * len(short)


def _facts(item: str) -> set[str]:
    """Tokens that make an item specific (numbers, paths, identifiers): twins must agree on them."""
    return {t for t in _TOKEN.findall(split_tag(item)[0].lower()) if any(c in t for c in "0123456789_./")}


def merge(old: SessionDocument, new: SessionDocument) -> SessionDocument:
    """``old`` reconciled with ``new`` (see the module docstring)."""
    items: dict[str, tuple[str, ...]] = {}
    for key, _ in SECTIONS:
        if key == "files":
            items[key] = _merge_files(old.section(key), new.section(key))
        elif key == "status":
            items[key] = _merge_status(old.section(key), new.section(key))
        else:
            items[key] = _union(old.section(key), new.section(key))
    for key in ("instructions", "decisions"):
        items[key] = _retire(items[key], new.section(key))
    # The user's last message of a session is answered, or asked anew, by that session's next run.
    rerun = {s for v in new.items.values() for i in v for s in split_tag(i)[1]}
    items["questions"] = tuple(
        q
        for q in items["questions"]
        if q in new.section("questions") or not (q.startswith(UNANSWERED) and set(split_tag(q)[1]) & rerun)
    )
    answers = [i for k, v in new.items.items() if k != "questions" for i in v]
    items["questions"] = tuple(
        q for q in items["questions"] if q in new.section("questions") or not _answered(q, answers)
    )
    done = [_label(item_key(p))[1] for p in items["progress"] if _label(item_key(p))[0] == "completed"]
    items["progress"] = tuple(p for p in items["progress"] if not _finished(p, "in progress", done))
    items["next_steps"] = tuple(n for n in items["next_steps"] if not _finished(n, None, done))
    extra = dict(old.extra)
    for title, values in new.extra:
        extra[title] = _union(extra.get(title, ()), values)
    return SessionDocument(new.date or old.date, {k: v for k, v in items.items() if v}, tuple(extra.items()))


def _retire(items: tuple[str, ...], fresh: tuple[str, ...]) -> tuple[str, ...]:
    """Stored items that this run changed (superseded, relaxed) leave the section.

    An item this run names in its ``(superseded: …)`` note goes, and so does one that a change of
    this run ("actually", "instead"...) is about (:mod:`.conversation`), such as a decision from an
    earlier compression that the user has since overruled.
    """
    gone = [found.group("old").rstrip("…") for i in fresh if (found := _CHANGED.search(split_tag(i)[0]))]
    stored = [i for i in items if not any(i == f or similar(i, f) for f in fresh)]
    later = [Said(split_tag(f)[0], 1) for f in fresh if changes(split_tag(f)[0])]
    standing = set(current([Said(i, 0) for i in stored], later=later))
    return tuple(
        i
        for i in items
        if i not in stored
        or (i in standing and not any(item_key(i).startswith(item_key(g)) or similar(i, g) for g in gone))
    )


def _union(first: tuple[str, ...], second: tuple[str, ...]) -> tuple[str, ...]:
    out: list[str] = []
    for item in (*first, *second):
        if not item_key(item):
            continue
        twin = next((i for i, kept in enumerate(out) if similar(kept, item)), None)
        if twin is None:
            out.append(item)
            continue
        (text_a, tags_a), (text_b, tags_b) = split_tag(out[twin]), split_tag(item)
        longer = text_b if len(text_b) > len(text_a) else text_a
        out[twin] = tag(longer, {**tags_a, **tags_b})
    return tuple(out)


def _answered(question: str, answers: list[str]) -> bool:
    words = _words(_label(item_key(question))[1])
    if len(words) < 2:
        return False
    return any(len(words & _words(item_key(a))) >= max(2, ANSWERED * len(words)) for a in answers)


def _finished(item: str, label: str | None, done: list[str]) -> bool:
    item_label, text = _label(item_key(item))
    if label is not None and item_label != label:
        return False
    return any(text == d or similar(text, d) for d in done)


def _merge_files(old: tuple[str, ...], new: tuple[str, ...]) -> tuple[str, ...]:
    order: list[str] = []
    lines: dict[str, tuple[str, str, dict[str, int | None], str]] = {}  # path -> verb, rest, counts, raw
    for item in (*old, *new):
        text, sessions = split_tag(item)
        found = _FILE.match(text)
        if found is None:
            order.append(item)
            lines[item] = ("", "", {}, item)
            continue
        path, verb, rest = found.group("path"), found.group("verb"), found.group("rest")
        count = int(found.group("n") or 1)
        counts: dict[str, int | None] = {s: (n if n is not None else count) for s, n in sessions.items()} or {
            "": count
        }
        if path not in lines:
            order.append(path)
            lines[path] = (verb, rest, counts, "")
            continue
        old_verb, old_rest, old_counts, _ = lines[path]
        if "" in counts or "" in old_counts:  # a side of unknown session: the larger tally stands
            bigger = sum(n or 1 for n in counts.values()) > sum(n or 1 for n in old_counts.values())
            merged = counts if bigger else old_counts
        else:
            merged = {**old_counts, **counts}  # a session's newer run supersedes its own count
        lines[path] = (
            _verb(old_verb, verb),
            rest if verb in {"deleted", "renamed"} else old_rest or rest,
            merged,
            "",
        )
    out = []
    for key in order:
        verb, rest, counts, raw = lines[key]
        if raw:
            out.append(raw)
            continue
        total = sum(n or 1 for n in counts.values())
        edits = f" ({total} edits)" if total > 1 else ""
        named = {s: n for s, n in counts.items() if s}
        shown: dict[str, int | None] = named if len(named) > 1 else {s: None for s in named}
        out.append(tag(f"`{key}` — {verb}{edits}{rest}", shown))
    return tuple(out)


def _verb(old: str, new: str) -> str:
    """A file's state after two runs: a deletion or rename is the news, "created" sticks otherwise."""
    if new in {"deleted", "renamed"} or old == "deleted":
        return new
    return "created" if "created" in (old, new) else "edited"


def _merge_status(old: tuple[str, ...], new: tuple[str, ...]) -> tuple[str, ...]:
    def command(item: str) -> str:
        found = _STATUS.match(item)
        return found.group("cmd") if found else item_key(item)

    fresh = {command(i) for i in new}
    return (*new, *(i for i in old if command(i) not in fresh))[:3]
