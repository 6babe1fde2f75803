"""The cold paths' JSON reader and writer (the hook, the run ledger) agree with the standard module."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from summarizer.core.fastjson import dumps, loads

DOCUMENTS = [
    '{"session_id": "s", "tool_input": {"command": "pytest -k \\"a b\\"", "timeout": 120000}, "x": [1]}',
    ' \n{"unicode": "\\u00e9\\ud83d\\ude00", "nested": {"a": [true, false, null, -0.0, 1e-7]}}\t',
    "[]",
    '"just a string"',
]


@pytest.mark.parametrize("text", DOCUMENTS)
def test_loads_equals_json_loads(text: str) -> None:
    """Same values as json.loads, whitespace around the document included."""
    assert loads(text) == json.loads(text)


@pytest.mark.parametrize("text", ["", "{bad", '{"a": 1} trailing', "[1,]", "{'a': 1}"])
def test_malformed_documents_raise_value_error(text: str) -> None:
    """Anything json.loads rejects is a ValueError here too."""
    with pytest.raises(ValueError):
        json.loads(text)
    with pytest.raises(ValueError):
        loads(text)


def test_malformed_document_in_a_fresh_process_is_a_value_error() -> None:
    """The hook's process never imports json: a syntax error is still a ValueError with its position."""
    probe = (
        "import sys\n"
        "from summarizer.core.fastjson import loads\n"
        "assert 'json.decoder' not in sys.modules\n"
        "try:\n"
        "    loads('{bad json')\n"
        "except ValueError as exc:\n"
        "    print(type(exc).__name__, exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "char 1" in done.stdout
    assert "returned NULL" not in done.stdout


def test_dumps_equals_json_dumps() -> None:
    """The hook's replies are written byte for byte as json.dumps writes them."""
    value = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "ask",
            "updatedInput": {
                "command": "summarizer run 'a \"b\" é'",
                "timeout": 5,
                "run_in_background": False,
                "x": None,
                "f": 1.5,
                "l": [1, "two", {"three": []}],
            },
        }
    }
    assert dumps(value) == json.dumps(value)


def test_compact_dumps_equals_json_dumps_with_tight_separators() -> None:
    """The ledger's one-line records: no spaces, ASCII escapes, nesting kept."""
    value = {"cmd": 'grep -r "é\\n" .', "in": None, "pass": True, "bytes": 12, "l": [1, {"a": "b"}]}
    assert dumps(value, compact=True) == json.dumps(value, separators=(",", ":"))
