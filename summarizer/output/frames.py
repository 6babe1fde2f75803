"""Stack traces: which frames to keep.

Ruling: keep the exception line, every frame in the project's own
files, and the first 3 and last 3 frames; the other frames (site-packages, node_modules, the
standard library, the JDK, the language runtime) are counted in one marker line,
``[... N frames in 3rd-party code omitted ...]``. A frame is one line in any supported language
(Python ``File "x", line N``, JVM ``at a.b(C.java:12)``, JS ``at f (file:l:c)``, Go ``file.go:N``,
Rust backtraces); a Python frame's source line and ``^^^`` marker travel with it.

:class:`TraceBlock` collects one run of frames while the engine streams; memory stays bounded
because only the head, the tail and project frames are retained (a 10,000-frame recursion trace
holds 6 frames plus the project ones, capped).
"""

from __future__ import annotations

from collections import deque

from summarizer.core.lazyre import lazy
from summarizer.core.records import field, record

__all__ = ["KEEP_HEAD", "KEEP_TAIL", "TraceBlock", "is_third_party", "omitted_marker"]

KEEP_HEAD = 3
KEEP_TAIL = 3
_MAX_PROJECT = 200

_THIRD_PARTY = lazy(
    r"site-packages|dist-packages|node_modules|/lib/python\d[\d.]*/|\\Lib\\|<frozen |\(node:|node:internal"
    r"|\bnode:\w|internal/|/usr/lib/|/usr/local/lib/|/rustc/|\.cargo/registry|/go/pkg/mod/|/usr/local/go/src/"
    r"|/libexec/|<anonymous>|\(native\)|\bat (?:java|javax|jdk|sun|com\.sun|kotlin|kotlinx|scala|org\.junit"
    r"|junit|org\.gradle|worker\.org\.gradle|org\.apache\.maven|org\.testng|jdk\.internal)\."
    r"|^\s+#?\d+: (?:std|core|alloc|rust_begin_unwind|__libc|_start)"
)


def is_third_party(frame: str) -> bool:
    """True when a frame points into libraries, the standard library or the runtime."""
    return bool(_THIRD_PARTY.search(frame))


def omitted_marker(count: int) -> str:
    """The line that stands for ``count`` omitted frames."""
    return f"[... {count} frames in 3rd-party code omitted ...]"


@record
class TraceBlock:
    """One run of consecutive frames (with their source lines), decided when the run ends."""

    start_line: int
    # (line number, text, is_frame) for the first frames, kept in order.
    head: list[tuple[int, str, bool]] = field(default_factory=list)
    tail: deque[tuple[int, str, bool]] = field(default_factory=lambda: deque(maxlen=4 * KEEP_TAIL))
    middle_project: list[tuple[int, str, bool]] = field(default_factory=list)
    frames: int = 0
    omitted: int = 0
    _head_frames: int = 0

    def add(self, line_no: int, text: str, is_frame: bool) -> None:
        """Add a frame, or a source line belonging to the previous frame."""
        if is_frame:
            self.frames += 1
        if self._head_frames < KEEP_HEAD or (not is_frame and self.frames <= KEEP_HEAD):
            self.head.append((line_no, text, is_frame))
            self._head_frames += int(is_frame)
            return
        if len(self.tail) == self.tail.maxlen:
            self._evict(self.tail[0])
        self.tail.append((line_no, text, is_frame))

    def _evict(self, entry: tuple[int, str, bool]) -> None:
        # A frame leaving the tail window survives only if it is the project's own code.
        line_no, text, is_frame = entry
        if is_frame:
            if not is_third_party(text) and len(self.middle_project) < _MAX_PROJECT:
                self.middle_project.append(entry)
            else:
                self.omitted += 1
        elif self.middle_project and self.middle_project[-1][0] == line_no - 1:
            self.middle_project.append(entry)

    def finish(self) -> list[tuple[int, str]]:
        """The kept lines in order; omitted frames become one marker line (line number 0)."""
        tail = list(self.tail)
        # Only the last KEEP_TAIL frames (and their source lines) stay in the tail.
        frames_seen = 0
        cut = len(tail)
        for index in range(len(tail) - 1, -1, -1):
            if tail[index][2]:
                frames_seen += 1
                if frames_seen == KEEP_TAIL:
                    cut = index
                    break
        else:
            cut = 0
        for entry in tail[:cut]:
            self._evict(entry)
        kept: list[tuple[int, str]] = [(n, t) for n, t, _ in self.head]
        middle = [(n, t) for n, t, _ in self.middle_project]
        if self.omitted and middle:
            kept.append((0, omitted_marker(self.omitted)))
            kept.extend(middle)
        else:
            kept.extend(middle)
            if self.omitted:
                kept.append((0, omitted_marker(self.omitted)))
        kept.extend((n, t) for n, t, _ in tail[cut:])
        return kept
