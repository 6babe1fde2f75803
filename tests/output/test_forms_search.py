"""Search hits in compact form at every budget: every file and line number kept, texts without
their indentation, cut around the match when they do not fit, folded past that. Truth: ``rg
--json`` of the same search (``fixtures/forms_truth.json``, made by ``fixtures/make_forms.py``)."""

from __future__ import annotations

import io
import json
import re

import pytest

from summarizer.output import OriginalStore, OutputOptions, OutputResult, compress
from summarizer.output.forms import compact_form
from summarizer.output.grouping import expand
from tests.output.conftest import FIXTURES, fixture_bytes

TRUTH = json.loads((FIXTURES / "forms_truth.json").read_text())
SAME_SEARCH = ["forms_grep_rn_big.txt", "forms_rg_n.txt", "forms_git_grep_n.txt"]
# "N: text" under "@ file" (a hit), "N- text" (a context row).
_ROW = re.compile(r"^(\d+)([:-])(?: (.*))?$")


def _compress(store: OriginalStore, name: str, **options: int) -> OutputResult:
    return compress(io.BytesIO(fixture_bytes(name)), store, OutputOptions(**options))  # type: ignore[arg-type]


def _hit_rows(text: str) -> dict[tuple[str, int], str]:
    """(file, line) -> the text shown for every hit row of a search form."""
    rows: dict[tuple[str, int], str] = {}
    file = ""
    for line in text.splitlines()[1:]:
        if line.startswith("@ "):
            file = line[2:]
            continue
        found = _ROW.match(line)
        if found is not None and found.group(2) == ":":
            rows[file, int(found.group(1))] = found.group(3) or ""
    return rows


@pytest.mark.parametrize("name", SAME_SEARCH)
def test_grep_rg_and_git_grep_name_each_file_once_and_keep_every_hit(store: OriginalStore, name: str) -> None:
    """Within the pass-through size: whole texts without indentation, each file named once."""
    result = _compress(store, name)
    assert not result.passthrough and result.first_error is None
    assert result.compressed_tokens <= result.original_tokens * 0.75
    hits = TRUTH["search"]["hits"]
    shown = _hit_rows(result.text)
    assert sorted(shown) == sorted((file, line) for file, line, _ in hits)
    assert sum(row.startswith("@ ") for row in result.text.splitlines()) == len({f for f, _, _ in hits})
    original = {
        (f, int(n)): t for f, n, t in (row.split(":", 2) for row in fixture_bytes(name).decode().splitlines())
    }
    for key, text in shown.items():
        whole = original[key].strip()
        # Only a run of adjacent hits keeps some indentation: the part they do not share.
        assert text.strip() == whole or (len(whole) > 200 and text.endswith("…")), key
        adjacent = (key[0], key[1] - 1) in shown or (key[0], key[1] + 1) in shown
        assert text == whole or text.endswith("…") or adjacent, key
    assert all(f"{file}:{line}:" in expand(result.text) for file, line, _ in hits)


@pytest.mark.parametrize("target", [1_100, 850])
def test_texts_are_cut_around_the_match_to_fit_the_budget(store: OriginalStore, target: int) -> None:
    """A budget too small for whole texts: each text is cut, its match kept, every line number too."""
    result = _compress(store, "forms_grep_rn_big.txt", target_tokens=target, floor_tokens=0)
    head = result.text.splitlines()[0]
    assert result.compressed_tokens <= target and "texts cut to" in head, head
    shown = _hit_rows(result.text)
    for file, line, match in TRUTH["search"]["hits"]:
        assert match in shown[file, line], (file, line, shown[file, line])
    assert any(text.startswith("…") for text in shown.values())  # the minified line, cut on both sides


def test_past_the_budget_every_file_keeps_its_line_numbers(store: OriginalStore) -> None:
    """Too small a budget even for cut texts: the first files keep theirs, then line numbers only;
    at the least, every file's line numbers on one row. Nothing is handed to the engine."""
    hits = TRUTH["search"]["hits"]
    for target in (250, 60):
        result = _compress(store, "forms_grep_rn_big.txt", target_tokens=target, floor_tokens=0)
        head = result.text.splitlines()[0]
        assert head.startswith("[summarizer · search · 46 hits in 7 files") and "line numbers only" in head
        whole = expand(result.text)
        assert all(f"{file}:{line}:" in whole for file, line, _ in hits)
    assert result.compressed_tokens > 60  # the last resort keeps every line number over the budget
    rows = result.text.splitlines()[1:]
    assert rows[1].split() == [str(line) for file, line, _ in hits if file == rows[0][2:]]


def test_context_rows_keep_their_numbers_and_relative_indentation(store: OriginalStore) -> None:
    """``grep -B1 -A2``: a hit with its context is one run of lines; the run loses only the
    indentation all of it shares (an ``if`` above its ``raise`` stays above it)."""
    result = _compress(store, "forms_grep_ab.txt", target_tokens=1_800)
    assert result.first_error is None and "texts cut" not in result.text.splitlines()[0]
    whole = expand(result.text)
    truth = TRUTH["search_ab"]
    assert all(f"{file}:{line}:" in whole for file, line, _ in truth["hits"])
    assert all(f"{file}-{line}-" in whole for file, line in truth["context"])
    assert "4:     raise ValueError(" in result.text  # under "N- if value == 0:", 4 spaces deeper
    assert re.search(r"^3- if value == 0:$", result.text, re.M)


def test_the_leaner_forms_are_never_used_under_the_pass_through_size() -> None:
    """Within the pass-through size the original is the alternative: cut or folded texts are not
    offered there (they are marked lossy), and the fold is the last resort above it."""
    form = compact_form(fixture_bytes("forms_grep_rn_big.txt").decode())
    chain = []
    while form is not None:
        chain.append(form)
        form = form.shorter
    assert not chain[0].lossy and all(f.lossy for f in chain[1:])
    assert chain[-1].last_resort and not any(f.last_resort for f in chain[:-1])


@pytest.mark.parametrize("name", ["forms_rg.txt", "forms_grep_r.txt"])
def test_hits_without_line_numbers_are_grouped_and_none_is_an_error(store: OriginalStore, name: str) -> None:
    """``rg`` (piped: no line numbers) and ``grep -r``: ``path:text`` rows are search hits, not a
    report of errors: each file named once, its hits' texts in order, no first error."""
    result = _compress(store, name, target_tokens=1_500, floor_tokens=0)
    head, *rows = result.text.splitlines()
    assert head.startswith("[summarizer · search · 46 hits in 7 files") and result.first_error is None
    shown: dict[str, list[str]] = {}
    for row in rows:
        if row.startswith("@ "):
            file = row[2:]
            shown[file] = []
        else:
            shown[file].append(row)
    counts: dict[str, int] = {}
    for file, _, _ in TRUTH["search"]["hits"]:
        counts[file] = counts.get(file, 0) + 1
    assert {file: len(texts) for file, texts in shown.items()} == counts
    for file, line, match in TRUTH["search"]["hits"]:
        assert any(match in text for text in shown[file]), (file, line)


@pytest.mark.parametrize("name", ["forms_bash_errors.txt", "forms_dash_errors.txt"])
def test_a_shells_located_errors_are_no_search_hits(store: OriginalStore, name: str) -> None:
    """``steps.sh: line 3: x: command not found`` (bash) and ``steps.sh: 3: x: not found`` (dash)
    name a file like a hit without a line number, but they are failures: never rows of a search."""
    result = _compress(store, name, target_tokens=60, floor_tokens=0)
    assert "· search ·" not in result.text.splitlines()[0]
    assert result.first_error is not None
    assert any(missing in result.first_error.text for missing in TRUTH["shell_missing"])
    assert all(missing in result.text for missing in TRUTH["shell_missing"])


def test_eslints_compact_report_is_no_search(store: OriginalStore) -> None:
    """``file.js: line 3, col 1, Error - message (rule)`` names a file without a line number the
    way grep does, but the line and column follow: a diagnostic. Truth: ``eslint -f json``."""
    truth = json.loads(fixture_bytes("real_eslint_compact.json"))
    errors = [(f["filePath"], m["line"]) for f in truth for m in f["messages"] if m["severity"] == 2]
    result = _compress(store, "real_eslint_compact.txt", target_tokens=400, floor_tokens=0)
    assert "· search ·" not in result.text.splitlines()[0]
    assert result.first_error is not None
    assert any(result.first_error.text.startswith(f"{file}: line {line}, ") for file, line in errors)


def test_test_ids_are_grouped_under_their_file(store: OriginalStore) -> None:
    """``pytest --collect-only -q`` (or ``pytest -v | grep PASSED``): ``path::name`` rows group
    under their file like hits, each row keeping ``:name``; none is merged into a pattern.
    Truth: the planted tests."""
    result = _compress(store, "forms_pytest_ids.txt", floor_tokens=0)
    assert result.text.startswith("[summarizer · search · 14 hits in 2 files")
    file = ""
    shown: set[str] = set()
    for row in result.text.splitlines()[1:]:
        if row.startswith("@ "):
            file = row[2:]
        else:
            shown.add(f"{file}:{row}")
    assert shown == set(TRUTH["pytest_ids"])
