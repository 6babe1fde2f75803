"""Project detection as engram does it: .engram/config.json, git remote, git root, directory name."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from summarizer.session.project import detect_project_name, remote_repo_name
from summarizer.session.transcript import parse_transcript
from summarizer.session.usecase import detect_project

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _repo(path: Path, remote: str | None = None) -> Path:
    path.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    if remote:
        subprocess.run(["git", "-C", str(path), "remote", "add", "origin", remote], check=True)
    return path


@needs_git
def test_two_api_folders_of_different_repositories_do_not_collide(tmp_path: Path) -> None:
    """The git remote names the project, not the folder."""
    shop = _repo(tmp_path / "shop" / "api", "git@github.com:acme/shop-api.git")
    billing = _repo(tmp_path / "billing" / "api", "https://github.com/acme/billing-api")
    assert detect_project_name(shop) == ("shop-api", "git_remote")
    assert detect_project_name(billing) == ("billing-api", "git_remote")


@needs_git
def test_engram_config_wins_over_the_remote_even_from_a_subfolder(tmp_path: Path) -> None:
    """.engram/config.json's project_name, found from repo/src up to the git root."""
    repo = _repo(tmp_path / "api", "git@github.com:acme/shop-api.git")
    (repo / ".engram").mkdir()
    (repo / ".engram" / "config.json").write_text(json.dumps({"project_name": "team-alpha"}))
    (repo / "src").mkdir()
    assert detect_project_name(repo / "src") == ("team-alpha", "config")


@needs_git
def test_without_a_remote_the_git_root_names_the_project(tmp_path: Path) -> None:
    """A session started in repo/src/pkg is still the repository's."""
    repo = _repo(tmp_path / "ledger")
    (repo / "src" / "pkg").mkdir(parents=True)
    assert detect_project_name(repo / "src" / "pkg") == ("ledger", "git_root")


def test_outside_git_the_directory_name_is_the_project(tmp_path: Path) -> None:
    """The last resort, as before."""
    (tmp_path / "scratch").mkdir()
    assert detect_project_name(tmp_path / "scratch") == ("scratch", "dir")


@needs_git
def test_an_explicit_project_wins_over_detection(tmp_path: Path) -> None:
    """--project beats the config, the remote and the folder."""
    repo = _repo(tmp_path / "api", "git@github.com:acme/shop-api.git")
    parsed = parse_transcript(json.dumps({"role": "user", "content": "hi", "cwd": str(repo)}))
    assert detect_project("mine", parsed, str(tmp_path)) == "mine"
    assert detect_project(None, parsed, str(tmp_path)) == "shop-api"


@pytest.mark.parametrize(
    ("url", "name"),
    [
        ("git@github.com:acme/api.git", "api"),
        ("https://gitlab.com/a/b/c-d/", "c-d"),
        ("ssh://git@host:22/team/svc.git", "svc"),
        ("/srv/git/tools.git", "tools"),
    ],
)
def test_remote_urls_give_the_repository_name(url: str, name: str) -> None:
    """SSH, HTTPS, scp-like and local remotes."""
    assert remote_repo_name(url) == name
