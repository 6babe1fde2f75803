"""Checks of your own: a case's ``assert`` list, run against every contender's answer.

A dataset case may carry ``"assert": [...]``; each item is one check of the answer text
(``output``), written as ``{"type": "contains", "value": "POST /api/login"}`` or in the short form
``{"contains": "POST /api/login"}`` (``"json-valid"`` alone needs no value):

============== ============================================================================
``contains``     the text holds ``value`` (case-sensitive)
``not-contains`` the text does not hold ``value``
``regex``        Python regular expression ``value`` matches somewhere in the text
``max-tokens``   the text is at most ``value`` tokens (o200k, as every token count here)
``json-valid``   the whole text parses as JSON
``python``       the expression ``value`` over ``output`` (a str) is truthy, e.g.
                 ``len(output.splitlines()) == 2`` or ``json.loads(output)["ok"] is True``
============== ============================================================================

Each item is validated when the dataset loads (a regex that does not compile, a python form that
is not one expression, a ``max-tokens`` that is not a positive whole number: the line is named,
exit 2). A cell's ``assert_pass_rate`` is the share of its checks that passed; its per-check
results are in ``results.jsonl`` and in the reports. The python form never runs in this process:
see :mod:`summarizer.evaluation.sandbox`.
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from summarizer.core.tokens import count_tokens

__all__ = ["KINDS", "AssertResult", "Assertion", "check_local", "run_checks"]

Kind = Literal["contains", "not-contains", "regex", "max-tokens", "json-valid", "python"]
KINDS: tuple[str, ...] = ("contains", "not-contains", "regex", "max-tokens", "json-valid", "python")
_PYTHON_MAX = 2000


class Assertion(BaseModel):
    """One check of a case's ``assert`` list, validated when the dataset loads."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Kind
    value: str | int | None = None

    @model_validator(mode="before")
    @classmethod
    def _short_forms(cls, data: Any) -> Any:
        if isinstance(data, str):
            return {"type": data}
        if isinstance(data, dict) and "type" not in data and len(data) == 1:
            ((kind, value),) = data.items()
            return {"type": kind, "value": value}
        return data

    @model_validator(mode="after")
    def _value_fits_the_kind(self) -> Assertion:
        value = self.value
        if self.type == "json-valid":
            return self
        if self.type == "max-tokens":
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"max-tokens needs a positive whole number, not {value!r}")
            return self
        if not isinstance(value, str) or not value:
            raise ValueError(f"{self.type} needs a non-empty text value")
        if self.type == "regex":
            try:
                re.compile(value)
            except re.error as exc:
                raise ValueError(f"regex {value!r} does not compile ({exc})") from exc
        if self.type == "python":
            if len(value) > _PYTHON_MAX:
                raise ValueError(f"python expression is over {_PYTHON_MAX} characters")
            try:
                ast.parse(value, mode="eval")
            except SyntaxError as exc:
                raise ValueError(f"python {value!r} is not one expression ({exc.msg})") from exc
        return self

    def label(self) -> str:
        """How the check is named in reports: ``contains 'POST /api'``, ``json-valid``."""
        return self.type if self.value is None else f"{self.type} {self.value!r}"


class AssertResult(BaseModel):
    """One check's outcome on one answer (``reason``: why it failed, or what went wrong)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    check: str
    passed: bool
    reason: str | None = Field(default=None, max_length=300)


def check_local(assertion: Assertion, text: str) -> AssertResult:
    """Run one non-python check in process (they are pure text tests)."""
    kind, value, label = assertion.type, assertion.value, assertion.label()
    if kind == "contains":
        return AssertResult(check=label, passed=str(value) in text, reason=None)
    if kind == "not-contains":
        return AssertResult(check=label, passed=str(value) not in text, reason=None)
    if kind == "regex":
        return AssertResult(check=label, passed=re.search(str(value), text) is not None)
    if kind == "max-tokens":
        tokens = count_tokens(text)
        ok = tokens <= int(value or 0)
        return AssertResult(check=label, passed=ok, reason=None if ok else f"{tokens} tokens")
    if kind == "json-valid":
        try:
            json.loads(text)
        except ValueError as exc:
            return AssertResult(check=label, passed=False, reason=f"not JSON: {str(exc)[:120]}")
        return AssertResult(check=label, passed=True)
    raise ValueError(f"{kind} is not a local check")  # pragma: no cover - python goes to the sandbox


async def run_checks(checks: tuple[Assertion, ...], text: str) -> tuple[AssertResult, ...]:
    """Every check of a case on one answer, in order (the python ones share one sandbox run)."""
    from summarizer.evaluation.sandbox import run_python_checks

    python = [str(c.value) for c in checks if c.type == "python"]
    answers = iter(await run_python_checks(text, python) if python else [])
    out = []
    for check in checks:
        if check.type == "python":
            passed, reason = next(answers)
            out.append(AssertResult(check=check.label(), passed=passed, reason=reason))
        else:
            out.append(check_local(check, text))
    return tuple(out)
