"""The rendering's header and the verdicts it states, read once from a snapshot.

The header comes first: the shape and size, the exit code, the failing tests with the runner's
counts, the passing-test count, the first failure by severity (never a banner; a warning only when
the output holds no error; none at all for content to read), the warning groups, the time span
and what was left out. :class:`Verdict` also builds the envelope, so the compressed and the
pass-through results report the same verdicts.
"""

from __future__ import annotations

from summarizer.core.lazyre import lazy
from summarizer.core.records import record
from summarizer.output import formats, verdicts
from summarizer.output.kept import Kept, KeptPattern, KeptSample, Rendering
from summarizer.output.runners import RunCounts

TYPE_CHECKING = False  # typing stays off the cold path (docs/cold-path.md)
if TYPE_CHECKING:
    from summarizer.output.grouping import WarningGroup
    from summarizer.output.snapshot import Snapshot

__all__ = ["Verdict", "header_lines", "restore_hint"]

_FAILING_SHOWN = 40
_FIRST_CHARS = 160


def restore_hint(restore_id: str, lines: int) -> str:
    """The last line of every compressed rendering."""
    # 16 hex digits name one original among billions (restore takes any unique prefix of 8+); the
    # whole 64 cost the agent about 30 tokens on every compressed output.
    return f"[full output: summarizer restore {restore_id[:16]}  ({lines} lines)]"


@record(frozen=True)
class Verdict:
    """What the output says about the run, and the facts of the input the envelope reports."""

    classification: str
    shape: str
    original_tokens: int
    exact: bool
    total_bytes: int
    restore_id: str
    exit_code: int | None
    failing: tuple[str, ...]
    counts: RunCounts | None
    first_error: Kept | None
    first_test: str | None = None

    @classmethod
    def of(cls, snap: Snapshot, *, content: bool, **facts: object) -> Verdict:
        """The verdicts on ``snap``: content to read has no failing test and no first error."""
        coords = list(snap.coords)
        failing = () if content else tuple(verdicts.failing_tests(coords))
        first = None if content else verdicts.first_error(coords, str(facts.get("shape") or ""))
        if first is not None and first.kind in ("location", "frame") and not _says_what(first):
            first = _headline(first, snap) or first
        test = verdicts.test_of(first, coords) if first is not None else None
        counts = verdicts.run_counts_of(coords)
        return cls(failing=failing, counts=counts, first_error=first, first_test=test, **facts)  # type: ignore[arg-type]

    @property
    def failed(self) -> int:
        """Failed tests: the runner's own count when it printed one."""
        return self.counts.failed if self.counts else len(self.failing)

    def passed(self, snap: Snapshot) -> int:
        """Passed tests: the runner's own count when it printed one, else the lines counted."""
        return snap.passed if self.counts is None or self.counts.passed is None else self.counts.passed

    def rendering(
        self,
        snap: Snapshot,
        *,
        text: str,
        compressed: int,
        target: int | None,
        patterns: tuple[KeptPattern, ...] = (),
        samples: tuple[KeptSample, ...] = (),
        redactions: int = 0,
    ) -> Rendering:
        """The envelope around ``text``."""
        passthrough = target is None
        return Rendering(
            classification=self.classification,
            original_tokens=self.original_tokens,
            original_tokens_exact=self.exact,
            compressed_tokens=compressed,
            reduction=0.0 if passthrough else round(1 - compressed / max(self.original_tokens, 1), 4),
            lines=snap.lines,
            bytes=self.total_bytes,
            target_tokens=target,
            passthrough=passthrough,
            exit_code=self.exit_code,
            failing_tests=self.failing,
            failed_tests=self.failed,
            passed_tests=self.passed(snap),
            counts_from=self.counts.runner if self.counts else None,
            first_error=self.first_error,
            first_timestamp=None if passthrough or not snap.first_timestamp else snap.first_timestamp[1],
            last_timestamp=None if passthrough or not snap.last_timestamp else snap.last_timestamp[1],
            coordinates=snap.coords,
            coordinates_not_listed=0 if passthrough else snap.coords_not_listed,
            omitted_frames=snap.omitted_frames,
            patterns=patterns,
            samples=samples,
            binary_lines=snap.binary_lines,
            redactions=redactions,
            restore_id=self.restore_id,
            restore_hint=restore_hint(self.restore_id, snap.lines),
            text=text,
        )


def _headline(first: Kept, snap: Snapshot) -> Kept | None:
    """The line heading a located failure's block (a checker's "Invalid read of size 4" above its
    frames), when the context kept one just above it."""
    heads = [
        (n, text)
        for n, text in snap.context
        if n in snap.heads and first.line - 3 <= n < first.line and not _test_progress(text)
    ]
    if not heads:
        return None
    n, text = heads[0]
    return Kept(kind="error", line=n, text=text)


def _says_what(first: Kept) -> bool:
    """A location that carries its own message (``testing.go:1319: race detected during ...``)
    needs no headline: the line above it may be any frame of a trace printed before it."""
    text = first.text.strip()
    if not first.location or not text.startswith(first.location):
        return False
    return len(_WORDS.findall(text[len(first.location) :])) >= 2


_WORDS = lazy(r"[A-Za-z]{2,}")


def _test_progress(text: str) -> bool:
    """A test announced or passed (``=== RUN   TestB``, ``ok 4 name``): it heads no failure."""
    return formats.is_announcement(text) or formats.is_pass_line(_DIGITS.sub("#", text))


_DIGITS = lazy(r"\d")


def _failing_line(verdict: Verdict) -> list[str]:
    if not verdict.failing and not verdict.failed:
        return []
    shown = " · ".join(verdict.failing[:_FAILING_SHOWN])
    if len(verdict.failing) > _FAILING_SHOWN:
        shown += f" · +{len(verdict.failing) - _FAILING_SHOWN} more (in the body)"
    # go and a TAP stream without closing comments print no totals: their rows were counted.
    counts = verdict.counts
    source = f", from {counts.runner}'s summary" if counts and counts.passed is not None else ""
    return [f"failing tests ({verdict.failed}{source}): {shown}".rstrip()]


def _first_line(verdict: Verdict) -> list[str]:
    first = verdict.first_error
    if first is None:
        return []
    # The whole line is in the body; the header needs where and what, briefly.
    text = first.text if len(first.text) <= _FIRST_CHARS else first.text[:_FIRST_CHARS] + "…"
    label = "first warning" if first.kind in verdicts.WARNING_KINDS else "first error"
    # An error line inside a failing test's block names the test: "E  assert 4.9 == 4.8" alone does not.
    test = f" in {verdict.first_test}" if verdict.first_test and verdict.first_test not in text else ""
    return [f"{label} (line {first.line}){test}: {text}"]


def _facts(snap: Snapshot) -> list[str]:
    lines: list[str] = []
    if snap.first_timestamp and snap.last_timestamp:
        (fl, fs), (ll, ls) = snap.first_timestamp, snap.last_timestamp
        lines.append(f"time: {fs} (line {fl}) → {ls} (line {ll})")
    if snap.omitted_frames:
        lines.append(f"stack frames in 3rd-party code omitted: {snap.omitted_frames:,}")
    if snap.binary_lines:
        lines.append(f"binary lines not shown: {snap.binary_lines:,}")
    if snap.noise_lines:
        lines.append(f"noise lines dropped by your rules: {snap.noise_lines:,} (restore shows them)")
    return lines


def header_lines(snap: Snapshot, verdict: Verdict, groups: list[WarningGroup]) -> list[str]:
    """The header, first line to last."""
    tilde = "" if verdict.exact else "~"
    lines = [
        f"[summarizer output · {verdict.classification} · {verdict.shape} · {snap.lines:,} lines · "
        f"{tilde}{verdict.original_tokens:,} tokens in · {len(snap.coords):,} coordinates kept]"
    ]
    if verdict.exit_code is not None:
        lines.append(f"exit code: {verdict.exit_code}")
    lines += _failing_line(verdict)
    if passed := verdict.passed(snap):
        lines.append(f"passing tests: {passed:,} (counted, not listed)")
    if snap.collapse:
        lines.append("all tests passed: only the summary is kept")
    lines += _first_line(verdict)
    if counted := [g for g in groups if g.diagnostics]:
        lines.append(
            f"warnings/notes: {sum(g.diagnostics for g in counted):,} in {len(counted)} (file, code) groups,"
            " listed after the errors"
        )
    return lines + _facts(snap)
