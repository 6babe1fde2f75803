"""Compact forms of git, listing and search output: every path, name, hash, status and line number
kept, grouped; a row is never an error. Truth: ``fixtures/forms_truth.json`` (machine sources, see
``fixtures/make_forms.py``)."""

from __future__ import annotations

import io
import json
import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from summarizer.output import OriginalStore, OutputOptions, OutputResult, compress
from summarizer.output.forms import compact_form, listing_summary
from summarizer.output.forms_sniff import may_have_form
from summarizer.output.grouping import expand
from tests.output.conftest import FIXTURES, fixture_bytes

TRUTH = json.loads((FIXTURES / "forms_truth.json").read_text())
# git status --porcelain's XY -> the group the long form's paths go under.
_GROUP = {
    "M ": "staged modified",
    "R ": "staged renamed",
    " M": "modified",
    " D": "deleted",
    "??": "untracked",
}


def _compress(store: OriginalStore, name: str, **options: int) -> OutputResult:
    return compress(io.BytesIO(fixture_bytes(name)), store, OutputOptions(**options))  # type: ignore[arg-type]


def _saves(result: OutputResult, share: float = 0.25) -> bool:
    return not result.passthrough and result.compressed_tokens <= result.original_tokens * (1 - share)


def test_git_status_groups_every_path_under_its_status(store: OriginalStore) -> None:
    """Each path of the porcelain truth is in the group its status names; hints are gone."""
    result = _compress(store, "forms_git_status.txt")
    assert _saves(result) and result.first_error is None
    groups = {
        line.split(": ", 1)[0]: line.split(": ", 1)[1] for line in result.text.splitlines() if ": " in line
    }
    for xy, path in TRUTH["git_status"]:
        wanted = path.rstrip("/") if xy == "??" else path
        assert wanted in groups[_GROUP[xy]], (xy, path)
    assert '(use "git' not in result.text


@pytest.mark.parametrize("name", ["forms_git_log.txt", "forms_git_log_stat.txt"])
def test_git_log_keeps_every_hash_with_its_subject_and_invents_no_error(
    store: OriginalStore, name: str
) -> None:
    """Subjects say "error", "fail", "Traceback" and bodies say "ERROR:": none is a failure."""
    result = _compress(store, name)
    assert _saves(result) and result.first_error is None
    rows = result.text.splitlines()
    for commit, subject in TRUTH["git_log"]:
        assert any(row.startswith(commit) and subject in row for row in rows), commit
    assert "first error" not in result.text


def test_git_log_oneline_keeps_every_hash_and_names_no_error(store: OriginalStore) -> None:
    """Most abbreviated hashes start with a digit, like numbered log records; subjects say "error",
    "Traceback", "FAILED test": it is still version-control output, every row kept, no failure."""
    result = _compress(store, "forms_git_log_oneline.txt")
    assert result.first_error is None and "first error" not in result.text
    assert "records" not in result.text.splitlines()[0]
    rows = result.text.splitlines()
    for short in TRUTH["git_oneline"]:
        assert any(short in row for row in rows), short


def test_a_long_oneline_log_is_never_made_longer(store: OriginalStore) -> None:
    """Past the pass-through size every commit row is kept: numbering them would only add bytes."""
    text = fixture_bytes("forms_git_log_oneline.txt") * 12
    result = compress(io.BytesIO(text), store, OutputOptions())
    assert result.first_error is None
    assert result.compressed_tokens <= result.original_tokens
    for short in TRUTH["git_oneline"]:
        assert short in result.text


def test_git_log_graph_keeps_every_hash_drops_the_art_and_names_no_error(store: OriginalStore) -> None:
    """``--graph --oneline``: rows under the graph's columns (``| * hash``) and art-only rows
    (``|\\``, ``|/``) are a one-line log, not a log whose subjects ("assert error") are failures."""
    truth = fixture_bytes("forms_git_log_graph.truth").decode().split()
    text = fixture_bytes("forms_git_log_graph.txt").decode()
    form = compact_form(text)
    assert form is not None and not form.lossy and "graph dropped" in form.summary
    assert sorted(row.split()[0] for row in form.body) == sorted(truth)
    assert not any(row[:1] in "|*" for row in form.body)
    result = _compress(store, "forms_git_log_graph.txt", target_tokens=300)
    assert result.first_error is None and "first error" not in result.text
    assert result.text.startswith("[summarizer · git log · 48 commits")
    kept = set(result.text.split())
    assert [h for h in truth if h not in kept] == []


def test_a_long_oneline_log_past_the_budget_keeps_every_hash() -> None:
    """Past the budget the subjects are cut, then the oldest commits keep their hash alone."""
    truth = TRUTH["git_oneline"]
    form = compact_form(fixture_bytes("forms_git_log_oneline.txt").decode())
    assert form is not None and not form.lossy and "graph" not in form.summary
    cut = form.shorter
    assert cut is not None and cut.lossy and all(len(row) <= len(truth[0]) + 41 for row in cut.body)
    least = cut.shorter
    assert least is not None and least.last_resort and "newest 20 with subjects" in least.summary
    assert least.body[:20] == form.body[:20]
    assert " ".join(least.body[20:]).split() == truth[20:]


def test_git_log_stat_keeps_every_path_under_its_commit() -> None:
    """``--stat``: each commit's ``path N`` rows under its own row (the bar of ``+``/``-`` dropped);
    folding them to ``N files +A -D`` is a lossy variant, for a budget only."""
    form = compact_form(fixture_bytes("forms_git_log_stat.txt").decode())
    assert form is not None and not form.lossy
    assert not any("|" in row for row in form.body)
    commit = ""
    under: dict[str, list[str]] = {}
    for row in form.body:
        if not row.startswith(" "):
            commit = row.split()[0]
            under[commit] = []
        elif not row.strip()[:1].isdigit():
            under[commit].append(row.split()[0])
    assert under == TRUTH["git_log_files"]
    counted = form.shorter
    assert counted is not None and counted.lossy and "files counted" in counted.summary
    assert all("· 1 file +1 -1" in row for row in counted.body[:5])


def test_git_show_stat_keeps_its_file_rows() -> None:
    form = compact_form(fixture_bytes("forms_git_show_stat.txt").decode())
    assert form is not None and form.name == "git show"
    assert form.body[0].startswith(TRUTH["git_log"][0][0])
    assert "  src/module_05.py 2" in form.body


def test_search_hits_are_grouped_by_file_and_expand_back_to_grep(store: OriginalStore) -> None:
    """``@ file`` then ``N: text``: every line number kept, the text without its indentation; a
    hit that says InputError is no failure."""
    original = fixture_bytes("forms_grep_rn.txt").decode()
    result = _compress(store, "forms_grep_rn.txt")
    assert _saves(result) and result.first_error is None
    body = result.text.split("\n", 1)[1]
    dedented = [re.sub(r"^([^:]+:\d+:)\s+", r"\1", row) for row in original.splitlines()]
    assert expand(body).splitlines() == dedented
    for file, line in TRUTH["grep_rn"]:
        assert f"{file}:{line}:" in expand(result.text)
    assert sum(row.startswith("@ ") for row in body.splitlines()) == len({f for f, _ in TRUTH["grep_rn"]})


def test_grep_context_rows_keep_their_numbers(store: OriginalStore) -> None:
    """``grep -C``: hits ``N: text`` and context ``N- text`` under their file; only ``--`` goes."""
    original = fixture_bytes("forms_grep_c.txt").decode()
    result = _compress(store, "forms_grep_c.txt")
    assert not result.passthrough and result.first_error is None
    kept = [line for line in original.splitlines() if line != "--"]
    assert expand(result.text.split("\n", 1)[1]).splitlines() == kept


def test_ls_la_keeps_every_name_and_no_name_is_an_error(store: OriginalStore) -> None:
    """Names such as libgpg-error.so.0 are names; the dates, inodes and link counts go."""
    result = _compress(store, "forms_ls_la.txt")
    assert _saves(result) and result.first_error is None
    words = {w.rstrip("/") for row in result.text.splitlines()[1:] for w in row.split()}
    assert set(TRUTH["ls_la"]) <= words
    assert "->" in result.text  # the symlink keeps its target


def _paths_of(body: tuple[str, ...]) -> set[str]:
    """The paths a listing form names: ``@ dir/`` groups and ``dir/ name name`` rows."""
    paths: set[str] = set()
    current = ""
    for row in body:
        if row.startswith("@ "):
            current = row[2:]
            continue
        if " " in row and row.split(" ", 1)[0].endswith("/") and not current:
            folder, names = row.split(" ", 1)
            paths.update(folder + name.rstrip("/") for name in names.split())
            continue
        paths.add((current + row.split(" ")[0]).rstrip("/"))
    return paths


@pytest.mark.parametrize(("name", "truth"), [("forms_find.txt", "find"), ("forms_tar_tv.txt", "tar")])
def test_a_listing_names_every_path_grouped_by_directory(name: str, truth: str) -> None:
    form = compact_form(fixture_bytes(name).decode())
    assert form is not None and form.name == "listing"
    assert _paths_of(form.body) == {p.rstrip("/") for p in TRUTH[truth]}


def test_find_ls_keeps_every_path_and_says_the_owner_once() -> None:
    form = compact_form(fixture_bytes("forms_find_ls.txt").decode())
    assert form is not None and "owner root:root" in form.summary
    assert _paths_of(tuple(row.split(" -> ")[0] for row in form.body)) == set(TRUTH["find"])
    assert "run-tests 333B -rwxr-xr-x" in form.body  # the one unusual mode is shown


def test_a_form_that_saves_too_little_is_not_used(store: OriginalStore) -> None:
    """git status -s is already short: the original passes through, byte for byte."""
    result = _compress(store, "forms_git_status_short.txt")
    assert result.passthrough and result.text == fixture_bytes("forms_git_status_short.txt").decode()


def test_a_big_listing_is_summarised_as_a_listing(store: OriginalStore) -> None:
    """Counts per directory and extension, the first and last rows, every line that is not a row."""
    paths = fixture_bytes("noise_find_listing.txt").decode().splitlines()
    planted = "find: '/root/.cache': Permission denied"
    lines = [*paths[:2000], planted, *paths[2000:]]
    result = compress(io.BytesIO(("\n".join(lines) + "\n").encode()), store, OutputOptions())
    text = result.text
    assert result.compressed_tokens <= 3_000 and planted in text
    assert f"2001: {planted}" in text and f"{len(lines)}: {paths[-1]}" in text and f"1: {paths[0]}" in text
    folders = Counter(p[: p.rstrip("/").rfind("/") + 1] for p in paths)
    top, count = folders.most_common(1)[0]
    assert f"rows per directory: {top} {count:,}" in text
    assert "first error" in text and planted in text.split("first error", 1)[1].split("\n", 1)[0]


def test_listing_summary_counts_match_the_rows() -> None:
    rows = [f"/srv/a/file{i}.py" for i in range(30)] + [f"/srv/b/x{i}.so.1" for i in range(10)]
    out = listing_summary([(0, "\n".join(rows[:25]), 25), (25, "\n".join(rows[25:]), 15)], 4_000)
    assert out is not None
    assert "rows per directory: /srv/a/ 30 · /srv/b/ 10" in out
    assert "rows per extension: .py 30 · .so 10" in out


@pytest.mark.parametrize(
    "name",
    ["forms_git_status.txt", "forms_git_log.txt", "forms_grep_rn.txt", "forms_ls_la.txt", "forms_find.txt"],
)
def test_the_fast_paths_send_these_outputs_to_the_compressor(name: str) -> None:
    assert may_have_form(fixture_bytes(name))


@pytest.mark.parametrize(
    "data",
    [
        b"Building the project\nDone in 3s\nok\n",
        b"Compiling foo v0.1.0\nwarning: unused variable\nerror: aborting\n",
        b"one line\n",
    ],
)
def test_other_small_outputs_stay_on_the_fast_path(data: bytes) -> None:
    assert not may_have_form(data)


def test_run_prints_the_compact_form_of_a_small_git_status(summarizer: str, tmp_path: Path) -> None:
    """Under the floor, through `summarizer run` and `summarizer output`: one header line, the
    groups, and restore gives the original back."""
    original = fixture_bytes("forms_git_status.txt")
    (tmp_path / "status.txt").write_bytes(original)
    for argv in (
        ["run", "--", "cat", str(tmp_path / "status.txt")],
        ["output", str(tmp_path / "status.txt")],
    ):
        done = subprocess.run([summarizer, *argv], capture_output=True, check=False)
        head, _, body = done.stdout.decode().partition("\n")
        assert done.returncode == 0 and head.startswith("[summarizer · git status · 9 paths · restore ")
        assert "modified: src/module_01.py src/module_04.py" in body
        restore_id = head.rsplit("restore ", 1)[1].rstrip("]")
        back = subprocess.run([summarizer, "restore", restore_id], capture_output=True, check=False)
        assert back.stdout == original


@pytest.mark.parametrize("name", ["forms_git_log.txt", "forms_find_ls.txt"])
def test_when_no_form_fits_the_engine_names_no_row_as_the_first_error(
    store: OriginalStore, name: str
) -> None:
    """A target too small for any form: the engine renders it, and still a commit message, a hit
    or a file name that says "error" is not the first error."""
    result = _compress(store, name, target_tokens=40, floor_tokens=0)
    assert not result.text.startswith("[summarizer ·")  # the engine's rendering, not a form
    assert result.first_error is None


def test_a_type_checkers_report_is_diagnostics_not_search_hits(store: OriginalStore) -> None:
    """``path:N: error: message [code]`` looks like a grep hit; the severity word makes it a
    diagnostic: its first error is named and every error stays. Truth: ``mypy -O json``."""
    truth = [json.loads(line) for line in fixture_bytes("real_mypy_plain.json").decode().splitlines()]
    errors = [row for row in truth if row["severity"] == "error"]
    result = _compress(store, "real_mypy_plain.txt", target_tokens=400)
    assert "· diagnostics ·" in result.text.splitlines()[0]
    first = errors[0]
    assert result.first_error is not None
    assert result.first_error.text.startswith(f"{first['file']}:{first['line']}: error: {first['message']}")
    shown = expand(result.text)
    for row in errors:
        assert f"{row['file']}:{row['line']}: error: {row['message']}" in shown, row


def test_eslints_stylish_report_is_diagnostics_not_version_control(store: OriginalStore) -> None:
    """Stylish pads ``3:1`` to ``    3:1`` under a file with three-digit lines; two blank status
    columns are no ``git status -s`` row, so the report is diagnostics with every file kept.
    Truth: ``eslint -f json``."""
    truth = json.loads(fixture_bytes("real_eslint_stylish.json"))
    result = _compress(store, "real_eslint_stylish.txt", target_tokens=400)
    assert "· diagnostics ·" in result.text.splitlines()[0]
    assert result.first_error is not None and "  error  " in result.first_error.text
    for path, line, column, severity in truth:
        if severity != 2:
            continue
        assert path in result.text and f"{line}:{column} " in result.text, (path, line, column)


def test_a_listing_keeps_the_path_an_indented_message_stands_under() -> None:
    """A linter's heading path with its message in the middle of a listing: the message keeps its file."""
    lines = fixture_bytes("forms_find.txt").decode().splitlines()
    lines[3:3] = ["src/util.js", "  6:14  error  'undefinedThing' is not defined  no-undef"]
    form = compact_form("\n".join(lines) + "\n")
    assert form is not None and form.name == "listing"
    body = list(form.body)
    message = next(i for i, row in enumerate(body) if "undefinedThing" in row)
    assert body[message - 1] == "4: src/util.js"


def test_git_log_p_is_content_that_keeps_every_commit_line(store: OriginalStore) -> None:
    """Commits with their patches are content; squeezed to a small budget, each ``commit`` line
    still stands (a patch's lines may go, a commit may not)."""
    result = _compress(store, "forms_git_log_p.txt", target_tokens=300)
    assert "· content ·" in result.text.splitlines()[0] and result.first_error is None
    for short in TRUTH["git_oneline"][:30]:
        assert f"commit {short}" in result.text, short
