"""The run ledger: what run and output record, and how a reader survives damage."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from summarizer.gain import ledger
from summarizer.gain.families import family
from summarizer.gain.report import parse_since, runs_from_records


def test_a_record_is_the_json_a_reader_gets_back(tmp_path: Path) -> None:
    """The hand-made encoder writes what json reads back, quotes and non-ASCII included."""
    ledger.append(
        str(tmp_path),
        tool="run",
        command='grep -r "é\\n" .',
        size=12,
        tokens_in=None,
        tokens_out=None,
        passthrough=True,
        cwd="/nowhere/x",
        now=1764633600.0,
    )
    [(_, _, record)] = list(ledger.read(str(tmp_path)))
    assert record["cmd"] == 'grep -r "é\\n" .'
    assert record["ts"] == "2025-12-02T00:00:00Z" and record["in"] is None and record["pass"] is True
    assert (tmp_path / "runs-2025-12.jsonl").is_file()


def test_a_record_line_is_compact_json_on_one_line() -> None:
    """What json.dumps writes with tight separators, ASCII only, one newline at the end."""
    record = {"v": 1, "cmd": 'echo "é"\n', "in": None, "pass": False, "bytes": 3}
    assert ledger.encode(record) == (json.dumps(record, separators=(",", ":")) + "\n").encode("ascii")


def test_a_torn_line_is_skipped_and_the_rest_read(tmp_path: Path) -> None:
    """A crash mid-write leaves half a line: the reader skips it and keeps the others."""
    for size in (1, 2):
        ledger.append(
            str(tmp_path),
            tool="run",
            command="ls",
            size=size,
            tokens_in=None,
            tokens_out=None,
            passthrough=True,
            now=1764633600.0,
        )
    with (tmp_path / "runs-2025-12.jsonl").open("a") as handle:
        handle.write('{"v":1,"ts":"2025-12-02T00:0')
    assert [r["bytes"] for _, _, r in ledger.read(str(tmp_path))] == [1, 2]


def test_an_unwritable_ledger_never_fails_the_run(tmp_path: Path) -> None:
    """A ledger directory that is a file: nothing written, no exception."""
    blocker = tmp_path / "ledger"
    blocker.write_text("not a directory")
    ledger.append(
        str(blocker), tool="run", command="ls", size=1, tokens_in=None, tokens_out=None, passthrough=True
    )


def test_malformed_records_are_counted_not_used() -> None:
    """A record without bytes or with a bad time is skipped and counted."""
    runs, skipped = runs_from_records(
        [
            {"ts": "yesterday", "bytes": 3},
            {"ts": "2026-12-01T00:00:00Z"},
            {"ts": "2026-12-01T00:00:00Z", "bytes": 8, "in": 5, "out": 2},
        ]
    )
    assert skipped == 2 and [r.saved for r in runs] == [3]


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("pytest -x tests", "pytest"),
        ("python -m pytest -q", "pytest"),
        ("cd web && npm test", "npm test"),
        ("VAR=1 timeout 60 cargo build --release", "cargo build"),
        ("summarizer run -- git status", "git status"),
        ("summarizer run 'make 2>&1 | tail -5'", "make"),
        ("uv run pytest", "pytest"),
        ("docker compose logs -f api", "docker compose logs"),
        ("npm run lint -- --fix", "npm run lint"),
        ("git -C sub log --oneline", "git log"),
        ("export A=1; go test ./...", "go test"),
        ("seq 1 20000 | head -n 5000", "seq"),
        ("python3 gen.py", "python gen.py"),
        (None, "(piped into output)"),
    ],
)
def test_families(command: str | None, expected: str) -> None:
    """What surrounds the program does not change its family."""
    assert family(command) == expected


def test_since_forms() -> None:
    """Relative ages and ISO dates; anything else says which forms work."""
    import datetime as dt

    now = dt.datetime(2026, 12, 8, tzinfo=dt.UTC)
    assert parse_since("7d", now) == dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
    assert parse_since("2026-12-01", now) == dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
    with pytest.raises(ValueError, match="7d, 24h"):
        parse_since("last week", now)


def test_run_and_output_write_the_ledger(summarizer: str, isolated_env: Path) -> None:
    """A pass-through run, a raw run and a piped output each leave one record."""
    env = {**os.environ}
    subprocess.run([summarizer, "run", "--", "echo", "hi"], env=env, check=True, capture_output=True)
    raw = subprocess.run(
        [summarizer, "run", "--raw", "--", "printf", "x\\n"], env=env, check=True, capture_output=True
    )
    subprocess.run([summarizer, "output"], input=b"two\nlines\n", env=env, check=True, capture_output=True)
    assert raw.stdout == b"x\n"
    records = [r for _, _, r in ledger.read(str(isolated_env / "cache" / "ledger"))]
    assert [(r["tool"], r["cmd"], r["bytes"], r["raw"]) for r in records] == [
        ("run", "echo hi", 3, False),
        ("run", "printf 'x\\n'", 2, True),
        ("output", None, 10, False),
    ]
    assert json.loads(json.dumps(records))  # plain JSON values only


def test_raw_mode_stores_nothing_and_passes_a_large_output_untouched(
    summarizer: str, isolated_env: Path
) -> None:
    """SUMMARIZER_RAW=1: a 30,000-line output comes back byte for byte, nothing in the store."""
    env = {**os.environ, "SUMMARIZER_RAW": "1"}
    done = subprocess.run(
        [summarizer, "run", "--", "seq", "1", "30000"], env=env, check=True, capture_output=True
    )
    assert done.stdout == b"".join(f"{i}\n".encode() for i in range(1, 30001))
    piped = subprocess.run(
        [summarizer, "output"], input=done.stdout, env=env, check=True, capture_output=True
    )
    assert piped.stdout == done.stdout
    store = isolated_env / "cache" / "originals"
    assert not store.exists() or not [p for p in store.iterdir() if not p.name.startswith(".")]


def test_piped_into_credits_only_what_the_trimmer_would_have_shown(
    summarizer: str, isolated_env: Path
) -> None:
    """`run --piped-into 'tail -5'`: in and out are both counted after tail, never the whole output
    (estimated from the bytes, as run counts everything without loading the tokenizer)."""
    from summarizer.output.kept import estimate_tokens as count_tokens

    code = "for i in range(3000): print(f'line {i} processing item {i * 7} ok')\nprint('FAILED: 3 errors')"
    command = [sys.executable, "-c", code]
    original = subprocess.run(command, check=True, capture_output=True).stdout
    printed = subprocess.run(
        [summarizer, "run", "--piped-into", "tail -5", "--", *command], check=True, capture_output=True
    ).stdout
    [(_, _, record)] = list(ledger.read(str(isolated_env / "cache" / "ledger")))
    tail5 = b"".join(original.splitlines(keepends=True)[-5:])
    assert record["piped"] == "tail -5" and record["bytes"] == len(tail5)
    assert record["in"] == count_tokens(tail5.decode())
    assert record["out"] == count_tokens(b"".join(printed.splitlines(keepends=True)[-5:]).decode())
    assert record["in"] < count_tokens(original.decode()) // 100  # the whole output is not the baseline


def test_trimmer_forms() -> None:
    """head/tail counts in their usual spellings; anything else is not understood."""
    from summarizer.gain.trim import parse_trimmer

    data = b"".join(f"{i}\n".encode() for i in range(1, 21))
    assert parse_trimmer("tail -3").apply(data) == b"18\n19\n20\n"  # type: ignore[union-attr]
    assert parse_trimmer("head -n 2").apply(data) == b"1\n2\n"  # type: ignore[union-attr]
    assert parse_trimmer("tail -n +19").apply(data) == b"19\n20\n"  # type: ignore[union-attr]
    assert parse_trimmer("head --lines=1").apply(data) == b"1\n"  # type: ignore[union-attr]
    assert parse_trimmer("head -c 3").apply(data) == b"1\n2"  # type: ignore[union-attr]
    assert parse_trimmer("tail").apply(data) == data[-(len(data) - data.index(b"11\n")) :]  # type: ignore[union-attr]
    assert parse_trimmer("grep -c x") is None and parse_trimmer("tail -f") is None
