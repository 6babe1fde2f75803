"""The built wheel holds exactly our three import packages plus the prompt templates."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("*.whl")
    return built


def test_wheel_top_level_packages_are_exactly_ours(wheel: Path) -> None:
    """Generic names (cache, engram, prompts, tests, evals) never reach site-packages."""
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert top == {"summarizer", "summarizer_cache", "summarizer_engram"}


def test_wheel_ships_every_prompt_template(wheel: Path) -> None:
    """Each template in prompts/ is packaged under summarizer/prompts/."""
    names = set(zipfile.ZipFile(wheel).namelist())
    templates = sorted(p.name for p in (ROOT / "prompts").glob("*.j2"))
    assert templates, "prompts/ holds no templates"
    for name in templates:
        assert f"summarizer/prompts/{name}" in names


def test_wheel_ships_type_markers(wheel: Path) -> None:
    """All three packages are typed (PEP 561)."""
    names = set(zipfile.ZipFile(wheel).namelist())
    for package in ("summarizer", "summarizer_cache", "summarizer_engram"):
        assert f"{package}/py.typed" in names


def test_wheel_ships_every_room_of_the_package(wheel: Path) -> None:
    """Every room (the kernel in core, the features, and the edges cli, mcp and agents) is in the
    wheel with every module the source tree has, and the OpenCode plugin rides along."""
    names = set(zipfile.ZipFile(wheel).namelist())
    source = ROOT / "summarizer"
    rooms = sorted(p.parent.name for p in source.glob("*/__init__.py"))
    assert {"core", "mcp", "cli", "agents", "phasegate", "semantic", "envelope"} <= set(rooms)
    for room in rooms:
        for module in (source / room).glob("*.py"):
            assert f"summarizer/{room}/{module.name}" in names, f"{room}/{module.name} is not packaged"
    assert "summarizer/agents/opencode_plugin.js" in names
    for module in ("core/settings.py", "core/errors.py", "mcp/server.py", "mcp/stdio.py", "cli/agents.py"):
        assert f"summarizer/{module}" in names
