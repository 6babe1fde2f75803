"""``summarizer rules``: the team's rule files in force, and a test of their inline examples."""

from __future__ import annotations

import os

import click

from summarizer.cli._common import emit_json, handle_errors

__all__ = ["rules"]


@click.group()
def rules() -> None:
    """Failure patterns, noise patterns and never-wrap commands from rules.toml (docs/rules.md)."""


@rules.command("test")
@click.option("--json", "as_json", is_flag=True, help="Print every example's result as JSON.")
@handle_errors
def test(as_json: bool) -> None:
    """Check every rule's inline examples; exit 1 when one does not hold."""
    from summarizer.rules.check import check_rules, protected
    from summarizer.rules.model import rules_in_force
    from summarizer.rules.render import render_report

    ruleset = rules_in_force(os.environ, os.getcwd())
    report = check_rules(ruleset, protected(ruleset.failure_patterns))
    if as_json:
        emit_json({**report.model_dump(mode="json"), "failed": report.failed})
    else:
        click.echo(render_report(report, os.environ, os.getcwd()), nl=False)
    if report.failed:
        raise SystemExit(1)
