"""The text of ``summarizer rules test``."""

from __future__ import annotations

import os
from collections.abc import Mapping

from summarizer.rules.check import RulesReport
from summarizer.rules.files import PROJECT_FILE, USER_FILE, config_dir

__all__ = ["render_report"]


def render_report(report: RulesReport, env: Mapping[str, str], cwd: str) -> str:
    """One line per example, then the totals; says where it looked when there is no file."""
    if not report.files:
        user = os.path.join(config_dir(env), USER_FILE)
        return f"no rule files: looked for {PROJECT_FILE} from {cwd} up to the repository root, and {user}\n"
    out = [f"rule files: {', '.join(report.files)}"]
    for r in report.results:
        mark = "ok  " if r.ok else "FAIL"
        verb = "matches" if r.expect == "match" else "does not match"
        line = f"{mark} {r.kind:<10} {r.rule!r} {verb} {r.example!r}"
        out.append(line + (f": {r.why}" if r.why else ""))
    out.append(f"{report.rules} rules, {len(report.results)} examples, {report.failed} failed")
    return "\n".join(out) + "\n"
