"""Budget rules for what is not a failure: grouped warnings, collapsed all-pass runs,
merged measurement repeats and file-factored dense output, each keeping every coordinate."""

from __future__ import annotations

import re

from summarizer.output.grouping import expand
from tests.output.conftest import Run, fixture_bytes


def test_one_error_among_826_warnings_comes_first_within_the_target(run: Run) -> None:
    """Warnings are grouped by (file, code); the error is in the first 10 lines, under 3,000 tokens."""
    result = run(fixture_bytes("real_make_warnings_one_error.txt"), target=None)
    error = "src/part10.c:179:12: error: ‘missing_symbol’ undeclared (first use in this function)"
    assert result.compressed_tokens <= 3000
    assert error in "\n".join(result.text.splitlines()[:10])
    assert "make: Target 'all' not remade because of errors." in result.text
    # Every warning's source line is listed in its (file, code) group.
    assert re.search(r"src/part03\.c \[-Wunused-variable\] ×25: 4, 11, 18,", result.text)


def test_an_all_pass_run_collapses_to_its_summary(run: Run) -> None:
    """600 PASSED lines: the summary and counts remain, at least 95% smaller, even by default."""
    result = run(fixture_bytes("real_pytest_all_pass_600.txt"), target=None, floor=500)
    assert not result.passthrough
    assert result.reduction >= 0.95
    assert "600 passed" in result.text
    assert "PASSED" not in result.text.replace("600 passed", "")


def test_warnings_differing_in_measurements_merge_with_their_range(run: Run) -> None:
    """326 lease warnings that differ in seconds are one line: count, lines and the range."""
    lines = []
    for i in range(326):
        lines.append(
            f"2015-10-18 18:{i // 60 % 60:02d}:{i % 60:02d},123 INFO [main] org.apache.App: heartbeat {i}"
        )
        lines.append(
            f"2015-10-18 18:{i // 60 % 60:02d}:{i % 60:02d},456 WARN [LeaseRenewer:msrabi@msra-sa-41:9000] "
            "org.apache.hadoop.hdfs.LeaseRenewer: Failed to renew lease for "
            "[DFSClient_NONMAPREDUCE_1537864556_1] "
            f"for {30 + i} seconds.  Will retry shortly ..."
        )
    result = run(("\n".join(lines) + "\n").encode(), target=3000)
    # With no error in the output, the header names the first warning; the body lists it once.
    body = result.text.split("---\n", 1)[1]
    assert body.count("Failed to renew lease") == 1
    assert "×326 like this" in result.text
    assert "30…355" in result.text


def test_warnings_differing_in_identities_do_not_merge(run: Run) -> None:
    """Block ids and addresses are identities: eight such warnings stay eight lines."""
    lines = [f"081109 2036{i:02d} 148 INFO dfs.DataNode: Receiving block blk_{i}" for i in range(200)]
    warns = [
        f"081109 2036{i:02d} 19 WARN dfs.DataNode$DataXceiver: 10.251.{i}.84:50010:"
        "Got exception while serving "
        f"blk_-{1608999687919862906 + i * 7919} to /10.251.{i}.9:"
        for i in range(8)
    ]
    result = run(("\n".join(lines + warns) + "\n").encode(), target=3000)
    for warn in warns:
        assert warn.split(" WARN ", 1)[1] in result.text


def test_dense_output_is_factored_by_file_and_keeps_every_coordinate(run: Run) -> None:
    """240 short tsc errors over 4 files: each file named once, every row whole after its path.

    A failure row's code and message stay verbatim (the code-and-arguments shorthand is for
    warnings and notes), so factoring the file names is all a dense error list can save.
    """
    messages = [
        "error TS2339: Property '{w}' does not exist on type 'Request'.",
        "error TS7006: Parameter '{w}' implicitly has an 'any' type.",
        "error TS2304: Cannot find name '{w}'.",
    ]
    lines, locations = [], []
    for f in range(4):
        for i in range(60):
            loc = f"node_modules/express/lib/module_{f}.js({10 + i * 3},{5 + i % 40})"
            locations.append(loc)
            lines.append(f"{loc}: " + messages[i % 3].format(w=f"name{i % 7}"))
    result = run(("\n".join(lines) + "\n").encode(), target=500)
    assert result.reduction >= 0.2
    assert "@ node_modules/express/lib/module_0.js" in result.text
    whole = expand(result.text)
    for line in lines:
        assert line in whole


def test_consecutive_errors_with_one_message_share_a_row_and_expand_whole(run: Run) -> None:
    """tsc reports the same message on consecutive lines (``Property 'set' does not exist`` five
    times): one row lists the locations, the message whole once; expanding gives every row back."""
    lines = []
    for i in range(60):
        message = (
            "error TS2339: Property 'set' does not exist on type 'App'."
            if i % 6 < 4
            else (f"error TS7006: Parameter 'p{i}' implicitly has an 'any' type.")
        )
        lines.append(f"lib/application.js({90 + i},8): {message}")
    result = run(("\n".join(lines) + "\n").encode(), target=400)
    assert "…(90,8) (91,8) (92,8) (93,8): error TS2339: Property 'set' does not exist on type 'App'." in (
        result.text
    )
    whole = expand(result.text)
    for number, line in enumerate(lines, 1):
        assert f"{number}: {line}" in whole
