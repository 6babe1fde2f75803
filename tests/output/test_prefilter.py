"""The prefilter never skips a line the classifier would flag, and its two engines agree."""

from __future__ import annotations

import random

import pytest

from summarizer.output import coordinates as co
from summarizer.output import engine as engine_module
from summarizer.output.engine import DIGITS, KEY, Engine
from summarizer.output.lines import Chunk, decode_line, is_binary
from summarizer.output.prefilter import Prefilter
from tests.output.conftest import every_fixture_line

_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-./:()[]=#'\"\t|>*@"


def _generated_lines(count: int) -> list[bytes]:
    """Random lines built from the rules' own words, symbols and shapes (and plain noise)."""
    rng = random.Random(1234)
    words = [
        "error", "Error:", "ERROR", "ERR", "FAILED", "failed", "ok 3 -", "not ok 7 -", "PASSED", "SKIP",
        "WARN", "warning:", "[error]", "level=error", '"level":"fatal"', ", Error ", "Traceback", "at",
        "File \"a.py\", line 9", "x.py:12:4", "Foo.java:[3,4]", "a.ts(3,4)", "--> src/a.rs:1:2", "E    x",
        ">     y", "● t", "✗ t", "1) t", "Exited (137)", "exit code 2", "Killed", "=== RUN", "# Subtest: t",
        "Tests run: 3, Failures: 1", "BUILD FAILURE", "CONFLICT (content)", "hint: x", '"GET / HTTP/1.1" 500',
        "cp: cannot stat 'x'", "Permission denied", "12:00:01", "2026-01-02 03:04:05,678", "INFO", "DEBUG",
        "APPREAD 1117838570 x", "-rw-r--r--", "drwxr-xr-x", "commit " + "a1" * 20, "deadbee fix", "\x01",
        "Segmentation fault", "AssertionError", "panicked at", "  12: std::rt", "    at f (a.js:1:2)",
    ]  # fmt: skip
    out = []
    for _ in range(count):
        parts = []
        for _ in range(rng.randint(1, 6)):
            if rng.random() < 0.5:
                parts.append(rng.choice(words))
            else:
                parts.append("".join(rng.choice(_ALPHABET) for _ in range(rng.randint(1, 12))))
        lead = rng.choice(["", " ", "    ", "\t", "2026-03-04T05:06:07Z ", "[12:00:00] ", "Mar  3 12:00:00 "])
        out.append((lead + " ".join(parts)).encode())
    return out


def _needs_classifier(raw: bytes) -> bool:
    template = raw.translate(DIGITS)
    text = decode_line(template)
    lc = co.LineClass(co.BINARY) if is_binary(template) else co.classify_template(text)
    return lc.cls != co.PLAIN or co.plain_record(text) != lc.record or bool(engine_module._KEY_ROW.match(raw))


@pytest.mark.parametrize("source", ["fixtures", "generated"])
def test_no_flagged_line_is_skipped(source: str) -> None:
    """A line with a non-plain class, a wrong record flag or a commit hash always holds a trigger."""
    lines = every_fixture_line() if source == "fixtures" else _generated_lines(20_000)
    keys = [line.translate(KEY) for line in lines]
    hits = Prefilter().hits(keys)
    missed = [line for index, line in enumerate(lines) if index not in hits and _needs_classifier(line)]
    assert len(lines) > 1000
    assert missed == []


def test_both_engines_find_the_same_lines() -> None:
    """The Rust multi-pattern search and the ``re`` fallback flag exactly the same lines."""
    keys = [line.translate(KEY) for line in every_fixture_line()[:6000] + _generated_lines(3000)]
    fast, fallback = Prefilter(), Prefilter(fast=False)
    assert fast.engine == "ahocorasick_rs"
    assert fallback.engine == "re"
    hits = fast.hits(keys)
    assert 0 < len(hits) < len(keys)
    assert hits == fallback.hits(keys)


def test_bulk_path_renders_what_the_classifier_would(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the prefilter on every chunk the engine keeps the same table, classes and coordinates."""
    data = b"\n".join(every_fixture_line()[:20_000])

    chunks, start = [], 0
    while start < len(data):
        cut = data.find(b"\n", start + (1 << 18))
        cut = len(data) if cut < 0 else cut
        chunks.append(data[start:cut])
        start = cut + 1

    def run(bulk: int) -> Engine:
        monkeypatch.setattr(engine_module, "BULK_KEYS", bulk)
        engine = Engine(max_templates=5_000)
        for chunk in chunks:
            engine.feed(Chunk(chunk))
        engine.finish()
        return engine

    every, bulk = run(10**9), run(1)
    assert [(t, r.first, r.cls, r.lc.record) for t, r in every.templates.items()] == [
        (t, r.first, r.cls, r.lc.record) for t, r in bulk.templates.items()
    ]
    assert every.coords.keys() == bulk.coords.keys()
    assert every.shape() == bulk.shape()


def test_the_time_hint_never_skips_a_timestamp() -> None:
    """The one-scan hint before the timestamp rule: same answer as the rule alone, on every fixture
    line, on generated lines, and on each timestamp shape the rule knows."""
    shapes = [
        "2026-03-04T05:06:07.123Z x", "2026.03.04-05.06.07 x", "Mar  3 12:00:00 host x",
        "[Tue Mar 03 12:00:00 2026] x", "03/04/26 05:06:07 x", "03-04 05:06:07.123 x",
        "20260304-5:6:7 x", "081109 203615 x", "[12:00:00] x", "[03.04 05:06:07] x",
    ]  # fmt: skip
    texts = [decode_line(line) for line in every_fixture_line() + _generated_lines(5000)] + shapes
    window = co._HEADER_WINDOW
    expected = [m.group(0) if (m := co._TIMESTAMP.search(t[:window])) else None for t in texts]
    assert [co.find_timestamp(t) for t in texts] == expected
    assert all(co.find_timestamp(s) for s in shapes)
    assert sum(e is not None for e in expected) > 1000
