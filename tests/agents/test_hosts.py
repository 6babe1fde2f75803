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


def _tool_env(tmp_path: Path) -> dict[str, str]:
    return {**_cargo_env(tmp_path), "HOME": str(tmp_path / "home")}


def _settings(tmp_path: Path, relative: str, data: object) -> None:
    target = tmp_path / "home" / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(data if isinstance(data, str) else json.dumps(data))


GEMINI_CASES = [
    # (rule kind, settings, rewritten?)
    ("allow", {"tools": {"allowed": ["run_shell_command(cargo test)"]}}, True),
    ("deny", {"tools": {"exclude": ["run_shell_command(cargo)"]}}, False),
    ("deny (legacy key)", {"excludeTools": ["run_shell_command(cargo test)"]}, False),
    ("ask", {"tools": {"core": ["run_shell_command"]}}, True),
    ("no rule", {}, True),
    ("malformed settings", '{"tools": {"exclude": [],}}', False),
]


@pytest.mark.parametrize(("kind", "settings", "rewritten"), GEMINI_CASES, ids=[c[0] for c in GEMINI_CASES])
def test_gemini_before_tool(tmp_path: Path, kind: str, settings: object, rewritten: bool) -> None:
    """tool_input merged over the arguments, unless an exclusion names a command of the line."""
    _settings(tmp_path, ".gemini/settings.json", settings)
    reply = answer("gemini", _fixture("gemini/before_tool.json"), _tool_env(tmp_path), "summarizer")
    if rewritten:
        assert reply == {
            "hookSpecificOutput": {
                "hookEventName": "BeforeTool",
                "tool_input": {"command": "summarizer run -- cargo test --workspace"},
            }
        }
    else:
        assert reply is None


CURSOR_CASES = [
    ("allow", {"permissions": {"allow": ["Shell(cargo)"], "deny": []}}, True),
    ("deny", {"permissions": {"allow": ["Shell(cargo)"], "deny": ["Shell(cargo test)"]}}, False),
    ("ask", {"permissions": {"allow": ["Shell(npm)"]}}, False),
    ("no rule", {}, False),
    ("malformed settings", "{permissions", False),
]


@pytest.mark.parametrize(("kind", "settings", "rewritten"), CURSOR_CASES, ids=[c[0] for c in CURSOR_CASES])
def test_cursor_pre_tool_use(tmp_path: Path, kind: str, settings: object, rewritten: bool) -> None:
    """permission allow + updated_input only when Cursor's own rules allow every command."""
    _settings(tmp_path, ".cursor/cli-config.json", settings)
    reply = answer("cursor", _fixture("cursor/pre_tool_use.json"), _tool_env(tmp_path), "summarizer")
    if rewritten:
        assert reply == {
            "permission": "allow",
            "updated_input": {"command": "summarizer run -- cargo test --workspace", "cwd": "/work/app"},
        }
    else:
        assert reply is None


def test_cursor_an_inner_command_must_be_allowed_too(tmp_path: Path) -> None:
    """`cargo test "$(rm -rf x)"`: `Shell(cargo)` does not cover the `rm`."""
    _settings(tmp_path, ".cursor/cli-config.json", {"permissions": {"allow": ["Shell(cargo)"]}})
    event = _fixture("cursor/pre_tool_use.json", tool_input={"command": 'cargo test "$(rm -rf x)"'})
    assert answer("cursor", event, _tool_env(tmp_path), "summarizer") is None


def _copilot_under(tmp_path: Path, summarizer: str, flags: str, env: dict[str, str]) -> bytes:
    """Run `summarizer hook copilot` from a parent process named `copilot` with these flags."""
    parent = tmp_path / "bin" / "copilot"
    parent.parent.mkdir(exist_ok=True)
    parent.write_text(f'#!/bin/sh\n"{summarizer}" hook copilot\n')
    parent.chmod(0o755)
    stdin = (FIXTURES / "copilot" / "pre_tool_use.json").read_bytes()
    done = run_cli(str(parent), *flags.split(), stdin=stdin, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_copilot_rewrites_with_allow_only_when_every_tool_is_allowed(summarizer: str, tmp_path: Path) -> None:
    """allow (--allow-all-tools), deny (a --deny-tool flag), ask and no rule (no flag), malformed."""
    env = {**_tool_env(tmp_path), "COPILOT_ALLOW_ALL": ""}
    allowed = json.loads(_copilot_under(tmp_path, summarizer, "--allow-all-tools", env))
    assert allowed["permissionDecision"] == "allow"
    assert allowed["modifiedArgs"] == {
        "command": allowed["modifiedArgs"]["command"],
        "description": "Run the tests",
    }
    assert allowed["modifiedArgs"]["command"].endswith(" run -- cargo test --workspace")
    assert _copilot_under(tmp_path, summarizer, "--allow-all-tools --deny-tool shell(rm)", env) == b""
    assert _copilot_under(tmp_path, summarizer, "", env) == b""
    assert json.loads(_copilot_under(tmp_path, summarizer, "", {**env, "COPILOT_ALLOW_ALL": "true"}))
    done = run_cli(summarizer, "hook", "copilot", stdin=b'{"toolName": "bash", "toolArgs": "{"}')
    assert (done.returncode, done.stdout) == (0, b"") and len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize("agent", ["gemini", "cursor", "copilot"])
def test_init_installs_and_removes_each_native_hook(tmp_path: Path, agent: str) -> None:
    """The hook lands in the agent's own file, --show names it, --uninstall leaves nothing behind."""
    from summarizer.agents import install as installer

    env = {"HOME": str(tmp_path / "home")}
    message = installer.install(agent, "global", env, tmp_path, "/opt/bin/summarizer")
    assert f"hook {agent}" in message
    rows = {(r.agent, r.scope): r for r in installer.show(env, tmp_path)}
    assert rows[(agent, "global")].installed
    assert rows[(agent, "global")].command == f"/opt/bin/summarizer hook {agent}"
    installer.uninstall(agent, "global", env, tmp_path)
    assert not any((tmp_path / "home").rglob("*"))
