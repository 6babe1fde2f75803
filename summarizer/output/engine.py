"""The streaming pass: one walk over the input, bounded memory, a cheap per-line hot path.

Per chunk of complete lines (bytes): clean it (CRLF, CR progress bars, ANSI), make its digit
template with one ``bytes.translate``, split both, and walk the lines once. Each line costs a dict
lookup of its template; a template is classified by :func:`coordinates.classify_template` only the
first time it is seen. Ordinary lines are counted and sampled; only coordinates, frames and
failure-block lines take the slow path, and only kept lines are ever decoded.

What is retained is bounded: the template table (rarest pruned past ``MAX_TEMPLATES``), the
distinct coordinates (capped at ``MAX_COORDINATES``, 8 KB of text each, hashed keys for long lines;
identical messages are folded into one with a count),
the sampler (capped) and at most one open trace or failure block (head/tail windows).
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from itertools import accumulate, chain, compress, repeat
from operator import sub

from summarizer.core.lazyre import lazy
from summarizer.core.records import field, record
from summarizer.output import coordinates as co
from summarizer.output import formats, rules
from summarizer.output.classify import FamilyCounts
from summarizer.output.context import BEFORE, Context
from summarizer.output.frames import TraceBlock
from summarizer.output.kept import ERROR_KINDS
from summarizer.output.lines import MAX_LINE_BYTES, Chunk, clean_chunk, decode_line, is_binary, scan_windows
from summarizer.output.patterns import MAX_TEMPLATES, Sampler
from summarizer.output.shape import Shape, decide_shape

TYPE_CHECKING = False  # not `from typing import`: this module is on the cold path of `run`
if TYPE_CHECKING:
    from summarizer.output.prefilter import Prefilter

__all__ = ["NOISE", "CoordEntry", "Engine", "ExtraRules", "TemplateStat"]

DIGITS = bytes.maketrans(b"0123456789", b"##########")
# A line's key in the template table: digits and lower-case hex letters folded to ``#``, so lines
# that differ only in numbers, hex ids, hashes or UUIDs share a key (and one classification). Rules
# never see the key: they read the digit template of the key's first line (see docs/tool-output.md).
KEY = bytes.maketrans(b"0123456789abcdef", b"################")
MAX_COORDINATES = 20_000
MAX_TEMPLATE_BYTES = 4096
# The template's start is classified; the scan for errors deeper in a long line starts here.
_SCAN_FROM = MAX_TEMPLATE_BYTES - 256
# Kept text per coordinate: generous until the coordinates hold 64 MB, then just the start.
_COORD_BYTES = 8192
_COORD_BYTES_LOW = 512
_COORD_MEMORY = 64 << 20
_FAMILY_TEMPLATES = 3_000
_FAILURE_BLOCK_LINES = 60
_BARE_PATH_B = lazy(rb"^(?:[A-Za-z]:)?[\w.~@/\\+#-]+\.[A-Za-z]\w{0,7}$")
_PATH_START = (b"/", b".")
_SPACE_COLON_TAB = lazy(rb"[ :\t]")
_ESLINT_ROW = lazy(rb"^\s+\d+:\d+\s")
_PLAIN_CLASS = co.LineClass(co.PLAIN)
_PLAIN_RECORD = co.LineClass(co.PLAIN, "", 0, True)
# An ordinary line whose record flag is read at the end (see Engine._new_bulk).
_HASH_START = frozenset(bytes([c]) for c in b"0123456789abcdefc")
# A chunk with this many new keys goes through the prefilter (summarizer/output/prefilter.py).
BULK_KEYS = 2048
# rustc/ruff print the message first and the location under it ("  --> src/a.rs:3:5").
_ARROW = lazy(rb"^\s*--> ")
# Failing-test headers whose details follow, indented: TAP "not ok", jest "●", spec/mocha marks.
_BLOCK_HEADER = lazy("^\\s*(?:not ok\\b|●|✖|✗|✘|×|❌|\\d+\\) )".encode())
_INFORMATIVE = lazy(rb"[A-Za-z]{3}")
_ESLINT_LINE = lazy(r"^\s+#+:#+\s")
# An error line ending in a colon announces the indented list that follows (git's file lists).
_LIST_HEADER = lazy(rb"^(?:error|fatal|ERROR|FATAL|Error)\b[^\n]*:\s*$")
_ITEM_LINES = 6  # lines kept per announced item (pydantic: field, message, help URL)
_ITEMS_CAP = 600
# Distinct 4xx request lines kept in full; past this they are counted (a scanner's 404 storm).
MAX_HTTP_4XX = 200
_SOURCE_LINE = lazy(r"^\s+(?:\S|\[Previous line repeated)")
# Commit lines (``commit <hash>``, ``git log --oneline``) differ only in a hash, which the key
# folds: they are recorded one by one, up to a cap, for the compact form of version-control output.
_KEY_ROW = lazy(rb"^commit [\da-f]{40}(?![\w])|^[\da-f]{7,12} \S")
MAX_KEY_ROWS = 50_000
_KEY_ROW_BYTES = 512


# A line a team's noise rule dropped: counted, never sampled, listed or shown as a pattern.
NOISE = 8
_NOISE_CLASS = co.LineClass(NOISE, "noise")
_RULE_FAILURE = co.LineClass(co.COORD, "error")


@record(frozen=True)
class ExtraRules:
    """A team's own failure and noise patterns (``OutputOptions``), decided per new template.

    Failures win: a failure pattern makes the line an error; a noise pattern drops only a line
    that is ordinary, soft or a warning, never one that the built-in rules or a failure pattern
    call a failure (nor a frame, a passing-test count or a header).
    """

    failure: tuple[re.Pattern[str], ...]
    noise: tuple[re.Pattern[str], ...]

    @classmethod
    def compile(cls, failure: tuple[str, ...], noise: tuple[str, ...]) -> ExtraRules | None:
        """The compiled rules, or None when there are none (the common case costs nothing)."""
        if not failure and not noise:
            return None
        return cls(tuple(map(re.compile, failure)), tuple(map(re.compile, noise)))

    def verdict(self, raw: bytes, lc: co.LineClass) -> co.LineClass:
        """The class of a line after the team's rules (``lc``: the built-in one)."""
        line = decode_line(raw[:MAX_LINE_BYTES])
        if any(p.search(line) for p in self.failure):
            return _RULE_FAILURE
        droppable = lc.cls in (co.PLAIN, co.SOFT) or (lc.cls == co.COORD and lc.kind == "warning")
        if droppable and any(p.search(line) for p in self.noise):
            return _NOISE_CLASS
        return lc


@record
class CoordEntry:
    """One distinct coordinate while streaming."""

    kind: str
    line: int
    raw: bytes
    count: int = 1
    last_line: int = 0
    full_bytes: int | None = None


class TemplateStat:
    """Per distinct template: its first line, its class and that first real line (counts live in
    :attr:`Engine.counts`, last lines in :attr:`Engine.last`, both updated in C per chunk)."""

    __slots__ = ("_text", "cls", "first", "lc", "sample")

    def __init__(self, n: int, lc: co.LineClass, sample: bytes, text: bytes | None = None) -> None:
        self.first = n
        self.cls = lc.cls
        self.lc = lc
        self.sample = sample
        self._text = text

    def text(self, size: int = MAX_TEMPLATE_BYTES) -> bytes:
        """The digit template of the first line (what the rules and the pattern summaries read)."""
        if self._text is None:
            self._text = self.sample.translate(DIGITS)
        return self._text[:size]


_PLAIN_STAT = TemplateStat(0, _PLAIN_CLASS, b"")


class RawLines:
    """The raw lines of a chunk, sliced on demand: a template list gives every line's length
    (``translate`` keeps lengths), so the raw text needs no second ``split``."""

    __slots__ = ("_data", "_starts")

    def __init__(self, data: bytes, tpls: list[bytes]) -> None:
        self._data = data
        # Cumulative lengths without newlines: line i spans [S[i] + i, S[i + 1] + i).
        self._starts = list(accumulate(map(len, tpls), initial=0))

    def __len__(self) -> int:
        return len(self._starts) - 1

    def __getitem__(self, index: int) -> bytes:
        return self._data[self._starts[index] + index : self._starts[index + 1] + index]


@record
class _FailureBlock:
    indent: int
    kept: int = 0
    trace: TraceBlock | None = None


@record
class _ItemBlock:
    """The items an error header announced ("7 validation errors for X") or an error's indented list."""

    expected: int | None
    indent: int
    items: int = 0
    item_indent: int | None = None
    kept: int = 0


@record(slots=False)
class Engine:
    """Accumulates everything the rendering needs while the input streams through."""

    max_templates: int = MAX_TEMPLATES
    rules: ExtraRules | None = None
    noise_lines: int = 0
    line_no: int = 0
    templates: dict[bytes, TemplateStat] = field(default_factory=dict)
    counts: Counter[bytes] = field(default_factory=Counter)
    last: dict[bytes, int] = field(default_factory=dict)
    _slow_set: set[bytes] = field(default_factory=set)
    _key_set: set[bytes] = field(default_factory=set)
    _prefilter: Prefilter | None = None
    # Keys the prefilter found ordinary: (first line, its text), made table entries at the end.
    _plain: dict[bytes, tuple[int, bytes]] = field(default_factory=dict)
    key_rows: list[tuple[int, bytes]] = field(default_factory=list)
    coords: dict[bytes, CoordEntry] = field(default_factory=dict)
    coords_not_listed: int = 0
    frame_markers: list[tuple[int, str]] = field(default_factory=list)
    sampler: Sampler = field(default_factory=Sampler)
    passed: int = 0
    binary_lines: int = 0
    pruned_lines: int = 0
    soft_pruned: int = 0
    omitted_frames: int = 0
    first_timestamp: tuple[int, str] | None = None
    last_timestamp: tuple[int, str] | None = None
    _trace: TraceBlock | None = None
    _trace_is_python: bool = False
    _expect_exception: bool = False
    _saw_traceback: bool = False
    _failure: _FailureBlock | None = None
    _coord_bytes: int = 0
    _items: _ItemBlock | None = None
    http_4xx: int = 0
    http_4xx_more: int = 0
    http_4xx_range: tuple[int, int] = (0, 0)
    in_passes: bool = False
    _prev: bytes = b""
    _chunk: RawLines | list[bytes] = field(default_factory=list)
    _index: int = 0
    _cur_n: int = 0
    _last_raw: bytes = b""
    _tail: list[bytes] = field(default_factory=list)
    ctx: Context = field(default_factory=Context)

    @property
    def context(self) -> dict[int, bytes]:
        """Lines kept around failures (line number -> raw bytes), apart from the coordinates."""
        return self.ctx.lines

    # -- hot path -------------------------------------------------------------------------------
    def feed(self, chunk: Chunk) -> None:
        """Process one chunk of complete lines.

        Everything per line runs in C: the split, the template translate, the Counter update and
        the last-line dict. Python touches only the lines whose template is special (coordinates,
        frames, file headings), the lines inside an open trace or failure block, and one line in
        ``every`` for the samples.
        """
        data = clean_chunk(chunk.data)
        tpls = data.translate(KEY).split(b"\n")
        raws = RawLines(data, tpls)
        n0 = self.line_no
        windows = list(chunk.windows)
        if tpls and max(map(len, tpls)) > MAX_TEMPLATE_BYTES:
            # Minified megabyte lines must not become megabyte dict keys: their start decides;
            # an error further in is found by a scan of the rest and kept as a window.
            for index, tpl in enumerate(tpls):
                if len(tpl) > MAX_TEMPLATE_BYTES:
                    windows.extend((index, off, win) for off, win in scan_windows(raws[index], _SCAN_FROM))
            tpls = [t[:MAX_TEMPLATE_BYTES] for t in tpls]
        size = len(tpls)
        templates = self.templates
        self.counts.update(tpls)
        last = dict(zip(tpls, range(n0 + 1, n0 + size + 1), strict=True))
        self.last.update(last)
        new = last.keys() - templates.keys()
        if new and self._plain:
            new -= self._plain.keys()
        if new:
            first = dict(zip(reversed(tpls), range(n0 + size, n0, -1), strict=True))
            order = sorted(new, key=first.__getitem__)
            if len(order) >= BULK_KEYS and self.rules is None:
                self._new_bulk(order, first, data, n0)
            else:
                for template in order:
                    self._new_template(template, first[template], raws[first[template] - n0 - 1])
        if self._key_set and len(self.key_rows) < MAX_KEY_ROWS:
            keyed = self._key_set
            rows = [(n0 + i + 1, raws[i][:_KEY_ROW_BYTES]) for i, t in enumerate(tpls) if t in keyed]
            self.key_rows.extend(rows)
            del self.key_rows[MAX_KEY_ROWS:]
        long_lines = dict(chunk.long_lines)
        slow = self._slow_set
        special = [i for i, t in enumerate(tpls) if t in slow]
        pos = 0
        if self._busy():
            pos = self._drain(raws, tpls, n0, 0, long_lines)
        for index in special:
            if index < pos:
                continue
            self._prev = raws[index - 1] if index else self._last_raw
            self._chunk, self._index, self._cur_n = raws, index, n0 + index + 1
            self._slow(n0 + index + 1, raws[index], templates[tpls[index]], long_lines.get(index))
            pos = index + 1
            if self._busy():
                pos = self._drain(raws, tpls, n0, pos, long_lines)
        for index, offset, window in windows:
            self._add_window(n0 + index + 1, offset, window, chunk.long_lines, index)
        self._sample_chunk(raws, tpls, n0)
        self._last_raw = raws[size - 1] if size else b""
        self._tail = (self._tail + [raws[i] for i in range(max(0, size - BEFORE), size)])[-BEFORE:]
        self.line_no = n0 + size
        self._timestamps(raws, n0 + 1)
        if len(templates) + len(self._plain) > self.max_templates:
            self._prune()

    def _busy(self) -> bool:
        return (
            self._trace is not None
            or self._failure is not None
            or self._expect_exception
            or self._items is not None
            or self.ctx.busy
        )

    def _drain(self, raws: RawLines, tpls: list[bytes], n0: int, pos: int, long_lines: dict[int, int]) -> int:
        """Feed lines one by one while a block is open; return the first index not processed."""
        templates = self.templates
        while pos < len(tpls) and self._busy():
            self._prev = raws[pos - 1] if pos else self._last_raw
            self._chunk, self._index, self._cur_n = raws, pos, n0 + pos + 1
            self._slow(n0 + pos + 1, raws[pos], templates.get(tpls[pos], _PLAIN_STAT), long_lines.get(pos))
            pos += 1
        return pos

    def _sample_chunk(self, raws: RawLines, tpls: list[bytes], n0: int) -> None:
        # About one ordinary line in `every`, on a fixed line-number grid (1, 51, 101, ...).
        sampler = self.sampler
        templates = self.templates
        index = (-n0) % sampler.every
        while index < len(tpls):
            # A sample should say something: step past blank and punctuation-only lines.
            for _ in range(4):
                if index + 1 < len(tpls) and not _INFORMATIVE.search(raws[index]):
                    index += 1
            if templates.get(tpls[index], _PLAIN_STAT).cls in (co.PLAIN, co.HEADER, co.HTTP):
                sampler.kept.append((n0 + index + 1, raws[index][:4096]))
                if len(sampler.kept) > sampler.cap:
                    # Halve: keep every other sample and sample half as often from now on.
                    sampler.kept = sampler.kept[::2]
                    sampler.every *= 2
                    grid = (-n0) % sampler.every
                    index = (
                        grid + ((index - grid) // sampler.every + 1) * sampler.every
                        if grid <= index
                        else grid
                    )
                    continue
            index += sampler.every

    def _new_bulk(self, order: list[bytes], first: dict[bytes, int], data: bytes, n0: int) -> None:
        """Many new keys at once (data that does not repeat): only those holding a trigger are
        classified; the others are ordinary lines, their record flag read at the end."""
        if self._prefilter is None:
            from summarizer.output.prefilter import Prefilter

            self._prefilter = Prefilter()
        hits = self._prefilter.hits(order)
        lines = data.split(b"\n")
        firsts = list(map(first.__getitem__, order))
        samples = list(map(lines.__getitem__, map(sub, firsts, repeat(n0 + 1))))
        if max(map(len, samples)) > MAX_TEMPLATE_BYTES:
            samples = [sample[:MAX_TEMPLATE_BYTES] for sample in samples]
        plain = dict(zip(order, zip(firsts, samples, strict=True), strict=True))
        for index in sorted(hits):
            key = order[index]
            del plain[key]
            self.templates[key] = self._classified(key, firsts[index], samples[index])
        self._plain.update(plain)

    @staticmethod
    def _plain_stat(n: int, raw: bytes) -> TemplateStat:
        text = raw.translate(DIGITS)
        lc = _PLAIN_RECORD if co.plain_record(decode_line(text)) else _PLAIN_CLASS
        return TemplateStat(n, lc, raw, text)

    def _new_template(self, key: bytes, n: int, raw: bytes) -> TemplateStat:
        rec = self.templates[key] = self._classified(key, n, raw)
        return rec

    def _classified(self, key: bytes, n: int, raw: bytes) -> TemplateStat:
        """The table entry of a new key, classified on its first line ``raw``."""
        if raw[:1] in _HASH_START and _KEY_ROW.match(raw):
            self._key_set.add(key)
        template = raw[:MAX_TEMPLATE_BYTES].translate(DIGITS)
        if template[:1] in _PATH_START and not _SPACE_COLON_TAB.search(template):
            # A listing's path (find, ls -R, tar t): no rule applies to it, and on data that does
            # not repeat every line is a new template, so the full classification is skipped.
            lc = _PLAIN_CLASS if self.rules is None else self.rules.verdict(raw, _PLAIN_CLASS)
        else:
            text = decode_line(template)
            lc = co.LineClass(co.BINARY) if is_binary(template) else co.classify_template(text)
            if self.rules is not None:
                lc = self.rules.verdict(raw, lc)
        if lc.cls in (co.COORD, co.FRAME, co.HEADER, co.HTTP):
            self._slow_set.add(key)
        return TemplateStat(n, lc, raw[:4096])

    # -- slow path: coordinates, frames, blocks -------------------------------------------------
    def _slow(self, n: int, raw: bytes, rec: TemplateStat, full: int | None) -> None:
        """One line that is special or inside an open block: blocks first, then its class."""
        template = raw[:MAX_TEMPLATE_BYTES].translate(DIGITS)
        cls = rec.cls
        if self._continues(n, raw, cls):
            return
        if self._expect_exception and raw.strip():
            self._expect_exception = False
            if cls != co.FRAME:
                self._add_coord(n, raw, template, "exception", 0, full)
                self._open_items(raw, template)
                return
        if cls == co.FRAME:
            self._trace = TraceBlock(start_line=n)
            self._trace_is_python = self._saw_traceback
            self._trace.add(n, decode_line(raw[:4096]), True)
        elif cls == co.HTTP:
            self._http(n, raw, template, rec.lc.header_end)
        elif cls == co.HEADER:
            if rec.lc.kind == "section":
                self.in_passes = b"PASSES" in raw
        elif cls == co.COORD:
            self._coordinate(n, raw, template, rec.lc, full)

    def _continues(self, n: int, raw: bytes, cls: int) -> bool:
        """True when the line belongs to an open block (announced items, a failing test, a trace)."""
        if self.ctx.busy and cls != NOISE:
            self.ctx.next_line(n, raw)
        if self._items is not None and self._in_items(n, raw):
            return True
        if self._failure is not None and self._in_failure(n, raw, cls):
            return True
        if self._trace is not None:
            text = None
            if cls == co.FRAME or (cls != co.COORD and _SOURCE_LINE.match(text := decode_line(raw[:4096]))):
                self._trace.add(n, text if text is not None else decode_line(raw[:4096]), cls == co.FRAME)
                return True
            self._close_trace()
        return False

    def _coordinate(self, n: int, raw: bytes, template: bytes, lc: co.LineClass, full: int | None) -> None:
        if b"Traceback" in raw:
            self._saw_traceback = True
        if template[:1] == b" " and _ESLINT_LINE.match(decode_line(template[:64])):
            self._eslint_heading(n)
        if self.in_passes and lc.kind == "failing_test" and raw.startswith(b"_"):
            return  # pytest -rA prints a section per *passing* test too: not a failure
        if _ARROW.match(raw) and self._prev.strip() and n > 1:
            # The message above the arrow names the rule ("F821 Undefined name `x`").
            self._add_coord(n - 1, self._prev, self._prev, "detail", 0, None)
        self._add_coord(n, raw, template, lc.kind, lc.header_end, full)
        self._open_items(raw, template)
        if lc.kind == "failing_test" and _BLOCK_HEADER.match(raw):
            indent = len(raw) - len(raw.lstrip())
            self._failure = _FailureBlock(indent)

    def _in_failure(self, n: int, raw: bytes, cls: int) -> bool:
        """Lines indented under a failing test (TAP YAML, jest details) belong to it."""
        block = self._failure
        assert block is not None
        stripped = raw.lstrip()
        if stripped and len(raw) - len(stripped) <= block.indent:
            self._close_failure()
            return False
        if cls == co.FRAME:
            if block.trace is None:
                block.trace = TraceBlock(start_line=n)
            block.trace.add(n, decode_line(raw[:4096]), True)
            return True
        if block.trace is not None:
            self._emit_trace(block.trace)
            block.trace = None
        if stripped and block.kept < _FAILURE_BLOCK_LINES:
            block.kept += 1
            self._add_coord(n, raw, raw, "detail", 0, None)
        return True

    def _eslint_heading(self, n: int) -> None:
        # eslint prints the file once, then "line:col  error  message" rows: the file above the
        # rows is kept with the error (looked up in this chunk, so listings pay nothing for it).
        raws, k = self._chunk, self._index - 1
        while k >= 0 and _ESLINT_ROW.match(raws[k]):
            k -= 1
        if k >= 0 and _BARE_PATH_B.match(raws[k]):
            self._add_coord(n - (self._index - k), raws[k], raws[k], "file", 0, None)

    def _http(self, n: int, raw: bytes, template: bytes, status_at: int) -> None:
        # 5xx is a failure of the server; 4xx a failure of the request (kept, up to a cap).
        status = raw[status_at : status_at + 1]
        if status not in (b"5", b"4"):
            return
        # The same request failing again folds into one entry with a count (the time differs);
        # requests that differ only in an id are merged at rendering, with the id's range.
        key = raw[raw.rfind(b'"', 0, max(status_at - 2, 0)) :]
        if status == b"4" and key not in self.coords:
            if self.http_4xx >= MAX_HTTP_4XX:
                self.http_4xx_more += 1
                self.http_4xx_range = (self.http_4xx_range[0] or n, n)
                return
            self.http_4xx += 1
        self._add_coord(n, raw, template, "http_5xx" if status == b"5" else "http_4xx", 0, None, key=key)

    def _open_items(self, raw: bytes, template: bytes) -> None:
        # Both shapes end the line ("... errors for X", "... would be overwritten:"): test cheaply.
        tail = template[-40:].rstrip()
        if not tail.endswith(b":") and b"rror" not in template[:300]:
            return
        found = rules.ERROR_BLOCK.search(decode_line(template[:300]))
        indent = len(raw) - len(raw.lstrip())
        if found is not None:
            digits = re.search(rb"\d+", raw[found.start(1) :])
            expected = int(digits.group()) if digits else 0
            if 0 < expected <= 10_000:
                self._items = _ItemBlock(expected, indent)
        elif _LIST_HEADER.match(raw):
            self._items = _ItemBlock(None, indent)

    def _in_items(self, n: int, raw: bytes) -> bool:
        """Lines of an announced error list: kept as details until the N items are complete."""
        block = self._items
        assert block is not None
        stripped = raw.strip()
        indent = len(raw) - len(raw.lstrip())
        if not stripped or (block.expected is None and indent <= block.indent):
            self._items = None
            return False
        if block.item_indent is None:
            block.item_indent = indent
        if indent <= block.item_indent:
            block.items += 1
            if block.expected is not None and block.items > block.expected:
                self._items = None
                return False
        cap = min(_ITEMS_CAP, _ITEM_LINES * (block.expected or 100))
        if block.kept < cap:
            block.kept += 1
            self._add_coord(n, raw, raw, "detail", 0, None)
        return True

    def _add_window(
        self, n: int, offset: int, window: bytes, long_lines: tuple[tuple[int, int], ...], index: int
    ) -> None:
        full = dict(long_lines).get(index)
        marker = f"[bytes {offset:,}-{offset + len(window):,} of line {n}".encode()
        if full:
            marker += f" ({full:,} bytes)".encode()
        raw = marker + b"; restore --lines " + f"{n}:{n}".encode() + b"] " + window
        self._add_coord(n, raw, raw, "error_in_line", 0, None)

    def _close_failure(self) -> None:
        if self._failure is not None and self._failure.trace is not None:
            self._emit_trace(self._failure.trace)
        self._failure = None

    def _close_trace(self) -> None:
        if self._trace is None:
            return
        self._emit_trace(self._trace)
        if self._trace_is_python:
            self._expect_exception = True
        self._trace = None
        self._saw_traceback = False

    def _emit_trace(self, block: TraceBlock) -> None:
        previous = block.start_line
        for line_no, text in block.finish():
            if line_no == 0:
                self.frame_markers.append((previous, text))
                continue
            previous = line_no
            raw = text.encode("utf-8", "replace")
            self._add_coord(line_no, raw, raw, "frame", 0, None)
        self.omitted_frames += block.omitted

    def _add_coord(
        self,
        n: int,
        raw: bytes,
        template: bytes,
        kind: str,
        header_end: int,
        full: int | None,
        *,
        key: bytes | None = None,
    ) -> None:
        # Identical messages fold into one entry: the header (time, pid, level) is templated.
        if key is None:
            key = template[:header_end] + raw[header_end:] if header_end else raw
        if len(key) > 256:
            key = hashlib.blake2b(key, digest_size=16).digest()
        entry = self.coords.get(key)
        if entry is not None:
            entry.count += 1
            entry.last_line = n
            return
        if len(self.coords) >= MAX_COORDINATES:
            self.coords_not_listed += 1
            return
        if kind in ERROR_KINDS and n == self._cur_n:
            self.ctx.failure(n, raw, [(k, line) for k, line in self._before(n) if not self._noise(line)])
        keep = _COORD_BYTES if self._coord_bytes < _COORD_MEMORY else _COORD_BYTES_LOW
        kept = raw[:keep]
        self._coord_bytes += len(kept)
        if full is None and len(raw) > keep:
            full = len(raw)
        self.coords[key] = CoordEntry(kind, n, kept, 1, n, full)

    def _noise(self, raw: bytes) -> bool:
        """True for a line the team's noise rules drop (never kept, not even as context)."""
        return self.rules is not None and self.rules.verdict(raw, _PLAIN_CLASS).cls == NOISE

    def _before(self, n: int) -> list[tuple[int, bytes]]:
        """The (up to) 3 lines before the current line, from this chunk or the previous one's tail."""
        raws, index = self._chunk, self._index
        out: list[tuple[int, bytes]] = []
        for back in range(1, BEFORE + 1):
            at = index - back
            if at >= 0:
                out.append((n - back, raws[at]))
            elif -at <= len(self._tail):
                out.append((n - back, self._tail[at]))
        return out

    def finish(self) -> None:
        """Close any open block at the end of input; total the passing-test and binary lines."""
        if self._plain:
            stats = [(key, self._plain_stat(n, raw)) for key, (n, raw) in self._plain.items()]
            # In first-line order, as the table would hold them had every key been classified.
            stats.extend(self.templates.items())
            self.templates = dict(sorted(stats, key=lambda item: item[1].first))
            self._plain = {}
        self.ctx.finish()
        self._close_failure()
        self._close_trace()
        for template, rec in self.templates.items():
            if rec.cls == co.PASS and rec.lc.kind != "announce":
                self.passed += self.counts[template]
            elif rec.cls == co.BINARY:
                self.binary_lines += self.counts[template]
            elif rec.cls == NOISE:
                self.noise_lines += self.counts[template]

    # -- bookkeeping -----------------------------------------------------------------------------
    def _timestamps(self, raws: RawLines, first_n: int) -> None:
        if self.first_timestamp is None:
            for offset in range(min(50, len(raws))):
                stamp = co.find_timestamp(decode_line(raws[offset][:200]))
                if stamp:
                    self.first_timestamp = (first_n + offset, stamp)
                    break
        for offset in range(len(raws) - 1, max(len(raws) - 30, -1), -1):
            stamp = co.find_timestamp(decode_line(raws[offset][:200]))
            if stamp:
                self.last_timestamp = (first_n + offset, stamp)
                break

    def _prune(self) -> None:
        # Fold the rarest templates into anonymous tallies until the table is half full again.
        # Coordinates live in `coords`, so none is lost; a pruned coordinate template is simply
        # classified again if it comes back. Soft and ordinary lines lose only their pattern text.
        # The tables are rebuilt by comprehensions rather than deleted from one key at a time: on
        # data that does not repeat this runs every few MB over 30,000 entries.
        threshold = 1
        while len(self.templates) + len(self._plain) > self.max_templates // 2:
            counts, templates = self.counts, self.templates
            keep = {t: r for t, r in templates.items() if counts[t] > threshold}
            dropped = [(counts[t], r) for t, r in templates.items() if t not in keep]
            names = list(self._plain)
            frequent = list(map(threshold.__lt__, map(counts.__getitem__, names)))
            plain = {t: self._plain[t] for t in compress(names, frequent)}
            self.pruned_lines += sum(count for count, _ in dropped)
            self.pruned_lines += sum(map(counts.__getitem__, self._plain.keys() - plain.keys()))
            for count, rec in dropped:
                if rec.cls == co.PLAIN:
                    continue
                if rec.cls == co.PASS and rec.lc.kind != "announce":
                    self.passed += count
                elif rec.cls == co.BINARY:
                    self.binary_lines += count
                elif rec.cls == co.SOFT:
                    self.soft_pruned += count
            self.counts = Counter({t: counts[t] for t in chain(keep, plain)})
            self.last = {t: self.last[t] for t in chain(keep, plain) if t in self.last}
            self._plain = plain
            self._slow_set.intersection_update(keep)
            self._key_set.intersection_update(keep)
            self.templates = keep
            threshold *= 2

    def family_counts(self) -> FamilyCounts:
        """Weighted family counts for the classification."""
        counts = FamilyCounts(lines=self.line_no)
        # The most frequent templates decide; the long tail cannot move a share by much.
        for template, count in self.counts.most_common(_FAMILY_TEMPLATES):
            rec = self.templates.get(template)
            if rec is None:
                continue
            lc = rec.lc
            text = decode_line(rec.sample[:300].translate(DIGITS))
            build, test, container = formats.family_hits(text)
            counts.records += count * lc.record
            counts.build += count * build
            counts.test += count * (test or lc.cls == co.PASS)
            counts.container += count * container
            counts.tracebacks += count * (lc.cls == co.FRAME)
        return counts

    def shape(self) -> Shape:
        """The output's shape (test run, report, listing, content, ...), from the template table."""
        rows = [(r.text(), self.counts[t], r.cls) for t, r in self.templates.items()]
        kinds = Counter(e.kind for e in self.coords.values())
        records = sum(self.counts[t] for t, r in self.templates.items() if r.lc.record)
        return decide_shape(rows, kinds, records, self.line_no)
