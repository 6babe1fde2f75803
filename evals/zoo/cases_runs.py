"""Zoo generators: test runs whose header must carry the runner's own accounting (pytest 9 subtests,
``go test -v`` log lines, unittest ``-v`` docstrings, tape's TAP, ctest). Truth from the runner's
machine side: pytest's report objects, ``go test -json``, unittest's ``TestResult``, ctest's JUnit
XML, or the planted list."""

from __future__ import annotations

import json
import os
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from zoo_lib import Made, Truth, case, fresh, quiet, run, write

# -- pytest 9: subtests (its own `subtests` fixture and unittest's subTest) among plain tests -------

PYTEST9_TEST = """import unittest

import pytest


def count_primes(n):
    sieve = [True] * n
    count = 0
    for i in range(2, n):
        if sieve[i]:
            count += 1
            for j in range(i * i, n, i):
                sieve[j] = False
    return count + (1 if n >= 1000 else 0)


def window_sum(values, size):
    return sum(values[-size:]) + (1 if size > 3 else 0)


def test_windows(subtests):
    for size in range(1, 7):
        with subtests.test(msg="window", size=size):
            assert window_sum(list(range(10)), size) == sum(range(10 - size, 10))


class PrimeCountTests(unittest.TestCase):
    def test_known_counts(self):
        for n, expected in [(10, 4), (100, 25), (1000, 168), (10000, 1229)]:
            with self.subTest(n=n):
                self.assertEqual(count_primes(n), expected)


@pytest.mark.parametrize("n", range(20))
def test_small_counts_do_not_shrink(n):
    assert count_primes(n + 1) >= count_primes(n)


def test_window_of_four():
    assert window_sum([1, 2, 3, 4, 5], 4) == 14
"""

# Writes pytest's own tallies and failed reports (in run order) as JSON: the truth, not the text.
PYTEST9_STATS = """import json


def pytest_terminal_summary(terminalreporter):
    stats = terminalreporter.stats
    failed = []
    for key in ("failed", "error"):
        for rep in stats.get(key, []):
            crash = getattr(rep.longrepr, "reprcrash", None)
            failed.append({"nodeid": rep.nodeid, "head": rep.head_line, "message": crash and crash.message})
    counts = {k: len(v) for k, v in stats.items() if k}
    with open("stats.json", "w") as f:
        json.dump({"counts": counts, "failed": failed}, f, indent=1)
"""


def _pytest9() -> str:
    return os.environ.get("ZOO_PYTEST9", f"{sys.executable} -m pytest")


@case("pytest9_subtests_verbose")
def pytest9_subtests_verbose(_: Path) -> Made:
    work = fresh("pytest9_subtests_verbose")
    write(work, {"test_primes.py": PYTEST9_TEST, "zoo_stats.py": PYTEST9_STATS})
    cmd = "python -m pytest -v -p no:cacheprovider test_primes.py"
    out, rc = run(f"{_pytest9()} -v -p no:cacheprovider test_primes.py", work)
    quiet(f"{_pytest9()} -q -p no:cacheprovider -p zoo_stats test_primes.py", work, {"PYTHONPATH": str(work)})
    stats = json.loads((work / "stats.json").read_text())
    truth = Truth(source="pytest's terminal reporter stats (failed/error reports in run order, counts)")
    for report in stats["failed"]:
        # A subtest's section heading ("test_windows [window] (size=4)") names it among its siblings.
        truth.must.append(("test", report["head"]))
    first = next(r for r in stats["failed"] if r["message"])
    truth.first_failure = first["message"].splitlines()[0]
    counts = stats["counts"]
    truth.runner_counts = (counts.get("failed", 0) + counts.get("error", 0), counts.get("passed", 0))
    return Made(out, cmd, rc, truth)


# -- go test -v: a failing test's log lines come before its --- FAIL line --------------------------

GO_TEXT = """package textutil

import "strings"

// Join joins words with sep (planted: a space after sep).
func Join(words []string, sep string) string { return strings.Join(words, sep+" ") }

// Initials returns the first letter of each word, upper-cased.
func Initials(s string) string {
	out := ""
	for _, w := range strings.Fields(s) {
		out += strings.ToUpper(w[:1])
	}
	return out
}

// Clip cuts s to n bytes (planted: one byte short).
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1]
}
"""

GO_TEXT_TEST = """package textutil

import (
	"fmt"
	"testing"
)

func TestInitials(t *testing.T) {
	for i, c := range []struct{ in, want string }{{"go test", "GT"}, {"a b c", "ABC"}, {"x", "X"}} {
		if got := Initials(c.in); got != c.want {
			t.Errorf("case %d: Initials(%q) = %q, want %q", i, c.in, got, c.want)
		}
	}
	t.Logf("checked %d inputs", 3)
}

func TestWords(t *testing.T) {
	for i := 0; i < 30; i++ {
		t.Run(fmt.Sprintf("word_%02d", i), func(t *testing.T) {
			if got := Initials(fmt.Sprintf("w%d x", i)); got != "WX" {
				t.Errorf("Initials = %q", got)
			}
		})
	}
}

func TestJoin(t *testing.T) {
	if got := Join([]string{"a", "b"}, ","); got != "a,b" {
		t.Errorf("Join(a, b) = %q, want %q", got, "a,b")
	}
	if got := Join([]string{"x", "y", "z"}, "-"); got != "x-y-z" {
		t.Errorf("Join(x, y, z) = %q, want %q", got, "x-y-z")
	}
}

func TestClip(t *testing.T) {
	for n := 1; n <= 12; n++ {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			s := "abcdefghij"
			want := s
			if n < len(s) {
				want = s[:n]
			}
			if got := Clip(s, n); got != want {
				t.Fatalf("Clip(%q, %d) = %q, want %q", s, n, got, want)
			}
		})
	}
}

func TestUpper(t *testing.T) {
	for _, w := range []string{"alpha", "beta", "gamma"} {
		if Initials(w) == "" {
			t.Errorf("no initial for %s", w)
		}
	}
}
"""


@case("go_test_verbose_logs")
def go_test_verbose_logs(_: Path) -> Made:
    work = fresh("go_test_verbose_logs")
    write(
        work,
        {
            "go.mod": "module example.com/textutil\n\ngo 1.19\n",
            "text.go": GO_TEXT,
            "text_test.go": GO_TEXT_TEST,
        },
    )
    env = {"GOPROXY": "off", "GOCACHE": str(work / ".cache"), "GOFLAGS": "-count=1"}
    cmd = "go test -v ./..."
    out, rc = run(cmd, work, env)
    truth = Truth(source="go test -json (Action fail on a test; the first failing test's first log line)")
    failed = passed = 0
    logs: dict[str, list[str]] = {}
    first_failed = None
    for line in quiet("go test -json ./...", work, env).splitlines():
        event = json.loads(line)
        test = event.get("Test")
        if not test:
            continue
        if event["Action"] == "output" and "_test.go:" in event.get("Output", ""):
            logs.setdefault(test, []).append(event["Output"].strip())
        elif event["Action"] == "fail":
            failed += 1
            truth.must.append(("test", test))
            first_failed = first_failed or test
        elif event["Action"] == "pass":
            passed += 1
    assert first_failed is not None
    truth.first_failure = logs[first_failed][0]
    truth.runner_counts = (failed, passed)
    return Made(out, cmd, rc, truth)


# -- unittest -v: tests with docstrings print "<docstring line> ... FAIL" as their progress row -----

UNITTEST_MODULE = '''"""Money helpers."""


def to_cents(amount):
    return int(round(amount * 100)) + (1 if amount >= 100 else 0)


def split_evenly(total, parts):
    share, rest = divmod(total, parts)
    return [share + (1 if i < rest else 0) for i in range(parts)]
'''


def _unittest_tests() -> str:
    rows = ["import unittest", "", "from money import split_evenly, to_cents", "", ""]
    rows.append("class CentsTests(unittest.TestCase):")
    for n in (1, 5, 25, 99, 100, 250, 1000):
        rows += [
            f"    def test_cents_{n:04d}(self):",
            f'        """Converting {n} units to cents raises no error and keeps every cent."""',
            f"        self.assertEqual(to_cents({n}), {n * 100})",
            "",
        ]
    rows.append("class SplitTests(unittest.TestCase):")
    for parts in range(1, 9):
        rows += [
            f"    def test_split_{parts}(self):",
            f'        """Splitting 100 in {parts} parts loses nothing."""',
            f"        self.assertEqual(sum(split_evenly(100, {parts})), 100)",
            "",
        ]
    return "\n".join(rows) + "\n"


# Runs the same tests through unittest's API and writes its TestResult as JSON: the truth.
UNITTEST_TRUTH = """import json, unittest
suite = unittest.defaultTestLoader.discover(".", pattern="test_*.py")
result = unittest.TestResult()
suite.run(result)
bad = [(str(t), tb.strip().splitlines()[-1]) for t, tb in result.errors + result.failures]
json.dump({"run": result.testsRun, "skipped": len(result.skipped), "failed": bad}, open("result.json", "w"))
"""


@case("unittest_verbose_docstrings")
def unittest_verbose_docstrings(_: Path) -> Made:
    work = fresh("unittest_verbose_docstrings")
    write(work, {"money.py": UNITTEST_MODULE, "test_money.py": _unittest_tests(), "truth.py": UNITTEST_TRUTH})
    cmd = "python -m unittest -v"
    out, rc = run(f"{sys.executable} -m unittest -v", work)
    quiet(f"{sys.executable} truth.py", work)
    result = json.loads((work / "result.json").read_text())
    truth = Truth(source="unittest's TestResult (errors and failures, in run order; testsRun)")
    for test, last in result["failed"]:
        truth.must += [("test", test.split()[0]), ("assertion", last)]
    truth.first_failure = result["failed"][0][1]
    bad = len(result["failed"])
    truth.runner_counts = (bad, result["run"] - bad - result["skipped"])
    (work / "result.json").unlink()
    return Made(out, cmd, rc, truth)


# -- tape (TAP): `ok N name` rows without a dash; passing assertions that say "throw" and "error" ----

TAPE_LIB = """exports.clamp = (v, lo, hi) => {
  if (lo > hi) throw new RangeError('inverted range');
  return Math.min(hi, Math.max(lo, v));
};
exports.parseDepth = (s) => Math.min(String(s).split('.').length, 4);
"""
# parseDepth stops at 4: the rows for these depths expect the true depth, so they fail.
_TAPE_FAILING_DEPTHS = (5, 17)
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _tape_test() -> tuple[str, dict[int, str], int]:
    """The test file, the failing assertions planted in it (TAP number -> name), and how many in all."""
    rows = ["const test = require('tape');", "const { clamp, parseDepth } = require('./lib');", ""]
    count = 0
    rows.append("test('clamp', (t) => {")
    for n in range(12):
        rows.append(f"  t.equal(clamp({n}, 0, 9), {min(n, 9)}, 'clamps {n}');")
        count += 1
    for n in range(6):
        rows.append(f"  t.throws(() => clamp({n}, 9, 0), RangeError, 'Should throw RangeError');")
        rows.append(f"  t.doesNotThrow(() => clamp({n}, 0, 9), 'Should not throw an error for {n}');")
        count += 2
    rows += ["  t.end();", "});", "", "test('parseDepth', (t) => {"]
    failing = {}
    for depth in range(1, 25):
        path = ".".join(_LETTERS[:depth])
        count += 1  # tape numbers assertions across the whole run
        expected = depth if depth in _TAPE_FAILING_DEPTHS else min(depth, 4)
        name = f"depth of {path} is {expected}"
        if depth in _TAPE_FAILING_DEPTHS:
            failing[count] = name
        rows.append(f"  t.equal(parseDepth('{path}'), {expected}, '{name}');")
    rows += ["  t.end();", "});", ""]
    return "\n".join(rows), failing, count


@case("tape_assertions")
def tape_assertions(_: Path) -> Made:
    work = fresh("tape_assertions")
    source, failing, total = _tape_test()
    write(work, {"lib.js": TAPE_LIB, "test.js": source})
    modules = Path(os.environ.get("ZOO_TAPE_MODULES", "/tmp/fe_tools/tape/node_modules"))
    (work / "node_modules").symlink_to(modules)
    cmd = "tape test.js"
    out, rc = run("node node_modules/.bin/tape test.js", work)
    (work / "node_modules").unlink()
    truth = Truth(source="planted: two failing assertions (their numbers) among the assertions written")
    for number in sorted(failing):
        truth.must.append(("assertion", f"not ok {number} {failing[number]}"))
    truth.first_failure = failing[min(failing)]
    truth.runner_counts = (len(failing), total - len(failing))
    return Made(out, cmd, rc, truth)


# -- ctest --output-on-failure: a failing test's output under its "***Failed  0.01 sec" row -------

CTEST_LISTS = """cmake_minimum_required(VERSION 3.10)
project(units C)
enable_testing()
add_executable(check check.c)
foreach(n RANGE 1 40)
  add_test(NAME unit_${n} COMMAND check ${n})
endforeach()
"""
CTEST_CHECK = """#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int n = atoi(argv[1]);
    int got = n * n + (n == 7 || n == 23 || n == 31 ? 1 : 0);
    if (got != n * n) {
        fprintf(stderr, "check.c:%d: unit %d: expected %d, got %d\\n", __LINE__, n, n * n, got);
        return 1;
    }
    printf("unit %d ok\\n", n);
    return 0;
}
"""


@case("ctest_output_on_failure")
def ctest_output_on_failure(_: Path) -> Made:
    work = fresh("ctest_output_on_failure")
    write(work, {"CMakeLists.txt": CTEST_LISTS, "check.c": CTEST_CHECK})
    quiet("cmake -S . -B build && cmake --build build", work)
    cmd = "ctest --output-on-failure"
    out, rc = run(cmd, work / "build")
    quiet("ctest --output-junit junit.xml", work / "build")
    root = ET.parse(work / "build" / "junit.xml").getroot()
    truth = Truth(source="ctest --output-junit (testcases with status fail and their system-out)")
    failing = [tc for tc in root.iter("testcase") if tc.get("status") == "fail"]
    for tc in failing:
        truth.must.append(("test", tc.get("name", "")))
    truth.first_failure = (failing[0].findtext("system-out") or "").strip().splitlines()[0]
    skipped = int(root.get("skipped", 0)) + int(root.get("disabled", 0))
    truth.runner_counts = (len(failing), int(root.get("tests", 0)) - len(failing) - skipped)
    return Made(out, cmd, rc, truth)
