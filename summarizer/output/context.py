"""The lines around a failure: ``grep -B3 -A1`` context and the failure's whole block.

A failure line keeps the 3 lines before it and the line after it verbatim (they often name the
step, the input or the variant that failed). The lines that *continue* it belong to its block and
are kept too: lines indented deeper than the failure line, and lines opening with a continuation
prefix (``DETAIL:``, ``HINT:``, ``Caused by:``, ``note:``, ``help:``, ``-->``, ``^--``, ``|``,
``= ``). A process-id prefix (``==123==``, ``[pid 42]``) is looked through, so a memory checker's
group is one block. A block past :data:`BLOCK_HEAD` lines keeps its first lines and its last line,
with the restore range of what was left out.

Context is kept apart from the coordinates: the rendering shows it when the budget allows and
folds it first when the failures alone fill the budget (every failure line stays whole).
"""

from __future__ import annotations

from summarizer.core.lazyre import lazy
from summarizer.core.records import field, record

__all__ = ["AFTER", "BEFORE", "BLOCK_HEAD", "Context"]

BEFORE = 3
AFTER = 1
BLOCK_HEAD = 24
_BLOCK_SCAN = 200
_LINE_BYTES = 512
_MAX_LINES = 200_000
_PID = lazy(rb"^(?:==\d+==|--\d+--|\*\*\d+\*\*|\[pid\s*\d+\])\s?")
_CONTINUATION = lazy(
    rb"^\s*(?:DETAIL|HINT|CONTEXT|STATEMENT|QUERY|LOCATION|WHERE|Caused by|caused by|Cause|note|help"
    rb"|NOTE|HELP|Hint|Note|Details?|Reason|reason|Suggestion|Did you mean|-->|\^-+|\||= |\.\.\.|\d+ +\|)"
)
# The same keywords after a log record's header ("... UTC [22500] DETAIL:  Key (id)=(7) exists.").
_LABELLED = lazy(rb"\s(?:DETAIL|HINT|CONTEXT|STATEMENT|Caused by|caused by|note|help|NOTE|HELP|Hint|Note):\s")
# A failure whose message is on the unindented lines under it, whatever they say: Rust's panic
# (`assertion failed`, `  left: 1`, ` right: 2`, a custom message, up to a blank, `note:` or
# `stack backtrace:` line) and a failing Go Example (its `got:` and `want:` output, up to go test's
# next `=== RUN`/`--- PASS` line).
_MESSAGE_HEAD = lazy(rb"panicked at \S+:\d+(?::\d+)?:\s*$|^\s*--- FAIL: Example\w* \(")
_MESSAGE_END = lazy(rb"^(?:note: |stack backtrace:|=== [A-Z]+ |--- [A-Z]+: |FAIL\b|ok\s|PASS$)")
# A sentence that announces what follows ("The conflict is caused by:", "Reasons:"): right after the
# blank line that ends a failure's block, it and its lines up to the next blank are that failure's
# message (pip's resolver names the conflicting requirements there).
_LEAD_IN = lazy(rb"^\s*[A-Z][^:\n]{2,100}:\s*$")
# A token that names a file (a path, or a name with an extension): a variant's varying part.
_NAMING = lazy(rb"[\w.-]*/[\w./-]+|\b[\w-]+\.[A-Za-z]\w{0,5}\b")


def _body(raw: bytes) -> bytes:
    return _PID.sub(b"", raw, count=1) if raw[:1] in b"=-*[" else raw


_DIGITS = bytes.maketrans(b"0123456789", b"##########")
_LEAD = lazy(rb"^\s*\S+(?:\s+\S+)?")


def _shape(body: bytes) -> bytes:
    """A line's indentation and first two words, digits templated: what a run of like lines shares."""
    lead = _LEAD.match(body)
    return lead.group().translate(_DIGITS) if lead else b""


def _indent(body: bytes) -> int:
    return len(body) - len(body.lstrip())


@record
class _Block:
    indent: int
    kept: int = 0
    # The shape of the ordinary line just above the failure: when it comes back, the output's
    # ordinary lines have resumed and the block is over (indented noise after an unindented error).
    resume: bytes | None = None
    skipped_from: int = 0
    last: tuple[int, bytes] | None = None
    # The block is a panic's (or an Example's) message: every line of it stays whatever the budget.
    message: bool = False


@record(slots=False)
class Context:
    """Collects context lines (line number -> raw bytes) while the engine streams."""

    lines: dict[int, bytes] = field(default_factory=dict)
    # The lines that head a failure's block (less indented, just above it): shown whatever the budget.
    heads: set[int] = field(default_factory=set)
    # The lines after a failure inside its block (snippet, caret, continuation): folded after the
    # lines before it.
    body: set[int] = field(default_factory=set)
    # The line right above each failure: kept after the blocks' lines when the context is folded.
    above: set[int] = field(default_factory=set)
    after: int = 0
    folded: int = 0
    _block: _Block | None = None
    _last: tuple[int, bytes | None] = (-BEFORE - 2, None)
    # The blank line that ended a failure's block: the line after it may announce the failure's message.
    _gap: int = 0

    @property
    def busy(self) -> bool:
        """True while the next line must be seen (the line after a failure, or an open block)."""
        return self.after > 0 or self._block is not None or self._gap > 0

    def keep(self, n: int, raw: bytes) -> None:
        """Keep line ``n`` as context (bounded in count and bytes)."""
        if n > 0 and n not in self.lines and len(self.lines) < _MAX_LINES:
            self.lines[n] = raw[:_LINE_BYTES]

    def failure(self, n: int, raw: bytes, before: list[tuple[int, bytes]]) -> None:
        """Line ``n`` is a failure: keep ``before`` and the next line, and open its block."""
        for number, line in before:
            self.keep(number, line)
        indent = _indent(_body(raw))
        # The chain of less-indented lines above it (a checker's headline, "In file line N:") is the
        # failure's own location and message: it stays even when the rest of the context is folded.
        top = 0
        for index, (number, line) in enumerate(before):
            body = _body(line)
            if not body.strip():
                break
            if _indent(body) < indent:
                indent = _indent(body)
                self.heads.add(number)
                top = index + 1
        # The lines between the failure and its heading lines belong to that block (a checker's
        # "#0 0x7f1 in free" between "freed by thread T0 here:" and the next frame).
        for number, _ in before[: max(top - 1, 0)]:
            if number not in self.heads:
                self.body.add(number)
        # A line just above that names what the failure names is the failing variant (the
        # `install` step of the file `install` could not find): it stays whole too.
        named = {t for t in _NAMING.findall(raw) if len(t) >= 4}
        if before and named & set(_NAMING.findall(before[0][1])):
            self.heads.add(before[0][0])
        # The line right above a failure (above its heading lines) is the step that failed, the
        # variant of a repeated line that a pattern would hide: it stays whole, unless it continues
        # an earlier failure's block.
        above = before[top] if top < len(before) and before[top][1].strip() else None
        if above is not None and above[0] not in self.body:
            self.above.add(above[0])
        # A failure a few lines after another continues it: the ordinary lines are still those that
        # were above its first line.
        last_n, last_resume = self._last
        self.after = AFTER
        # A failure line inside a panic's message (`assertion failed`) goes on with that message.
        message = bool(_MESSAGE_HEAD.search(raw)) or (self._block is not None and self._block.message)
        self._close()
        resume = last_resume if n - last_n <= BEFORE + 1 and last_resume else None
        resume = resume or (_shape(_body(above[1])) if above is not None else None)
        self._block = _Block(_indent(_body(raw)), resume=resume, message=message)
        self._last = (n, resume)

    def next_line(self, n: int, raw: bytes) -> None:
        """Called for each line while :attr:`busy`, before the line is classified."""
        if self._gap:
            gap, self._gap = self._gap, 0
            if n == gap + 1 and self._block is None and _LEAD_IN.match(_body(raw)):
                self.keep(n, raw)
                self.heads.add(n)
                self._block = _Block(_indent(_body(raw)), message=True)
                return
        if self.after:
            self.after -= 1
            self.keep(n, raw)
            if _LABELLED.search(raw, 0, 120) or _CONTINUATION.match(_body(raw)):
                self.heads.add(n)  # the failure's message goes on here
        block = self._block
        if block is None:
            return
        body = _body(raw)
        stripped = body.strip()
        if block.message:
            self._message_line(n, raw, block)
            return
        labelled = bool(_LABELLED.search(raw, 0, 120))
        if not stripped:
            self._close()
            self._gap = n
            return
        if (_indent(body) <= block.indent and not labelled and not _CONTINUATION.match(body)) or (
            block.resume is not None and _shape(body) == block.resume
        ):
            self._close()
            return
        if labelled:
            self.heads.add(n)
        if block.kept < BLOCK_HEAD:
            block.kept += 1
            self.keep(n, raw)
            self.body.add(n)
            return
        block.skipped_from = block.skipped_from or n
        block.last = (n, raw)
        if n - block.skipped_from >= _BLOCK_SCAN:
            self._close()  # a block this long is a region, not a failure's block: stop following it

    def _message_line(self, n: int, raw: bytes, block: _Block) -> None:
        """A line under a panic or a failing Example: its message until a blank or end line."""
        if not raw.strip() or _MESSAGE_END.match(raw) or block.kept >= BLOCK_HEAD:
            self._close()
            return
        block.kept += 1
        self.keep(n, raw)
        self.heads.add(n)

    def _close(self) -> None:
        block, self._block = self._block, None
        if block is None or block.last is None:
            return
        last_n, last_raw = block.last
        if last_n > block.skipped_from:
            start, end = block.skipped_from, last_n - 1
            self.folded += end - start + 1
            self.keep(
                start,
                f"   [... {end - start + 1} lines of this block; restore --lines {start}:{end}]".encode(),
            )
        self.keep(last_n, last_raw)

    def finish(self) -> None:
        """Close the open block at the end of input."""
        self._close()
        self.after = 0
