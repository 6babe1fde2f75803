"""What one cell (contender x case) scored: pure functions from (case, answer) to numbers.

The metrics measure what the tool exists for, not generic text similarity:

* ``fact_recall``: the share of the case's required facts present in the answer (endpoint paths
  with their method, status codes, table and column names, the gotcha...);
* ``hallucinations``: concrete tokens in the answer (paths, URLs, code identifiers, numbers) that
  the input does not contain; lower is better;
* ``format_ok``: the band's shape (CRITICAL 3 lines, HIGH 2, MEDIUM ``[agent] — <sentence <= 80
  chars> — <files>``, LOW ``[agent] — <files>``; sessions under 2,000 tokens);
* ``reduction``: 1 - tokens out / tokens in, with the real o200k tokenizer;
* ``coordinate_recall`` / ``should_recall`` for tool output, from the evaldata truth files;
* bookkeeping reported by the contender: latency, tokens, cost, cache hit, fallback used.

``METRIC_VERSION`` is part of every result-cache key: bump it whenever a definition here changes,
so stored cells are recomputed instead of silently mixing two definitions in one report.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from summarizer.evaluation.dataset import Band, Fact

__all__ = [
    "METRICS",
    "METRIC_VERSION",
    "MetricSpec",
    "fact_recall",
    "format_problem",
    "hallucinations",
    "matches",
]

METRIC_VERSION = "m5"  # m5: latency is provider time; requests include retries

Direction = Literal["higher", "lower"]
Unit = Literal["points", "count", "ms", "usd", "tokens"]


@dataclass(frozen=True, slots=True)
class MetricSpec:
    """How to read, compare and display one metric."""

    name: str
    label: str
    better: Direction
    unit: Unit
    compare: bool = True  # part of the pairwise verdicts (bookkeeping metrics are only reported)


METRICS: tuple[MetricSpec, ...] = (
    MetricSpec("fact_recall", "fact recall", "higher", "points"),
    MetricSpec("coordinate_recall", "coordinate recall", "higher", "points"),
    MetricSpec("should_recall", "should-survive recall", "higher", "points"),
    MetricSpec("hallucinations", "hallucinated tokens", "lower", "count"),
    MetricSpec("format_ok", "format compliance", "higher", "points"),
    MetricSpec("reduction", "token reduction", "higher", "points"),
    MetricSpec("assert_pass_rate", "assert pass rate", "higher", "points"),
    # Set by --judge after the cells are measured (not part of a cell's key; see judge.py).
    MetricSpec("faithfulness", "judge faithfulness", "higher", "points"),
    MetricSpec("tokens_out", "tokens out", "lower", "tokens", compare=False),
    MetricSpec("latency_ms", "latency", "lower", "ms", compare=False),
    MetricSpec("provider_tokens", "provider tokens", "lower", "tokens", compare=False),
    MetricSpec("cost_usd", "cost", "lower", "usd", compare=False),
    MetricSpec("cache_hit", "cache hits", "higher", "points", compare=False),
    MetricSpec("fallback", "template fallbacks", "lower", "points", compare=False),
)

_WS = re.compile(r"\s+")
_METHOD_PATH = re.compile(r"^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+(\S+)$", re.IGNORECASE)
_NUMERIC_KINDS = {"status", "count", "number"}


def _norm(text: str) -> str:
    return _WS.sub(" ", text.replace("`", "")).casefold()


def matches(fact: Fact, answer: str) -> bool:
    """True when ``answer`` carries ``fact`` (its value or any alternative)."""
    return any(_carries(fact.kind, candidate, answer) for candidate in (fact.value, *fact.any_of))


def _carries(kind: str, value: str, answer: str) -> bool:
    text = _norm(answer)
    wanted = _norm(value)
    if kind == "endpoint" and (m := _METHOD_PATH.match(value.strip())):
        # The method and the exact path, anywhere: "POST /a" and "/a (POST)" both carry it.
        path = re.escape(m.group(2).casefold())
        return bool(
            re.search(rf"\b{m.group(1).casefold()}\b", text)
            and re.search(rf"(?<![\w/]){path}(?![\w/{{-])", text)
        )
    if kind in _NUMERIC_KINDS and wanted.isdigit():
        return re.search(rf"(?<![\w.]){re.escape(wanted)}(?!\w|\.\d)", text) is not None
    return wanted in text


def fact_recall(facts: Iterable[Fact], answer: str) -> tuple[float | None, tuple[str, ...]]:
    """The share of ``facts`` present in ``answer`` and the missed ones (``None`` without facts)."""
    facts = tuple(facts)
    if not facts:
        return None, ()
    missed = tuple(f"{f.kind}: {f.value}" for f in facts if not matches(f, answer))
    return 1.0 - len(missed) / len(facts), missed


_URL = re.compile(r"\bhttps?://[^\s<>\"'`)\]]+")
_PATH = re.compile(
    r"(?<![\w:/])(?:[\w.@{}-]+/)+[\w.@{}*-]+|\b[\w-]+\.(?:py|tsx?|jsx?|go|rs|sql|ya?ml|toml|json|md|sh|css|html|kt|gradle|xml)\b"
)
_IDENT = re.compile(
    r"\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+\b"  # snake_case and SCREAMING_CASE
    r"|\b[a-z]+[A-Z][A-Za-z0-9]*\b"  # camelCase
    r"|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+\b"  # PascalCase compounds
    r"|\b[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+\b"  # dotted.names
)
_NUMBER = re.compile(r"(?<![\w.:-])\d+(?:[.,:-]\d+)*(?![\w])")


def _concrete_tokens(answer: str) -> list[str]:
    tokens: list[str] = []
    for pattern in (_URL, _PATH, _IDENT, _NUMBER):
        for m in pattern.finditer(answer):
            token = m.group(0).rstrip(".,;:)")
            # A file name inside a path already found is the same token, not another one.
            if len(token) >= 2 and not any(token in seen for seen in tokens):
                tokens.append(token)
    return tokens


def hallucinations(answer: str, source: str) -> tuple[str, ...]:
    """Concrete tokens of ``answer`` (URLs, paths, identifiers, numbers of 2+ digits) absent from ``source``.

    Numbers are matched whole (an invented ``404`` does not hide inside ``14045``); single digits
    are ignored because templates count things ("3 files") that the input states differently.
    """
    corpus = _norm(source)
    numbers = set(_NUMBER.findall(source))
    invented: list[str] = []
    for token in _concrete_tokens(answer):
        if _NUMBER.fullmatch(token):
            if token not in numbers:
                invented.append(token)
        elif _norm(token) not in corpus:
            invented.append(token)
    return tuple(invented)


_MEDIUM = re.compile(r"^\[([^\]]+)\] — (.+?)(?: — (.+))?$")
_LOW = re.compile(r"^\[([^\]]+)\] — (.+)$")
_BAND_LINES: dict[Band, int] = {"CRITICAL": 3, "HIGH": 2, "MEDIUM": 1, "LOW": 1}
MAX_LINE_CHARS = 240
MAX_SENTENCE_CHARS = 80


def format_problem(answer: str, band: Band) -> str | None:
    """Why ``answer`` does not have ``band``'s shape, or ``None`` when it does."""
    lines = [line.rstrip() for line in answer.splitlines() if line.strip()]
    want = _BAND_LINES[band]
    if len(lines) != want:
        return f"{band} needs {want} line(s), got {len(lines)}"
    if (longest := max(len(line) for line in lines)) > MAX_LINE_CHARS:
        return f"a line has {longest} characters (cap {MAX_LINE_CHARS})"
    if band == "MEDIUM":
        m = _MEDIUM.match(lines[0])
        if m is None:
            return "MEDIUM line is not '[agent] — <sentence> — <files>'"
        if len(m.group(2)) > MAX_SENTENCE_CHARS:
            return f"MEDIUM sentence has {len(m.group(2))} characters (cap {MAX_SENTENCE_CHARS})"
    if band == "LOW" and _LOW.match(lines[0]) is None:
        return "LOW line is not '[agent] — <files>'"
    return None
