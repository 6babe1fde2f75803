"""A team's rules.toml: checked by `rules test`, applied by `run`, `output` and the Claude Code hook,
and never able to hide a failure line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from summarizer.cli import main
from summarizer.rules.files import never_wrap_prefixes

RULES = r"""
[[failure]]
pattern = '^BUILD BROKEN: '
examples = ["BUILD BROKEN: module api lost its types"]
not_examples = ["BUILD OK: 12 modules"]

[[noise]]
pattern = '^\[bundler\] '
examples = ["[bundler] asset chunk-17.js 3 KiB [emitted]"]

[[never_wrap]]
command = "seq 7"
examples = ["seq 7 100000", "seq  7"]
not_examples = ["seq 70 80"]
"""

# What the command prints: 6,000 bundler lines (noise), two failures of the team's own kind, and a
# line the noise pattern matches that is also a real error (failures win).
GENERATOR = """
for i in range(6000):
    print(f"[bundler] asset chunk-{i}.js {i % 90} KiB [emitted]")
    if i in (1500, 4500):
        print(f"BUILD BROKEN: module m{i} lost its types")
    if i == 3000:
        print("[bundler] ERROR chunk-3000.js failed: cannot resolve './missing'")
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A repository whose .summarizer/rules.toml holds the team's rules, and the generator."""
    root = tmp_path / "app"
    (root / ".git").mkdir(parents=True)
    (root / ".summarizer").mkdir()
    (root / ".summarizer" / "rules.toml").write_text(RULES)
    (root / "build.py").write_text(GENERATOR)
    return root


def _run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[bytes]:
    merged = {**os.environ, **env}
    return subprocess.run(args, cwd=cwd, env=merged, capture_output=True, timeout=120, check=False)


def test_rules_test_passes_the_examples(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every example of every rule holds: exit 0, and the JSON lists each one."""
    monkeypatch.chdir(project / ".summarizer")
    result = CliRunner().invoke(main, ["rules", "test", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["rules"] == 3 and report["failed"] == 0
    assert len(report["results"]) == 6


def test_a_noise_rule_whose_example_is_a_failure_fails_its_test(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Failures win, so a noise example that is an error line cannot be hidden: the test says so."""
    rules = project / ".summarizer" / "rules.toml"
    rules.write_text(
        RULES
        + '\n[[noise]]\npattern = "^npm "\nexamples = ["npm error 404 Not Found - GET https://registry.npmjs.org/nope"]\n'
    )
    monkeypatch.chdir(project)
    result = CliRunner().invoke(main, ["rules", "test"])
    assert result.exit_code == 1
    assert "FAIL noise" in result.stdout and "failures win" in result.stdout


def test_a_malformed_rule_file_is_one_line_and_exit_2(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule without examples names the file and the field."""
    (project / ".summarizer" / "rules.toml").write_text("[[failure]]\npattern = 'x'\n")
    monkeypatch.chdir(project)
    result = CliRunner().invoke(main, ["rules", "test"])
    assert result.exit_code == 2
    assert "rules.toml: failure.0.examples" in result.stderr


def test_a_rule_path_that_is_a_directory_is_exit_2(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A `.summarizer/rules.toml` that cannot be read is reported, never silently skipped."""
    rules = project / ".summarizer" / "rules.toml"
    if rules.exists():
        rules.unlink()
    rules.mkdir()
    monkeypatch.chdir(project)
    result = CliRunner().invoke(main, ["rules", "test"])
    assert result.exit_code == 2
    assert "rules.toml" in result.stderr and "directory" in result.stderr


def test_run_applies_the_project_rules_and_cannot_hide_a_failure(summarizer: str, project: Path) -> None:
    """Noise is dropped, the team's failures are kept, and the error the noise pattern also
    matches is still shown."""
    done = _run([summarizer, "run", "--", sys.executable, "build.py"], project)
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode()
    rendering = out[out.index("[summarizer output") :]  # after the head run streams as it comes
    assert "BUILD BROKEN: module m1500 lost its types" in rendering
    assert "BUILD BROKEN: module m4500 lost its types" in rendering
    assert "[bundler] ERROR chunk-3000.js failed: cannot resolve './missing'" in rendering
    assert "noise lines dropped by your rules: 6,000" in rendering
    assert "asset chunk-" not in rendering  # no bundler sample or pattern left
    bare = _run([summarizer, "run", "--", sys.executable, str(project / "build.py")], project.parent)
    plain = bare.stdout.decode()
    plain = plain[plain.index("[summarizer output") :]
    # Without the rule the second failure folds into a pattern behind the first one's sample.
    assert "BUILD BROKEN: module m4500" not in plain
    assert len(rendering) < len(plain)


def test_output_applies_the_rules_too(summarizer: str, project: Path) -> None:
    """summarizer output, run from the project, keeps the team's failure lines."""
    data = _run([sys.executable, "build.py"], project).stdout
    done = subprocess.run(
        [summarizer, "output"], input=data, cwd=project, capture_output=True, timeout=120, check=False
    )
    assert done.returncode == 0 and b"BUILD BROKEN: module m4500" in done.stdout


def test_a_broken_rule_file_never_costs_the_output(summarizer: str, project: Path) -> None:
    """run says on stderr that it ignores the file, and still compresses and prints."""
    (project / ".summarizer" / "rules.toml").write_text("[[noise]\n")
    done = _run([summarizer, "run", "--", sys.executable, "build.py"], project)
    assert done.returncode == 0
    assert b"compressing without your rules" in done.stderr
    assert b"[bundler] ERROR chunk-3000.js" in done.stdout


def test_the_claude_code_hook_applies_the_rules(summarizer: str, project: Path) -> None:
    """A never-wrap command is left alone; a wrapped one runs through run, which applies the rules."""

    def hook(command: str) -> dict[str, object] | None:
        event = {
            "tool_name": "Bash",
            "tool_input": {"command": command},
            "cwd": str(project),
            "hook_event_name": "PreToolUse",
            "permission_mode": "bypassPermissions",
        }
        env = {k: v for k, v in os.environ.items() if k != "CLAUDE_PROJECT_DIR"}
        done = subprocess.run(
            [summarizer, "hook", "claude"],
            input=json.dumps(event).encode(),
            cwd=project,
            env=env,
            capture_output=True,
            timeout=60,
            check=True,
        )
        return json.loads(done.stdout) if done.stdout.strip() else None

    assert hook("seq 7 100000") is None
    reply = hook(f"{sys.executable} build.py")
    assert reply is not None
    rewritten = reply["hookSpecificOutput"]["updatedInput"]["command"]  # type: ignore[index]
    bin_dir = str(Path(summarizer).parent)
    done = _run(["bash", "-c", rewritten], project, PATH=f"{bin_dir}:{os.environ['PATH']}")
    out = done.stdout.decode()
    assert "BUILD BROKEN: module m1500" in out and "[bundler] ERROR chunk-3000.js" in out
    assert "noise lines dropped by your rules" in out


def test_never_wrap_prefixes_cost_nothing_without_a_file_and_never_raise(tmp_path: Path) -> None:
    """No file: no prefixes. A broken file: no prefixes and no exception."""
    env = {"SUMMARIZER_CONFIG_DIR": str(tmp_path / "config"), "HOME": str(tmp_path)}
    assert never_wrap_prefixes(env, str(tmp_path)) == []
    (tmp_path / ".summarizer").mkdir()
    (tmp_path / ".summarizer" / "rules.toml").write_text("never_wrap = 3\n")
    assert never_wrap_prefixes(env, str(tmp_path)) == []
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "rules.toml").write_text(
        '[[never_wrap]]\ncommand = "npm  run dev"\nexamples = ["x"]\n'
    )
    assert never_wrap_prefixes(env, str(tmp_path / "sub")) == ["npm run dev"]


def test_the_rules_config_dir_is_the_hooks(tmp_path: Path) -> None:
    """rules.toml sits beside hook-exclude, by the same directory rule."""
    from summarizer.agents.paths import config_dir as hook_dir
    from summarizer.rules.files import config_dir

    for env in (
        {"SUMMARIZER_CONFIG_DIR": "/c"},
        {"XDG_CONFIG_HOME": "/x", "HOME": "/h"},
        {"HOME": "/home/u"},
    ):
        assert config_dir(env) == hook_dir(env)


def test_the_hook_parses_a_rule_file_once_until_it_changes(tmp_path: Path) -> None:
    """A second hook process reads the cached list without importing tomllib; an edit is seen."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".summarizer").mkdir()
    rules = tmp_path / ".summarizer" / "rules.toml"
    rules.write_text('[[never_wrap]]\ncommand = "npm run dev"\nexamples = ["npm run dev"]\n')
    env = {**os.environ, "SUMMARIZER_CONFIG_DIR": str(tmp_path / "config")}
    probe = (
        "import sys; from summarizer.rules.files import never_wrap_prefixes as p; "
        f"print(p({{'SUMMARIZER_CACHE_DIR': {str(tmp_path / 'cache')!r}}}, {str(tmp_path)!r}), "
        "'tomllib' in sys.modules)"
    )

    def ask() -> str:
        return subprocess.run(
            [sys.executable, "-c", probe], env=env, capture_output=True, check=True
        ).stdout.decode()

    assert ask() == "['npm run dev'] True\n"
    assert ask() == "['npm run dev'] False\n"
    rules.write_text('[[never_wrap]]\ncommand = "make serve"\nexamples = ["make serve"]\n')
    assert ask() == "['make serve'] True\n"
