"""Which lines are critical coordinates: the rules, applied once per distinct line *template*.

A template is the raw line with every ASCII digit replaced by ``#`` (``bytes.translate``, length
preserving). Classifying templates instead of lines is what makes the engine fast: a 100 MB log
has a few thousand distinct templates, so the regexes below run thousands of times, not millions.
No rule may depend on a digit's value; rules see ``#``.

Rules, in order (the first that applies wins):

1. Passing-test lines (``PASSED``, ``ok 3 - name``, ``✓``, ``--- PASS``) are counted, never listed.
2. A *log record* with a level in its header: the level decides. ERROR/FATAL/CRITICAL/SEVERE/
   ALERT/EMERG/PANIC, logcat ``E``/``F`` and ``[error]`` are errors; WARN/WARNING and logcat ``W``
   are warnings; both are hard coordinates. INFO/DEBUG/NOTICE/TRACE lines are ordinary, whatever
   words their message contains (the level is the author's own verdict on the line).
3. Alert-tagged records (a leading upper-case tag where normal records start with ``-``, as in
   BGL and Thunderbird system logs) are hard coordinates.
4. Docker/Kubernetes events (``Exited (137)``, ``OOMKilled``, ``Killed``, ``exited with code``,
   ``CrashLoopBackOff``) and exit codes are hard coordinates anywhere.
5. Tool output (a line that is not a timestamped record): error/fatal/failed/panic/exception/
   traceback/assertion lines, ``not ok``, ``✗``, failing-test headers, ``file:line[:col]``
   references and summary counts (``11 failed``) are hard coordinates; stack frames go to
   :mod:`summarizer.output.frames`; warnings without a location are *soft*.
6. A level-less log record with an error word (``Failed password``) is *soft*: every distinct
   pattern of soft lines is shown once with its count and line range, never dropped.
"""

from __future__ import annotations

import re

from summarizer.core.lazyre import lazy
from summarizer.core.records import record
from summarizer.output import formats, rules

__all__ = [
    "BINARY",
    "COORD",
    "FRAME",
    "HEADER",
    "HTTP",
    "PASS",
    "PLAIN",
    "SOFT",
    "LineClass",
    "classify_template",
    "find_location",
    "find_timestamp",
    "plain_record",
]

PLAIN, COORD, SOFT, PASS, FRAME, BINARY, HEADER, HTTP = 0, 1, 2, 3, 4, 5, 6, 7

_HEADER_WINDOW = 170

# logcat: "03-17 16:13:46.764  2227  2794 E Tag: message"
_LOGCAT = lazy(r"^#{2}-#{2} #{2}:#{2}:#{2}\.#{3}\s+#+\s+#+ (?P<lc>[VDIWEFA]) ")
_ERROR_LEVELS = {
    "ERROR",
    "ERR",
    "FATAL",
    "FAILURE",
    "CRITICAL",
    "CRIT",
    "SEVERE",
    "ALERT",
    "EMERG",
    "PANIC",
    "E",
    "F",
}
_WARN_LEVELS = {"WARN", "WARNING", "W"}

# A log record starts with a timestamp, a syslog month, an epoch/sequence number or a bracketed time.
_RECORD = lazy(
    r"^(?:[#\[]|- #|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b"
    r"|[A-Z][A-Z#_]{2,} #{6,} )"
)
_CLOCK = lazy(r"#{1,2}:#{2}:#{2}")
_ALERT_TAG = lazy(r"^[A-Z][A-Z#_]{2,} #{6,} ")

_DOCKER = lazy(
    r"\bExited \(#+\)|\bexited with code #+|\bOOMKilled\b|\bKilled\b|CrashLoopBackOff|\bBack-off restarting"
    r"|\bexit (?:code|status):? -?#+|\bexit_code=#+|returned non-zero exit status"
    r"|\bcontainer \S+ (?:died|killed)"
    r"|Error response from daemon|\bsignal: killed"
)

_HARD = lazy(
    r"\b(?:[Ee]rror|ERROR|ERRORS|ERR!|FAIL|FAILED|FAILURE|FATAL|[Ff]atal|PANIC|[Pp]anic(?:ked)?)\b"
    r"|\w(?:Error|Exception|Exit|Interrupt|Fault)\b|\b[Ee]xception\b|\bTraceback\b"
    r"|\b[Ff]ail(?:ed|ure|ing|s)?\b|\bnot ok\b|[✗✘✖❌×]|\b[Aa]ssert(?!ions\b)\w*\b"
    r"|[Ss]egmentation fault|core dumped|\b[Aa]bort(?:ed|ing)?\b|\bnot remade\b|\bUnhandled\b"
    r"|\bundefined reference\b"
    r"|\bcannot find symbol\b|\bunresolved\b|\bno such file\b|\bNo such file\b|\bnot found\b"
    r"|^E {2,}\S|^\s*●|^> {3,}\S|" + "|".join(map(re.escape, rules.ERRNO))
)
# A rule code with its level in parentheses ("^-- SC2249 (info): ... exits with error"): a level
# below error makes the line a warning (or, for info and style, an ordinary line), whatever its
# message says.
_SOFT_TAG = lazy(r"\b[A-Z]{1,5}#{2,5} \((warning|info|style|note|hint|convention|refactor)\): ")
_WARN = lazy(r"\b(?:[Ww]arning|WARNING|WARN|[Dd]eprecat\w*)\b|warning\[")

# file:line[:col] in its common shapes: a/b.py:12, a.ts(3,4), Foo.java:[12,5], File "x", line 3, at line 9.
_LOCATION = lazy(
    r"(?<![\w.~+@/\\#-])(?P<loc>(?:[A-Za-z]:)?[\w.~+@/\\#-]*[\w)#]\.[A-Za-z][\w]{0,7}"
    r"(?::\[#+,#+\]|\(#+(?:,#+)?\)|:#+(?::#+)?))(?![\w#])"
    r"|File \"[^\"]+\", line #+|\bat line #+|--> \S+:#+(?::#+)?"
)


# Python's regex engine tries every branch of an alternation at every position, so each big
# rule is guarded by plain substring checks on the lower-cased template (memchr-fast).
_DOCKER_KEYS = ("exit", "kill", "crashloop", "back-off", "non-zero", "died", "daemon", "signal")
_WARN_KEYS = ("warn", "deprecat")


def _has(low: str, keys: tuple[str, ...]) -> bool:
    return any(k in low for k in keys)


_HARD_WORDS = frozenset(
    [
        "error",
        "Error",
        "ERROR",
        "ERRORS",
        "FAIL",
        "FAILED",
        "FAILURE",
        "FATAL",
        "fatal",
        "Fatal",
        "PANIC",
        "panic",
        "Panic",
        "panicked",
        "Panicked",
        "exception",
        "Exception",
        "Traceback",
        "fail",
        "Fail",
        "failed",
        "Failed",
        "failure",
        "Failure",
        "failing",
        "Failing",
        "fails",
        "Fails",
        "abort",
        "Abort",
        "aborted",
        "Aborted",
        "aborting",
        "Aborting",
        "Unhandled",
        "unresolved",
    ]
)
_HARD_SUFFIXES = ("Error", "Exception", "Exit", "Interrupt", "Fault")
_HARD_PHRASES = (
    "not ok",
    "segmentation fault",
    "core dumped",
    "undefined reference",
    "not remade",
    "cannot find symbol",
    "no such file",
    "not found",
    "err!",
    "✗",
    "✘",
    "✖",
    "❌",
    "×",
    *(e.lower() for e in rules.ERRNO),
)


def _hard(template: str, low: str) -> bool:
    if template[:1] in ("E", ">") or "●" in template:
        return bool(_HARD.search(template))
    words = _WORD.findall(template)
    candidate = (
        not _HARD_WORDS.isdisjoint(words)
        or any(w.endswith(_HARD_SUFFIXES) or w[:6].lower() == "assert" for w in words)
        or _has(low, _HARD_PHRASES)
    )
    return candidate and bool(_HARD.search(template))


def _docker(low: str, template: str) -> bool:
    return _has(low, _DOCKER_KEYS) and bool(_DOCKER.search(template))


def _warn(low: str, template: str) -> bool:
    return _has(low, _WARN_KEYS) and bool(_WARN.search(template))


def _location(template: str) -> bool:
    return ("#" in template) and bool(_LOCATION.search(template))


@record(frozen=True)
class LineClass:
    """What a template is: its class, the coordinate kind, and where its header ends."""

    cls: int
    kind: str = ""
    header_end: int = 0
    record: bool = False


_PLAIN = LineClass(PLAIN)
_LISTED = LineClass(PLAIN, "listing")


_WORD = lazy(r"[A-Za-z]+")
# Every error and warning word is a level word too (single letters only count in logcat's column).
_UPPER_LEVELS = frozenset(
    {word for word in _ERROR_LEVELS | _WARN_LEVELS if len(word) > 1}
    | {"TRACE", "DEBUG", "INFO", "NOTICE", "VERBOSE", "FINE", "FINER", "FINEST", "CONFIG"}
)
_BRACKET_LEVELS = frozenset(
    [
        "trace",
        "debug",
        "info",
        "notice",
        "warn",
        "warning",
        "error",
        "crit",
        "critical",
        "alert",
        "emerg",
        "fatal",
    ]
)
_WIN_LEVELS = frozenset(["info", "warning", "error", "critical", "verbose", "information"])
_KV_LEVELS = frozenset(["trace", "debug", "info", "warn", "warning", "error", "fatal", "critical", "panic"])
_KV_BEFORE = lazy(r"(?:\blevel=\"?|\"level\":\s*\")$", re.IGNORECASE)


def _is_word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def _level(text: str) -> tuple[str, int, int] | None:
    """(level, start, end) of the first level token in the header window.

    Equivalent to one big regex, but walks the header's words once: a regex alternation of two
    dozen level names costs ~50 µs per line in CPython, this ~5 µs.
    """
    head = text[:_HEADER_WINDOW]
    logcat = _LOGCAT.match(head)
    if logcat:
        return logcat.group("lc"), logcat.start("lc"), logcat.end()
    for match in _WORD.finditer(head):
        word = match.group()
        start, end = match.span()
        lower = word.lower()
        after = head[end : end + 1]
        if lower in _BRACKET_LEVELS and start and head[start - 1] == "[" and after == "]":
            return word.upper(), start - 1, end + 1
        if word in _UPPER_LEVELS:
            before = head[start - 1] if start else ""
            if (
                not (before and (_is_word_char(before) or before in ".-/"))
                and not (after and (_is_word_char(after) or after in "-/"))
                and not (after == "." and _is_word_char(head[end + 1 : end + 2] or " "))
            ):
                return word, start, end
        if lower in _WIN_LEVELS and head[start - 2 : start] == ", " and after == " ":
            return word.upper(), start - 2, end + 1
        if lower in _KV_LEVELS and _KV_BEFORE.search(head, 0, start) and not _is_word_char(after or " "):
            return word.upper(), start, end
    return None


_GUTTER_START = frozenset("=-*")


def classify_template(template: str) -> LineClass:
    """Classify one line template (digits already replaced by ``#``): the first rule that applies."""
    if not template or template.isspace():
        return _PLAIN
    if template[:1] in _GUTTER_START and (gutter := rules.PID_GUTTER.match(template)):
        found = classify_template(template[gutter.end() :])
        if found.header_end:
            return LineClass(found.cls, found.kind, found.header_end + gutter.end(), found.record)
        return found
    low = template.lower()
    runner = _runner_class(template, low)
    if runner is not None:
        return runner
    record = _record_class(template, low)
    found = record if record is not None else _tool_class(template, low)
    if found.cls != COORD and "status" in low and template[:1] == "{":
        # A JSON access record fails by its status field (read on each real line at this offset),
        # unless its level or an error word already makes it a failure.
        field = rules.JSON_STATUS.search(template)
        if field is not None:
            return LineClass(HTTP, "http", field.end(), found.record)
    return found


def _runner_class(template: str, low: str) -> LineClass | None:
    """Test runners, listings, summaries, version control, HTTP requests, coreutils diagnostics."""
    if formats.is_announcement(template):
        return LineClass(PASS, "announce")
    if formats.is_pass_line(template):
        # A step done ("creating subdirectories ... ok") passes, but is no test: like an
        # announcement, it is not counted.
        return LineClass(PASS) if formats.counts_as_test(template) else LineClass(PASS, "announce")
    if rules.LISTING.match(template):
        return _LISTED
    special = formats.special_kind(template, low)
    if special is not None:
        return LineClass(COORD, special)
    if template[:3] == "===" and rules.SECTION.match(template):
        return LineClass(HEADER, "section")
    if "error" in low and rules.ERROR_BLOCK.search(template):
        return LineClass(COORD, "error_block")
    if template[:1] in ("C", "h", "A") and rules.GIT.match(template):
        return LineClass(COORD, "hint" if template[:1] == "h" else "conflict")
    if " HTTP/" in template and (request := rules.HTTP.search(template)):
        # Digits are templated, so the status is read from each real line at this offset.
        return LineClass(HTTP, "http", request.end(), bool(_RECORD.match(template)))
    if " /" in template and (request := rules.HTTP_TEXT.search(template)):
        return LineClass(HTTP, "http", request.end(), bool(_RECORD.match(template)))
    if ": " in template[:40] and rules.PROG_DIAG.match(template):
        return LineClass(COORD, "diagnostic")
    return None


def _record_class(template: str, low: str) -> LineClass | None:
    """Log records: an alert tag or the level decides; a level-less record with an error word is soft."""
    record = bool(_RECORD.match(template))
    level = _level(template) if record or template[:1].isalpha() else None
    if record and _ALERT_TAG.match(template):
        # An alert tag in the first field outranks the level: the operators flagged this line.
        # The header (up to the level) is templated, so repeats of one message fold together.
        return LineClass(COORD, "alert", level[2] if level else 0, True)
    if level is not None and not record and _CLOCK.search(template, 0, level[1]):
        record = True  # "<file name> 2017-05-16 00:00:20.345 2931 WARNING ...": a time precedes the level
    # A level counts when it heads a record, or when the line itself starts with it ("ERROR: x").
    if level is not None and (record or level[1] == 0):
        token, _, end = level
        if token in _ERROR_LEVELS:
            return LineClass(COORD, "error", end, record)
        if token in _WARN_LEVELS:
            return LineClass(COORD, "warning", end, record)
        if _docker(low, template):
            return LineClass(COORD, "docker_event", end, record)
        return LineClass(PLAIN, "", end, True)
    if _docker(low, template):
        return LineClass(COORD, "docker_event", 0, record)
    if record:
        if _hard(template, low) or _warn(low, template):
            return LineClass(SOFT, "soft", 0, True)
        return LineClass(PLAIN, "", 0, True)
    return None


def _tool_class(template: str, low: str) -> LineClass:
    """Tool output that is not a record: frames, locations, error and warning words."""
    if formats.is_frame(template):
        return LineClass(FRAME, "frame")
    if " " not in template and rules.PATH_ONLY.match(template):
        return _PLAIN  # a file listing's path is never an error, whatever its name says
    if template[:1] in (" ", "I", "f") and rules.INCLUDE.match(template) and _location(template):
        return LineClass(COORD, "include")
    located = _LOCATION.search(template) if "#" in template else None
    if located is not None:
        # The severity word right after the location is the tool's own verdict on the line.
        if rules.LOCATED_SOFT.match(template[located.end() :].lstrip(":) ")):
            return LineClass(COORD, "located_warning")
        if _hard(template, low):
            return LineClass(COORD, "error")
        return LineClass(COORD, "location")
    if "):" in template and (tag := _SOFT_TAG.search(template)):
        # The tool's own level after its rule code outranks any word in the message.
        return LineClass(SOFT, "warning") if tag.group(1) == "warning" else _PLAIN
    if _hard(template, low):
        return LineClass(COORD, "error")
    if _warn(low, template):
        return LineClass(SOFT, "warning")
    return _PLAIN


def plain_record(template: str) -> bool:
    """Whether an *ordinary* line is a log record: :attr:`LineClass.record` of a line that
    :func:`classify_template` calls ``PLAIN``, without the rules that cannot apply to it (the
    engine asks this of the lines no trigger word put through the full classification)."""
    if not template or template.isspace() or rules.LISTING.match(template):
        return False
    if _RECORD.match(template):
        return True
    level = _level(template) if template[:1].isalpha() else None
    return level is not None and (level[1] == 0 or bool(_CLOCK.search(template, 0, level[1])))


def find_location(text: str) -> str | None:
    """The first ``file:line[:col]`` reference in a (real, not templated) line, if any."""
    match = _LOCATION_REAL.search(text)
    return match.group(0) if match else None


_LOCATION_REAL = lazy(_LOCATION.pattern.replace("#", r"\d"))

_TIMESTAMP = lazy(
    r"\d{4}([-/])\d{2}\1\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?"
    r"|\d{4}[-.]\d{2}[-.]\d{2}-\d{2}\.\d{2}\.\d{2}(?:\.\d+)?"
    r"|\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2}"
    r"|\[\w{3} \w{3} \d{2} \d{2}:\d{2}:\d{2} \d{4}\]"
    r"|\b\d{2}/\d{2}/\d{2,4} \d{2}:\d{2}:\d{2}"
    r"|\b\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}"
    r"|\b\d{8}-\d{1,2}:\d{1,2}:\d{1,2}(?::\d+)?"
    r"|\b\d{6} \d{6}\b"
    r"|\[\d{2}:\d{2}:\d{2}(?:\.\d+)?\]|\[\d{2}\.\d{2} \d{2}:\d{2}:\d{2}\]"
)


# Every shape above holds a clock (``5:06:0`` of "05:06:07", ``5.06.0`` of "05.06.07") or HDFS's
# "081109 203615": a line without one (a compiler's "a.c:373:61: warning" has none) is told in one
# fast scan, without trying every shape at every position.
_TIME_HINT = lazy(r"\d(?::\d{1,2}:\d|\.\d\d\.\d|\d{5} \d{6})")


def find_timestamp(text: str) -> str | None:
    """The first timestamp in ``text`` (ISO, syslog, Apache, logcat, HDFS and similar shapes)."""
    window = text[:_HEADER_WINDOW]
    if not _TIME_HINT.search(window):
        return None
    match = _TIMESTAMP.search(window)
    return match.group(0) if match else None
