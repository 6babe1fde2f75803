"""Test-runner verdicts for the header: counts from the runner's own summary line, and test ids.

A runner that prints a summary line knows its counts better than any count of lines can (pytest
``-rA`` prints every test twice; node's spec reporter repeats each failure under ``failing
tests:``), so the header takes failed/passed from these lines when one is present:

* pytest ``=== 9 failed, 153 passed, 1 error in 2.31s ===`` (or ``-q``'s bare line);
* unittest ``Ran 12 tests in 0.003s`` with ``FAILED (failures=2, errors=1)`` or ``OK``;
* cargo ``test result: FAILED. 3 passed; 2 failed; ...`` (summed over the crates);
* TAP's closing comments ``# tests 21`` / ``# pass 20`` / ``# fail 1`` (tape, node-tap, node:test),
  and node:test's spec reporter ``ℹ pass 20`` / ``ℹ fail 1``;
* jest ``Tests: 2 failed, 8 passed, 10 total``; vitest ``Tests  2 failed | 8 passed (10)``;
* mocha ``8 passing (20ms)`` / ``2 failing``;
* minitest ``48 runs, 48 assertions, 3 failures, 0 errors, 0 skips``;
* JUnit ``Tests run: 382,  Failures: 21`` (and Maven's ``, Errors: 0, Skipped: 0``);
* PHPUnit ``Tests: 204, Assertions: 468, Errors: 27, Failures: 31, Skipped: 1.``;
* ctest ``83% tests passed, 2 tests failed out of 12``.

go test prints no totals, so there the header counts ``--- FAIL`` lines, and a TAP stream with no
closing comments (``prove``) its ``not ok`` rows; their passes are the pass lines the engine counted
(``--- PASS``, ``ok 3 name``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from summarizer.core.lazyre import lazy
from summarizer.core.records import record
from summarizer.output.formats import failing_test_name

__all__ = ["NOT_NAMES", "RunCounts", "failing_names", "run_counts", "short_summary_id"]

# pytest 9 adds "2327 subtests passed": a part may be several words.
_PYTEST = lazy(r"^=*\s*((?:\d+ \w+(?: \w+)?(?:, )?)+) in [\d.]+s\b")
_PYTEST_PART = lazy(r"(\d+) (failed|passed|errors?|skipped|xfailed|xpassed)\b")
_UNITTEST_RAN = lazy(r"^Ran (\d+) tests? in ")
_UNITTEST_VERDICT = lazy(r"^(?:FAILED \((?P<parts>[^)]*)\)|OK(?: \((?P<ok>[^)]*)\))?)\s*$")
_CARGO = lazy(r"^test result: \w+\. (\d+) passed; (\d+) failed;")
_NODE = lazy(r"^([#ℹ]) (tests|pass|fail|cancelled)\s+(\d+)$")
_TAP_FAIL = lazy(r"^\s*not ok \d+\b")
_JEST = lazy(r"^Tests:\s+(.*\d+ total)")
_VITEST = lazy(r"^\s*Tests\s{2,}(.*)\(\d+\)")
_MOCHA = lazy(r"^\s*(\d+) (passing|failing)\b")
_CTEST = lazy(r"^\d+% tests passed, (\d+) tests? failed out of (\d+)$")
_MINITEST = lazy(r"^(\d+) (?:runs|tests), \d+ assertions, (\d+) failures, (\d+) errors(?:, (\d+) skips)?")
_GO = lazy(r"^\s*--- (PASS|FAIL): ")  # subtests' lines are indented under their parent's
# pytest's short summary: the id runs to " - message" (ids may hold spaces inside brackets); pytest 9
# names a failed subtest "SUBFAILED(n=100) id" or "SUBFAILED[msg] (n=100) id", whose message and
# parameters tell it from its siblings.
_PYTEST_SHORT = lazy(
    r"^(?:FAILED|ERROR|SUBFAILED(?P<sub>\S*(?: \([^)]*\))?)) (?P<id>\S+?::[^\s\[]+(?:\[.*?\])?)(?= - |\s*$)"
)
# xUnit tallies: the total first, then named counts ("Failures: 2", "Errors: 1", "Skipped: 1").
_XUNIT = lazy(
    r"^\s*(?:Tests run: (?P<junit>\d+),\s+Failures: \d+(?!.*\belapsed\b)"
    r"|Tests: (?P<phpunit>\d+), Assertions: \d+)"
)
_XUNIT_PART = lazy(r"\b(Failures|Errors|Skipped|Incomplete): (\d+)\b")


@record(frozen=True)
class RunCounts:
    """Failed (including errors) and passed tests, as the runner reported them; ``passed`` is
    ``None`` where the runner prints no total of passes (the header counts the pass lines)."""

    failed: int
    passed: int | None
    runner: str


def _numbers(parts: str) -> dict[str, int]:
    found: dict[str, int] = {}
    for count, word in _PYTEST_PART.findall(parts):
        key = word.rstrip("s") if word.startswith("error") else word
        found[key] = found.get(key, 0) + int(count)
    return found


def _one_line(line: str) -> RunCounts | None:
    """A summary one line says whole: pytest's, jest's, vitest's, ctest's, minitest's, JUnit's, PHPUnit's."""
    if (m := _PYTEST.match(line.strip())) and _PYTEST_PART.search(m.group(1)):
        n = _numbers(m.group(1))
        # An xpass ran and passed (JUnit XML counts it so); an xfail is reported with the skips.
        passed = n.get("passed", 0) + n.get("xpassed", 0)
        return RunCounts(n.get("failed", 0) + n.get("error", 0), passed, "pytest")
    for runner, found in (("jest", _JEST.match(line.strip())), ("vitest", _VITEST.match(line))):
        if found:
            n = _numbers(found.group(1).replace("|", ","))
            return RunCounts(n.get("failed", 0), n.get("passed", 0), runner)
    if m := _CTEST.match(line):
        failed, total = int(m.group(1)), int(m.group(2))
        return RunCounts(failed, total - failed, "ctest")
    if m := _MINITEST.match(line):
        runs, bad, skips = int(m.group(1)), int(m.group(2)) + int(m.group(3)), int(m.group(4) or 0)
        return RunCounts(bad, max(runs - bad - skips, 0), "minitest")
    if (m := _XUNIT.match(line)) and m.lastgroup:
        parts = {word.lower(): int(count) for word, count in _XUNIT_PART.findall(line)}
        failed = parts.get("failures", 0) + parts.get("errors", 0)
        rest = parts.get("skipped", 0) + parts.get("incomplete", 0)
        return RunCounts(failed, max(int(m.group(m.lastgroup)) - failed - rest, 0), m.lastgroup)
    return None


class _Tally:
    """Summaries spread over lines (unittest, cargo's crates, TAP's comments, mocha), and the rows
    counted where a runner prints no totals (go, a TAP stream without its comments)."""

    def __init__(self) -> None:
        self.ran: int | None = None
        self.cargo = [0, 0, 0]
        self.node: dict[str, int] = {}
        self.node_mark = "#"
        self.mocha: dict[str, int] = {}
        self.go = [0, 0]
        self.tap_failed = 0

    def add(self, line: str) -> RunCounts | None:
        """Take one line; unittest's verdict line closes its summary and is returned."""
        if m := _UNITTEST_RAN.match(line):
            self.ran = int(m.group(1))
        elif self.ran is not None and (m := _UNITTEST_VERDICT.match(line)):
            parts = dict(re.findall(r"(\w+)=(\d+)", m.group("parts") or m.group("ok") or ""))
            bad = int(parts.get("failures", 0)) + int(parts.get("errors", 0))
            skipped = int(parts.get("skipped", 0)) + int(parts.get("expected failures", 0))
            return RunCounts(bad, max(self.ran - bad - skipped, 0), "unittest")
        elif m := _CARGO.match(line):
            self.cargo = [self.cargo[0] + int(m.group(1)), self.cargo[1] + int(m.group(2)), 1]
        elif m := _NODE.match(line):
            self.node_mark = m.group(1)
            self.node[m.group(2)] = int(m.group(3))
        elif m := _MOCHA.match(line):
            self.mocha[m.group(2)] = int(m.group(1))
        elif m := _GO.match(line):
            self.go[m.group(1) == "PASS"] += 1
        elif _TAP_FAIL.match(line):
            self.tap_failed += 1
        return None

    def totals(self, found: dict[str, RunCounts]) -> None:
        """Add the summaries read over several lines to ``found``; rows counted only if none was."""
        if self.cargo[2]:
            found["cargo"] = RunCounts(self.cargo[1], self.cargo[0], "cargo")
        node = self.node
        if "pass" in node or "fail" in node:
            runner = "TAP" if self.node_mark == "#" else "node"
            failed = node.get("fail", 0) + node.get("cancelled", 0)
            found[runner] = RunCounts(failed, node.get("pass", 0), runner)
        if self.mocha:
            found["mocha"] = RunCounts(self.mocha.get("failing", 0), self.mocha.get("passing", 0), "mocha")
        if not found and any(self.go):
            found["go"] = RunCounts(self.go[0], self.go[1] or None, "go")
        if not found and self.tap_failed:
            found["TAP"] = RunCounts(self.tap_failed, None, "TAP")


def run_counts(lines: Iterable[str]) -> RunCounts | None:
    """The counts from the runner's own summary lines among ``lines``, if it printed any."""
    found: dict[str, RunCounts] = {}
    tally = _Tally()
    for raw in lines:
        line = raw.strip("\n")
        counts = _one_line(line) or tally.add(line)
        if counts is not None:
            found[counts.runner] = counts
    tally.totals(found)
    return next(iter(found.values()), None)


def short_summary_id(text: str) -> str | None:
    """The test id of one row of pytest's short test summary (a subtest's with its parameters)."""
    match = _PYTEST_SHORT.match(text)
    if match is None:
        return None
    sub = match.group("sub")
    # As pytest heads the subtest's failure section: "test_a [msg] (n=100)".
    return f"{match.group('id')} {sub.replace('](', '] (')}" if sub else match.group("id")


def failing_names(texts: Iterable[str], under: dict[int, str] | None = None) -> list[str]:
    """Failing-test ids, whole (spaces and brackets kept), each once, in order of appearance.

    pytest's short summary names each failure by its full id, so when it is present it is the
    list; otherwise the runners' failure headers are used. Headings that name no test (node's
    ``failing tests:``) and build steps are not tests. A header whose name is only a word such as
    "Failure" (minitest's ``1) Failure:``) is named by the line under it (``under``: the text's
    index -> that line): ``TestNumbers#test_rounds_7 [test/x.rb:33]:``.
    """
    texts = list(texts)
    short = [name for t in texts if (name := short_summary_id(t))]
    if short:
        return list(dict.fromkeys(short))
    names = [n for i, t in enumerate(texts) if (n := _name(t, (under or {}).get(i))) and _is_test_name(n)]
    names = list(dict.fromkeys(names))
    return [n for n in names if not any(m != n and _prefixed(m, n) for m in names)]


# What a runner puts between a test's file or suite and its name: "a.py::test_x",
# "src/a.spec.ts > suite > test", jest's "a.test.js › suite › test".
_NAME_JOINS = ("::", ">", "›")


def _prefixed(longer: str, name: str) -> bool:
    """Whether ``longer`` names the same test as ``name`` with its file or suite before it (vitest's
    ``FAIL src/a.spec.ts > suite > test`` row and its ``× suite > test`` progress row)."""
    return longer.endswith(name) and longer[: -len(name)].rstrip().endswith(_NAME_JOINS)


# Words a failure header may put where a test's name goes ("1) Failure:", "ERROR:").
NOT_NAMES = frozenset({"failure", "failures", "error", "errors", "failed", "fail"})
# The location a line under such a header ends with: " [test/x.rb:33]:".
_TRAILING_LOCATION = lazy(r"\s*\[[^\]]*:\d+\]:?\s*$|:\s*$")


def _name(text: str, under: str | None) -> str | None:
    name = failing_test_name(text)
    if name is None or name.lower().rstrip(":") not in NOT_NAMES:
        return name
    named = _TRAILING_LOCATION.sub("", under or "").strip()
    return named if named and " " not in named else None


_NOT_A_TEST = lazy(
    r":$|^(?:failing tests|Building wheel|Running setup\.py|Getting requirements|Preparing metadata)"
    r"|\bsubprocess-exited-with-error\b",
    re.IGNORECASE,
)


def _is_test_name(name: str) -> bool:
    return not _NOT_A_TEST.search(name.strip())
