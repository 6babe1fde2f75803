"""The differential run shared by the test and ``evals/fuzz_hook.py``: generated lines x rule sets x
modes through the Claude Code hook, each reply checked against the oracle."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from pathlib import Path

from summarizer.agents.hook import answer
from summarizer.agents.permissions import Rules, bash_patterns
from tests.agents import oracle, shellgen

PROGRAM_NAMES = sorted(
    {p[0] for p in shellgen.PROGRAMS}
    | {"timeout", "nice", "nohup", "env", "tail", "head", "grep", "wc", "tee", "true", "bash", "sh"}
)


@dataclass
class Report:
    """What one run saw."""

    lines: int = 0
    cases: int = 0
    rewritten: int = 0
    replies: dict[str, int] = field(default_factory=dict)
    violations: list[str] = field(default_factory=list)


def fake_path(folder: Path) -> str:
    """A PATH on which every generated program is an executable."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in PROGRAM_NAMES:
        target = folder / name
        target.write_text("#!/bin/sh\n")
        target.chmod(0o755)
    return str(folder)


def run(count: int, seed: int, bin_dir: Path) -> Report:
    """``count`` lines, one random rule set each, every permission mode."""
    rng = random.Random(seed)
    env = {"PATH": fake_path(bin_dir), "HOME": str(bin_dir.parent), "SUMMARIZER_CONFIG_DIR": os.devnull}
    report = Report()
    for _ in range(count):
        gen = shellgen.line(rng)
        rule_set = shellgen.rules(rng)
        rules = Rules(
            allow=bash_patterns(rule_set["allow"]),
            ask=bash_patterns(rule_set["ask"]),
            deny=bash_patterns(rule_set["deny"]),
        )
        report.lines += 1
        for mode in shellgen.MODES:
            report.cases += 1
            event = {
                "tool_name": "Bash",
                "tool_input": {"command": gen.text},
                "permission_mode": mode,
                "cwd": "/nonexistent",
            }
            reply = answer(event, env, rules=rules)
            got = oracle.effective(reply) or "none"
            report.replies[got] = report.replies.get(got, 0) + 1
            report.rewritten += reply is not None
            truth = oracle.decision(rule_set, gen.cmds, gen.text, mode)
            if oracle.more_permissive(reply, truth, mode):
                report.violations.append(f"{mode} {rule_set} {gen.text!r}: oracle {truth}, hook {got}")
    return report
