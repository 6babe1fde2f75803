"""`summarizer init`: idempotent installs that merge, back up, and remove exactly what they added."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from summarizer.agents import install as installer
from summarizer.core.errors import InputError
from tests.agents.conftest import run_cli

EXISTING = b"""{
  "model": "opus",
  "permissions": {"allow": ["Bash(npm test:*)"], "deny": ["Bash(rm -rf:*)"]},
  "env": {"FOO": "1"},
  "hooks": {
    "PreToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "lint.sh"}]}],
    "Stop": [{"hooks": [{"type": "command", "command": "notify"}]}]
  }
}
"""


def _home(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    return {"HOME": str(home)}


def _existing_settings(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """A home whose Claude Code settings already hold the user's keys and hooks (EXISTING)."""
    env = _home(tmp_path)
    settings = tmp_path / "home" / ".claude" / "settings.json"
    settings.write_bytes(EXISTING)
    return env, settings


def test_claude_code_install_merges_and_uninstall_restores_the_exact_bytes(tmp_path: Path) -> None:
    """Other keys and hooks survive the install; --uninstall gives back the file byte for byte."""
    env, settings = _existing_settings(tmp_path)
    installer.install("claude-code", "global", env, tmp_path, "/opt/bin/summarizer")
    data = json.loads(settings.read_bytes())
    before = json.loads(EXISTING)
    assert {k: v for k, v in data.items() if k != "hooks"} == {
        k: v for k, v in before.items() if k != "hooks"
    }
    assert data["hooks"]["Stop"] == before["hooks"]["Stop"]
    assert data["hooks"]["PreToolUse"] == [
        *before["hooks"]["PreToolUse"],
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "/opt/bin/summarizer hook claude"}]},
    ]
    assert settings.with_name("settings.json.summarizer-backup").read_bytes() == EXISTING
    second = installer.install("claude-code", "global", env, tmp_path, "/opt/bin/summarizer")
    assert "already installed" in second
    assert json.loads(settings.read_bytes()) == data
    installer.uninstall("claude-code", "global", env, tmp_path)
    assert settings.read_bytes() == EXISTING
    assert not settings.with_name("settings.json.summarizer-backup").exists()


def test_uninstall_after_the_user_edited_the_file_removes_only_our_hook(tmp_path: Path) -> None:
    """A key added after the install is kept; only the summarizer hook entry goes."""
    env, settings = _existing_settings(tmp_path)
    installer.install("claude-code", "global", env, tmp_path, "summarizer")
    data = json.loads(settings.read_bytes())
    data["theme"] = "dark"
    settings.write_text(json.dumps(data))
    installer.uninstall("claude-code", "global", env, tmp_path)
    after = json.loads(settings.read_bytes())
    assert after == {**json.loads(EXISTING), "theme": "dark"}


def test_a_new_project_settings_file_is_created_and_removed(tmp_path: Path) -> None:
    """--project writes .claude/settings.local.json; uninstall deletes the file it created."""
    env = _home(tmp_path)
    installer.install("claude-code", "project", env, tmp_path, "summarizer")
    local = tmp_path / ".claude" / "settings.local.json"
    assert json.loads(local.read_text())["hooks"]["PreToolUse"][0]["matcher"] == "Bash"
    installer.uninstall("claude-code", "project", env, tmp_path)
    assert not local.exists()


def test_invalid_settings_are_an_input_error_and_left_untouched(tmp_path: Path) -> None:
    """A settings file that is not a JSON object is never overwritten."""
    env = _home(tmp_path)
    settings = tmp_path / "home" / ".claude" / "settings.json"
    settings.write_text("{broken")
    with pytest.raises(InputError, match="not valid JSON"):
        installer.install("claude-code", "global", env, tmp_path, "summarizer")
    assert settings.read_text() == "{broken"


def test_opencode_plugin_install_is_idempotent_and_never_overwrites_a_foreign_file(tmp_path: Path) -> None:
    """The plugin names this summarizer; a different summarizer.js stays untouched."""
    env = _home(tmp_path)
    installer.install("opencode", "project", env, tmp_path, "/opt/bin/summarizer")
    plugin = tmp_path / ".opencode" / "plugins" / "summarizer.js"
    assert 'const SUMMARIZER = "/opt/bin/summarizer";' in plugin.read_text()
    assert "already installed" in installer.install(
        "opencode", "project", env, tmp_path, "/opt/bin/summarizer"
    )
    installer.uninstall("opencode", "project", env, tmp_path)
    assert not plugin.exists() and not plugin.parent.exists()  # the folders it made went too
    plugin.parent.mkdir(parents=True)
    plugin.write_text("export const Mine = async () => ({})\n")
    with pytest.raises(InputError, match="not summarizer's plugin"):
        installer.install("opencode", "project", env, tmp_path, "summarizer")
    assert "nothing to remove" in installer.uninstall("opencode", "project", env, tmp_path)
    assert plugin.read_text() == "export const Mine = async () => ({})\n"


@pytest.mark.parametrize("existing", [None, b"", b"# Rules\n", b"# Rules\nno newline", b"# Rules\n\n"])
def test_codex_block_is_appended_and_removed_byte_exactly(tmp_path: Path, existing: bytes | None) -> None:
    """AGENTS.md gets one marked block; --uninstall restores the file's exact bytes (or removes it)."""
    env = _home(tmp_path)
    agents = tmp_path / "AGENTS.md"
    if existing is not None:
        agents.write_bytes(existing)
    installer.install("codex", "project", env, tmp_path, "summarizer")
    installer.install("codex", "project", env, tmp_path, "summarizer")
    assert agents.read_text().count("summarizer run --") == 1
    installer.uninstall("codex", "project", env, tmp_path)
    if existing:
        assert agents.read_bytes() == existing
    else:
        assert not agents.exists()


def test_init_show_reports_what_is_installed_and_whether_it_is_this_summarizer(
    summarizer: str, tmp_path: Path
) -> None:
    """The real command: install, --show names the file and "this summarizer", uninstall."""
    env = {**_home(tmp_path), "PATH": str(Path(summarizer).parent) + ":/usr/bin:/bin"}
    done = run_cli(summarizer, "init", "claude-code", env=env)
    assert done.returncode == 0, done.stderr
    shown = subprocess.run(
        [summarizer, "init", "--show"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60
    ).stdout
    assert "claude-code global   installed" in shown
    assert "(this summarizer)" in shown and "summarizer on PATH:" in shown and "(the same one)" in shown
    assert run_cli(summarizer, "init", "claude-code", "--uninstall", env=env).returncode == 0
    assert "installed  " not in run_cli(summarizer, "init", "--show", env=env).stdout.decode()


def test_init_without_an_agent_is_a_usage_error(summarizer: str, tmp_path: Path) -> None:
    """No agent and no --show: exit 2 with one line."""
    done = run_cli(summarizer, "init", env=_home(tmp_path))
    assert done.returncode == 2 and b"name an agent" in done.stderr


def test_codex_gets_the_hook_the_feature_flag_and_the_fallback_and_loses_them_exactly(tmp_path: Path) -> None:
    """hooks.json (merged like Claude Code's), `[features] hooks = true`, AGENTS.md; all undone."""
    env = _home(tmp_path)
    codex = tmp_path / "home" / ".codex"
    codex.mkdir()
    config = b'model = "gpt-5-codex"\n\n[features]\nweb_search = true\n'
    (codex / "config.toml").write_bytes(config)
    installer.install("codex", "global", env, tmp_path, "/opt/bin/summarizer")
    hooks = json.loads((codex / "hooks.json").read_text())
    assert hooks["hooks"]["PreToolUse"] == [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "/opt/bin/summarizer hook codex"}]}
    ]
    assert "hooks = true" in (codex / "config.toml").read_text()
    assert "summarizer run --" in (codex / "AGENTS.md").read_text()
    assert "already installed" in installer.install("codex", "global", env, tmp_path, "/opt/bin/summarizer")
    installer.uninstall("codex", "global", env, tmp_path)
    assert (codex / "config.toml").read_bytes() == config
    assert not (codex / "hooks.json").exists() and not (codex / "AGENTS.md").exists()


@pytest.mark.parametrize(
    "config",
    [b'model = "o3"\nfeatures.web_search = true\n', b"features = { web_search = true }\n"],
    ids=["dotted key", "inline table"],
)
def test_codex_features_written_another_way_are_left_valid(tmp_path: Path, config: bytes) -> None:
    """A second `[features]` table would make Codex's config.toml invalid: it is left as it is."""
    env = _home(tmp_path)
    codex = tmp_path / "home" / ".codex"
    codex.mkdir()
    (codex / "config.toml").write_bytes(config)
    done = installer.install("codex", "global", env, tmp_path, "/opt/bin/summarizer")
    assert "add hooks = true" in done
    assert (codex / "config.toml").read_bytes() == config
    assert "hook codex" in (codex / "hooks.json").read_text()
    installer.uninstall("codex", "global", env, tmp_path)
    assert (codex / "config.toml").read_bytes() == config


def test_uninstall_removes_the_folders_it_left_empty(tmp_path: Path) -> None:
    """`.claude/` and `.opencode/plugins/` go when nothing else is in them; a folder with a file stays."""
    env = _home(tmp_path)
    installer.install("claude-code", "project", env, tmp_path, "summarizer")
    installer.install("opencode", "project", env, tmp_path, "summarizer")
    installer.install("codex", "project", env, tmp_path, "summarizer")
    (tmp_path / ".codex" / "keep.txt").write_text("mine")
    installer.uninstall("claude-code", "project", env, tmp_path)
    installer.uninstall("opencode", "project", env, tmp_path)
    installer.uninstall("codex", "project", env, tmp_path)
    assert not (tmp_path / ".claude").exists() and not (tmp_path / ".opencode").exists()
    assert (tmp_path / ".codex" / "keep.txt").exists() and tmp_path.exists()


def test_installing_the_hook_in_both_scopes_warns(tmp_path: Path) -> None:
    """Global and project hooks together would wrap every command twice: init says so."""
    env = _home(tmp_path)
    first = installer.install("claude-code", "global", env, tmp_path, "summarizer")
    assert "warning" not in first
    second = installer.install("claude-code", "project", env, tmp_path, "summarizer")
    assert "warning: claude-code now has the hook in both scopes" in second


def test_init_show_says_plainly_when_no_summarizer_is_on_path(summarizer: str, tmp_path: Path) -> None:
    """No summarizer on PATH: one line that does not contradict itself."""
    env = {**_home(tmp_path), "PATH": "/usr/bin:/bin"}
    shown = run_cli(summarizer, "init", "--show", env=env).stdout.decode()
    line = next(x for x in shown.splitlines() if x.startswith("summarizer on PATH:"))
    assert "not found" in line and "a different one" not in line
