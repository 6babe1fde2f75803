"""When a session should compress: the trigger table of docs/session.md, counted since the last compression.

A compression is due when, since the last one, any of these holds:

* more than 30 tool calls;
* more than 5 reads of files longer than 200 lines;
* the user asked the same question twice;
* more than 5 tasks were completed (to-do items marked completed, ``[x]``/✅ lines);
* an explicit request ("compress context", "save context", "getting long", ``/memory-compress``...).

Automatic compression is held off during the session's first 10 tool calls and within 20 tool
calls of the previous compression (no thrashing); an explicit request, or ``--force``, bypasses
both. "The last compression" is the later of two marks: a compression visible in the transcript
itself (a ``mem_save`` to a ``.../compressed/...`` topic, our ``session_compress`` tool, or a
``summarizer session`` command) and the tool-call count recorded when we last compressed this
session. Everything here is pure: values in, a :class:`Decision` out.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from summarizer.session.transcript import Event, Transcript, tool_kind

__all__ = [
    "LARGE_FILE_LINES",
    "Decision",
    "TriggerCounts",
    "decide",
    "is_compression_request",
    "normalise_question",
    "start_of_count",
]

TOOL_CALLS_OVER = 30
LARGE_FILE_LINES = 200
LARGE_READS_OVER = 5
TASKS_OVER = 5
WARMUP_CALLS = 10
SPACING_CALLS = 20

_EXPLICIT = re.compile(
    r"/memory-compress\b|\bcompress(?:ing)?\s+(?:the\s+|this\s+|our\s+)?(?:context|session|memory|conversation)\b"
    r"|\bcompact\s+(?:the\s+)?context\b|\bsave\s+(?:the\s+|this\s+)?context\b|\bgetting\s+long\b"
    r"|\bsave\s+what\s+we(?:'|’)?ve\s+learn(?:ed|t)\b|^\s*compress\s*[.!]?\s*$",
    re.IGNORECASE,
)
_DONE_LINE = re.compile(r"^\s*(?:[-*]\s*)?(?:\[[xX]\]|✅)\s*(.+?)\s*$", re.MULTILINE)
# A question starts after the previous sentence or clause ("Sorry, I lost track: does X?").
_QUESTION = re.compile(r"[^.!?:;\n]*\?")


@dataclass(frozen=True, slots=True)
class TriggerCounts:
    """What was counted, for the report and the tests."""

    tool_calls_total: int
    tool_calls_since: int
    large_reads: int
    repeated_questions: tuple[str, ...]
    tasks_done: int
    explicit: bool


@dataclass(frozen=True, slots=True)
class Decision:
    """Whether to compress, which triggers fired, and what held an automatic run off."""

    due: bool
    reasons: tuple[str, ...]
    held: str | None
    counts: TriggerCounts


def start_of_count(transcript: Transcript, recorded_calls: int | None = None) -> int:
    """Index into ``transcript.events`` where counting starts (just after the last compression).

    ``recorded_calls`` is how many tool calls the session had when we last compressed it; a count
    larger than the transcript's means another transcript, and is ignored.
    """
    start = 0
    calls_seen = 0
    for index, event in enumerate(transcript.events):
        if event.kind != "tool_call":
            continue
        calls_seen += 1
        if _is_compression(event) or (recorded_calls is not None and calls_seen == recorded_calls):
            start = max(start, index + 1)
    return start


def decide(transcript: Transcript, *, start: int = 0, force: bool = False) -> Decision:
    """Apply the trigger rules to the events from ``start`` on; ``force`` is an explicit request."""
    events = transcript.events
    recent = events[start:]
    total_calls = sum(1 for e in events if e.kind == "tool_call")
    since_calls = sum(1 for e in recent if e.kind == "tool_call")
    results = transcript.results()
    large_reads = sum(
        1
        for index in range(start, len(events))
        if events[index].kind == "tool_call"
        and tool_kind(events[index]) == "read"
        and _lines_read(results.get(index)) > LARGE_FILE_LINES
    )
    repeated = _repeated_questions(recent)
    tasks = _tasks_done(events, start)
    explicit = force or any(_EXPLICIT.search(e.text) for e in recent if _is_user_text(e))
    counts = TriggerCounts(total_calls, since_calls, large_reads, repeated, tasks, explicit)

    reasons: list[str] = []
    if explicit:
        reasons.append("explicit request")
    if since_calls > TOOL_CALLS_OVER:
        reasons.append(f"{since_calls} tool calls (> {TOOL_CALLS_OVER})")
    if large_reads > LARGE_READS_OVER:
        reasons.append(f"{large_reads} reads of files over {LARGE_FILE_LINES} lines (> {LARGE_READS_OVER})")
    if repeated:
        reasons.append(f"question asked twice: {repeated[0]!r}")
    if tasks > TASKS_OVER:
        reasons.append(f"{tasks} tasks completed (> {TASKS_OVER})")
    if explicit:
        return Decision(True, tuple(reasons), None, counts)
    held: str | None = None
    if total_calls <= WARMUP_CALLS:
        held = f"only {total_calls} tool calls in the session (none in the first {WARMUP_CALLS})"
    elif start > 0 and since_calls < SPACING_CALLS:
        held = f"{since_calls} tool calls since the last compression (at most one per {SPACING_CALLS})"
    return Decision(bool(reasons) and held is None, tuple(reasons), held, counts)


def is_compression_request(text: str) -> bool:
    """True when ``text`` explicitly asks for a compression ("compress the context", "/memory-compress")."""
    return _EXPLICIT.search(text) is not None


def normalise_question(text: str) -> str:
    """Lower-case, punctuation-free, single-spaced: two askings of one question compare equal."""
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def _is_user_text(event: Event) -> bool:
    return event.kind == "message" and event.role == "user"


def _is_compression(call: Event) -> bool:
    name = call.tool.lower()
    if name.endswith("session_compress"):
        return True
    if name.endswith("mem_save"):
        key = f"{call.tool_input.get('topic_key', '')} {call.tool_input.get('title', '')}"
        return "/compressed/" in key
    command = call.tool_input.get("command") or call.tool_input.get("cmd")
    if isinstance(command, list):  # Codex: ["bash", "-lc", "..."]
        command = " ".join(str(part) for part in command)
    return isinstance(command, str) and "summarizer session" in command


def _lines_read(result: Event | None) -> int:
    if result is None:
        return 0
    if result.file_lines is not None:
        return result.file_lines
    return result.text.count("\n") + 1 if result.text else 0


def _repeated_questions(events: Sequence[Event]) -> tuple[str, ...]:
    asked: Counter[str] = Counter()
    first_form: dict[str, str] = {}
    for event in events:
        if not _is_user_text(event):
            continue
        for match in _QUESTION.finditer(event.text):
            question = match.group(0).strip()
            key = normalise_question(question)
            if len(key.split()) >= 3:  # "why?" twice is not a repeated question
                asked[key] += 1
                first_form.setdefault(key, question)
    return tuple(first_form[k] for k, n in asked.items() if n >= 2)


def _tasks_done(events: Sequence[Event], start: int) -> int:
    """Distinct tasks completed after ``start`` (to-do lists are snapshots: diff them)."""
    before: set[str] = set()
    after: set[str] = set()
    for index, event in enumerate(events):
        target = before if index < start else after
        if event.kind == "tool_call" and tool_kind(event) == "todo":
            target |= _completed_todos(event.tool_input)
        elif event.kind == "message" and event.role == "assistant":
            target |= {normalise_question(m) for m in _DONE_LINE.findall(event.text)}
    return len(after - before)


def _completed_todos(tool_input: Mapping[str, Any]) -> set[str]:
    items = tool_input.get("todos") or tool_input.get("plan") or []
    done: set[str] = set()
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and item.get("status") == "completed":
            text = item.get("content") or item.get("step") or item.get("text") or ""
            if isinstance(text, str) and text.strip():
                done.add(normalise_question(text))
    return done
