"""The Codex, Gemini CLI, Cursor and Copilot CLI hooks, against fixtures of the JSON each sends."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from summarizer.agents.hosts import answer
from tests.agents.conftest import run_cli
from tests.agents.test_hook import _env

FIXTURES = Path(__file__).parent / "fixtures"


def _fixture(name: str, **changes: object) -> dict[str, object]:
    event: dict[str, object] = json.loads((FIXTURES / name).read_text())
    event.update(changes)
    return event


def _codex(command: str, mode: str = "bypassPermissions") -> dict[str, object]:
    return _fixture("codex/pre_tool_use_bash.json", permission_mode=mode, tool_input={"command": command})


def _cargo_env(tmp_path: Path) -> dict[str, str]:
    env = _env(tmp_path / "home", {})
    (tmp_path / "home" / "bin" / "cargo").write_text("#!/bin/sh\n")
    (tmp_path / "home" / "bin" / "cargo").chmod(0o755)
    return {**env, "CODEX_HOME": str(tmp_path / "codex")}


def test_codex_rewrites_with_allow_where_codex_would_not_ask(tmp_path: Path) -> None:
    """approval_policy never (sent as bypassPermissions), no exec-policy rule: allow + updatedInput."""
    reply = answer("codex", _fixture("codex/pre_tool_use_bash.json"), _cargo_env(tmp_path), "summarizer")
    assert reply == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "updatedInput": {"command": "summarizer run -- cargo test --workspace"},
        }
    }


def test_codex_leaves_every_other_approval_policy_alone(tmp_path: Path) -> None:
    """untrusted, on-request, on-failure all arrive as "default": Codex may ask, so no rewrite."""
    assert answer("codex", _codex("cargo test", "default"), _cargo_env(tmp_path), "summarizer") is None


@pytest.mark.parametrize(
    "rule",
    [
        'prefix_rule(pattern = ["cargo", "test"], decision = "prompt")',
        'prefix_rule(\n    pattern = ["cargo", ["test", "bench"]],\n    decision = "forbidden",\n)',
        'prefix_rule(pattern=["rm"], decision="forbidden")',
    ],
)
def test_codex_leaves_alone_a_line_its_own_rules_name(tmp_path: Path, rule: str) -> None:
    """A prefix_rule matching any command of the line (here `cargo test` or the inner `rm`)."""
    env = _cargo_env(tmp_path)
    (tmp_path / "codex" / "rules").mkdir(parents=True)
    (tmp_path / "codex" / "rules" / "default.rules").write_text(rule + "\n")
    assert answer("codex", _codex('cargo test "$(rm -rf x)" && cargo test'), env, "summarizer") is None


def test_codex_an_unreadable_rules_file_means_no_rewrite(tmp_path: Path) -> None:
    """A rules file the hook cannot read could hold anything: leave the command alone."""
    env = _cargo_env(tmp_path)
    (tmp_path / "codex" / "rules").mkdir(parents=True)
    (tmp_path / "codex" / "rules" / "default.rules").write_text("prefix_rule(pattern = [\n")
    assert answer("codex", _codex("cargo test"), env, "summarizer") is None


@pytest.mark.parametrize("command", ["cat Cargo.toml", "git diff", "f() { cargo test; }; f", ""])
def test_codex_what_claude_code_leaves_alone_codex_does_too(tmp_path: Path, command: str) -> None:
    """Verbatim content, lines beyond the reader, empty commands: no reply."""
    assert answer("codex", _codex(command), _cargo_env(tmp_path), "summarizer") is None


@pytest.mark.parametrize("stdin", [b"", b"{", b"[]", b'{"tool_name": "Bash", "tool_input": {"command": 7}}'])
def test_codex_malformed_input_never_blocks(summarizer: str, stdin: bytes) -> None:
    """Bad JSON: exit 0, nothing on stdout, at most one line on stderr."""
    done = run_cli(summarizer, "hook", "codex", stdin=stdin)
    assert (done.returncode, done.stdout) == (0, b"") and len(done.stderr.splitlines()) <= 1
