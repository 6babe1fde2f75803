"""The review's leak classes: each one redacted by ``scrub`` and ``LineScrubber`` alike, offsets into
the original, and the look-alike lines left alone."""

from __future__ import annotations

import pytest

from summarizer.core.errors import InputError, StorageError
from summarizer.core.scrub import LineScrubber, scrub

from .leaks import LEAKS, NEGATIVES


def _by_line(text: str) -> str:
    scrubber = LineScrubber()
    return "".join(scrubber(line)[0] for line in text.splitlines(keepends=True))


@pytest.mark.parametrize("name", list(LEAKS))
def test_each_leak_class_is_redacted_whole_and_line_by_line(name: str) -> None:
    """No secret substring survives, and streaming gives the same text as the whole-text scrub."""
    text, secrets = LEAKS[name]
    whole, redactions = scrub(text)
    assert redactions, name
    assert [s for s in secrets if s in whole] == []
    assert _by_line(text) == whole


@pytest.mark.parametrize("name", list(LEAKS))
def test_offsets_point_into_the_original_text(name: str) -> None:
    """Rebuilding from the ORIGINAL string and the offsets gives the scrubbed text exactly, even
    when matching ran on the folded (NFKC, invisible-free) copy."""
    text, _ = LEAKS[name]
    scrubbed, redactions = scrub(text)
    rebuilt, cursor = [], 0
    for red in redactions:
        assert cursor <= red.start < red.end <= len(text)
        rebuilt += [text[cursor : red.start], red.placeholder]
        cursor = red.end
    assert "".join([*rebuilt, text[cursor:]]) == scrubbed
    assert scrub(scrubbed) == (scrubbed, ())  # idempotent


def test_a_fullwidth_token_is_replaced_where_it_stood() -> None:
    """The folded match covers the fullwidth characters; the prose around them is untouched."""
    text, _ = LEAKS["fullwidth token"]
    scrubbed, (red,) = scrub(text)
    assert scrubbed == "pushed with [REDACTED:github_token] from CI"
    assert text[red.start : red.end].startswith("ｇｈｐ＿")


@pytest.mark.parametrize("line", NEGATIVES)
def test_look_alikes_are_left_alone(line: str) -> None:
    """Session log lines, counts, cookie attributes, a sentence-final `eyJ...`, ports, ${VAR:-x}."""
    assert scrub(line) == (line, ())


def test_a_pem_body_after_the_begin_marker_on_its_line() -> None:
    """Key material that starts on the BEGIN line itself is redacted in both modes."""
    text = (
        "key=-----BEGIN PRIVATE KEY-----MIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n"
        "AKCAQEA7xq3Zr0pGd5Lk2nQ9vW1\n-----END PRIVATE KEY-----"
    )
    whole = scrub(text)[0]
    assert "MIIEvQ" not in whole and "AKCAQEA7" not in whole and _by_line(text) == whole


def test_a_truncated_block_ends_at_the_first_line_that_is_not_key_material() -> None:
    """Both modes stop at the same line, so a log's next real line survives."""
    text = (
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7xq3Zr0pGd5Lk2nQ9vW1\n"
        "2026-11-29 INFO request done\n"
    )
    whole = scrub(text)[0]
    assert whole.endswith("2026-11-29 INFO request done\n") and "MIIEow" not in whole
    assert _by_line(text) == whole


@pytest.mark.parametrize("name", [n for n, (t, _) in LEAKS.items() if "\n" not in t])
def test_error_messages_are_scrubbed_when_made(name: str) -> None:
    """Every typed error scrubs its message: whatever prints it (CLI, MCP, reason) gets clean text."""
    text, secrets = LEAKS[name]
    for error in (InputError(f"file not found: {text!r}; pass an existing file"), StorageError(text)):
        assert [s for s in secrets if s in str(error)] == []
