"""Which new line keys can be anything but an ordinary line: one pass in C over many keys at once.

On data that does not repeat, most lines bring a new key, and the full classification
(:func:`summarizer.output.coordinates.classify_template`, tens of microseconds) would run once per
line. This module finds, in one multi-pattern search over all of a chunk's new keys, the few that
hold a *trigger*: a word, symbol or shape without which no rule can give a line a class other than
ordinary (an error or warning word, a level, a passing-test mark, a location ``name.ext:N``, a
frame, a control byte, ...). Only those go to the classifier; the rest are ordinary lines.

The trigger set is a superset by construction: every rule in :mod:`summarizer.output.coordinates`,
:mod:`summarizer.output.formats` and :mod:`summarizer.output.rules` needs one of these literals
(matched case-insensitively, with digits and hex letters folded to ``#`` as in the line keys), and
a test checks it over every fixture line in the repository. A team's own rules (``rules.toml``)
can match anything, so with them every key is classified.

Two engines give the same answer: ``ahocorasick_rs`` (Rust, a DFA: about 100 MB/s here) when it is
installed and a batch is big enough to pay for the import, and a compiled ``re`` alternation
otherwise (tens of times slower). Both report, for each line, whether some trigger occurs in it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from itertools import accumulate, repeat
from operator import add

from summarizer.core.lazyre import lazy
from summarizer.output import rules

__all__ = ["LOCATION_SHAPE", "TRIGGERS", "Prefilter", "fold"]

_UPPER = bytes(range(ord("A"), ord("Z") + 1))
_HEX = b"0123456789abcdefABCDEF"
# Words: digits and hex letters of either case become ``#``, other letters lower case. A line key
# already has digits and lower-case hex as ``#``, so folding a key equals folding its line.
_FOLD_WORDS = bytes.maketrans(_HEX + _UPPER[6:], b"#" * len(_HEX) + _UPPER[6:].lower())


def _shape_table() -> bytes:
    # Shapes: digits and lower-case hex become ``#``; every other letter, ``_`` and every
    # non-ASCII byte (a byte of a letter in UTF-8) becomes ``a``.
    table = bytearray(range(256))
    for c in range(256):
        if c >= 128 or chr(c) == "_" or chr(c).isalpha():
            table[c] = ord("a")
    for c in b"0123456789abcdef":
        table[c] = ord("#")
    return bytes(table)


_FOLD_SHAPE = _shape_table()
_NON_WORD = [bytes([c]) for c in range(256) if not (c < 128 and (chr(c).isalnum() or chr(c) == "_"))]
_CONTROL = [bytes([c]) for c in range(32) if c not in (9, 10)]
# Whitespace that is not ASCII but that a ``\s`` in a rule matches ("\u00a0at f(x.js:1:2)").
_SPACES = [chr(c).encode() for c in range(128, 0x3001) if chr(c).isspace()]

# "\n" opens a line (the search runs over "\n\n".join(keys)). Lower case; folded when compiled.
TRIGGERS: tuple[bytes, ...] = (
    # errors, failures and their levels (coordinates.py rules 2-5, formats.py, rules.py)
    b"error",
    b"err!",
    *(b"err" + c for c in _NON_WORD),  # the ERR level word
    b"fail",
    b"fatal",
    b"panic",
    b"exception",
    b"traceback",
    b"assert",
    b"abort",
    b"fault",
    b"core dumped",
    b"unhandled",
    b"undefined reference",
    b"cannot find symbol",
    b"unresolved",
    b"no such file",
    b"not found",
    b"not ok",
    b"not remade",
    b"interrupt",
    b"crit",
    b"severe",
    b"alert",
    b"emerg",
    b"\ne  ",  # pytest's "E   " lines
    b"\n>   ",  # pytest's source marker
    b"# # ",  # logcat's E/F/A column after the thread id
    b"# w ",  # logcat's W column
    # warnings
    b"warn",
    b"deprecat",
    # container events and exit statuses
    b"exit",
    b"kill",
    b"crashloop",
    b"back-off",
    b"non-zero",
    b" died",  # "container x died"
    b"daemon",
    b"signal",
    # coreutils-style diagnostics and strerror texts
    b"cannot ",
    b"can't ",
    b"unable to ",
    b"invalid option",
    b"unrecognized option",
    b"missing ",
    b"extra operand",
    b"option requires",
    *(text.lower().encode() for text in rules.ERRNO),
    # test runners: passes, skips, summaries, failing-test headers, announcements
    b"pass",
    b"skip",
    b" ... ",
    b"ok #",
    b"\nok",
    b"subtest",
    b"\n===",
    b"ran ",
    b"tests run",
    b"test result",
    b"no tests ran",
    b"# tests ",
    b"# suites ",
    b"# cancelled ",
    b"# todo ",
    b"total",
    b"pending",
    b"build ",
    b" generated",
    b"___",
    b"#) ",
    *(symbol.encode() for symbol in "✓✔√✗✘✖❌×●ℹ"),
    # version control (commit lines are recorded one by one), HTTP requests
    b"\ncommit ",
    b"\ndiff ",  # a diff's file and hunk headers are recorded one by one, like commit lines
    b"\n@@ -",
    b"\n#######",
    b"\nconflict (",
    b"\nhint: ",
    b" http/",
    *(method + b" /" for method in (b"get", b"post", b"put", b"patch", b"delete", b"head", b"options")),
    b"status",  # a JSON access record's status field
    # frames and locations that are not name.ext:N
    b'file "',
    b" at ",
    b"\tat ",
    b" by 0x",  # valgrind's frames by code address ("at 0x..." has " at ")
    # a process-id gutter (``==123==``) hides a rule anchored at the line's start
    b"\n==",
    b"\n--",
    b"\n**",
    *(space + b"at " for space in _SPACES),
    b"#)\n",
    b".go:",
    b" more\n",
    b"frames omitted",
    b"#: ",
    b"line #",
    b"--> ",
    # binary lines
    *_CONTROL,
)
# A location: a name's extension (a letter, then up to 7 word characters of up to 4 bytes each)
# right before ":N", ":[N" or "(N", over the shape fold.
LOCATION_SHAPE = lazy(rb"\.[a#][a#]{0,28}(?::\[?#|\(#)")
# An alert-tagged record (BGL, Thunderbird): an upper-case tag, then an epoch, over the line key.
_ALERT = lazy(rb"^[A-Z][A-Z#_]{2,} #{6,} ")
_HEADS = bytes(ord("A") if ord("A") <= c <= ord("Z") else ord(".") for c in range(256))
_UPPER_HEAD = lazy(rb"A")


def fold(data: bytes) -> bytes:
    """The word fold of ``data`` (digits and hex letters ``#``, other letters lower case)."""
    return data.translate(_FOLD_WORDS)


def _patterns() -> list[bytes]:
    return list(dict.fromkeys(map(fold, TRIGGERS)))


Finder = Callable[[bytes], list[int]]


def _re_finder(patterns: list[bytes]) -> Finder:
    rx = re.compile(b"|".join(map(re.escape, sorted(patterns, key=len, reverse=True))))
    return lambda data: [m.start() for m in rx.finditer(data)]


def _ac_finder(patterns: list[bytes]) -> Finder | None:
    try:
        import ahocorasick_rs
    except ImportError:
        return None
    ac = ahocorasick_rs.BytesAhoCorasick(patterns, implementation=ahocorasick_rs.Implementation.DFA)
    return lambda data: [start for _, start, _ in ac.find_matches_as_indexes(data)]


class Prefilter:
    """Finds the keys that need the classifier; built once per stream, on first use."""

    def __init__(self, *, fast: bool = True) -> None:
        patterns = _patterns()
        finder = _ac_finder(patterns) if fast else None
        self.engine = "ahocorasick_rs" if finder is not None else "re"
        self._find = finder or _re_finder(patterns)

    def hits(self, keys: Sequence[bytes]) -> set[int]:
        """Indices of the ``keys`` that hold a trigger (the others are ordinary lines)."""
        data = b"\n\n" + b"\n\n".join(keys) + b"\n\n"
        # Line i starts at starts[i]; a match is placed by a byte inside its line.
        starts = list(accumulate(map(add, map(len, keys[:-1]), repeat(2)), initial=2))
        found = {bisect_right(starts, pos) - 1 for pos in self._positions(data)}
        # Alert tags open a line with an upper-case letter: only those lines are tried.
        heads = bytes(map(data.__getitem__, starts)).translate(_HEADS)
        found.update(m.start() for m in _UPPER_HEAD.finditer(heads) if _ALERT.match(keys[m.start()]))
        return found

    def _positions(self, data: bytes) -> list[int]:
        words = data.translate(_FOLD_WORDS)
        # A match that opens with "\n" starts on the separator: the line is the next one, so the
        # position is moved one byte on (the separator is two bytes, the line at least zero).
        out = [pos + 1 if words[pos : pos + 1] == b"\n" else pos for pos in self._find(words)]
        out.extend(m.start() for m in LOCATION_SHAPE.finditer(data.translate(_FOLD_SHAPE)))
        return out
