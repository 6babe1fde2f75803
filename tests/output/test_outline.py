"""A large source file read whole is shown as its outline: every definition, exact restore ranges."""

from __future__ import annotations

import ast
import io
import itertools
import re

from summarizer.output import OriginalStore, OutputOptions, compress
from summarizer.output.outline import outline
from tests.output.conftest import fixture_bytes

SOURCE = fixture_bytes("source_click_types_py.txt")
ROW = re.compile(r"^(\d+)(?:-(\d+))?: (.*)$")


def _rows(text: str) -> list[tuple[int, int, str]]:
    rows = []
    for line in text.splitlines():
        match = ROW.match(line)
        if match:
            first = int(match.group(1))
            rows.append((first, int(match.group(2) or first), match.group(3)))
    return rows


def test_every_definition_is_a_row_and_the_rows_tile_the_file() -> None:
    """Truth from Python's own parser: each def/class line starts a row; ranges never overlap."""
    text = SOURCE.decode()
    shown = outline(text, "0123456789abcdef", 8_321)
    assert shown is not None
    rows = _rows(shown)
    starts = {first for first, _, _ in rows}
    defined = {
        node.lineno
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    }
    assert defined <= starts
    for (_, last, _), (first, _, _) in itertools.pairwise(rows):
        assert last < first
    lines = text.splitlines()
    for first, _, row in rows:
        if not row.startswith("["):
            # A row shows its own line (a long signature joined, parameters of a repeat elided).
            head = row.split("(")[0].rstrip("…")
            assert lines[first - 1].startswith(head)
    assert "[13 imports]" in shown
    assert len(shown) < len(text) * 0.35


def test_a_row_range_restores_the_folded_body(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`restore ID --lines a:b` of a row's range gives the definition and its whole body."""
    store = OriginalStore(tmp_path / "originals")
    result = compress(io.BytesIO(SOURCE), store, OutputOptions(content=True))
    assert not result.passthrough and result.first_error is None and not result.failing_tests
    assert "outline" in result.text.splitlines()[0]
    first, last, _ = next(r for r in _rows(result.text) if r[2].startswith("class IntRange"))
    restored = b"".join(store.iter_bytes(result.restore_id, (first, last)))
    assert restored.decode().startswith("class IntRange(_NumberRangeBase, IntParamType):")
    assert b"def _clamp(" not in restored  # the method is a row of its own
    assert result.compressed_tokens < result.original_tokens * 0.3


def test_small_source_and_slices_pass_through(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Under the outline threshold the file is shown whole, byte for byte."""
    store = OriginalStore(tmp_path / "originals")
    head = b"".join(SOURCE.splitlines(keepends=True)[:200])
    result = compress(io.BytesIO(head), store, OutputOptions(content=True))
    assert result.passthrough and result.text == head.decode()


def test_output_that_only_looks_like_source_is_never_outlined(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Without the caller saying it is a file to read, source-like text is not outlined: an
    outline would fold a failure planted in it."""
    store = OriginalStore(tmp_path / "originals")
    planted = SOURCE.replace(
        b"class IntRange(", b"error[E0308]: mismatched types\n --> src/ledger.rs:12:9\nclass IntRange("
    )
    result = compress(io.BytesIO(planted), store, OutputOptions())
    assert "outline" not in result.text.splitlines()[0] and "src/ledger.rs:12:9" in result.text


def test_an_outline_that_saves_little_is_not_shown() -> None:
    """A file that is all top-level statements has nothing to fold."""
    text = "".join(f"VALUE_{n} = {n}\n" for n in range(3_000))
    assert outline(text, "0123456789abcdef", 12_000) is None


def test_brace_languages_keep_their_definitions_and_fold_blocks() -> None:
    """Go's `var (` block is a body, not a signature to join; a C function's lone `{` and a JS
    import's closing `} from` line are no rows; methods and functions are."""
    body = "".join(f"    total += step({n})\n" for n in range(30))
    go = f"var (\n    a = 1\n    b = 2\n)\n\nfunc (c *conn) Close() error {{\n{body}}}\n"
    c = f"static int\nparse(const char *s)\n{{\n{body}}}\n"
    ts = (
        'import {\n  a,\n  b,\n} from "./x";\n\n'
        f"export class Box {{\n  public open(n: number): void {{\n{body}  }}\n}}\n"
    )
    for source, rows in (
        (go, ["1-4: var (", "6-37: func (c *conn) Close() error {"]),
        (c, ["1: static int", "2-34: parse(const char *s)"]),
        (ts, ["1-4: [2 imports]", "6: export class Box {", "7-39:   public open(n: number): void {"]),
    ):
        shown = outline(source, "0123456789abcdef", 1_000)
        assert shown is not None
        assert shown.splitlines()[2:-1] == rows, shown
