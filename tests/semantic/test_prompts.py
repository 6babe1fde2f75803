"""The prompt library: versions, strict rendering, digests, agent-pair variants, snapshots."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from summarizer.core.errors import InputError, NotFound
from summarizer.core.settings import Settings, default_prompt_dir
from summarizer.semantic.prompts import PromptLibrary
from summarizer.semantic.untrusted import Untrusted, fence

from .conftest import NONCE, REPO_PROMPTS

SNAPSHOTS = Path(__file__).parent / "snapshots"
ENTRY = Untrusted("agent: hermes\nsummary: Added POST /api/users returning 201.", label="subtask_summary")


def _entry_values(
    from_agent: str = "hermes", to_agents: tuple[str, ...] = ("aphrodite",)
) -> dict[str, object]:
    return {
        "nonce": NONCE,
        "from_agent": from_agent,
        "to_agents": list(to_agents),
        "entry": fence(ENTRY, NONCE).block,
    }


SNAPSHOT_VALUES: dict[str, dict[str, object]] = {
    "critical": _entry_values(),
    "high": _entry_values("demeter", ("hermes", "themis")),
    "tool_output": {"nonce": NONCE, "output": fence(Untrusted('{"ok": true}', "tool_output"), NONCE).block},
    "session": {
        "nonce": NONCE,
        "date": "2026-11-29",
        "project": "demo",
        "transcript": fence(Untrusted("user: decided to use SQLite", "transcript"), NONCE).block,
    },
}


def test_packaged_library_has_every_summary_kind() -> None:
    """The shipped prompts cover CRITICAL, HIGH, tool output and session compression."""
    lib = PromptLibrary(REPO_PROMPTS)
    assert set(lib.names()) >= {"critical", "high", "tool_output", "session"}
    assert all(lib.version(name) for name in lib.names())


def test_default_prompt_dir_is_the_packaged_one_unless_overridden(tmp_path: Path) -> None:
    """Settings point at the packaged prompts; SUMMARIZER_PROMPTS overrides."""
    assert (default_prompt_dir({}) / "system.md.j2").is_file()
    settings = Settings.load({"SUMMARIZER_PROMPTS": str(tmp_path)})
    assert settings.prompt_dir == tmp_path


def test_missing_directory_and_prompt_say_what_to_do(tmp_path: Path, library: PromptLibrary) -> None:
    """Errors name the directory or the available prompts."""
    with pytest.raises(NotFound, match="SUMMARIZER_PROMPTS"):
        PromptLibrary(tmp_path / "absent")
    with pytest.raises(NotFound, match="critical"):
        library.render("nope", {})


def test_missing_variable_is_an_error_not_an_empty_string(library: PromptLibrary) -> None:
    """StrictUndefined: a template variable that was not passed fails loudly."""
    values = _entry_values()
    del values["entry"]
    with pytest.raises(InputError, match="'entry' is undefined"):
        library.render("critical", values)


def test_template_without_version_header_is_rejected(prompt_dir: Path) -> None:
    """Every template declares its version."""
    (prompt_dir / "bare.md.j2").write_text("no header {{ nonce }}")
    with pytest.raises(InputError, match="version header"):
        PromptLibrary(prompt_dir).render("bare", {"nonce": NONCE})


@pytest.mark.parametrize("edited", ["critical.md.j2", "_variants.md.j2", "system.md.j2"])
def test_one_character_edit_changes_the_digest(prompt_dir: Path, edited: str) -> None:
    """The digest covers the template, the partials it imports and the system prompt."""
    before = PromptLibrary(prompt_dir).digest("critical")
    path = prompt_dir / edited
    path.write_text(path.read_text() + " ")
    assert PromptLibrary(prompt_dir).digest("critical") != before


def test_editing_one_prompt_leaves_the_others_digest_alone(prompt_dir: Path) -> None:
    """Namespaces are per prompt: a session prompt edit keeps CRITICAL entries valid."""
    before = PromptLibrary(prompt_dir).digests()
    path = prompt_dir / "session.md.j2"
    path.write_text(path.read_text() + "x")
    after = PromptLibrary(prompt_dir).digests()
    assert after["session"] != before["session"] and after["critical"] == before["critical"]


@pytest.mark.parametrize(
    ("from_agent", "to_agents", "expected"),
    [
        ("hermes", ("aphrodite",), "status codes"),
        ("hermes", ("demeter",), "foreign keys"),
        ("demeter", ("hermes",), "migration version"),
        ("demeter", ("aphrodite",), "defaults"),
        ("aphrodite", ("hermes",), "event handlers"),
        ("aphrodite", ("demeter",), "UI state shape"),
        ("hephaestus", ("hermes",), "model endpoints"),
        ("prometheus", ("hermes",), "environment variables"),
        ("themis", ("hermes",), "critical issues"),
        ("demeter", ("themis",), "every detail"),
        ("hermes", ("mnemosyne",), "status only"),
        ("unknown", (), "contract details"),
    ],
)
def test_agent_pair_variant_decides_what_to_include(
    library: PromptLibrary, from_agent: str, to_agents: tuple[str, ...], expected: str
) -> None:
    """The variant table of docs/phase-gate.md, in both the CRITICAL and the HIGH prompt."""
    for name in ("critical", "high"):
        rendered = library.render(name, _entry_values(from_agent, to_agents))
        assert expected in rendered.user


def test_several_next_agents_get_each_variant_once(library: PromptLibrary) -> None:
    """Two next agents: both lines of guidance, no duplicates."""
    user = library.render("high", _entry_values("hermes", ("aphrodite", "demeter", "aphrodite"))).user
    assert user.count("status codes") == 1 and "foreign keys" in user


@pytest.mark.parametrize("name", sorted(SNAPSHOT_VALUES))
def test_rendering_matches_the_snapshot(name: str) -> None:
    """Any change to a packaged prompt shows up here (regenerate with UPDATE_PROMPT_SNAPSHOTS=1)."""
    rendered = PromptLibrary(REPO_PROMPTS).render(name, SNAPSHOT_VALUES[name])
    text = f"=== system ===\n{rendered.system}\n=== user ===\n{rendered.user}\n"
    path = SNAPSHOTS / f"{name}.txt"
    if os.environ.get("UPDATE_PROMPT_SNAPSHOTS"):
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(text)
    assert text == path.read_text()
