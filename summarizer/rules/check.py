"""``summarizer rules test``: every inline example checked against the rule that carries it.

A failure or noise example must match its pattern and a ``not_examples`` entry must not; a
never-wrap example must be covered by the prefix. A noise example that the compressor (or a
failure rule) calls a failure fails too: failures win, so that rule could never hide it, and a test
that said otherwise would lie. ``is_failure`` is handed in by the caller (the compressor's own
verdict on one line), so this module stays a pure function of the rules.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pydantic import BaseModel, ConfigDict

from summarizer.rules.model import LineRule, RuleSet, WrapRule

__all__ = ["ExampleResult", "RulesReport", "check_rules", "protected"]


class ExampleResult(BaseModel):
    """One example of one rule."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    file: str
    kind: str
    rule: str
    example: str
    expect: str  # "match" or "no match"
    ok: bool
    why: str = ""


class RulesReport(BaseModel):
    """All examples of all rule files in force."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    files: tuple[str, ...]
    rules: int
    results: tuple[ExampleResult, ...]

    @property
    def failed(self) -> int:
        """How many examples did not hold."""
        return sum(not r.ok for r in self.results)


def _line_results(
    path: str, kind: str, rule: LineRule, is_failure: Callable[[str], bool]
) -> list[ExampleResult]:
    pattern = re.compile(rule.pattern)
    out = []
    for example in rule.examples:
        ok, why = bool(pattern.search(example)), ""
        if not ok:
            why = "the pattern does not match it"
        elif kind == "noise" and is_failure(example):
            ok, why = False, "it is a failure line, and failures win: no noise rule can hide it"
        out.append(
            ExampleResult(
                file=path, kind=kind, rule=rule.pattern, example=example, expect="match", ok=ok, why=why
            )
        )
    for example in rule.not_examples:
        ok = not pattern.search(example)
        out.append(
            ExampleResult(
                file=path,
                kind=kind,
                rule=rule.pattern,
                example=example,
                expect="no match",
                ok=ok,
                why="" if ok else "the pattern matches it",
            )
        )
    return out


def _wrap_results(path: str, rule: WrapRule) -> list[ExampleResult]:
    out = []
    for example, expect in [(e, True) for e in rule.examples] + [(e, False) for e in rule.not_examples]:
        ok = rule.covers(example) == expect
        why = "" if ok else ("the prefix does not cover it" if expect else "the prefix covers it")
        out.append(
            ExampleResult(
                file=path,
                kind="never_wrap",
                rule=rule.prefix,
                example=example,
                expect="match" if expect else "no match",
                ok=ok,
                why=why,
            )
        )
    return out


def check_rules(rules: RuleSet, is_failure: Callable[[str], bool]) -> RulesReport:
    """Check every example; ``is_failure(line)``: whether the compressor keeps the line as a failure."""
    results: list[ExampleResult] = []
    for path, rule in rules.failure:
        results += _line_results(path, "failure", rule, is_failure)
    for path, rule in rules.noise:
        results += _line_results(path, "noise", rule, is_failure)
    for path, wrap in rules.never_wrap:
        results += _wrap_results(path, wrap)
    count = len(rules.failure) + len(rules.noise) + len(rules.never_wrap)
    return RulesReport(files=rules.files, rules=count, results=tuple(results))


def protected(failure_patterns: tuple[str, ...]) -> Callable[[str], bool]:
    """Whether the compressor keeps a line whatever the noise rules say: the engine's own verdict
    on the line with the failure patterns in force and a noise pattern that matches everything."""
    from summarizer.output import coordinates as co
    from summarizer.output.engine import DIGITS, NOISE, ExtraRules

    rules = ExtraRules.compile(failure_patterns, ("",))
    assert rules is not None

    def is_failure(line: str) -> bool:
        raw = line.encode("utf-8", "replace")
        builtin = co.classify_template(raw.translate(DIGITS).decode("utf-8", "replace"))
        return rules.verdict(raw, builtin).cls != NOISE

    return is_failure
