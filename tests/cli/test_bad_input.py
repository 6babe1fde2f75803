"""Bad input through the REAL installed ``summarizer`` in a subprocess: one line, the right exit.

The product rule: malformed JSON, invalid UTF-8, binary data, empty input, very large input, a
missing file, a directory, a corrupt or locked database, an unwritable destination each give ONE
line on stderr starting ``summarizer:`` (click's usage block is accepted for usage errors), exit 2
for bad input and 1 for runtime failures, nothing on stdout, no traceback, and no data lost.
The observed behaviour is tabulated in docs/cli-errors.md.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .conftest import Run, assert_clean_error, assert_no_traceback, cli, entry_point

REPO = Path(__file__).resolve().parents[2]
COMMANDS = [
    "score",
    "compress",
    "stats",
    "batch",
    "gate",
    "output",
    "restore",
    "envelope",
    "session",
    "recover",
    "cache",
    "eval",
    "mcp",
]

ENTRY = {
    "summary": "Added JWT auth endpoint with refresh token rotation",
    "files_changed": ["backend/routers/auth.py"],
    "from_agent": "hermes",
    "to_agent": "aphrodite",
    "phase": "1",
}
MESSAGES = [
    {"role": "user", "content": "The token refresh test is flaky; find out why and fix it."},
    {"role": "assistant", "content": "Decision: we will pin the clock in the refresh test."},
]
EVAL_LINE = (REPO / "evals" / "datasets" / "phase_gate.jsonl").read_text(encoding="utf-8").splitlines()[0]
ENVELOPE = {
    "protocol": "agentic-workspace/v1",
    "ok": True,
    "operation": "workspace_file.read",
    "summary": "read a.py",
    "data": {"jobId": "job_1", "content": "x = 1\n"},
}


def _jsonl(*objects: object) -> bytes:
    return b"".join(json.dumps(o).encode() + b"\n" for o in objects)


def _garbage(size: int = 4096) -> bytes:
    """Seeded random bytes with NULs throughout: not text in any encoding."""
    rng = random.Random(1234)
    return bytes(rng.randrange(256) if i % 7 else 0 for i in range(size))


# command -> (argv builder given the input path and a scratch dir, one valid record, JSONL or not)
Argv = Callable[[str, Path], list[str]]
SHAPES: dict[str, tuple[Argv, object, bool]] = {
    "score": (lambda p, t: ["score", p, "--json"], ENTRY, False),
    "compress": (lambda p, t: ["compress", p, "--offline", "--no-cache", "--json"], ENTRY, False),
    "stats": (lambda p, t: ["stats", p], ENTRY, True),
    "batch": (lambda p, t: ["batch", p], ENTRY, True),
    "gate": (
        lambda p, t: ["gate", "--phase", "1", "--date", "2026-06-20", "--bank", str(t / "bank"), p],
        ENTRY,
        True,
    ),
    "envelope": (lambda p, t: ["envelope", p], ENVELOPE, False),
    "session": (
        lambda p, t: ["session", p, "--force", "--offline", "--project", "qa", "--date", "2026-06-20"],
        MESSAGES,
        True,
    ),
    "eval": (
        lambda p, t: ["eval", p, "--offline", "--no-reuse", "--out", str(t / "report")],
        json.loads(EVAL_LINE),
        True,
    ),
}


def _body(command: str, case: str) -> bytes:
    """The file content of ``case`` in ``command``'s input format."""
    _, valid, jsonl = SHAPES[command]
    records = valid if isinstance(valid, list) else [valid]
    good = _jsonl(*records) if jsonl else json.dumps(valid).encode()
    first = records[0]
    assert isinstance(first, dict)
    return {
        "empty": b"",
        "blank": b"  \n\n\t\n",
        "invalid-utf8": good.replace(b"refresh" if b"refresh" in good else b"a", b"r\xe9fr\xff\xfesh", 1),
        "binary": _garbage(),
        "bom-binary": b"\xff\xfe\x00\x00" + _garbage(512),
        "malformed-json": good.rstrip(b"\n") + b"\n" + b'{"summary": "half an object",\n'
        if jsonl
        else good[: len(good) // 2],
        "wrong-type-array": b"[1, 2]\n",
        "wrong-type-scalar": b"42\n",
        "wrong-field-type": _jsonl({**first, "summary": 42, "content": 42, "subtask_summary": 42})
        if jsonl
        else json.dumps({**first, "summary": 42, "ok": "yes"}).encode(),
    }[case]


BAD_CASES = [
    "empty",
    "blank",
    "invalid-utf8",
    "binary",
    "bom-binary",
    "malformed-json",
    "wrong-type-array",
    "wrong-type-scalar",
    "wrong-field-type",
]


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    path = tmp_path / "scratch"
    path.mkdir()
    return path


# ---------------------------------------------------------------- every command: --help


@pytest.mark.parametrize("command", COMMANDS)
def test_help_exits_0_clean_and_loads_no_heavy_library(command: str, tmp_path: Path) -> None:
    """``summarizer CMD --help`` prints usage, exits 0, and imports neither litellm nor the tokenizer
    (what would make it take seconds; the import trace says so without timing anything)."""
    run = cli(command, "--help", cwd=tmp_path, env={**os.environ, "PYTHONPROFILEIMPORTTIME": "1"})
    assert_no_traceback(run)
    assert run.code == 0 and run.stdout.startswith(b"Usage: summarizer " + command.encode()), run.describe()
    trace = [line for line in run.err_lines if line.startswith("import time:")]
    assert trace and len(trace) == len(run.err_lines), run.describe()  # nothing on stderr but the trace
    imported = {line.rsplit("|", 1)[-1].strip() for line in trace}
    assert not {name for name in imported if name.split(".")[0] in ("litellm", "tiktoken")}, command


def test_top_level_help_and_unknown_command(tmp_path: Path) -> None:
    """``summarizer --help`` is 0; an unknown command is a usage error (2)."""
    assert cli("--help", cwd=tmp_path).code == 0
    assert_clean_error(cli("no-such-command", cwd=tmp_path), 2)


@pytest.mark.slow
# ---------------------------------------------------------------- file inputs, table-driven

@pytest.mark.parametrize("command", [*SHAPES, "output"])
def test_missing_file_is_exit_2(command: str, scratch: Path) -> None:
    """A path that does not exist: exit 2, one line naming it."""
    argv = SHAPES[command][0] if command in SHAPES else (lambda p, t: ["output", p])
    run = cli(*argv(str(scratch / "nope.json"), scratch), cwd=scratch)
    assert_clean_error(run, 2)
    assert "nope.json" in run.stderr, run.describe()


@pytest.mark.slow
@pytest.mark.parametrize("command", [*SHAPES, "output"])
def test_directory_is_exit_2(command: str, scratch: Path) -> None:
    """A directory where a file is expected: exit 2, one line."""
    folder = scratch / "adir.jsonl"
    folder.mkdir()
    argv = SHAPES[command][0] if command in SHAPES else (lambda p, t: ["output", p])
    assert_clean_error(cli(*argv(str(folder), scratch), cwd=scratch), 2)


@pytest.mark.slow
@pytest.mark.parametrize("case", BAD_CASES)
@pytest.mark.parametrize("command", list(SHAPES))
def test_bad_content_is_exit_2(command: str, case: str, scratch: Path) -> None:
    """Empty, blank, invalid UTF-8, binary, malformed JSON(L), wrong JSON types: exit 2, one line."""
    path = scratch / "input.jsonl"
    path.write_bytes(_body(command, case))
    argv = SHAPES[command][0](str(path), scratch)
    run = cli(*argv, cwd=scratch)
    if (command, case) == ("envelope", "wrong-field-type"):
        # Envelope fields are untrusted tool data: reducing them as they are is allowed.
        assert_no_traceback(run)
        if run.code != 0:
            assert_clean_error(run, 2)
        return
    assert_clean_error(run, 2)


@pytest.mark.slow
@pytest.mark.parametrize("command", list(SHAPES))
def test_empty_stdin_is_exit_2(command: str, scratch: Path) -> None:
    """``-`` with nothing on stdin is an empty input: exit 2."""
    argv = SHAPES[command][0]("-", scratch)
    assert_clean_error(cli(*argv, stdin=b"", cwd=scratch), 2)


@pytest.mark.slow
@pytest.mark.parametrize("command", list(SHAPES))
def test_unknown_keys_never_crash(command: str, scratch: Path) -> None:
    """Unknown keys are either ignored (exit 0) or refused in one line (exit 2)."""
    _, valid, jsonl = SHAPES[command]
    records = valid if isinstance(valid, list) else [valid]
    extra = [{**r, "zz_unknown": {"nested": [1, 2]}} for r in records]  # type: ignore[dict-item]
    path = scratch / "input.jsonl"
    path.write_bytes(_jsonl(*extra) if jsonl else json.dumps(extra[0]).encode())
    run = cli(*SHAPES[command][0](str(path), scratch), cwd=scratch)
    assert_no_traceback(run)
    if run.code != 0:
        assert_clean_error(run, 2)


@pytest.mark.parametrize("command", ["score", "envelope", "session", "stats"])
def test_valid_input_is_exit_0(command: str, scratch: Path) -> None:
    """The control: the valid record of each shape is accepted (so the bad cases test the input)."""
    _, valid, jsonl = SHAPES[command]
    records = valid if isinstance(valid, list) else [valid]
    path = scratch / "input.jsonl"
    path.write_bytes(_jsonl(*records) if jsonl else json.dumps(valid).encode())
    run = cli(*SHAPES[command][0](str(path), scratch), cwd=scratch)
    assert_no_traceback(run)
    assert run.code == 0, run.describe()


def _large(command: str) -> bytes:
    """About 6 MB of otherwise valid input."""
    filler = "Refactored the retry loop in the token refresh client; " * 110_000
    if command in ("score", "compress"):
        return json.dumps({**ENTRY, "summary": filler}).encode()
    if command == "envelope":
        return json.dumps({**ENVELOPE, "data": {"jobId": "job_1", "content": filler}}).encode()
    if command == "session":
        return _jsonl(*[{"role": "assistant", "content": f"step {i}: " + filler[:6000]} for i in range(1000)])
    return _jsonl(*[{**ENTRY, "summary": f"entry {i}: " + filler[:6000]} for i in range(1000)])


# Reports the child's exit status and peak RSS: the limit is asserted on memory, never on time
# (on a loaded 2-core machine a 6 MB compress takes from 15 s to minutes).
_PEAK = (
    "import resource, subprocess, sys\n"
    "done = subprocess.run(sys.argv[2:], cwd=sys.argv[1], capture_output=True)\n"
    "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    "sys.stderr.write(done.stderr.decode('utf-8', 'replace'))\n"
)


@pytest.mark.slow
@pytest.mark.parametrize("command", ["score", "compress", "stats", "batch", "envelope", "session"])
def test_very_large_input_never_crashes(command: str, scratch: Path) -> None:
    """~6 MB: processed (exit 0) or refused in one line (exit 2), in bounded memory (< 1 GiB)."""
    path = scratch / "big.jsonl"
    path.write_bytes(_large(command))
    args = [*entry_point(), *SHAPES[command][0](str(path), scratch)]
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    # The timeout only stops a hung child; nothing here depends on how fast the machine is.
    done = subprocess.run(
        [sys.executable, "-c", _PEAK, str(scratch), *args], capture_output=True, env=env, timeout=3600
    )
    code, peak_kib = (int(x) for x in done.stdout.split())
    stderr = done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in stderr, stderr[-2000:]
    assert code == 0 or (code == 2 and len(stderr.strip().splitlines()) == 1), stderr[-2000:]
    assert peak_kib < 1024 * 1024, f"peak {peak_kib // 1024} MiB"


# ---------------------------------------------------------------- output / restore


@pytest.mark.parametrize("case", ["invalid-utf8", "nul-lines"])
def test_output_passes_non_text_logs_through(case: str, scratch: Path) -> None:
    """Logs may hold invalid UTF-8 or NUL-filled lines (docs/tool-output.md): exit 0, stored as they came."""
    body = {
        "invalid-utf8": b"build started\nERROR caf\xe9 \xff\xfe failed at a.py:12\n" * 50,
        "nul-lines": b"ok line\n\x00\x00\x01\x02\n" * 500,
    }[case]
    path = scratch / "tool.log"
    path.write_bytes(body)
    run = cli("output", str(path), "--json", cwd=scratch)
    assert_no_traceback(run)
    assert run.code == 0, run.describe()
    restore_id = json.loads(run.stdout)["restore_id"]
    again = cli("restore", restore_id, cwd=scratch)
    assert again.code == 0 and again.stdout == body, again.describe()


@pytest.mark.parametrize("source", ["file", "stdin"])
@pytest.mark.parametrize(
    "body", [_garbage(20_000), Path(sys.executable).read_bytes()[:50_000]], ids=["random", "executable"]
)
def test_output_refuses_binary_input(source: str, body: bytes, scratch: Path) -> None:
    """Random bytes or an executable are no tool's output: one line, exit 2, nothing compressed."""
    path = scratch / "blob.bin"
    path.write_bytes(body)
    if source == "file":
        run = cli("output", str(path), cwd=scratch)
    else:
        run = cli("output", "-", stdin=body, cwd=scratch)
    assert_clean_error(run, 2)
    assert "binary" in run.err_lines[0]


@pytest.mark.parametrize("case", ["empty-file", "empty-stdin", "blank"])
def test_output_empty_is_exit_2(case: str, scratch: Path) -> None:
    """An empty input (file or stdin) is exit 2, one line; whitespace alone is not silently dropped."""
    path = scratch / "empty.log"
    path.write_bytes(b"" if case != "blank" else b"\n \n")
    run = cli("output", str(path), cwd=scratch) if case != "empty-stdin" else cli("output", "-", cwd=scratch)
    if case == "blank":  # whitespace is content: passed through or refused, never a crash
        assert_no_traceback(run)
        if run.code != 0:
            assert_clean_error(run, 2)
        return
    assert_clean_error(run, 2)


@pytest.mark.slow
def test_output_very_large_log(scratch: Path) -> None:
    """~12 MB of log compresses (exit 0) and restores byte-identical."""
    line = b"2026-06-20 10:00:%02d INFO worker %d heartbeat ok\n"
    body = b"".join(line % (i % 60, i) for i in range(240_000))
    body += b"2026-06-20 11:00:00 ERROR worker 7 crashed at app/worker.py:88\n"
    path = scratch / "big.log"
    path.write_bytes(body)
    run = cli("output", str(path), "--json", cwd=scratch, timeout=120)
    assert_no_traceback(run)
    assert run.code == 0, run.describe()
    data = json.loads(run.stdout)
    assert "app/worker.py:88" in json.dumps(data)
    assert cli("restore", data["restore_id"], cwd=scratch).stdout == body


def test_output_unwritable_store_never_loses_the_input(scratch: Path, home: Path) -> None:
    """The cache dir is a file: the piped log is printed unchanged, one line says why, exit 1."""
    cache = home / "cache"
    cache.write_bytes(b"not a directory")
    env = {**os.environ, "SUMMARIZER_CACHE_DIR": str(cache)}
    log = b"step 1\nERROR build failed at src/main.c:12:5\n"
    run = cli("output", "-", stdin=log, cwd=scratch, env=env)
    assert_no_traceback(run)
    assert_clean_error(run, 1, stdout_ok=True)
    assert run.stdout == log, run.describe()


@pytest.fixture
def stored_id(scratch: Path) -> str:
    """A stored 3-line original."""
    run = cli("output", "-", "--json", stdin=b"one\ntwo\nthree\n", cwd=scratch)
    assert run.code == 0, run.describe()
    return str(json.loads(run.stdout)["restore_id"])


@pytest.mark.parametrize("bad_id", ["0123456789ab", "nope", "../../etc/passwd", "", "a" * 300])
def test_restore_unknown_id_is_exit_2(bad_id: str, scratch: Path, stored_id: str) -> None:
    """An id that was never stored (or is not an id at all): exit 2, one line."""
    assert_clean_error(cli("restore", bad_id, cwd=scratch), 2)


@pytest.mark.parametrize("lines", ["3:1", "abc", "0:2", "-1:2", ":", "1:2:3", "", "x:y"])
def test_restore_bad_line_range_is_exit_2(lines: str, scratch: Path, stored_id: str) -> None:
    """A malformed or reversed --lines range: exit 2, one line."""
    assert_clean_error(cli("restore", stored_id, "--lines", lines, cwd=scratch), 2)


def test_restore_range_past_the_end_never_crashes(scratch: Path, stored_id: str) -> None:
    """Lines past the end: the lines that exist (exit 0) or a one-line refusal (exit 2)."""
    run = cli("restore", stored_id, "--lines", "2:999", cwd=scratch)
    open_ended = cli("restore", stored_id, "--lines", "2:", cwd=scratch)
    assert_no_traceback(open_ended)
    assert open_ended.code in (0, 2), open_ended.describe()
    assert_no_traceback(run)
    if run.code == 0:
        assert run.stdout == b"two\nthree\n", run.describe()
    else:
        assert_clean_error(run, 2)


def test_restore_missing_argument_is_usage_error(scratch: Path) -> None:
    """No ID: a usage error, exit 2."""
    assert_clean_error(cli("restore", cwd=scratch), 2)


# ---------------------------------------------------------------- engram: corrupt and locked


def _seed_session(scratch: Path) -> None:
    path = scratch / "t.jsonl"
    path.write_bytes(_jsonl(*MESSAGES))
    run = cli(*SHAPES["session"][0](str(path), scratch), cwd=scratch)
    assert run.code == 0, run.describe()


def test_recover_with_corrupt_db_is_exit_1(scratch: Path, home: Path) -> None:
    """Garbage bytes where engram.db should be: exit 1, one line, the file left as it was."""
    db = home / "engram" / "engram.db"
    db.parent.mkdir(parents=True, exist_ok=True)
    db.write_bytes(_garbage())
    assert_clean_error(cli("recover", "--project", "qa", cwd=scratch), 1)
    assert db.read_bytes() == _garbage(), "the corrupt database was modified"


def test_session_with_corrupt_db_keeps_the_summary(scratch: Path, home: Path) -> None:
    """Garbage engram.db: never a traceback; the document is not lost (printed) and the file untouched."""
    db = home / "engram" / "engram.db"
    db.parent.mkdir(parents=True, exist_ok=True)
    db.write_bytes(_garbage())
    path = scratch / "t.jsonl"
    path.write_bytes(_jsonl(*MESSAGES))
    run = cli(*SHAPES["session"][0](str(path), scratch), cwd=scratch)
    assert_no_traceback(run)
    assert run.code != 0, "a summary that was not saved must not exit 0\n" + run.describe()
    assert len(run.err_lines) == 1 and run.err_lines[0].startswith("summarizer: "), run.describe()
    assert b"pin the clock" in run.stdout, "the unsaved summary was lost\n" + run.describe()
    assert db.read_bytes() == _garbage(), "the corrupt database was modified"


def test_engram_dir_is_a_file(scratch: Path, home: Path) -> None:
    """ENGRAM_DATA_DIR is a file: recover exits 1 in one line."""
    (home / "engram").write_bytes(b"not a directory")
    assert_clean_error(cli("recover", "--project", "qa", cwd=scratch), 1)


@pytest.fixture
def locked_db(scratch: Path, home: Path) -> Iterator[Path]:
    """A real engram.db with one saved session, held under an EXCLUSIVE transaction meanwhile."""
    _seed_session(scratch)
    db = home / "engram" / "engram.db"
    conn = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    conn.execute("BEGIN EXCLUSIVE")
    try:
        yield db
    finally:
        conn.execute("ROLLBACK")
        conn.close()


def _assert_locked_outcome(run: Run, elapsed: float) -> None:
    assert_no_traceback(run)
    assert elapsed < 60, f"waited {elapsed:.0f}s on a locked database"
    if run.code != 0:
        assert run.code == 1, run.describe()
        assert len(run.err_lines) == 1 and run.err_lines[0].startswith("summarizer: "), run.describe()


@pytest.mark.slow
def test_recover_on_locked_db_fails_cleanly_or_succeeds(scratch: Path, locked_db: Path) -> None:
    """An EXCLUSIVE lock held elsewhere: a retry then exit 1 in one line, or success; data intact."""
    start = time.perf_counter()
    run = cli("recover", "--project", "qa", cwd=scratch, timeout=90)
    _assert_locked_outcome(run, time.perf_counter() - start)


@pytest.mark.slow
def test_session_on_locked_db_fails_cleanly_and_keeps_the_summary(scratch: Path, locked_db: Path) -> None:
    """Saving while locked: exit 1 in one line with the summary still printed, or success."""
    path = scratch / "t2.jsonl"
    path.write_bytes(_jsonl({"role": "user", "content": "Decision: use UTC timestamps everywhere."}))
    start = time.perf_counter()
    run = cli(*SHAPES["session"][0](str(path), scratch), cwd=scratch, timeout=90)
    _assert_locked_outcome(run, time.perf_counter() - start)
    if run.code != 0:
        assert b"UTC timestamps" in run.stdout, "the unsaved summary was lost\n" + run.describe()
    else:  # exit 0 must mean saved: a "NOT saved" notice with exit 0 reads as success to a script
        assert run.stderr == "", "exit 0 although the summary was not saved\n" + run.describe()


@pytest.mark.slow
def test_data_survives_the_lock(scratch: Path, home: Path) -> None:
    """Commands run against a locked database leave it whole: integrity ok, the session recoverable."""
    _seed_session(scratch)
    db = home / "engram" / "engram.db"
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("BEGIN EXCLUSIVE")
    path = scratch / "t2.jsonl"
    path.write_bytes(_jsonl({"role": "user", "content": "Decision: use UTC timestamps everywhere."}))
    cli(*SHAPES["session"][0](str(path), scratch), cwd=scratch, timeout=90)
    conn.execute("ROLLBACK")
    conn.close()
    check = sqlite3.connect(db)
    assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    check.close()
    run = cli("recover", "--project", "qa", cwd=scratch)
    assert run.code == 0, run.describe()
    assert b"token refresh" in run.stdout or b"UTC timestamps" in run.stdout, run.describe()


def test_recover_after_lock_released(scratch: Path, home: Path) -> None:
    """Hold the lock briefly, release it while recover retries: the document comes back."""
    _seed_session(scratch)
    conn = sqlite3.connect(home / "engram" / "engram.db", isolation_level=None, check_same_thread=False)
    conn.execute("BEGIN EXCLUSIVE")

    def release() -> None:
        conn.execute("ROLLBACK")
        conn.close()

    threading.Timer(1.0, release).start()
    run = cli("recover", "--project", "qa", cwd=scratch, timeout=90)
    assert_no_traceback(run)
    if run.code == 0:
        assert b"token refresh" in run.stdout, run.describe()
    else:  # no retry: acceptable only as a one-line runtime failure
        assert_clean_error(run, 1)


@pytest.mark.parametrize(
    "payload",
    [b"", b"not json", b"[1]", b'{"transcript_path": 3}', b'{"transcript_path": "/nonexistent/t.jsonl"}'],
)
def test_session_hook_bad_payload_is_exit_1(payload: bytes, scratch: Path) -> None:
    """--hook never exits 2 (agents read 2 as 'block'): bad hook JSON is exit 1, one line."""
    assert_clean_error(cli("session", "--hook", "--offline", stdin=payload, cwd=scratch), 1)


@pytest.mark.parametrize("day", ["2026-13-01", "yesterday", "06/20/2026"])
def test_session_bad_date_is_exit_2(day: str, scratch: Path) -> None:
    """--date that is not YYYY-MM-DD: exit 2, one line."""
    path = scratch / "t.jsonl"
    path.write_bytes(_jsonl(*MESSAGES))
    run = cli("session", str(path), "--force", "--offline", "--date", day, cwd=scratch)
    assert_clean_error(run, 2)


def test_session_without_transcript_or_claude_session_is_exit_2(scratch: Path, home: Path) -> None:
    """No TRANSCRIPT and no Claude Code session for the cwd: exit 2, one line."""
    env = {**os.environ, "HOME": str(home)}
    assert_clean_error(cli("session", "--offline", cwd=scratch, env=env), 2)


# ---------------------------------------------------------------- gate, cache, eval destinations


@pytest.mark.parametrize("via", ["--bank", "SUMMARIZER_BANK"])
def test_gate_bank_that_is_a_file(via: str, scratch: Path) -> None:
    """The memory-bank root is a file: one line (exit 1 or 2), the file untouched."""
    bank = scratch / "bank"
    bank.write_bytes(b"precious notes\n")
    entries = scratch / "p1.jsonl"
    entries.write_bytes(_jsonl(ENTRY))
    args = ["gate", "--phase", "1", "--date", "2026-06-20", str(entries)]
    env = dict(os.environ)
    if via == "--bank":
        args[1:1] = ["--bank", str(bank)]
    else:
        env["SUMMARIZER_BANK"] = str(bank)
    assert_clean_error(cli(*args, cwd=scratch, env=env), {1, 2})
    assert bank.read_bytes() == b"precious notes\n"


def test_gate_bank_subdir_blocked_by_a_file(scratch: Path) -> None:
    """A file where the bank wants a sub-folder: one line, exit 1 or 2, no traceback."""
    bank = scratch / "bank"
    bank.mkdir()
    for name in ("phases", "archive", "learnings", "features", "default"):
        (bank / name).write_bytes(b"in the way\n")
    entries = scratch / "p1.jsonl"
    entries.write_bytes(_jsonl(ENTRY))
    run = cli("gate", "--phase", "1", "--date", "2026-06-20", "--bank", str(bank), str(entries), cwd=scratch)
    assert_no_traceback(run)
    if run.code != 0:
        assert_clean_error(run, {1, 2})


@pytest.mark.parametrize("value", ["2026-02-30", "tomorrow"])
def test_gate_bad_date_is_exit_2(value: str, scratch: Path) -> None:
    """--date that is not a date: exit 2, one line."""
    entries = scratch / "p1.jsonl"
    entries.write_bytes(_jsonl(ENTRY))
    bank = str(scratch / "b")
    run = cli("gate", "--phase", "1", "--date", value, "--bank", bank, str(entries), cwd=scratch)
    assert_clean_error(run, 2)


@pytest.mark.parametrize("corruption", ["dir-is-file", "garbage-db"])
@pytest.mark.parametrize(
    "argv", [("cache", "stats"), ("cache", "stats", "--json"), ("cache", "prune", "--stale")]
)
def test_cache_with_corrupt_dir_is_exit_1(
    argv: tuple[str, ...], corruption: str, scratch: Path, home: Path
) -> None:
    """A cache dir that is a file, or garbage in cache.db: exit 1, one line, the bytes untouched."""
    cache = home / "cache"
    if corruption == "dir-is-file":
        cache.write_bytes(_garbage(256))
        target = cache
    else:
        (cache / "summaries").mkdir(parents=True)
        target = cache / "summaries" / "cache.db"
        target.write_bytes(_garbage())
    assert_clean_error(cli(*argv, cwd=scratch), 1)
    assert target.read_bytes() == (_garbage(256) if corruption == "dir-is-file" else _garbage())


def test_compress_with_corrupt_cache_still_answers(scratch: Path, home: Path) -> None:
    """A garbage cache.db costs caching, not the answer: exit 0 or a one-line exit 1."""
    cache = home / "cache"
    (cache / "summaries").mkdir(parents=True)
    (cache / "summaries" / "cache.db").write_bytes(_garbage())
    path = scratch / "e.json"
    path.write_bytes(json.dumps(ENTRY).encode())
    run = cli("compress", str(path), "--json", cwd=scratch)
    assert_no_traceback(run)
    if run.code != 0:
        assert_clean_error(run, 1)


def test_eval_out_is_a_file(scratch: Path) -> None:
    """--out names an existing file: one line (exit 1 or 2), the file untouched."""
    data = scratch / "d.jsonl"
    data.write_bytes(EVAL_LINE.encode() + b"\n")
    out = scratch / "report"
    out.write_bytes(b"keep me\n")
    run = cli("eval", str(data), "--offline", "--no-reuse", "--out", str(out), cwd=scratch)
    assert_clean_error(run, {1, 2})
    assert out.read_bytes() == b"keep me\n"


@pytest.mark.parametrize(
    "argv",
    [
        ("score",),
        ("score", "--text", ""),
        ("score", "--text", "x", "--status", "bogus"),
        ("stats", "x", "--phases", "0"),
        ("batch", "x", "--phases", "abc"),
        ("compress", "--concurrency", "0", "--text", "x"),
        ("envelope", "--cap", "0"),
        ("output", "--target", "-5"),
        ("gate", "--estimated-phases", "0"),
        ("mcp", "--tools", "no_such_tool"),
        ("cache", "prune"),
        ("eval",),
    ],
)
def test_bad_usage_is_exit_2(argv: tuple[str, ...], scratch: Path) -> None:
    """Bad flags and missing arguments: exit 2 (one line, or click's usage block)."""
    run = cli(*argv, cwd=scratch, timeout=30)
    assert_clean_error(run, 2)


# ---------------------------------------------------------------- hostile JSON that parses badly

HOSTILE = {
    "deep-nesting": b"[" * 100_000 + b"]" * 100_000 + b"\n",
    "huge-integer": b'{"summary": "x", "phase": ' + b"1" * 5000 + b"}\n",
}


@pytest.mark.parametrize("case", list(HOSTILE))
@pytest.mark.parametrize("command", list(SHAPES))
def test_hostile_json_is_exit_2(command: str, case: str, scratch: Path) -> None:
    """JSON the stdlib refuses with RecursionError / ValueError (not JSONDecodeError): exit 2, one line."""
    path = scratch / "input.jsonl"
    path.write_bytes(HOSTILE[case])
    assert_clean_error(cli(*SHAPES[command][0](str(path), scratch), cwd=scratch), 2)


def test_envelope_lone_surrogate_never_crashes(scratch: Path) -> None:
    """A JSON escape for a lone surrogate (valid JSON, not encodable): one line exit 2, or exit 0."""
    path = scratch / "env.json"
    path.write_bytes(json.dumps({**ENVELOPE, "summary": "\udc80 read"}).encode())  # ensure_ascii escapes it
    run = cli("envelope", str(path), cwd=scratch)
    assert_no_traceback(run)
    if run.code != 0:
        assert_clean_error(run, 2)


@pytest.mark.parametrize("command", ["score", "session"])
def test_lone_surrogate_never_crashes(command: str, scratch: Path) -> None:
    """Lone surrogates in entries/transcripts: refused in one line (2) or handled (0)."""
    valid = SHAPES[command][1]
    record = (valid if isinstance(valid, list) else [valid])[0]
    assert isinstance(record, dict)
    key = "summary" if "summary" in record else "content"
    path = scratch / "input.jsonl"
    path.write_bytes(_jsonl({**record, key: "token \ud800 refresh"}))
    run = cli(*SHAPES[command][0](str(path), scratch), cwd=scratch)
    assert_no_traceback(run)
    if run.code != 0:
        assert_clean_error(run, 2)


def test_eval_nonexistent_prompts_is_exit_2(scratch: Path) -> None:
    """--prompts that is neither a folder nor a git revision: exit 2, one line."""
    data = scratch / "d.jsonl"
    data.write_bytes(EVAL_LINE.encode() + b"\n")
    run = cli(
        "eval",
        str(data),
        "--offline",
        "--no-reuse",
        "--prompts",
        str(scratch / "no-such-dir"),
        "--out",
        str(scratch / "r"),
        cwd=scratch,
    )
    assert_clean_error(run, 2)


def test_cache_prune_all_without_a_terminal_is_one_summarizer_line(scratch: Path) -> None:
    """--all with no --yes and no terminal to confirm: nothing removed, exit non-zero, one prefixed line."""
    run = cli("cache", "prune", "--all", stdin=b"", cwd=scratch)
    assert_clean_error(run, {1, 2})


def test_closed_stdout_pipe_is_not_a_traceback(scratch: Path) -> None:
    """``summarizer output big.log | head -c 10``: no traceback, no message when the reader goes away."""
    path = scratch / "big.log"
    path.write_bytes(b"".join(b"line %d ERROR at a.py:%d\n" % (i, i) for i in range(200_000)))
    proc = subprocess.Popen(
        [*entry_point(), "output", str(path), "--floor", "100000000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=scratch,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(10)
    proc.stdout.close()
    err = proc.stderr.read().decode("utf-8", "replace")
    proc.wait(timeout=60)
    assert err == "" and proc.returncode == 1, err  # quiet, as `yes | head` is


@pytest.mark.parametrize(
    ("name", "damage"),
    [
        ("01-active-context.md", "binary"),
        ("02-progress-log.md", "binary"),
        ("_xref/index.md", "binary"),
        ("_xref/_next_id.json", "binary"),
        ("_xref/_next_id.json", "malformed"),
    ],
)
def test_gate_on_a_corrupt_bank_file_is_exit_1_and_untouched(name: str, damage: str, scratch: Path) -> None:
    """A bank file turned to garbage (or to malformed JSON) stops the gate in one line; nothing lost."""
    bank = scratch / "bank"
    first = scratch / "p1.jsonl"
    first.write_bytes(
        _jsonl(
            {
                **ENTRY,
                "summary": "Added JWT auth endpoint POST /auth/login with refresh token rotation; "
                "breaking change for clients",
            },
            {
                **ENTRY,
                "summary": "Created users table with email unique index; migration 003",
                "files_changed": ["db/migrations/003.sql"],
                "from_agent": "hephaestus",
                "to_agent": "athena",
            },
        )
    )
    base = ["gate", "--date", "2026-06-20", "--bank", str(bank)]
    assert cli(*base, "--phase", "1", str(first), cwd=scratch).code == 0
    target = bank / name
    assert target.is_file(), f"the bank has no {name}; update this test to the bank's layout"
    broken = _garbage(2000) if damage == "binary" else b'{"E": '
    target.write_bytes(broken)
    second = scratch / "p2.jsonl"
    second.write_bytes(_jsonl({**ENTRY, "summary": "Wired the login form to POST /api/auth/login"}))
    run = cli(*base, "--phase", "2", str(second), cwd=scratch)
    assert_clean_error(run, {1, 2})
    assert target.read_bytes() == broken, "the damaged file was rewritten"


@pytest.mark.parametrize("damage", ["replaced", "truncated"])
def test_restore_of_a_damaged_original_is_not_silent(
    damage: str, scratch: Path, home: Path, stored_id: str
) -> None:
    """The id is the SHA-256 of the original: damaged bytes must not come back as exit 0."""
    stored = [p for p in (home / "cache" / "originals").rglob("*") if p.is_file()]
    assert len(stored) == 1, stored
    stored[0].write_bytes(b"tampered\n" if damage == "replaced" else b"one\ntw")
    run = cli("restore", stored_id, cwd=scratch)
    assert_no_traceback(run)
    assert run.code != 0, "restore returned bytes that do not match the id\n" + run.describe()
    assert_clean_error(run, 1, stdout_ok=True)


@pytest.mark.slow
@pytest.mark.parametrize("argv", [("cache", "stats"), ("cache", "prune", "--stale")])
def test_cache_on_a_locked_database_is_exit_1(argv: tuple[str, ...], scratch: Path, home: Path) -> None:
    """summaries/cache.db under an EXCLUSIVE lock elsewhere: exit 1 in one line, not a hang."""
    assert cli("cache", "stats", cwd=scratch).code == 0  # creates the cache database
    db = home / "cache" / "summaries" / "cache.db"
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("BEGIN EXCLUSIVE")
    try:
        start = time.perf_counter()
        run = cli(*argv, cwd=scratch, timeout=150)
        assert time.perf_counter() - start < 120, run.describe()
    finally:
        conn.execute("ROLLBACK")
        conn.close()
    assert_clean_error(run, 1)
