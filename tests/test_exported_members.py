"""The public API: ``__all__`` is sorted, complete, resolvable, and importing it stays light."""

from __future__ import annotations

import subprocess
import sys

import summarizer


def test_all_is_sorted_and_unique() -> None:
    """A sorted, duplicate-free ``__all__`` keeps diffs of the public API reviewable."""
    assert summarizer.__all__ == sorted(set(summarizer.__all__))


def test_every_public_name_resolves() -> None:
    """Each name in ``__all__`` is importable from the top-level package."""
    for name in summarizer.__all__:
        assert getattr(summarizer, name) is not None, name


def test_every_lazy_export_is_listed() -> None:
    """Nothing is importable from ``summarizer`` by accident without being in ``__all__``."""
    lazy = set(summarizer._LAZY)
    assert lazy <= set(summarizer.__all__)


def test_unknown_names_raise_attribute_error() -> None:
    """A typo gets Python's usual AttributeError, not a crash in the lazy loader."""
    try:
        summarizer.does_not_exist  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as exc:
        assert "does_not_exist" in str(exc)
    else:
        raise AssertionError("expected AttributeError")


def test_importing_the_package_loads_no_heavy_dependency() -> None:
    """``import summarizer`` must not pull litellm, mcp, jinja2, tiktoken or sqlite3."""
    heavy = "('litellm', 'mcp', 'jinja2', 'tiktoken', 'sqlite3', 'pydantic')"
    code = f"import sys, summarizer; print(sorted(m for m in {heavy} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "[]"


def test_the_readme_example_runs() -> None:
    """The README's Python API example works as written."""
    entry = summarizer.SubtaskSummary(
        summary="Added JWT auth endpoint",
        files_changed=["api/auth.py"],
        from_agent="hermes",
        to_agent="aphrodite",
    )
    score = summarizer.score_entry(entry)
    assert score.band in {"CRITICAL", "HIGH", "MEDIUM", "LOW"}
    text, redactions = summarizer.scrub_text("password=hunter2hunter2")
    assert "hunter2" not in text and redactions
