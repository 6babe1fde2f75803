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

from collections import Counter
from itertools import chain, compress, repeat
from operator import sub

from summarizer.core.lazyre import lazy
from summarizer.core.records import field, record
from summarizer.output import coordinates as co
from summarizer.output import formats
from summarizer.output.blocks import CoordEntry, FailureBlock, ItemBlock, SlowPath
from summarizer.output.classify import FamilyCounts
from summarizer.output.context import BEFORE, Context
from summarizer.output.frames import TraceBlock
from summarizer.output.lines import Chunk, clean_chunk, decode_line, is_binary, scan_windows
from summarizer.output.listing_chunk import listing_chunk
from summarizer.output.patterns import MAX_TEMPLATES, Sampler
from summarizer.output.shape import Shape, decide_shape
from summarizer.output.table import (
    DIGITS,
    KEY,
    MAX_TEMPLATE_BYTES,
    NOISE,
    PLAIN_CLASS,
    PLAIN_RECORD,
    PLAIN_STAT,
    ExtraRules,
    RawLines,
    TemplateStat,
)

TYPE_CHECKING = False  # not `from typing import`: this module is on the cold path of `run`
if TYPE_CHECKING:
    from summarizer.output.prefilter import Prefilter

__all__ = ["DIGITS", "KEY", "NOISE", "CoordEntry", "Engine", "ExtraRules", "TemplateStat"]

# The template's start is classified; the scan for errors deeper in a long line starts here.
_SCAN_FROM = MAX_TEMPLATE_BYTES - 256
_FAMILY_TEMPLATES = 3_000
_PATH_START = (b"/", b".")
_SPACE_COLON_TAB = lazy(rb"[ :\t]")
_HASH_START = frozenset(bytes([c]) for c in b"0123456789abcdef@")
# A chunk with this many new keys goes through the prefilter (summarizer/output/prefilter.py).
BULK_KEYS = 2048
_INFORMATIVE = lazy(rb"[A-Za-z]{3}")
# Commit lines (``commit <hash>``, ``git log --oneline``) differ only in a hash, which the key
# folds, and a diff's file and hunk headers differ only in numbers: they are recorded one by one,
# up to a cap, for the compact form of version-control output and the headers of a diff.
_KEY_ROW = lazy(rb"^commit [\da-f]{40}(?![\w])|^[\da-f]{7,12} \S|^diff (?:--git )?\S|^@@ -\d")
MAX_KEY_ROWS = 50_000
_KEY_ROW_BYTES = 512
# The one key of the lines of whole chunks of listing rows (output/listing_chunk.py): a line key
# never holds a newline, so it cannot be any line's own key.
LISTING_KEY = b"\nlisting rows"
_LISTED = co.LineClass(co.PLAIN, "listing")
_FAILED_STATUS = (b"4", b"5")


@record(slots=False)
class Engine(SlowPath):
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
    _trace_sources: int = 0
    _trace_closed: int = 0
    _expect_exception: bool = False
    _saw_traceback: bool = False
    _failure: FailureBlock | None = None
    _coord_bytes: int = 0
    _warnings: int = 0
    _items: ItemBlock | None = None
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
    # The last file heading of a linter's rows (line, text): see SlowPath._eslint_heading.
    _heading: tuple[int, bytes] = (0, b"")
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
        split = self._keys_of(chunk, data)
        if split is None:
            return
        tpls, lengths = split
        raws = RawLines(data, lengths)
        n0 = self.line_no
        windows = list(chunk.windows)
        if max(lengths) > MAX_TEMPLATE_BYTES:
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
        self._new_keys(last.keys() - templates.keys(), tpls, raws, data, n0)
        if self._key_set and len(self.key_rows) < MAX_KEY_ROWS:
            keyed = self._key_set
            rows = [
                (n0 + i + 1, raws[i][:_KEY_ROW_BYTES])
                for i in compress(range(size), map(keyed.__contains__, tpls))
            ]
            self.key_rows.extend(rows)
            del self.key_rows[MAX_KEY_ROWS:]
        long_lines = dict(chunk.long_lines)
        slow = self._slow_set
        # Most chunks of a log hold no special key at all; the others are scanned in C.
        special = [] if slow.isdisjoint(last) else list(compress(range(size), map(slow.__contains__, tpls)))
        pos = 0
        if self._busy():
            pos = self._drain(raws, tpls, n0, 0, long_lines)
        for index in special:
            if index < pos:
                continue
            rec = templates[tpls[index]]
            if rec.cls == co.HTTP:
                # No block is open here: a request that did not fail (not 4xx or 5xx) is an
                # ordinary line, told by one byte at the status offset without the slow path.
                at = rec.lc.header_end
                if raws[index][at : at + 1] not in _FAILED_STATUS:
                    continue
            self._prev = raws[index - 1] if index else self._last_raw
            self._chunk, self._index, self._cur_n = raws, index, n0 + index + 1
            self._slow(n0 + index + 1, raws[index], rec, long_lines.get(index))
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

    def _new_keys(self, new: set[bytes], tpls: list[bytes], raws: RawLines, data: bytes, n0: int) -> None:
        """Classify (or, many at once, prefilter) the keys this chunk saw first, in line order."""
        if new and self._plain:
            new -= self._plain.keys()
        if not new:
            return
        size = len(tpls)
        first = dict(zip(reversed(tpls), range(n0 + size, n0, -1), strict=True))
        order = sorted(new, key=first.__getitem__)
        if len(order) >= BULK_KEYS and self.rules is None:
            self._new_bulk(order, first, data, n0)
        else:
            for template in order:
                self._new_template(template, first[template], raws[first[template] - n0 - 1])

    def _keys_of(self, chunk: Chunk, data: bytes) -> tuple[list[bytes], list[int]] | None:
        """The line keys of ``data`` and the lines' lengths; None when it was a chunk of listing
        rows only, fed already (output/listing_chunk.py). In a chunk of mostly rows the rows share
        one key. A team's rules see every line, so with them every line keeps its own key."""
        keys = data.translate(KEY).split(b"\n")
        if self.rules is not None or chunk.long_lines or chunk.windows:
            return keys, list(map(len, keys))
        listing = listing_chunk(data)
        if listing is None:
            return keys, list(map(len, keys))
        if listing.rows is None and not self._busy():
            self._feed_rows(listing.lines)
            return None
        rows = listing.rows or [True] * len(keys)
        if LISTING_KEY not in self.templates:
            first = rows.index(True)
            self.templates[LISTING_KEY] = TemplateStat(
                self.line_no + first + 1, _LISTED, listing.lines[first][:4096]
            )
        keys = [LISTING_KEY if row else key for key, row in zip(keys, rows, strict=True)]
        return keys, list(map(len, listing.lines))

    def _feed_rows(self, rows: list[bytes]) -> None:
        """A chunk of listing rows only: one key for all of them, counted and sampled. A row is
        never a failure, so there is no slow line; a listing's dates are no log's times."""
        n0, size = self.line_no, len(rows)
        if LISTING_KEY not in self.templates:
            self.templates[LISTING_KEY] = TemplateStat(n0 + 1, _LISTED, rows[0][:4096])
        self.counts[LISTING_KEY] += size
        self.last[LISTING_KEY] = n0 + size
        self._sample_chunk(rows, [LISTING_KEY] * size, n0)
        self._last_raw = rows[-1]
        self._tail = (self._tail + rows[-BEFORE:])[-BEFORE:]
        self.line_no = n0 + size

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
            self._slow(n0 + pos + 1, raws[pos], templates.get(tpls[pos], PLAIN_STAT), long_lines.get(pos))
            pos += 1
        return pos

    def _sample_chunk(self, raws: RawLines | list[bytes], tpls: list[bytes], n0: int) -> None:
        # About one ordinary line in `every`, on a fixed line-number grid (1, 51, 101, ...).
        sampler = self.sampler
        templates = self.templates
        index = (-n0) % sampler.every
        while index < len(tpls):
            # A sample should say something: step past blank and punctuation-only lines.
            for _ in range(4):
                if index + 1 >= len(tpls) or _INFORMATIVE.search(raws[index]):
                    break
                index += 1
            if templates.get(tpls[index], PLAIN_STAT).cls in (co.PLAIN, co.HEADER, co.HTTP):
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
        lc = PLAIN_RECORD if co.plain_record(decode_line(text)) else PLAIN_CLASS
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
            lc = PLAIN_CLASS if self.rules is None else self.rules.verdict(raw, PLAIN_CLASS)
        else:
            text = decode_line(template)
            lc = co.LineClass(co.BINARY) if is_binary(template) else co.classify_template(text)
            if self.rules is not None:
                lc = self.rules.verdict(raw, lc)
        if lc.cls in (co.COORD, co.FRAME, co.HEADER, co.HTTP):
            self._slow_set.add(key)
        return TemplateStat(n, lc, raw[:4096])

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
