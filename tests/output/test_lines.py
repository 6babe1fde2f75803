"""Every bad input real tools produce: CRLF, ANSI, progress bars, invalid UTF-8, huge lines, binary."""

from __future__ import annotations

import io
import random

import pytest

from summarizer.output import OriginalStore
from summarizer.output.lines import clean_chunk, iter_chunks, looks_binary, strip_ansi
from tests.output.conftest import Run

FILLER = "".join(f"compiling unit {i} of the workspace with the default profile\n" for i in range(300))


def test_crlf_endings_are_normalised_and_the_line_survives(run: Run, store: OriginalStore) -> None:
    """CRLF input: the coordinate is found, rendered without a stray CR, restored byte-identical."""
    data = (FILLER + "src/app.py:12: error: boom\n" + FILLER).replace("\n", "\r\n").encode()
    result = run(data)
    assert "301: src/app.py:12: error: boom\n" in result.text
    assert "\r" not in result.text
    assert b"".join(store.iter_bytes(result.restore_id)) == data


def test_ansi_colours_are_stripped(run: Run) -> None:
    """Colour codes never reach the rendering, and the coloured error line is kept."""
    data = (FILLER + "\x1b[31merror\x1b[0m: could not compile `core`\n" + FILLER).encode()
    result = run(data)
    assert "error: could not compile `core`" in result.text
    assert "\x1b" not in result.text
    assert strip_ansi("\x1b[1;32mok\x1b[0m") == "ok"


def test_carriage_return_progress_bars_keep_only_the_final_state() -> None:
    """A progress bar redrawn with CR shows as its last state, as a terminal would."""
    assert clean_chunk(b"10%\r50%\r100% done\nnext") == b"100% done\nnext"


def test_invalid_utf8_becomes_replacement_characters(run: Run, store: OriginalStore) -> None:
    """Invalid bytes do not crash; the line is kept with U+FFFD and the store keeps the bytes."""
    data = FILLER.encode() + b"ERROR: bad byte \xff\xfe in name\n" + FILLER.encode()
    result = run(data)
    assert "ERROR: bad byte \ufffd\ufffd in name" in result.text
    assert b"".join(store.iter_bytes(result.restore_id)) == data


def test_a_ten_megabyte_line_is_truncated_in_the_rendering_but_stored_whole(
    run: Run, store: OriginalStore
) -> None:
    """A minified 10 MB line: rendered with a marker, restored whole, memory bounded."""
    huge = b"ERROR " + b"x" * (10 * 1024 * 1024) + b"\n"
    data = b"start\n" + huge + b"end ERROR done\n"
    result = run(data)
    assert "line truncated: 10,485,766 bytes in full; restore --lines 2:2" in result.text
    assert len(result.text) < 20_000
    assert b"".join(store.iter_bytes(result.restore_id, (2, 2))) == huge
    assert "3: end ERROR done" in result.text


def test_long_lines_are_capped_while_reading() -> None:
    """The reader never holds more than the cap of one line, and reports its true length."""
    data = b"a" * (3 * 1024 * 1024) + b"\nshort\n"
    chunks = list(iter_chunks(io.BytesIO(data)))
    first = chunks[0]
    assert first.long_lines and first.long_lines[0][1] == 3 * 1024 * 1024
    assert len(first.data.split(b"\n")[0]) <= 64 * 1024


def test_binary_garbage_is_counted_not_shown(run: Run) -> None:
    """Binary lines are not rendered; the header says how many there were."""
    garbage = bytes(range(256)) * 4
    data = FILLER.encode() + garbage + b"\n" + FILLER.encode()
    result = run(data)
    assert result.binary_lines >= 1
    assert "\x00" not in result.text
    assert "binary lines not shown" in result.text


def test_empty_input_passes_through_as_nothing(run: Run) -> None:
    """An empty input yields an empty pass-through result (the CLI turns it into exit 2)."""
    result = run(b"", target=None, floor=500)
    assert result.passthrough and result.text == "" and result.lines == 0


@pytest.mark.parametrize(
    ("head", "binary"),
    [
        (random.Random(3).randbytes(8000), True),
        ("ERROR: disk full at a.py:3\n".encode("utf-16-le") * 200, True),
        (b"\x7fELF\x02\x01\x01" + b"\x00" * 60 + b"\x03\x00>\x00" * 100, True),
        (b"build ok\n" * 500 + b"stray \x00 byte\n" + b"FAILED test_x\n" * 50, False),
        (b"ok line\n\x00\x00\x01\x02\n" * 500, False),
        ("caf\u00e9 \x1b[31mERROR\x1b[0m\n".encode() * 500, False),
    ],
    ids=["random", "utf16", "elf", "stray-nul", "nul-lines", "ansi-utf8"],
)
def test_binary_input_is_told_from_a_log_by_its_first_bytes(head: bytes, binary: bool) -> None:
    assert looks_binary(head) is binary
