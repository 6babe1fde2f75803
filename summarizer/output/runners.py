"""Test-runner verdicts for the header: counts from the runner's own summary line, and test ids.

A runner that prints a summary line knows its counts better than any count of lines can (pytest
``-rA`` prints every test twice; node's spec reporter repeats each failure under ``failing
tests:``), so the header takes failed/passed from these lines when one is present:

* pytest ``=== 9 failed, 153 passed, 1 error in 2.31s ===`` (or ``-q``'s bare line);
* unittest ``Ran 12 tests in 0.003s`` with ``FAILED (failures=2, errors=1)`` or ``OK``;
* cargo ``test result: FAILED. 3 passed; 2 failed; ...`` (summed over the crates);
* node:test ``# tests 21`` / ``ℹ pass 20`` / ``ℹ fail 1`` (TAP and spec reporters);
* jest ``Tests: 2 failed, 8 passed, 10 total``; vitest ``Tests  2 failed | 8 passed (10)``;
* mocha ``8 passing (20ms)`` / ``2 failing``.

go test prints no totals, so there the header counts ``--- FAIL`` and ``--- PASS`` lines.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from summarizer.core.lazyre import lazy
from summarizer.core.records import record
from summarizer.output.formats import failing_test_name

__all__ = ["RunCounts", "failing_names", "run_counts"]

_PYTEST = lazy(r"^=*\s*((?:\d+ \w+(?:, )?)+) in [\d.]+s\b")
_PYTEST_PART = lazy(r"(\d+) (failed|passed|errors?|skipped|xfailed|xpassed)\b")
_UNITTEST_RAN = lazy(r"^Ran (\d+) tests? in ")
_UNITTEST_VERDICT = lazy(r"^(?:FAILED \((?P<parts>[^)]*)\)|OK(?: \((?P<ok>[^)]*)\))?)\s*$")
_CARGO = lazy(r"^test result: \w+\. (\d+) passed; (\d+) failed;")
_NODE = lazy(r"^[#ℹ] (tests|pass|fail|cancelled) (\d+)$")
_JEST = lazy(r"^Tests:\s+(.*\d+ total)")
_VITEST = lazy(r"^\s*Tests\s{2,}(.*)\(\d+\)")
_MOCHA = lazy(r"^\s*(\d+) (passing|failing)\b")
_GO = lazy(r"^--- (PASS|FAIL): ")
# pytest's short summary: the id runs to " - message" (ids may hold spaces inside brackets).
_PYTEST_SHORT = lazy(r"^(?:FAILED|ERROR) (?P<id>\S+?::[^\s\[]+(?:\[.*?\])?)(?= - |\s*$)")


@record(frozen=True)
class RunCounts:
    """Failed (including errors) and passed tests, as the runner reported them."""

    failed: int
    passed: int
    runner: str


def _numbers(parts: str) -> dict[str, int]:
    found: dict[str, int] = {}
    for count, word in _PYTEST_PART.findall(parts):
        key = word.rstrip("s") if word.startswith("error") else word
        found[key] = found.get(key, 0) + int(count)
    return found


def run_counts(lines: Iterable[str]) -> RunCounts | None:
    """The counts from the runner's own summary lines among ``lines``, if it printed any."""
    found: dict[str, RunCounts] = {}
    ran: int | None = None
    cargo = [0, 0, 0]
    node: dict[str, int] = {}
    mocha: dict[str, int] = {}
    go = [0, 0]
    for raw in lines:
        line = raw.strip("\n")
        if (m := _PYTEST.match(line.strip())) and _PYTEST_PART.search(m.group(1)):
            n = _numbers(m.group(1))
            found["pytest"] = RunCounts(n.get("failed", 0) + n.get("error", 0), n.get("passed", 0), "pytest")
        elif m := _UNITTEST_RAN.match(line):
            ran = int(m.group(1))
        elif ran is not None and (m := _UNITTEST_VERDICT.match(line)):
            parts = dict(re.findall(r"(\w+)=(\d+)", m.group("parts") or m.group("ok") or ""))
            bad = int(parts.get("failures", 0)) + int(parts.get("errors", 0))
            skipped = int(parts.get("skipped", 0)) + int(parts.get("expected failures", 0))
            found["unittest"] = RunCounts(bad, max(ran - bad - skipped, 0), "unittest")
        elif m := _CARGO.match(line):
            cargo = [cargo[0] + int(m.group(1)), cargo[1] + int(m.group(2)), 1]
        elif m := _NODE.match(line):
            node[m.group(1)] = int(m.group(2))
        elif m := _JEST.match(line.strip()) or _VITEST.match(line):
            n = _numbers(m.group(1).replace("|", ","))
            found["jest"] = RunCounts(n.get("failed", 0), n.get("passed", 0), "jest")
        elif m := _MOCHA.match(line):
            mocha[m.group(2)] = int(m.group(1))
        elif m := _GO.match(line):
            go[m.group(1) == "PASS"] += 1
    if cargo[2]:
        found["cargo"] = RunCounts(cargo[1], cargo[0], "cargo")
    if "pass" in node or "fail" in node:
        found["node"] = RunCounts(node.get("fail", 0) + node.get("cancelled", 0), node.get("pass", 0), "node")
    if mocha:
        found["mocha"] = RunCounts(mocha.get("failing", 0), mocha.get("passing", 0), "mocha")
    if not found and any(go):
        found["go"] = RunCounts(go[0], go[1], "go")
    return next(iter(found.values()), None)


def failing_names(texts: Iterable[str]) -> list[str]:
    """Failing-test ids, whole (spaces and brackets kept), each once, in order of appearance.

    pytest's short summary names each failure by its full id, so when it is present it is the
    list; otherwise the runners' failure headers are used. Headings that name no test (node's
    ``failing tests:``) and build steps are not tests.
    """
    texts = list(texts)
    short = [m.group("id") for t in texts if (m := _PYTEST_SHORT.match(t))]
    if short:
        return list(dict.fromkeys(short))
    names = [n for t in texts if (n := failing_test_name(t)) and _is_test_name(n)]
    names = list(dict.fromkeys(names))
    return [n for n in names if not any(m != n and m.endswith("::" + n) for m in names)]


_NOT_A_TEST = lazy(
    r":$|^(?:failing tests|Building wheel|Running setup\.py|Getting requirements|Preparing metadata)"
    r"|\bsubprocess-exited-with-error\b",
    re.IGNORECASE,
)


def _is_test_name(name: str) -> bool:
    return not _NOT_A_TEST.search(name.strip())
