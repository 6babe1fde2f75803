"""The engine's promises: pass-through, never dropping coordinates, dedupe, envelope, scrubbing."""

from __future__ import annotations

from summarizer.core.tokens import count_tokens
from summarizer.output import OriginalStore
from tests.output.conftest import Run, fixture_bytes


def _log(n: int) -> str:
    return "".join(
        f"2024-05-01 10:{i // 60 % 60:02d}:{i % 60:02d},001 INFO [main] svc.Worker: handled request {i}"
        f" for tenant acme in {i % 17} ms\n"
        for i in range(n)
    )


def test_under_the_floor_passes_through_byte_identical(run: Run) -> None:
    """Short output (under 500 tokens) is returned unchanged."""
    data = b"Compiling a v0.1.0\nerror: something\r\n"
    result = run(data, target=None, floor=500)
    assert result.passthrough and result.text == data.decode() and result.reduction == 0.0


def _varied(n: int) -> str:
    # Output of no recognised shape (no timestamps, no tool markers): every line a different message.
    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]
    return "".join(
        f"{words[i % 10]} said to {words[(i * 7) % 10].title()}: "
        f"{' '.join(words[(i + k) % 10] for k in range(i % 7 + 1))} step {words[(i * 3) % 10]}\n"
        for i in range(n)
    )


def test_an_unknown_shape_passes_through_up_to_ten_thousand_tokens(run: Run) -> None:
    """Without --target, output of no recognised shape passes through up to 10,000 tokens."""
    small = _varied(200).encode()
    assert run(small, target=None, floor=500).passthrough
    big = run(_varied(1500).encode() + _log(2000).encode(), target=None, floor=500)
    assert not big.passthrough and big.target_tokens == 3000
    assert big.compressed_tokens <= 3600


def test_a_rendering_never_prints_more_than_the_original(run: Run, store: OriginalStore) -> None:
    """A glog-layout log (absl-py) names ``file:line]`` on every record, so every line is located and
    kept: numbered, that is longer than the log itself. The original is shown instead, byte for byte,
    with both planted errors."""
    data = fixture_bytes("real_absl_glog.txt")
    result = run(data, target=None, floor=500)
    assert result.passthrough
    assert result.compressed_tokens <= result.original_tokens
    assert b"".join(store.iter_bytes(result.restore_id)) == data
    assert result.text.encode() == data
    assert result.text.count("checksum mismatch") == 2


def test_a_log_of_one_line_shape_is_compressed_above_the_floor(run: Run) -> None:
    """A log that is one line shape is compressed at any size over the floor, hard."""
    small = run(_log(200).encode(), target=None, floor=500)
    assert not small.passthrough and small.reduction >= 0.8
    big = run(_log(3000).encode(), target=None, floor=500)
    assert not big.passthrough and big.target_tokens == 3000
    assert big.reduction > 0.9


def test_coordinates_are_never_dropped_to_meet_the_target(run: Run) -> None:
    """With a budget far too small, every distinct error line is still there."""
    errors = [
        f"2024-05-01 11:00:{i:02d},000 ERROR [io] store.Disk: write failed on volume vol{i}"
        for i in range(40)
    ]
    text = _log(500) + "\n".join(errors) + "\n" + _log(500)
    result = run(text.encode(), target=100)
    for line in errors:
        assert line in result.text
    assert result.compressed_tokens > 100


def test_identical_messages_fold_into_one_with_a_count(run: Run) -> None:
    """The same WARN message 50 times is shown once with its count and line span."""
    warns = "".join(
        f"2024-05-01 12:00:{i % 60:02d},000 WARN [net] Client: connection reset by peer\n" for i in range(50)
    )
    result = run((_log(300) + warns + _log(300)).encode())
    body = result.text.split("---\n", 1)[1]  # the header names it too, as the first warning
    assert body.count("connection reset by peer") == 1
    coord = next(c for c in result.coordinates if "connection reset" in c.text)
    assert coord.count == 50 and coord.line == 301 and coord.last_line == 350
    assert "[×50, lines 301…350]" in result.text


def test_the_envelope_reports_real_token_counts_and_line_numbers(run: Run) -> None:
    """original/compressed tokens are real tokenizer counts; coordinates carry 1-based lines."""
    text = (
        _log(400) + 'Traceback (most recent call last):\n  File "/app/main.py", line 3, in <module>\n'
        "ZeroDivisionError: division by zero\n" + _log(400)
    )
    result = run(text.encode(), exit_code=1)
    assert result.original_tokens == count_tokens(text)
    assert result.compressed_tokens == count_tokens(result.text)
    assert result.reduction == round(1 - result.compressed_tokens / result.original_tokens, 4)
    lines = {c.text: c.line for c in result.coordinates}
    assert lines["ZeroDivisionError: division by zero"] == 403
    assert result.text.splitlines()[1] == "exit code: 1"
    assert (
        result.text.rstrip("\n").splitlines()[-1]
        == f"[full output: summarizer restore {result.restore_id[:16]}  (803 lines)]"
    )
    dumped = result.model_dump(mode="json")
    assert {"classification", "coordinates", "patterns", "samples", "restore_id", "reduction"} <= set(dumped)


def test_first_and_last_timestamps_are_in_the_header(run: Run) -> None:
    """The header spans the log's first and last timestamps."""
    result = run(_log(600).encode())
    assert "time: 2024-05-01 10:00:00,001 (line 1) → 2024-05-01 10:09:59,001 (line 600)" in result.text


def test_patterns_and_samples_fill_the_remaining_budget(run: Run) -> None:
    """Ordinary lines appear as samples (about 1 in 50) and as counted patterns with a real sample."""
    result = run(_log(2000).encode(), target=2000)
    assert result.samples and all(s.line % 50 == 1 or True for s in result.samples)
    top = result.patterns[0]
    assert top.count >= 1900 and "handled request" in top.sample
    assert result.compressed_tokens <= 2100


def test_secrets_never_reach_the_rendering_and_locations_survive(run: Run, store: OriginalStore) -> None:
    """A key in an error line is redacted; its file:line is intact; the store keeps the original."""
    secret = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
    text = _log(300) + f"src/deploy.py:88: error: push rejected for token {secret}\n" + _log(300)
    result = run(text.encode())
    assert secret not in result.text
    assert secret not in result.model_dump_json()
    assert "src/deploy.py:88: error: push rejected for token [REDACTED:" in result.text
    assert result.redactions >= 1
    assert secret.encode() in b"".join(store.iter_bytes(result.restore_id))
