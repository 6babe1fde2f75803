"""Rules for the loss classes found on outputs the corpus had not seen (docs/tool-output.md, rule 7).

Each is general, not a per-file fix: coreutils-style ``prog: path: message`` diagnostics (any
strerror text), git's conflicts and advice, HTTP request lines (the status is read from the real
digits), located warnings and notes (grouped when many), include chains, pytest's section rules,
path-only lines (a file listing is never an error) and headers that announce N errors. Like every
rule in :mod:`summarizer.output.coordinates` they run on digit templates (digits are ``#``).
"""

from __future__ import annotations

from summarizer.core.lazyre import lazy

__all__ = [
    "ERRNO",
    "ERROR_BLOCK",
    "GIT",
    "HTTP",
    "HTTP_TEXT",
    "INCLUDE",
    "LISTING",
    "LOCATED_SOFT",
    "PATH_ONLY",
    "PID_GUTTER",
    "PROG_DIAG",
    "SECTION",
]

# strerror() texts: a tool that prints one reports a failed system call, whatever else the line says
# (``find: '/x': Permission denied``, ``cp: cannot stat 'a': No such file or directory``).
ERRNO = (
    "Permission denied",
    "Operation not permitted",
    "Read-only file system",
    "No space left on device",
    "Input/output error",
    "Directory not empty",
    "Too many levels of symbolic links",
    "Disk quota exceeded",
    "Device or resource busy",
    "Text file busy",
    "Cannot allocate memory",
    "Connection refused",
    "Connection reset by peer",
    "Stale file handle",
    "Is a directory",
    "Not a directory",
    "File exists",
    "Invalid argument",
    "Bad file descriptor",
    "File name too long",
    "Argument list too long",
    "Cross-device link",
)
# ``prog: [path: ]message`` diagnostics of coreutils-style tools that carry no errno text.
PROG_DIAG = lazy(
    r"^(?:/[\w./-]+/)?[a-z][\w.+-]{0,30}(?:\[#+\])?: (?:.*: )?"
    r"(?:cannot |can't |unable to |invalid option|unrecognized option|missing |extra operand"
    r"|Cannot open|Cannot stat|option requires)"
)
# git: merge conflicts and the advice that says how to go on.
GIT = lazy(r"^CONFLICT \(|^hint: \S|^Automatic merge failed")
# An access-log request: method, path, protocol, then the status (decided on the real digits).
HTTP = lazy(
    r"\"(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|CONNECT|TRACE) [^\"]{0,2000}"
    r" HTTP/#(?:\.#)?\" (?=###(?![#\w]))"
)
# An access line in plain text (``GET /users/7 504 5001.2 ms``, morgan's and many servers' own
# layout): the method, a path, then the three-digit status.
HTTP_TEXT = lazy(r"(?:^|\s)(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) /\S{0,2000} (?=###(?![#\w.]))")
# A JSON access-log record: its HTTP status field (nginx/Envoy/pino names), then three digits.
JSON_STATUS = lazy(
    r"\"(?:\w+[_.])?(?:[sS]tatus(?:_?[cC]ode)?|http_?[sS]tatus|response_?[cC]ode)\"\s*:\s*\"?(?=###(?![#\w.]))"
)
# A located diagnostic whose severity is a warning or note (grouped by file and code when many).
# Convention, refactor, style and info messages count as warnings, by word or by a letter-coded
# message id (C0305, R1705, W0611, I1101: the convention pylint and its kin print).
LOCATED_SOFT = lazy(
    r"^\W{0,3}(?:warning|note|info|hint|remark|convention|refactor|style)\b|^\s+(?:warning|note)\s"
    r"|^\W{0,3}[CRWI]#{4}(?![\w#])"
)
# A colon counts as part of a name (Perl man pages: Net::DBus::Error.3pm.gz) unless a line number
# follows it, which makes the line a location.
PATH_ONLY = lazy(r"^\.{0,2}/(?:[\w.~@/+#,=%!{}\[\]-]|:(?!\d))*$")
# A process id framing every line of a tool's own output (valgrind's ``==123==``, ``--123--``,
# ``**123**``): the line is classified without it, so its indentation and words are the tool's.
PID_GUTTER = lazy(r"^(==|--|\*\*)#+\1(?: |$)")
# pytest's section rules ("=== FAILURES ===", "=== PASSES ==="): they decide what a header means.
SECTION = lazy(r"^=+ [A-Za-z][\w ]* =+$")
INCLUDE = lazy(r"^\s*(?:In file included from |from \S+:#+[,:]|In function |In member function )")
# "7 validation errors for Settings", "3 errors occurred:": the N items that follow belong to it.
ERROR_BLOCK = lazy(r"(?:^|\W)(#+) (?:[\w-]+ )?errors? (?:for \S+|occurred|found)?:?\s*$")
# One row of a listing with metadata: ls -l, find -ls, tar -tv (a permission string), du (size, tab,
# path). The file name at its end is a name, whatever words it holds (libgpg-error0, Fail.pm).
LISTING = lazy(r"^\s*(?:#+\s+#+\s+)?[-dlcbpsDL?][rwxsStTl-]{9}[.+@]?\s|^#+(?:[.,]#+)?[KMGTPk]?\t\S")
