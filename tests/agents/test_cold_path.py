"""The cold command path: what `run`, `output` and `hook claude` import, and where they store."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from summarizer.agents.paths import cache_dir, store_dir
from summarizer.core.settings import Settings

HEAVY = (
    "pydantic",
    "click",
    "litellm",
    "mcp",
    "tiktoken",
    "summarizer.core.settings",
    "summarizer.output.models",
    "dataclasses",  # imports inspect: summarizer.core.records stands in (docs/cold-path.md)
    "inspect",
    "typing",  # about half of `python -c pass` each: TYPE_CHECKING = False instead
    "pathlib",
)
PROBE = (
    "import atexit, sys\n"
    "def report():\n"
    f"    heavy = sorted(m for m in sys.modules if m.startswith({HEAVY!r}))\n"
    "    sys.stderr.write('LOADED:' + ','.join(heavy) + '\\n')\n"
    "atexit.register(report)\n"
    "sys.argv = ['summarizer'] + sys.argv[1:]\n"
    "from summarizer.launcher import main\n"
    "main()\n"
)


def _loaded(args: list[str], stdin: bytes, tmp_path: Path) -> tuple[set[str], bytes]:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], input=stdin, capture_output=True, timeout=60)
    line = [x for x in done.stderr.decode().splitlines() if x.startswith("LOADED:")][-1]
    return {m for m in line.removeprefix("LOADED:").split(",") if m}, done.stdout


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (["run", "--", "echo", "hi"], b""),
        (["run", "--", sys.executable, "-c", "print('x' * 9000)"], b""),
        (["output"], b"two\nlines\n"),
        (["hook", "claude"], b'{"tool_name": "Bash", "tool_input": {"command": "pytest"}, "cwd": "/tmp"}'),
        (
            ["hook", "gemini"],
            b'{"tool_name": "run_shell_command", "tool_input": {"command": "pytest"}, "cwd": "/tmp"}',
        ),
    ],
)
def test_the_pass_through_path_imports_nothing_heavy(args: list[str], stdin: bytes, tmp_path: Path) -> None:
    """No pydantic, click, litellm, mcp, tokenizer or settings model on the path that decides."""
    loaded, out = _loaded(args, stdin, tmp_path)
    assert loaded == set()
    assert out


@pytest.mark.parametrize(
    "args",
    [
        ["run", "--", sys.executable, "-c", "for i in range(3000): print(f'line {i} served in {i % 9} ms')"],
        ["output", "-"],
    ],
)
def test_a_large_output_is_compressed_without_anything_heavy(args: list[str], tmp_path: Path) -> None:
    """Past the byte bound the engine runs, still without pydantic, settings or the tokenizer."""
    stdin = (
        b"".join(b"line %d served in %d ms\n" % (i, i % 9) for i in range(3000)) if "output" in args else b""
    )
    loaded, out = _loaded([*args], stdin, tmp_path)
    assert loaded == set() and b"summarizer restore" in out


@pytest.mark.parametrize(
    "env", [{"SUMMARIZER_CACHE_DIR": "/c"}, {"XDG_CACHE_HOME": "/x", "HOME": "/h"}, {"HOME": "/home/u"}]
)
def test_the_light_store_path_equals_the_settings_one(env: dict[str, str]) -> None:
    """The cold path computes the cache and originals directories exactly as Settings does."""
    assert store_dir(env) == str(Settings.load(env).store_dir)
    assert cache_dir(env) == str(Settings.load(env).cache_dir)
