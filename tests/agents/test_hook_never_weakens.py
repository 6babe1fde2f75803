"""The Claude Code hook is never more permissive than Claude Code on the original command."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import summarizer.agents.wrap as wrap_module
from summarizer.agents.hook import answer
from summarizer.agents.shell import Line, Opaque, parse
from tests.agents import fuzz, shellgen
from tests.agents.test_hook import _env, _event

# Commands hidden inside another command's word. Six of these (every double-quoted form, the
# here-string, and the `sh -c`/`eval` strings inside a substitution) were rewritten by the earlier
# hook, which read `$(` and backquotes only outside quotes: a deny became a silent run under
# bypassPermissions and a question elsewhere.
HIDDEN = [
    'pytest "$(rm -rf build)"',
    "pytest `rm -rf build`",
    'pytest "`rm -rf build`"',
    'pytest "${X:-$(rm -rf build)}"',
    "pytest ${X:-`rm -rf build`}",
    "pytest <(rm -rf build)",
    'pytest <<< "$(rm -rf build)"',
    "pytest \"$(bash -c 'rm -rf build')\"",
    "pytest \"$(eval 'rm -rf build')\"",
]


@pytest.mark.parametrize("mode", ["default", "bypassPermissions", "acceptEdits"])
@pytest.mark.parametrize("command", HIDDEN)
def test_a_denied_command_inside_a_substitution_is_never_rewritten(
    tmp_path: Path, command: str, mode: str
) -> None:
    """`Bash(rm:*)` denied: whatever quoting hides the `rm`, the hook says nothing."""
    env = _env(tmp_path / "home", {"deny": ["Bash(rm:*)"], "allow": ["Bash(pytest:*)", "Bash(bash:*)"]})
    assert answer(_event(command, mode), env) is None


@pytest.mark.parametrize("command", HIDDEN)
def test_each_hidden_command_is_found(command: str) -> None:
    """The reader names the inner `rm` of every form."""
    line = parse(command)
    assert ["rm", "-rf", "build"] in [c.argv for c in line.nested]


def test_an_inner_command_must_be_allowed_for_a_rewrite(tmp_path: Path) -> None:
    """`pytest "$(date)"` is rewritten only when a rule allows `date` too."""
    env = _env(tmp_path / "home", {"allow": ["Bash(pytest:*)"]})
    assert answer(_event('pytest "$(date)"'), env) is None
    env = _env(tmp_path / "home", {"allow": ["Bash(pytest:*)", "Bash(date)"]})
    reply = answer(_event('pytest "$(date)"'), env)
    assert reply is not None and reply["hookSpecificOutput"]["permissionDecision"] == "allow"  # type: ignore[index]


@pytest.mark.parametrize(
    "command",
    [
        "f() { rm -rf build; }; f",
        "cat <<EOF\n$(rm -rf build)\nEOF",
        'eval "$CMD"',
        'bash -c "$CMD"',
        "echo $'\\x72m'",
        "pytest $((1 + $(rm -rf build)))",
        "(rm -rf build)",
        "{ rm -rf build; }",
        "if true; then rm -rf build; fi",
        "pytest 'unbalanced",
    ],
)
def test_lines_beyond_the_reader_are_left_alone(tmp_path: Path, command: str) -> None:
    """Functions, heredocs, run-time strings, compound commands: no reply in any mode."""
    env = _env(tmp_path / "home", {"allow": ["Bash"]})
    with pytest.raises(Opaque):
        parse(command)
    for mode in ("default", "bypassPermissions"):
        assert answer(_event(command, mode), env) is None


@pytest.mark.parametrize("mode", ["plan", "dontAsk", "someFutureMode"])
def test_modes_where_a_question_would_weaken_get_no_reply(tmp_path: Path, mode: str) -> None:
    """dontAsk denies what no rule allows, plan runs nothing: "ask" would be more permissive."""
    env = _env(tmp_path / "home", {})
    assert answer(_event("npm test", mode), env) is None


def test_dont_ask_still_rewrites_what_a_rule_allows(tmp_path: Path) -> None:
    """Under dontAsk an allowed command is rewritten with "allow"."""
    env = _env(tmp_path / "home", {"allow": ["Bash(npm test:*)"]})
    reply = answer(_event("npm test", "dontAsk"), env)
    assert reply is not None and reply["hookSpecificOutput"]["permissionDecision"] == "allow"  # type: ignore[index]


@pytest.mark.parametrize("broken", ['{"permissions": {"allow": ["Bash"],}}', "{not json", '{"a": [1,]}'])
@pytest.mark.parametrize("mode", ["default", "bypassPermissions"])
def test_a_malformed_settings_file_means_ask_never_allow(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], broken: str, mode: str
) -> None:
    """A trailing comma (which made the C JSON scanner raise SystemError) asks, with one stderr line."""
    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").write_text(broken)
    env = _env(tmp_path / "home", {"allow": ["Bash(npm:*)"]})
    reply = answer(_event("npm test", mode, project=project), env)
    assert reply is not None
    assert reply["hookSpecificOutput"]["permissionDecision"] == "ask"  # type: ignore[index]
    assert len(capsys.readouterr().err.splitlines()) == 1


@pytest.mark.parametrize(
    ("command", "rewritten"),
    [
        ("cd src && pytest -x", "cd src && summarizer run -- pytest -x"),
        ("timeout 60 pytest", "summarizer run -- timeout 60 pytest"),
        ("VAR=1 pytest", "VAR=1 summarizer run -- pytest"),
        ('git commit -qam "fix"', 'summarizer run -- git commit -qam "fix"'),
        ("pytest | tail -20", "summarizer run --piped-into 'tail -20' -- pytest | tail -20"),
        ("make 2>&1 | head -n 50", "summarizer run --piped-into 'head -n 50' 'make 2>&1' | head -n 50"),
        ("make && git diff", "summarizer run -- make && git diff"),
    ],
)
def test_common_forms_are_wrapped_in_place(tmp_path: Path, command: str, rewritten: str) -> None:
    """cd, timeout, VAR=, bundled flags and display trimmers: only the noisy command is wrapped."""
    env = _env(tmp_path / "home", {"allow": ["Bash"]})
    (tmp_path / "home" / "bin" / "timeout").write_text("#!/bin/sh\n")
    (tmp_path / "home" / "bin" / "timeout").chmod(0o755)
    reply = answer(_event(command), env)
    assert reply is not None
    assert reply["hookSpecificOutput"]["updatedInput"]["command"] == rewritten  # type: ignore[index]


@pytest.mark.parametrize(
    "command", ["pytest | grep -c FAILED", "make | wc -l", "npm test | jq .", "pytest | sort | uniq -c"]
)
def test_a_pipe_that_computes_from_the_output_is_left_alone(tmp_path: Path, command: str) -> None:
    """Compressing before `grep -c`, `wc -l`, `jq` or `uniq -c` would change their answer."""
    env = _env(tmp_path / "home", {"allow": ["Bash"]})
    for name in ("wc", "sort", "uniq"):
        (tmp_path / "home" / "bin" / name).write_text("#!/bin/sh\n")
        (tmp_path / "home" / "bin" / name).chmod(0o755)
    assert answer(_event(command), env) is None


def test_the_differential_fuzz_finds_nothing_more_permissive(tmp_path: Path) -> None:
    """Generated lines x rule sets x modes against the oracle (the large run: evals/fuzz_hook.py)."""
    report = fuzz.run(400, shellgen.SEED, tmp_path / "bin")
    assert report.violations == []
    assert report.cases == 400 * len(shellgen.MODES)
    assert {"none", "ask", "allow", "rewrite"} <= set(report.replies)


def test_the_fuzz_catches_a_reader_blind_to_substitutions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With inner commands hidden from the rules, the same run reports violations."""

    def blind(text: str) -> Line:
        line = parse(text)
        line.commands = [c for c in line.commands if not c.nested]
        return line

    monkeypatch.setattr(wrap_module, "parse", blind)
    assert fuzz.run(400, shellgen.SEED, tmp_path / "bin").violations


def _bashlex_programs(text: str) -> list[str] | None:
    import bashlex

    try:
        trees = bashlex.parse(text)
    except Exception:  # bashlex refuses much of Bash (arithmetic, [[ ]], case): no opinion then
        return None
    found: list[str] = []

    class Visitor(bashlex.ast.nodevisitor):  # type: ignore[misc]
        def visitcommand(self, node: object, parts: list[object]) -> None:
            words = [p.word for p in parts if getattr(p, "kind", "") == "word"]
            if words:
                found.append(words[0])

    for tree in trees:
        Visitor().visit(tree)
    return found


def test_every_command_bashlex_finds_is_found_too() -> None:
    """A second parser as a cross-check: on lines bashlex can read, it finds no program we miss."""
    rng = random.Random(shellgen.SEED)
    checked = 0
    for _ in range(300):
        text = shellgen.line(rng).text
        theirs = _bashlex_programs(text)
        try:
            ours = [c.argv[0] for c in parse(text).commands if c.argv]
        except Opaque:
            continue
        if theirs is None:
            continue
        checked += 1
        for program in set(theirs):
            assert theirs.count(program) <= ours.count(program), (text, theirs, ours)
    assert checked > 100


def test_the_installed_hook_reads_the_fixture_events(summarizer: str, tmp_path: Path) -> None:
    """The six hidden forms through the real command, under bypassPermissions: no output at all."""
    from tests.agents.conftest import run_cli

    env = _env(tmp_path / "home", {"deny": ["Bash(rm:*)"], "allow": ["Bash"]})
    for command in HIDDEN:
        done = run_cli(
            summarizer,
            "hook",
            "claude",
            stdin=json.dumps(_event(command, "bypassPermissions")).encode(),
            env=env,
        )
        assert (done.returncode, done.stdout) == (0, b"")
