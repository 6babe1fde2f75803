"""The engine's slow path: coordinates, frames, failing tests' blocks and announced item lists.

Only the lines whose key is special (a coordinate, a frame, a section header, an HTTP request) and
the lines inside an open block come here, one at a time; everything else stays in the per-chunk C
operations of :mod:`summarizer.output.engine`. :class:`SlowPath` holds the methods; the engine's
state (its fields) is declared on :class:`~summarizer.output.engine.Engine`.
"""

from __future__ import annotations

import re

# hashlib's own blake2b, without hashlib: importing it loads OpenSSL, milliseconds on every cold start.
from _blake2 import blake2b

from summarizer.core.lazyre import lazy
from summarizer.core.records import record
from summarizer.output import coordinates as co
from summarizer.output import rules
from summarizer.output.context import BEFORE, Context
from summarizer.output.formats import LEAD_IN, is_pass_line, special_kind
from summarizer.output.frames import TraceBlock
from summarizer.output.kept import ERROR_KINDS
from summarizer.output.lines import decode_line
from summarizer.output.table import (
    DIGITS,
    MAX_TEMPLATE_BYTES,
    NOISE,
    PLAIN_CLASS,
    ExtraRules,
    RawLines,
    TemplateStat,
)

__all__ = [
    "MAX_COORDINATES",
    "MAX_HTTP_4XX",
    "MAX_WARNINGS",
    "CoordEntry",
    "FailureBlock",
    "ItemBlock",
    "SlowPath",
]

MAX_COORDINATES = 20_000
MAX_WARNINGS = 10_000
_WARNING_KINDS = frozenset({"warning", "located_warning"})
# Kept text per coordinate: generous until the coordinates hold 64 MB, then just the start.
_COORD_BYTES = 8192
_COORD_BYTES_LOW = 512
_COORD_MEMORY = 64 << 20
_FAILURE_BLOCK_LINES = 60
_BARE_PATH_B = lazy(rb"^(?:[A-Za-z]:)?[\w.~@/\\+#-]+\.[A-Za-z]\w{0,7}$")
_ESLINT_ROW = lazy(rb"^\s+\d+:\d+\s")
# rustc/ruff print the message first and the location under it ("  --> src/a.rs:3:5").
_ARROW = lazy(rb"^\s*--> ")
# Failing-test headers whose details follow, indented: TAP "not ok", jest "●", spec/mocha marks.
_BLOCK_HEADER = lazy("^\\s*(?:not ok\\b|●|✖|✗|✘|×|❌|\\d+\\) )".encode())
_LEAD_IN = lazy(LEAD_IN.encode())
_NUMBERED = lazy(rb"^\s*\d+\) \S")
# A numbered heading that names only a failure kind (minitest's "1) Failure:"): the test's name and
# its message are the unindented lines under it.
_KIND_HEADING = lazy(rb"^\s*\d+\) (?:Failure|Error|Fail(?:ed)?)\w*:?\s*$")
_SUITE_DEPTH = 4
# A heading that quotes the source line under it (shellcheck's "In a.sh line 49:", "Did you mean:"):
# the quoted line is code (a `case` branch "1) x;;", an `echo "error"`), never a failure of its own.
_QUOTES_SOURCE = lazy(rb"(?:^In \S.* line \d+:|^Did you mean:?)\s*$")
_QUOTABLE = frozenset({"error", "failing_test", "location"})
_ESLINT_LINE = lazy(r"^\s+#+:#+\s")
# An error line ending in a colon announces the indented list that follows (git's file lists).
_LIST_HEADER = lazy(rb"^(?:error|fatal|ERROR|FATAL|Error)\b[^\n]*:\s*$")
_ITEM_LINES = 6  # lines kept per announced item (pydantic: field, message, help URL)
_ITEMS_CAP = 600
# Distinct 4xx request lines kept in full; past this they are counted (a scanner's 404 storm).
MAX_HTTP_4XX = 200
_SOURCE_LINE = lazy(r"^\s+(?:\S|\[Previous line repeated)")
_SOURCES_PER_FRAME = 2
# Occurrences of one repeated failure that keep their own context (the step above each).
_REPEAT_CONTEXT = 3


_GUTTER = lazy(rb"^(==|--|\*\*)\d+\1(?: |$)")
# A function call standing alone ("main.main()", "panic(...)"): Go's half of a frame, not a headline.
_CALL = lazy(rb"^[\w.$*/()\[\]-]+\(.*\)\s*$")


# A marker line under a quoted source line: carets (``^``, ``^^^~~~``) and nothing else.
_CARET = lazy(rb"^\s*\^[\^~-]*\s*$")
_METHOD = lazy(rb"(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) /")


def _method_at(raw: bytes, status_at: int) -> int:
    """Where the request of a plain-text access line starts (its method), else 0."""
    found = _METHOD.search(raw, 0, status_at)
    return found.start() if found else 0


def _ungutter(raw: bytes) -> bytes:
    """The line without a process-id gutter (see ``rules.PID_GUTTER``)."""
    if raw[:1] in b"=-*" and (gutter := _GUTTER.match(raw)):
        return raw[gutter.end() :]
    return raw


@record
class CoordEntry:
    """One distinct coordinate while streaming."""

    kind: str
    line: int
    raw: bytes
    count: int = 1
    last_line: int = 0
    full_bytes: int | None = None
    # A location printed under its message (``  --> a.py:3:1``): the line where that message is kept.
    head: int = 0


@record
class FailureBlock:
    indent: int
    kept: int = 0
    trace: TraceBlock | None = None
    # A section of numbered failures (``There were 2 failures:``, then ``1) name``): each failure's
    # block runs to the next numbered heading, not by indentation (JUnit, PHPUnit and minitest print
    # the message and the expected/actual diff unindented under the heading).
    section: bool = False
    headed: bool = False


@record
class ItemBlock:
    """The items an error header announced ("7 validation errors for X") or an error's indented list."""

    expected: int | None
    indent: int
    items: int = 0
    item_indent: int | None = None
    kept: int = 0


class SlowPath:
    """The slow-path methods of :class:`~summarizer.output.engine.Engine` (which holds the state)."""

    rules: ExtraRules | None
    coords: dict[bytes, CoordEntry]
    coords_not_listed: int
    frame_markers: list[tuple[int, str]]
    omitted_frames: int
    http_4xx: int
    http_4xx_more: int
    http_4xx_range: tuple[int, int]
    in_passes: bool
    ctx: Context
    _trace: TraceBlock | None
    _trace_is_python: bool
    _trace_sources: int
    _expect_exception: bool
    _saw_traceback: bool
    _failure: FailureBlock | None
    _coord_bytes: int
    _warnings: int
    _items: ItemBlock | None
    _prev: bytes
    _chunk: RawLines | list[bytes]
    _index: int
    _cur_n: int
    _tail: list[bytes]
    _heading: tuple[int, bytes]
    _trace_closed: int

    def _slow(self, n: int, raw: bytes, rec: TemplateStat, full: int | None) -> None:
        """One line that is special or inside an open block: blocks first, then its class."""
        template = raw[:MAX_TEMPLATE_BYTES].translate(DIGITS)
        cls = rec.cls
        if self._continues(n, raw, cls, rec.lc.kind):
            return
        if self._expect_exception and raw.strip():
            self._expect_exception = False
            if cls != co.FRAME:
                self._add_coord(n, raw, template, "exception", 0, full)
                self._open_items(raw, template)
                return
        if cls == co.FRAME:
            if self._headline(n, raw):
                return
            self._trace = TraceBlock(start_line=n)
            self._trace_is_python = self._saw_traceback
            self._trace_sources = 0
            self._trace.add(n, decode_line(raw[:4096]), True)
        elif cls == co.HTTP:
            self._http(n, raw, template, rec.lc.header_end)
        elif cls == co.HEADER:
            if rec.lc.kind == "section":
                self.in_passes = b"PASSES" in raw
        elif cls == co.COORD:
            self._coordinate(n, raw, template, rec.lc, full)

    def _continues(self, n: int, raw: bytes, cls: int, kind: str = "") -> bool:
        """True when the line belongs to an open block (announced items, a failing test, a trace)."""
        if raw[:1] in b" \t^" and _CARET.match(raw):
            self._quoted(n)
        if self.ctx.busy and cls != NOISE:
            self.ctx.next_line(n, raw)
        if self._items is not None and self._in_items(n, raw):
            return True
        if self._failure is not None and self._in_failure(n, raw, cls, kind):
            return True
        if self._trace is not None:
            text = None
            # A Python frame's source lines travel with it (its code, a caret line), but a run of
            # indented lines after the frames is the output going on, not the trace.
            self._trace_sources = 0 if cls == co.FRAME else self._trace_sources + 1
            if cls == co.FRAME or (
                cls != co.COORD
                and self._trace_is_python
                and self._trace_sources <= _SOURCES_PER_FRAME
                and _SOURCE_LINE.match(text := decode_line(raw[:4096]))
            ):
                self._trace.add(n, text if text is not None else decode_line(raw[:4096]), cls == co.FRAME)
                return True
            self._close_trace()
            self._trace_closed = n
        return False

    def _quoted(self, n: int) -> None:
        """A caret under the line above marks that line as source text a tool quotes (node prints
        the throwing line, then ``^``, then the error): an error word in it is no failure of its own."""
        prev = self._prev
        entry = self.coords.get(prev if len(prev) <= 256 else blake2b(prev, digest_size=16).digest())
        if entry is not None and entry.line == n - 1 and entry.count == 1 and entry.kind == "error":
            entry.kind = "detail"

    def _headline(self, n: int, raw: bytes) -> bool:
        """A run of frames under a line that no rule made a failure ("Invalid read of size 4",
        "freed by thread T0 here:"): that line is the failure's headline, and the frames with the
        indented lines under it (continuations, more frames) are its block. A line between two runs
        of frames is the trace going on (Go prints a function line above each file line), and a
        line that reads as a call is a frame's own first half."""
        prev = _ungutter(self._prev)
        head = prev.lstrip()
        if not head or n < 2 or self._trace_closed == n - 1 or _CALL.match(head):
            return False
        indent = len(prev) - len(head)
        body = _ungutter(raw)
        if len(body) - len(body.lstrip()) <= indent:
            return False
        key = self._prev if len(self._prev) <= 256 else blake2b(self._prev, digest_size=16).digest()
        known = self.coords.get(key)
        if known is not None and known.last_line == n - 1:
            return False
        self._add_coord(n - 1, self._prev, self._prev, "error", 0, None)
        # The lines above the headline name the step that failed, as for any failure line.
        above = [(k, line) for k, line in self._before(n, skip=1) if not self._noise(line)]
        self.ctx.failure(n - 1, self._prev, above)
        self.ctx.next_line(n, raw)
        self._failure = FailureBlock(indent, trace=TraceBlock(start_line=n))
        self._failure.trace.add(n, decode_line(raw[:4096]), True)  # type: ignore[union-attr]
        return True

    def _coordinate(self, n: int, raw: bytes, template: bytes, lc: co.LineClass, full: int | None) -> None:
        if b"Traceback" in raw:
            self._saw_traceback = True
        if lc.kind == "error" and self._suite_title(raw):
            return
        if lc.kind in _QUOTABLE and _QUOTES_SOURCE.search(self._prev):
            return  # the source line a linter quotes under its location: its marker line says what is wrong
        key = None
        if template[:1] == b" " and _ESLINT_LINE.match(decode_line(template[:64])):
            # A row that names no file belongs to the file heading above it: the same row under
            # another heading is another coordinate (never folded into this one's [×N]).
            key = self._eslint_heading(n) + b"\n" + raw
        if self.in_passes and lc.kind == "failing_test" and raw.startswith(b"_"):
            return  # pytest -rA prints a section per *passing* test too: not a failure
        head = None
        if _ARROW.match(raw) and self._prev.strip() and n > 1:
            # The message above the arrow names the rule ("F821 Undefined name `x`"); a message with
            # an error word was recorded on its own line already. The arrow is keyed with its
            # message (one place, two rules: two rows) and remembers where that message is kept.
            known = self._prev if len(self._prev) <= 256 else blake2b(self._prev, digest_size=16).digest()
            head = self.coords.get(known)
            if head is None or head.last_line != n - 1:
                head = self._add_coord(n - 1, self._prev, self._prev, "detail", 0, None)
            key = self._prev + b"\n" + raw
        entry = self._add_coord(n, raw, template, lc.kind, lc.header_end, full, key=key)
        if head is not None and entry is not None and entry.line == n:
            entry.head = head.line
        self._open_items(raw, template)
        if lc.kind == "failing_test" and _BLOCK_HEADER.match(raw):
            indent = len(raw) - len(raw.lstrip())
            kind_only = bool(_KIND_HEADING.match(raw))
            self._failure = FailureBlock(indent, section=kind_only, headed=kind_only)
        elif lc.kind == "summary" and _LEAD_IN.match(raw):
            self._failure = FailureBlock(len(raw) - len(raw.lstrip()), section=True)

    def _suite_title(self, raw: bytes) -> bool:
        """A heading whose first child, indented under it, is a test row (a pass or a failure mark):
        a suite's title (mocha's ``describe('error')``, node's ``▶ Command.error()``), whatever
        words it holds; its tests say whether it failed."""
        if not raw[:1].isspace() and raw[:1].isalnum():
            return False
        indent = len(raw) - len(raw.lstrip())
        raws = self._chunk
        # The first test row may sit under nested suite titles ("error" > "GET /" > "✔ ...").
        for below in range(self._index + 1, min(self._index + 1 + _SUITE_DEPTH, len(raws))):
            child = raws[below]
            if not child.strip() or len(child) - len(child.lstrip()) <= indent:
                return False
            template = decode_line(child[:MAX_TEMPLATE_BYTES].translate(DIGITS)).rstrip("\r\n")
            if is_pass_line(template) or special_kind(template) == "failing_test":
                return True
        return False

    def _in_failure(self, n: int, raw: bytes, cls: int, kind: str = "") -> bool:
        """Lines indented under a failing test (TAP YAML, jest details) belong to it."""
        block = self._failure
        assert block is not None
        body = _ungutter(raw)
        stripped = body.lstrip()
        if block.section:
            handled = self._in_section(n, raw, cls, kind, block)
            if handled is not None:
                return handled
        elif stripped and len(body) - len(stripped) <= block.indent:
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

    def _in_section(self, n: int, raw: bytes, cls: int, kind: str, block: FailureBlock) -> bool | None:
        """A line of a numbered-failures section: a heading opens the next failure's block; blank
        lines go on; a passing test, a summary or a line before any heading ends the section; the
        tool's own coordinates (exceptions, locations) are recorded as such; ``None``: a line of
        the failure's block, kept as a detail."""
        stripped = raw.strip()
        if not stripped:
            return True
        if _NUMBERED.match(raw) and (not block.headed or len(raw) - len(raw.lstrip()) <= block.indent):
            if block.trace is not None:
                self._emit_trace(block.trace)
            block.trace, block.kept, block.headed = None, 0, True
            block.indent = len(raw) - len(raw.lstrip())
            self._add_coord(n, raw, raw, "failing_test", 0, None)
            return True
        if not block.headed or cls == co.PASS or kind == "summary":
            self._close_failure()
            return False
        if cls == co.COORD:
            if block.trace is not None:
                self._emit_trace(block.trace)
                block.trace = None
            return False
        return None

    def _eslint_heading(self, n: int) -> bytes:
        """The file heading above a ``line:col  error  message`` row (eslint prints the file once),
        kept with the error; looked up in this chunk, so listings pay nothing for it. Past a chunk's
        start it is the last heading seen."""
        raws, k = self._chunk, self._index - 1
        while k >= 0 and _ESLINT_ROW.match(raws[k]):
            k -= 1
        if k >= 0 and _BARE_PATH_B.match(raws[k]):
            line = n - (self._index - k)
            if line != self._heading[0]:
                self._heading = (line, raws[k])
                self._add_coord(line, raws[k], raws[k], "file", 0, None)
        return self._heading[1]

    def _http(self, n: int, raw: bytes, template: bytes, status_at: int) -> None:
        # 5xx is a failure of the server; 4xx a failure of the request (kept, up to a cap).
        status = raw[status_at : status_at + 1]
        if status not in (b"5", b"4"):
            return
        # The same request failing again folds into one entry with a count (the time differs);
        # requests that differ only in an id are merged at rendering, with the id's range.
        quote = raw.rfind(b'"', 0, max(status_at - 2, 0))
        # A plain-text access line has no quoted request: it runs from its method on.
        key = raw[quote:] if quote >= 0 else raw[_method_at(raw, status_at) :]
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
                self._items = ItemBlock(expected, indent)
        elif _LIST_HEADER.match(raw):
            self._items = ItemBlock(None, indent)

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
    ) -> CoordEntry | None:
        # Identical messages fold into one entry: the header (time, pid, level) is templated.
        if key is None:
            key = template[:header_end] + raw[header_end:] if header_end else raw
        if len(key) > 256:
            key = blake2b(key, digest_size=16).digest()
        entry = self.coords.get(key)
        if entry is not None:
            entry.count += 1
            entry.last_line = n
            if entry.count <= _REPEAT_CONTEXT and kind in ERROR_KINDS and n == self._cur_n:
                # The same failure again after another step: the lines around it say which step.
                self.ctx.failure(n, raw, [(k, line) for k, line in self._before(n) if not self._noise(line)])
            return entry
        # Warnings have a cap of their own: a flood of them never crowds out a later failure.
        warning = kind in _WARNING_KINDS
        if (
            (self._warnings >= MAX_WARNINGS)
            if warning
            else (len(self.coords) - self._warnings >= MAX_COORDINATES)
        ):
            self.coords_not_listed += 1
            return None
        self._warnings += warning
        if kind in ERROR_KINDS and n == self._cur_n:
            self.ctx.failure(n, raw, [(k, line) for k, line in self._before(n) if not self._noise(line)])
        keep = _COORD_BYTES if self._coord_bytes < _COORD_MEMORY else _COORD_BYTES_LOW
        kept = raw[:keep]
        self._coord_bytes += len(kept)
        if full is None and len(raw) > keep:
            full = len(raw)
        entry = self.coords[key] = CoordEntry(kind, n, kept, 1, n, full)
        return entry

    def _noise(self, raw: bytes) -> bool:
        """True for a line the team's noise rules drop (never kept, not even as context)."""
        return self.rules is not None and self.rules.verdict(raw, PLAIN_CLASS).cls == NOISE

    def _before(self, n: int, skip: int = 0) -> list[tuple[int, bytes]]:
        """The (up to) 3 lines before the current line (before the ``skip`` lines above it), from
        this chunk or the previous one's tail."""
        raws, index = self._chunk, self._index
        out: list[tuple[int, bytes]] = []
        for back in range(1 + skip, BEFORE + 1 + skip):
            at = index - back
            if at >= 0:
                out.append((n - back, raws[at]))
            elif -at <= len(self._tail):
                out.append((n - back, self._tail[at]))
        return out
