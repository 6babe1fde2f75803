"""What shape an output has, read from the engine's template table after the stream ends.

The shape decides two things (see docs/tool-output.md, "The floor and the shapes"):

* whether an output between the floor (500 tokens) and the pass-through size (10,000 tokens) is
  compressed: a test run, a linter or compiler report, a listing, search hits, version-control
  output or a log that is mostly one line shape is; content to read and unknown shapes pass
  through unchanged;
* whether the output is *content to read* (source text, ``cat``, ``head``, diff hunks): content
  never gets a "first error", because a code line that says ``raise Error`` is not a failure.

Every rule is one regular expression over a digit template (digits are ``#``) and costs nothing per
input line: the most frequent templates are weighed by their counts, as in
:mod:`summarizer.output.classify`.
"""

from __future__ import annotations

from collections import Counter

from summarizer.core.lazyre import lazy
from summarizer.core.records import record
from summarizer.output import coordinates as co
from summarizer.output import rules
from summarizer.output.patterns import normalise

__all__ = ["COMMIT_ROW", "DIFF_KEY", "LISTING_ROW", "VCS_KEY", "Shape", "decide_shape", "is_listing_row"]

TYPE_CHECKING = False  # typing stays off the cold path (docs/cold-path.md)
if TYPE_CHECKING:
    from typing import Literal

    ShapeName = Literal[
        "test",
        "diagnostics",
        "listing",
        "search",
        "vcs",
        "table",
        "repetitive",
        "records",
        "trace",
        "content",
        "log",
    ]

# One row of ls -l, find -ls, tar -tv, du, or a bare path: what a listing is made of.
LISTING_ROW = lazy(
    rules.LISTING.pattern  # ls -l, find -ls, tar -tv, du
    + r"|^\.{0,2}/(?:[^\s:]|:(?!#))*$"  # find, ls -R paths
    r"|^total #+$|^\S+:$"  # ls -l total, ls -R directory headers
)
# grep -rn / rg -n hits: path:line:text (a compiler's "path:line:col: error:" is one too).
# A hit, a grep -C context row (its path has a dot or a slash: a date is no path), a separator.
_SEARCH_ROW = lazy(r"^[^\s:]+:#+[:-]|^[^\s:#][^\s:]*?[./][^\s:]*?-#+-|^--$")
# rg and grep -r without -n: path:text, the path a file's, with an extension (a log's "INFO:root:"
# is none).
_BARE_HIT_ROW = lazy(r"^(?:[^\s:]*/)?[^\s:/]*[^\s:/.]\.[A-Za-z][\w#+-]{0,15}:(?!\s?(?:line\s+)?#)")
# A compiler's or type checker's located message (mypy's "a.py:3: error: ... [code]", gcc's
# "a.c:3:5: warning:"): the severity word after the location makes it a diagnostic, not a hit; so
# does a linter's rule code there (ruff's and flake8's "a.py:3:1: E501 ...").
_DIAGNOSTIC_ROW = lazy(
    r"^[^\s:]+:#+(?::#+)*: ?(?:(?:fatal )?error|warning|note|info|remark|hint)\b"
    r"|^[^\s:]+:#+:#+: [A-Z]{1,8}#{1,5}(?=[\s:\[])"
)
# grep -n of one file (and cat -n): numbered lines of a file are content, not a log (a time is not one).
_NUMBERED_ROW = lazy(r"^\s*#+(?::(?![#\s])|-(?!#)|\t)")
_VCS_ROW = lazy(
    r"^commit [#a-f]{40}(?![\w#])|^(?:Author|AuthorDate|Commit|CommitDate|Date|Merge):\s"
    r"|^[#a-f]{7,12} \S"  # log --oneline
    r"|^(?:On branch |Your branch |Changes (?:not staged|to be committed)|Untracked files:|nothing to commit"
    r"|no changes added|  \(use \"git )"
    r"|^\t(?:modified|new file|deleted|renamed|both modified|both added|typechange):\s"
    r"|^(?! {2})[ MADRCU?!]{2} \S|^Auto-merging \S|^CONFLICT \(|^ \S.* \| +#+ [-+]*$"
    r"|^ #+ files? changed"
)
# A git log --oneline row: an abbreviated hash with a hex letter in it (a number alone is a sequence
# number or an epoch, which start log records), then the subject; under --graph, after the graph's
# columns (``| * ``), or a row of graph art alone (``|\``, ``|/``).
_ONELINE_ROW = lazy(
    r"^(?:(?:[|\\/_.-] +)*\* +(?:[|\\/_.-] +)*)?(?=#*[a-f])[#a-f]{7,12} \S"
    r"|^[|\\/_. -]*[|\\/][|\\/_. -]*$"
)
# A commit's first line: in content (git log -p) each one is kept, so no commit is lost to the budget.
COMMIT_ROW = lazy(r"^commit [#a-f]{40}(?![\w#])")
# What a diff is about: each file's header and each hunk's range (every one kept, like commit rows;
# the hunk bodies between them are folded, each restorable from the line numbers).
DIFF_KEY = lazy(r"^commit [#a-f]{40}(?![\w#])|^diff (?:--git )?\S|^@@ -#+(?:,#+)? \+#+")
# The rows that identify what version-control output is about: kept whole, every one.
VCS_KEY = lazy(
    r"^commit [#a-f]{40}(?![\w#])|^(?:(?:[|\\/_.-] +)*\* +(?:[|\\/_.-] +)*)?[#a-f]{7,12} \S"
    r"|^\t(?:modified|new file|deleted|renamed|both \w+|typechange):\s"
    r"|^(?! {2})[ MADRCU?!]{2} \S|^CONFLICT \("
)
# A caret or tilde marker under a source line: a diagnostic with its snippet, never content.
_MARKER = lazy(r"^\s*(?:#*\s*\|\s*)?[\^~][-~^]*(?:\s|$)")
# A shell's trace of the commands it runs (set -x).
_TRACE_ROW = lazy(r"^\++ \S")
_DIFF_ROW = lazy(r"^(?:diff --git |index [#a-f]+\.\.|--- |\+\+\+ |@@ -#+(?:,#+)? \+#+)")
# Source text: code punctuation at the end, or a line opening with a common keyword.
_CODE_ROW = lazy(
    r"[{};,(\[:]\s*$|^\s*[})\]]"
    r"|^\s*(?:def|class|import|from|return|if|elif|else|for|while|try|except|with|async|await|raise"
    r"|function|const|let|var|export|package|func|fn|pub|use|struct|impl|enum|type|interface"
    r"|public|private|protected|static|#include|#define|@\w+)\b"
    r"|^\s*(?://|/\*|\*|#)\s|^\s{4}"
)
_TOP = 3_000
# Fewer lines than this have no shape to speak of: they pass through below 10,000 tokens.
_MIN_LINES = 8


@record(frozen=True)
class Shape:
    """The output's shape and the shares it was decided on."""

    name: ShapeName
    compressible: bool
    content: bool


def is_listing_row(template: str) -> bool:
    """True for one listing row (``ls -l``, ``find -ls``, ``tar -tv``, ``du``, a bare path)."""
    return bool(LISTING_ROW.match(template))


def _located(text: str) -> str:
    """A located diagnostic, a search hit, a numbered line of one file, or none of them."""
    if _DIAGNOSTIC_ROW.match(text):
        return "diagnostic"
    if _SEARCH_ROW.match(text):
        return "search"
    if _NUMBERED_ROW.match(text):
        return "numbered"
    return "search" if _BARE_HIT_ROW.match(text) else "other"


def _shares(
    templates: list[tuple[bytes, int, int]],
) -> tuple[Counter[str], Counter[str]]:
    rows: Counter[str] = Counter()
    patterns: Counter[str] = Counter()
    for raw, count, cls in templates:
        text = raw[:300].decode("utf-8", "replace")
        if not text.strip():
            rows["blank"] += count
            continue
        patterns[normalise(text)] += count
        rows["lines"] += count
        if cls == co.PASS:
            rows["pass"] += count
        if cls in (co.COORD, co.FRAME):
            rows["coord"] += count
        if _DIFF_ROW.match(text) or (
            text[:1] in "+- " and not text.startswith(("- ", "+ ")) and "diff" in rows
        ):
            rows["diff"] += count
        if LISTING_ROW.match(text):
            rows["listing"] += count
        rows[_located(text)] += count
        if _VCS_ROW.match(text) or (text.startswith("    ") and "vcs" in rows):
            rows["vcs"] += count
        if _ONELINE_ROW.match(text):
            rows["oneline"] += count
        if _CODE_ROW.search(text):
            rows["code"] += count
        if text.startswith('{"'):
            rows["json"] += count
        if _MARKER.match(text):
            rows["marker"] += count
        if _TRACE_ROW.match(text):
            rows["trace"] += count
    return rows, patterns


def decide_shape(
    templates: list[tuple[bytes, int, int]], kinds: Counter[str], records: int, lines: int
) -> Shape:
    """The shape of an output from its most frequent (template, count, class) rows.

    ``kinds`` counts the coordinates kept per kind, ``records`` the timestamped log records.
    """
    if lines < _MIN_LINES:
        return Shape("log", False, False)
    top = sorted(templates, key=lambda row: -row[1])[:_TOP]
    rows, patterns = _shares(top)
    total = max(rows["lines"], 1)
    share = {name: rows[name] / total for name in rows}
    if "failing_test" in kinds or share.get("pass", 0) >= 0.05:
        return Shape("test", True, False)
    if share.get("numbered", 0) >= 0.6 and share.get("coord", 0) < 0.1:
        return Shape("content", False, True)
    # A hash that starts with a digit reads as a numbered log record: a log of hashes is still a log.
    if share.get("oneline", 0) >= 0.6:
        return Shape("vcs", True, False)
    if records / max(lines, 1) < 0.3:
        if share.get("diff", 0) >= 0.3:
            return Shape("content", False, True)
        if share.get("listing", 0) >= 0.6:
            return Shape("listing", True, False)
        if share.get("vcs", 0) >= 0.5:
            return Shape("vcs", True, False)
        if share.get("search", 0) >= 0.6:
            return Shape("search", True, False)
        code = share.get("code", 0) - share.get("json", 0)
        if code >= 0.4 and share.get("coord", 0) < 0.1 and not rows["marker"]:
            return Shape("content", False, True)
        if share.get("trace", 0) >= 0.3:
            return Shape("trace", True, False)
    if share.get("coord", 0) >= 0.15 or "summary" in kinds:
        return Shape("diagnostics", True, False)
    biggest = patterns.most_common(1)[0][1] if patterns else 0
    if biggest / total >= 0.5:
        return Shape("repetitive", True, False)
    if records / max(lines, 1) >= 0.6:
        return Shape("records", True, False)
    return Shape("log", False, False)
