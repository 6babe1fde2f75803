"""`summarizer run`: one merged stream, the child's own status, signals, streaming, errors."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from summarizer.agents.child import exit_status
from summarizer.agents.run import DEFAULT_FLOOR, DEFAULT_THRESHOLD, RunCall, parse
from tests.agents.conftest import run_cli

PY = sys.executable


@pytest.mark.parametrize("code", [0, 1, 2, 3, 42])
def test_run_exits_with_the_commands_own_status(summarizer: str, code: int) -> None:
    """The exit status is the child's, whatever it is."""
    done = run_cli(summarizer, "run", "--", PY, "-c", f"import sys; print('x'); sys.exit({code})")
    assert done.returncode == code
    assert done.stdout == b"x\n"


def test_a_signal_death_is_128_plus_n(summarizer: str) -> None:
    """A child killed by SIGKILL (9) makes run exit 137, as a shell reports it."""
    done = run_cli(
        summarizer, "run", "--", PY, "-c", "import os; print('before', flush=True); os.kill(os.getpid(), 9)"
    )
    assert done.returncode == 137
    assert done.stdout == b"before\n"


def test_stdout_and_stderr_are_merged_in_write_order(summarizer: str) -> None:
    """Both streams are one pipe, so the bytes arrive in the order the child wrote them."""
    code = (
        "import sys\n"
        "for i in range(20):\n"
        "    out = sys.stdout if i % 2 else sys.stderr\n"
        "    out.write(f'{i}\\n'); out.flush()\n"
    )
    done = run_cli(summarizer, "run", "--", PY, "-c", code)
    assert done.stdout == b"".join(b"%d\n" % i for i in range(20))
    assert done.stderr == b""


def test_a_command_that_does_not_exist_is_127_with_the_shells_message(summarizer: str) -> None:
    """Not found: 127 and `<cmd>: command not found` on stderr, nothing on stdout."""
    done = run_cli(summarizer, "run", "--", "no-such-command-xyz", "arg")
    assert done.returncode == 127
    assert done.stderr == b"summarizer: no-such-command-xyz: command not found\n"
    assert done.stdout == b""


def test_a_file_that_is_not_executable_is_126(summarizer: str, tmp_path: Path) -> None:
    """Found but not executable: 126 and `Permission denied`."""
    script = tmp_path / "script.sh"
    script.write_text("echo hi\n")
    done = run_cli(summarizer, "run", "--", str(script))
    assert done.returncode == 126
    assert done.stderr.endswith(b": Permission denied\n")


def test_a_shell_string_runs_through_the_users_shell(summarizer: str) -> None:
    """`run "a && b"` runs through $SHELL -c: operators and the last status work."""
    done = run_cli(summarizer, "run", "echo one && echo two >&2; exit 4", env={"SHELL": "/bin/sh"})
    assert (done.returncode, done.stdout) == (4, b"one\ntwo\n")


def test_the_first_line_of_a_slow_small_command_is_printed_before_it_ends(
    summarizer: str, tmp_path: Path
) -> None:
    """Small output streams: the first line arrives while the command is still running."""
    gate = tmp_path / "gate"
    code = (
        f"import os, time\nprint('first', flush=True)\n"
        f"while not os.path.exists({str(gate)!r}): time.sleep(0.02)\nprint('second')"
    )
    proc = subprocess.Popen(
        [summarizer, "run", "--", PY, "-c", code],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    try:
        assert proc.stdout.readline() == b"first\n"  # the child is still waiting for the gate here
        assert proc.poll() is None
    finally:
        gate.touch()
    rest, _ = proc.communicate(timeout=30)
    assert rest == b"second\n" and proc.returncode == 0


def test_sigint_reaches_the_child_and_its_partial_output_is_compressed_and_stored(summarizer: str) -> None:
    """Ctrl-C (SIGINT to run only) is forwarded; what the child printed is compressed, stored, and
    run exits 130."""
    code = (
        "import sys, time\n"
        "for i in range(4000): print(f'test_mod.py::test_{i} PASSED')\n"
        "print('src/app.py:12: AssertionError: boom', flush=True)\n"
        "try:\n    time.sleep(60)\nexcept KeyboardInterrupt:\n"
        "    print('interrupted', flush=True); sys.exit(130)\n"
    )
    proc = subprocess.Popen(
        [summarizer, "run", "--", PY, "-u", "-c", code],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    store = Path(os.environ["SUMMARIZER_CACHE_DIR"]) / "originals"
    deadline = time.monotonic() + 30
    while not any(p.name.startswith(".incoming-") for p in store.glob(".*")) and time.monotonic() < deadline:
        time.sleep(0.05)  # run writes the original once the output is past the pass-through bound
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    text = out.decode()
    assert "exit code: 130" in text and "src/app.py:12" in text
    rid = text.rsplit("summarizer restore ", 1)[1].split()[0]
    restored = run_cli(summarizer, "restore", rid).stdout
    assert restored.startswith(b"test_mod.py::test_0 PASSED\n") and restored.endswith(b"interrupted\n")


def test_sigterm_is_forwarded_too(summarizer: str) -> None:
    """SIGTERM to run ends the child with it; the status says so (128+15)."""
    proc = subprocess.Popen(
        [summarizer, "run", "--", PY, "-c", "import time; print('up', flush=True); time.sleep(60)"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stdout.readline() == b"up\n"
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=30)
    assert proc.returncode == 143


def test_a_large_output_is_compressed_with_the_exit_code_and_restorable(summarizer: str) -> None:
    """Past the threshold: the header carries the exit code, failures survive, restore is exact."""
    code = (
        "for i in range(3000): print(f'tests/test_x.py::test_{i} PASSED')\n"
        "print('FAILED tests/test_y.py::test_bad - AssertionError')\nraise SystemExit(1)"
    )
    done = run_cli(summarizer, "run", "--", PY, "-c", code)
    text = done.stdout.decode()
    assert done.returncode == 1
    assert "exit code: 1" in text and "tests/test_y.py::test_bad" in text
    assert len(done.stdout) < 20_000
    rid = text.rsplit("summarizer restore ", 1)[1].split()[0]
    assert run_cli(summarizer, "restore", rid).stdout.count(b"PASSED") == 3000


def test_binary_output_is_stored_and_named_in_one_line(summarizer: str) -> None:
    """An executable or random bytes on stdout: not shown, the exit code kept, restore gives them back."""
    code = (
        "import random, sys\nrng = random.Random(7)\n"
        "sys.stdout.buffer.write(bytes(rng.randrange(256) for _ in range(30_000)))\nraise SystemExit(3)"
    )
    done = run_cli(summarizer, "run", "--", PY, "-c", code)
    text = done.stdout.decode()
    assert done.returncode == 3
    assert text.strip().startswith("[summarizer run · binary output, 30,000 bytes, not shown · exit code 3")
    assert len(done.stdout) < 300
    rid = text.split("summarizer restore ", 1)[1].split()[0]
    rng = random.Random(7)
    assert run_cli(summarizer, "restore", rid).stdout == bytes(rng.randrange(256) for _ in range(30_000))


def test_content_is_outlined_when_large_and_never_compressed_as_a_log(
    summarizer: str, tmp_path: Path
) -> None:
    """`run --content -- cat FILE`: a large source file as its outline; a test file full of
    `assert` and `Error` lines stays content; a small file is printed as it is."""
    source = Path(__file__).parents[1] / "output" / "fixtures" / "source_click_types_py.txt"
    done = run_cli(summarizer, "run", "--content", "--", "cat", str(source))
    text = done.stdout.decode()
    assert done.returncode == 0
    assert text.startswith("[summarizer output · content · outline") and "exit code: 0" in text
    assert "class IntRange(_NumberRangeBase, IntParamType):" in text and "first error" not in text
    tests = tmp_path / "test_errors.py"
    tests.write_text(
        "".join(
            f"def test_{n}():\n    with pytest.raises(ValueError):\n        assert parse({n}) == 'Error'\n"
            for n in range(400)
        )
    )
    done = run_cli(summarizer, "run", "--content", "--", "cat", str(tests))
    assert "first error" not in done.stdout.decode() and "def test_399():" in done.stdout.decode()
    small = tmp_path / "small.py"
    small.write_text("def f():\n    raise RuntimeError('x')\n" * 40)
    assert run_cli(summarizer, "run", "--content", "--", "cat", str(small)).stdout == small.read_bytes()


def test_a_terminal_on_stdin_runs_the_command_untouched(summarizer: str) -> None:
    """Interactive: with a tty on stdin the command owns it (and run adds nothing)."""
    primary, secondary = os.openpty()
    try:
        done = subprocess.run(
            [summarizer, "run", "--", PY, "-c", "import sys; print(sys.stdin.isatty())"],
            stdin=secondary,
            capture_output=True,
            timeout=30,
        )
    finally:
        os.close(primary)
        os.close(secondary)
    assert (done.returncode, done.stdout) == (0, b"True\n")


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ([], "no command given"),
        (["--target"], "requires a number"),
        (["--bogus", "--", "ls"], "no such option"),
        (["--target", "0", "--", "ls"], "positive whole number"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(summarizer: str, args: list[str], error: str) -> None:
    """Bad usage: exit 2 and one line on stderr."""
    done = run_cli(summarizer, "run", *args)
    assert done.returncode == 2
    assert error in done.stderr.decode() and done.stderr.count(b"\n") == 1


def test_parse_reads_options_argv_and_shell_strings() -> None:
    """`--` gives argv; one string without `--` goes through $SHELL -c."""
    call = parse(["--target=800", "--floor", "10", "--", "pytest", "-x"], {})
    assert (
        isinstance(call, RunCall) and call.argv == ["pytest", "-x"] and (call.target, call.floor) == (800, 10)
    )
    assert getattr(parse(["--content", "--", "cat", "a.py"], {}), "content", False)
    shell = parse(["make && make test"], {"SHELL": "/bin/zsh"})
    assert isinstance(shell, RunCall) and shell.argv == ["/bin/zsh", "-c", "make && make test"]


def test_the_cold_path_thresholds_match_the_compressor() -> None:
    """run decides pass-through with copies of the compressor's defaults; they must agree."""
    from summarizer.output.models import DEFAULT_THRESHOLD as ENGINE_THRESHOLD
    from summarizer.output.models import OutputOptions

    assert DEFAULT_THRESHOLD == ENGINE_THRESHOLD
    assert OutputOptions().floor_tokens == DEFAULT_FLOOR


def test_exit_status_follows_the_shell_convention() -> None:
    """A normal exit keeps its code; a signal N becomes 128+N."""
    assert exit_status(3 << 8) == 3
    assert exit_status(signal.SIGINT) == 130


def test_piped_into_tail_ends_with_every_failing_id_and_head_keeps_the_header_first(summarizer: str) -> None:
    """`run --piped-into 'tail -15'`: the header `tail` would cut is repeated at the end with
    pytest's short-summary rows, so the last 15 lines name all 7 failures (subtests included);
    `head` gets the rendering as it is. The fixture is a real pytest 9 run of more-itertools."""
    fixture = Path(__file__).parent / "fixtures" / "pytest_subtests_more_itertools.txt"
    ids = [
        line.split(" ", 1)[1].split(" - ")[0]
        for line in fixture.read_text().splitlines()
        if line.startswith(("FAILED ", "SUBFAILED("))
    ]
    assert len(ids) == 7
    tail = run_cli(summarizer, "run", "--piped-into", "tail -15", "--", "cat", str(fixture)).stdout.decode()
    last = "\n".join(tail.splitlines()[-15:])
    assert all(i in last for i in ids), last
    assert "first error (line 21)" in last and "exit code: 0" in last
    assert tail.rstrip().splitlines()[-1].startswith("[full output: summarizer restore ")
    head = run_cli(summarizer, "run", "--piped-into", "head -15", "--", "cat", str(fixture)).stdout.decode()
    plain = run_cli(summarizer, "run", "--", "cat", str(fixture)).stdout.decode()
    assert "the header again" not in head and head.split("restore")[0] == plain.split("restore")[0]
    assert len(tail) < len(fixture.read_text()) * 0.6
