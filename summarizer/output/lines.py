"""Decoding raw tool output into clean lines, cheaply and in bounded memory.

Real output is messy: CRLF endings, ANSI colour codes, carriage-return progress bars, invalid UTF-8,
minified lines of many megabytes and binary garbage. The engine works on *bytes* because every
bulk operation (split, translate, hash) is several times faster on bytes than on ``str``; only the
few lines that are kept are ever decoded. The helpers here are applied per chunk of complete lines
and only when the chunk needs them (``b"\\x1b" in chunk``), so clean input pays almost nothing.

Invariant: cleaning never changes the number of lines, so line numbers always refer to the
original input (1-based), which is what ``summarizer restore --lines A:B`` prints back.
"""

from __future__ import annotations

from collections.abc import Iterator

from summarizer.core.lazyre import lazy
from summarizer.core.records import record

__all__ = [
    "MAX_LINE_BYTES",
    "READ_SIZE",
    "RENDER_LINE_CHARS",
    "Chunk",
    "clean_chunk",
    "decode_line",
    "is_binary",
    "iter_chunks",
    "looks_binary",
    "scan_windows",
    "strip_ansi",
    "truncate_for_render",
]

READ_SIZE = 1 << 20
# A single line longer than this is cut for analysis (the store still has it whole).
MAX_LINE_BYTES = 64 * 1024
# Rendering cap for one kept line; longer lines end with a marker saying how to get the rest.
RENDER_LINE_CHARS = 2000

# CSI sequences (colours, cursor moves), OSC sequences (titles, hyperlinks) and lone escapes.
_ANSI_B = lazy(rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
_ANSI_S = lazy(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
_CONTROL = bytes(range(32)).replace(b"\t", b"").replace(b"\n", b"").replace(b"\r", b"")


TYPE_CHECKING = False  # typing stays off the cold path (docs/cold-path.md)
if TYPE_CHECKING:
    from typing import Protocol

    class Readable(Protocol):
        """Anything with a binary ``read(size)``."""

        def read(self, size: int = -1, /) -> bytes: ...


@record(frozen=True)
class Chunk:
    """Complete lines read from the input: the raw bytes and, per truncated line, its full size."""

    data: bytes
    long_lines: tuple[tuple[int, int], ...] = ()  # (index within chunk, original byte length)
    # Errors found in the part of a cut line that was not kept: (index, byte offset, window).
    windows: tuple[tuple[int, int, bytes], ...] = ()


# Error words looked for deep inside very long lines (the start of a line is classified normally).
_SCAN = lazy(
    rb"[Ee]rror|ERROR|[Ee]xception|[Ff]ail|FAIL|[Ff]atal|FATAL|[Pp]anic|PANIC|Traceback|denied|[Aa]ssert"
)
_SCAN_S = lazy(_SCAN.pattern.decode())
WINDOW = 240
_MAX_WINDOWS = 3


def scan_windows(data: bytes, start: int = 0, base: int = 0) -> list[tuple[int, bytes]]:
    """Up to 3 windows (byte offset in the line, bytes) around error words in ``data[start:]``.

    ``base`` is the offset of ``data`` within its line. Matches inside an earlier window are
    skipped, so a burst of errors is one window.
    """
    found: list[tuple[int, bytes]] = []
    pos = start
    while len(found) < _MAX_WINDOWS:
        match = _SCAN.search(data, pos)
        if match is None:
            break
        lo = max(0, match.start() - WINDOW)
        hi = min(len(data), match.end() + WINDOW)
        found.append((base + lo, data[lo:hi]))
        pos = hi
    return found


def strip_ansi(text: str) -> str:
    """Remove ANSI escape sequences from ``text``."""
    return _ANSI_S.sub("", text) if "\x1b" in text else text


def _last_cr_segment(line: bytes) -> bytes:
    # A terminal shows only what was written after the last carriage return (progress bars).
    parts = [p for p in line.split(b"\r") if p.strip()]
    return parts[-1] if parts else b""


def _fix_progress_lines(data: bytes) -> bytes:
    # Only the lines holding a bare CR are rewritten; the rest is copied in slices.
    out: list[bytes] = []
    cursor = 0
    cr = data.find(b"\r")
    while cr != -1:
        start = data.rfind(b"\n", 0, cr) + 1
        end = data.find(b"\n", cr)
        end = len(data) if end == -1 else end
        out.append(data[cursor:start])
        out.append(_last_cr_segment(data[start:end]))
        cursor = end
        cr = data.find(b"\r", end)
    out.append(data[cursor:])
    return b"".join(out)


def clean_chunk(data: bytes) -> bytes:
    """Normalise a chunk of complete lines without changing how many lines it has."""
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n")
        if b"\r" in data:
            data = _fix_progress_lines(data)
    if b"\x1b" in data:
        data = _ANSI_B.sub(b"", data)
    return data


def is_binary(line: bytes) -> bool:
    """True for lines that are mostly not text (NUL bytes or many control characters)."""
    if b"\x00" in line:
        return True
    if not line:
        return False
    controls = len(line) - len(line.translate(None, _CONTROL))
    return controls * 10 > len(line)


# Like git: a NUL byte in the first 8,000 bytes says binary; here a third of them must be non-text too,
# so a log with a few NUL-filled lines (a file zeroed by a crash) is still read as a log.
SNIFF_BYTES = 8000


def looks_binary(head: bytes) -> bool:
    """True when the start of an input is binary data (an executable, an archive, random bytes),
    not a tool's text output: a NUL byte, and a third or more of it control bytes or invalid UTF-8."""
    head = head[:SNIFF_BYTES]
    if b"\x00" not in head:
        return False
    text = head.decode("utf-8", "replace")
    controls = sum(1 for char in text if char < " " and char not in "\t\n\r\f\v\x1b")
    invalid = text.count("\ufffd")
    return (controls + invalid) * 3 >= len(text)


def decode_line(raw: bytes) -> str:
    """Decode one line; invalid UTF-8 becomes U+FFFD replacement characters."""
    return raw.decode("utf-8", "replace")


def truncate_for_render(text: str, *, line_no: int, full_bytes: int | None, limit: int) -> str:
    """Cut a very long line for the rendering, with a marker saying how to restore it whole.

    When the line's first error word lies past the cut, a window around it is shown too, with the
    character range that was left out between the head and the window.
    """
    if len(text) <= limit and full_bytes is None:
        return text
    size = full_bytes if full_bytes is not None else len(text.encode("utf-8", "replace"))
    hint = f"restore --lines {line_no}:{line_no}"
    match = _SCAN_S.search(text, max(limit - WINDOW, 0))
    if match is not None and match.start() > limit - WINDOW // 2:
        head = text[: limit // 4]
        lo, hi = max(len(head), match.start() - WINDOW), min(len(text), match.end() + WINDOW)
        cut = f"[... chars {len(head):,}-{lo:,} cut ...]"
        return f"{head} {cut} {text[lo:hi]} [... {size:,} bytes in full; {hint}]"
    return f"{text[:limit]} [... line truncated: {size:,} bytes in full; {hint}]"


def iter_chunks(stream: Readable) -> Iterator[Chunk]:
    """Yield chunks of complete lines from ``stream``; the last line need not end with a newline.

    Memory stays bounded: a line longer than :data:`MAX_LINE_BYTES` is kept only up to that size
    (its full length is reported in :attr:`Chunk.long_lines`). Lines that fit inside one read
    block are passed whole; the engine cuts them when it keeps them.
    """
    carry = b""
    carry_len = 0  # true length of the line being carried, when it was cut
    # Errors in the dropped part of the carried line: (offset in the line, window).
    carry_windows: list[tuple[int, bytes]] = []
    while True:
        block = stream.read(READ_SIZE)
        if not block:
            break
        cut = block.rfind(b"\n")
        if cut < 0:
            # No newline in this block: the carried line only grows.
            start = carry_len or len(carry)
            if len(carry) < MAX_LINE_BYTES:
                carry += block[: MAX_LINE_BYTES - len(carry)]
            if len(carry_windows) < _MAX_WINDOWS:
                carry_windows += scan_windows(block, max(0, MAX_LINE_BYTES - start), start)
            carry_len = start + len(block)
            continue
        head, tail = block[: cut + 1], block[cut + 1 :]
        first_nl = head.find(b"\n")
        long_lines: list[tuple[int, int]] = []
        windows: tuple[tuple[int, int, bytes], ...] = ()
        if carry_len or len(carry) + first_nl > MAX_LINE_BYTES:
            start = carry_len or len(carry)
            total = start + first_nl
            first = (carry + head[:first_nl])[:MAX_LINE_BYTES]
            if len(carry_windows) < _MAX_WINDOWS:
                carry_windows += scan_windows(head[:first_nl], max(0, MAX_LINE_BYTES - start), start)
            long_lines.append((0, total))
            windows = tuple((0, off, win) for off, win in carry_windows[:_MAX_WINDOWS])
            data = first + head[first_nl:]
        else:
            data = carry + head
        carry, carry_len, carry_windows = b"", 0, []
        if len(tail) > MAX_LINE_BYTES:
            carry, carry_len = tail[:MAX_LINE_BYTES], len(tail)
            carry_windows = scan_windows(tail, MAX_LINE_BYTES)
        else:
            carry = tail
        yield Chunk(data[:-1], tuple(long_lines), windows)
    if carry or carry_len:
        extra = ((0, carry_len),) if carry_len > len(carry) else ()
        yield Chunk(carry, extra, tuple((0, off, win) for off, win in carry_windows[:_MAX_WINDOWS]))
