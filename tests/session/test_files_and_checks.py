"""Files deleted and renamed are shown as such; test runs keep their failing names and honest counts."""

from __future__ import annotations

from typing import Any

from summarizer.session.extract import extract
from summarizer.session.transcript import Event, Transcript


def _run(*calls: tuple[str, dict[str, Any], str]) -> Transcript:
    events: list[Event] = []
    for i, (tool, tool_input, output) in enumerate(calls):
        events.append(Event(i, "tool_call", "assistant", tool=tool, tool_input=tool_input, call_id=f"c{i}"))
        events.append(Event(i, "tool_result", "tool", output, call_id=f"c{i}"))
    return Transcript(tuple(events), cwd="/repo")


def test_git_rm_rm_git_mv_and_mv_show_deleted_and_renamed_files() -> None:
    """A deleted file is never listed as created; a renamed one names where it came from."""
    found = extract(
        _run(
            ("Write", {"file_path": "/repo/tmp_notes.md", "content": "x"}, "File created"),
            ("Bash", {"command": "git rm -q old_queue.py && rm -f tmp_notes.md"}, "rm 'old_queue.py'"),
            ("Bash", {"command": "git mv q.py queue/core.py"}, ""),
            ("Bash", {"command": "mv a.txt b.txt c.txt docs/"}, ""),
            (
                "Bash",
                {"command": "rm missing.py"},
                "rm: cannot remove 'missing.py': No such file or directory",
            ),
        )
    )
    assert found.files == (
        "`tmp_notes.md` — deleted",
        "`old_queue.py` — deleted",
        "`queue/core.py` — renamed from `q.py`",
        "`docs/a.txt` — renamed from `a.txt`",
        "`docs/b.txt` — renamed from `b.txt`",
        "`docs/c.txt` — renamed from `c.txt`",
    )


def test_a_patch_that_deletes_and_moves_files() -> None:
    """Codex's apply_patch: '*** Delete File:' and '*** Move to:'."""
    patch = (
        "*** Begin Patch\n*** Delete File: src/legacy.py\n*** Update File: src/util.py\n"
        "*** Move to: src/helpers.py\n@@\n-a\n+b\n*** End Patch"
    )
    found = extract(_run(("apply_patch", {"input": patch}, "Done")))
    assert found.files == (
        "`src/legacy.py` — deleted",
        "`src/helpers.py` — edited, renamed from `src/util.py`",
    )


VITEST = """\
 ✓ src/b.test.ts (9 tests) 12ms
 FAIL  src/a.test.ts > queue > keeps jobs after restart
AssertionError: expected 0 to be 1

 Test Files  1 failed | 1 passed (2)
      Tests  1 failed | 9 passed (10)
"""


def test_vitest_counts_tests_and_files_apart_and_names_the_failure() -> None:
    """'1 failed, 9 passed' are tests; the files are counted on their own."""
    found = extract(_run(("Bash", {"command": "npx vitest run"}, VITEST)))
    assert found.status == (
        "`npx vitest run` — 1 failed, 9 passed; test files: 1 failed, 1 passed; "
        "failing: src/a.test.ts > queue > keeps jobs after restart",
    )


def test_pytest_failing_names_are_capped_with_a_count_of_the_rest() -> None:
    """Seven failures: five names and 'and 2 more'."""
    names = [f"tests/test_api.py::test_case_{i}" for i in range(7)]
    output = "\n".join(f"FAILED {n} - assert 1 == 2" for n in names) + "\n7 failed, 31 passed in 2.10s\n"
    found = extract(_run(("Bash", {"command": "pytest -q"}, output)))
    assert found.status == (f"`pytest -q` — 7 failed, 31 passed; failing: {', '.join(names[:5])} and 2 more",)


def test_a_command_named_only_on_the_first_line_of_a_tool_records_output() -> None:
    """A harness log without arguments: '$ go test ./...' opens the output."""
    output = "$ go test ./...\n--- FAIL: TestRetry (0.01s)\nFAIL\tacme/queue\t0.02s\n"
    found = extract(_run(("bash", {}, output)))
    assert found.status == ("`go test ./...` — failed; failing: TestRetry",)
