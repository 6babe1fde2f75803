"""Tests and Build: the latest run of each test/build/lint command, its counts and its failing tests.

Only a run's shape is read from its output, never its prose: the summary counts, each on its own
unit (vitest's ``Test Files 1 failed | 1 passed`` are files and its ``Tests 1 failed | 9 passed``
are tests; jest's ``Test Suites:`` likewise), a verdict when there are no counts, and the names of
the failing tests (pytest ``FAILED id``, unittest ``FAIL: name``, jest/vitest ``✕ name`` and
``FAIL file > name``, go ``--- FAIL: Name``, cargo ``test name ... FAILED``, rspec ``rspec
./spec:12``), at most :data:`MAX_NAMES` of them with a count of the rest.

The command is the call's own ``command``; a tool record that carries none (a generic harness log)
may name it on the first line of its output (``$ npx vitest run``).
"""

from __future__ import annotations

import re

from summarizer.session.transcript import Event, Transcript

__all__ = ["MAX_NAMES", "MAX_STATUS", "is_check_command", "status"]

MAX_STATUS = 3
MAX_NAMES = 5
_NAME_CHARS = 100

_CHECK_COMMAND = re.compile(
    r"\b(?:pytest|py\.test|tox|nox|unittest|jest|vitest|mocha|playwright|rspec|phpunit|tsc|ruff|mypy|pyright"
    r"|eslint|flake8|black --check|go (?:test|build|vet)|cargo (?:test|build|check|clippy)|mvn|gradlew?"
    r"|dotnet (?:test|build)|make(?:\s+\w+)?"
    r"|(?:npm|pnpm|yarn|bun)(?: run)? (?:test|build|lint|typecheck|check)"
    r"|npx (?:jest|vitest|tsc|playwright|eslint)|bazel (?:test|build)|ctest|swift (?:test|build))\b",
)
_COUNT = re.compile(
    r"\b(\d+) (passed|failed|errors?|skipped|xfailed|xpassed|warnings?|deselected|failures?|tests?|ignored"
    r"|todo|pending)\b",
    re.IGNORECASE,
)
# The unit a summary line counts, from its label; unlabelled lines count tests (pytest, cargo).
_UNIT = re.compile(r"^\W*(Test Files|Test Suites|Suites|Tests|Snapshots)\b:?", re.IGNORECASE)
_VERDICTS = (
    (re.compile(r"All checks passed!|Success: no issues found|Found 0 errors", re.IGNORECASE), "clean"),
    (re.compile(r"Found (\d+) errors?", re.IGNORECASE), "{} errors"),
    (re.compile(r"test result: (ok|FAILED)\.", re.IGNORECASE), "test result {}"),
    (re.compile(r"^(?:FAIL|BUILD FAILED|error\b)", re.MULTILINE), "failed"),
    (re.compile(r"^ok\s+\S+", re.MULTILINE), "ok"),
    (re.compile(r"BUILD SUCCESS(?:FUL)?|Compiled successfully|Build succeeded", re.IGNORECASE), "build ok"),
    (re.compile(r"\b(?:exit code|exit status|exited with code)[: ]+(\d+)", re.IGNORECASE), "exit code {}"),
)
_FAILING = (
    re.compile(r"^(?:FAILED|ERROR) (\S+::\S+)", re.MULTILINE),  # pytest -rf summary
    re.compile(r"^(\S+::\S+) (?:FAILED|ERROR)\b", re.MULTILINE),  # pytest -v
    re.compile(r"^(?:FAIL|ERROR): (\w+ \([\w.]+\))", re.MULTILINE),  # unittest
    re.compile(r"^\s*(?:✕|×|✗)\s+(.+?)(?:\s+\d+\s*m?s)?\s*$", re.MULTILINE),  # jest, vitest
    re.compile(r"^\s*FAIL\s+(\S+\s+>\s+.+?)\s*$", re.MULTILINE),  # vitest: FAIL file > suite > test
    re.compile(r"^\s*--- FAIL: (\S+)", re.MULTILINE),  # go test
    re.compile(r"^test (\S+) \.\.\. FAILED\s*$", re.MULTILINE),  # cargo test
    re.compile(r"^rspec (\./\S+)", re.MULTILINE),  # rspec
)
_SHELL_TOOLS = {
    "bash",
    "shell",
    "sh",
    "terminal",
    "run",
    "exec",
    "run_command",
    "execute_command",
    "local_shell",
}


def is_check_command(command: str) -> bool:
    """Whether ``command`` runs tests, a build, a type checker or a linter."""
    return _CHECK_COMMAND.search(command) is not None


def status(transcript: Transcript) -> list[str]:
    """The latest run of each test/build command with its outcome, newest first, at most three."""
    results = transcript.results()
    latest: dict[str, str] = {}
    for index, event in enumerate(transcript.events):
        if event.kind != "tool_call":
            continue
        result = results.get(index)
        command = _command(event) or _first_line_command(event, result)
        if not command or not is_check_command(command):
            continue
        outcome = _outcome(result.text) if result is not None else "no result recorded"
        shown = command if len(command) <= 100 else command[:99] + "…"
        latest.pop(shown, None)  # re-insert so dict order is run order
        latest[shown] = f"`{shown}` — {outcome}"
    return list(reversed(latest.values()))[:MAX_STATUS]


def _command(call: Event) -> str:
    value = call.tool_input.get("command") or call.tool_input.get("cmd")
    if isinstance(value, list):
        parts = [str(v) for v in value]
        # Codex runs ["bash", "-lc", "pytest -q"]: the script is the command.
        value = parts[-1] if len(parts) >= 3 and parts[1] in {"-lc", "-c"} else " ".join(parts)
    return " ".join(value.split()) if isinstance(value, str) else ""


def _first_line_command(call: Event, result: Event | None) -> str:
    """A shell record's command when only its output names it: ``$ pytest -q`` on the first line."""
    if result is None or call.tool.lower().rsplit("__", 1)[-1] not in _SHELL_TOOLS:
        return ""
    first = result.text.lstrip().split("\n", 1)[0].strip()
    return " ".join(first.removeprefix("$").removeprefix(">").split())


def _outcome(text: str) -> str:
    tail = text[-20_000:]
    counts = _counts(tail)
    names = _failing(tail)
    if counts:
        outcome = counts
    else:
        outcome = next(
            (
                label.format(*found.groups())
                for pattern, label in _VERDICTS
                if (found := pattern.search(tail))
            ),
            "ran (outcome not recognised)",
        )
    if names:
        shown = ", ".join(
            n if len(n) <= _NAME_CHARS else n[: _NAME_CHARS - 1] + "…" for n in names[:MAX_NAMES]
        )
        rest = f" and {len(names) - MAX_NAMES} more" if len(names) > MAX_NAMES else ""
        outcome += f"; failing: {shown}{rest}"
    return outcome


def _counts(text: str) -> str:
    """The last summary line of each unit, tests first: ``1 failed, 9 passed; test files: 1 failed``."""
    by_unit: dict[str, list[str]] = {}
    for line in text.splitlines():
        found = _COUNT.findall(line)
        if not found:
            continue
        label = _UNIT.match(line)
        unit = label.group(1).lower() if label else "tests"
        if unit == "snapshots":
            continue
        pieces: list[str] = []
        for number, word in found:
            if (piece := f"{number} {word.lower()}") not in pieces:
                pieces.append(piece)
        by_unit[unit] = pieces
    if not by_unit:
        return ""
    main = by_unit.pop("tests", None)
    parts = [", ".join(main)] if main else []
    parts += [f"{unit.lower()}: {', '.join(p)}" for unit, p in by_unit.items()]
    return "; ".join(parts)


def _failing(text: str) -> list[str]:
    names: list[str] = []
    for pattern in _FAILING:
        for found in pattern.findall(text):
            name = " ".join(found.split())
            if name and name not in names:
                names.append(name)
    return names
