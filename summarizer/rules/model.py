"""The rule files, validated: failure patterns, noise patterns and commands never to wrap.

```toml
[[failure]]                      # a line the compressor must keep, as an error
pattern = '^BUILD BROKEN: '      # a Python regular expression, searched in each line
examples = ["BUILD BROKEN: module api"]
not_examples = ["BUILD OK"]      # optional

[[noise]]                        # a line the compressor drops (counted, restorable)
pattern = '^\\[webpack\\] asset '
examples = ["[webpack] asset main.js 3.1 KiB [emitted]"]

[[never_wrap]]                   # a command prefix the hooks never rewrite
command = "npm run dev"
examples = ["npm run dev -- --port 3000"]
```

Every rule carries at least one example; ``summarizer rules test`` checks them. Failures win: a
noise pattern never removes a line that the compressor, or a failure rule, calls a failure; a noise
rule whose own example is such a line fails its test, since it could never do what it says.
Patterns see one line at a time; lines that differ only in their digits share one verdict (the
compressor classifies a line's digit template once), so write ``\\d+`` rather than one number.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from summarizer.core.errors import InputError
from summarizer.rules.files import read_table

__all__ = ["LineRule", "RuleFile", "RuleSet", "WrapRule", "load_rules", "rules_in_force"]


class LineRule(BaseModel):
    """A failure or noise pattern with the lines it must and must not match."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    pattern: str
    examples: tuple[str, ...] = Field(min_length=1)
    not_examples: tuple[str, ...] = ()

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, value: str) -> str:
        try:
            re.compile(value)
        except re.error as exc:
            raise ValueError(f"pattern {value!r} is not a regular expression: {exc}") from None
        if re.search(value, ""):
            raise ValueError(f"pattern {value!r} matches the empty line, so it would match every line")
        return value


class WrapRule(BaseModel):
    """A command prefix the hooks never wrap, with commands it must and must not cover."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    command: str = Field(min_length=1)
    examples: tuple[str, ...] = Field(min_length=1)
    not_examples: tuple[str, ...] = ()

    @property
    def prefix(self) -> str:
        """The command with its whitespace collapsed."""
        return " ".join(self.command.split())

    def covers(self, command: str) -> bool:
        """The hooks' prefix rule: the words are the prefix, or start with it and a space."""
        words = " ".join(command.split())
        return words == self.prefix or words.startswith(self.prefix + " ")


class RuleFile(BaseModel):
    """One ``rules.toml``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    failure: tuple[LineRule, ...] = ()
    noise: tuple[LineRule, ...] = ()
    never_wrap: tuple[WrapRule, ...] = ()


class RuleSet(BaseModel):
    """The rules of every file in force, each with the file it came from."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    files: tuple[str, ...] = ()
    failure: tuple[tuple[str, LineRule], ...] = ()
    noise: tuple[tuple[str, LineRule], ...] = ()
    never_wrap: tuple[tuple[str, WrapRule], ...] = ()

    @property
    def failure_patterns(self) -> tuple[str, ...]:
        """The failure regexes, for :class:`~summarizer.output.models.OutputOptions`."""
        return tuple(rule.pattern for _, rule in self.failure)

    @property
    def noise_patterns(self) -> tuple[str, ...]:
        """The noise regexes, for :class:`~summarizer.output.models.OutputOptions`."""
        return tuple(rule.pattern for _, rule in self.noise)


Kind = Literal["failure", "noise", "never_wrap"]


def _parse(path: str, table: Mapping[str, Any]) -> RuleFile:
    try:
        return RuleFile.model_validate(table)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InputError(f"{path}: {where}: {first['msg']}; fix the rule (see docs/rules.md)") from None


def load_rules(paths: list[str]) -> RuleSet:
    """Read and check every file; :class:`InputError` names the file and the rule at fault."""
    failure: list[tuple[str, LineRule]] = []
    noise: list[tuple[str, LineRule]] = []
    never_wrap: list[tuple[str, WrapRule]] = []
    for path in paths:
        try:
            table = read_table(path)
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"cannot read {path}: {exc}; fix or remove the file") from None
        except ValueError as exc:  # tomllib.TOMLDecodeError
            raise InputError(f"{path} is not valid TOML ({exc}); fix or remove the file") from None
        parsed = _parse(path, table)
        failure += [(path, rule) for rule in parsed.failure]
        noise += [(path, rule) for rule in parsed.noise]
        never_wrap += [(path, rule) for rule in parsed.never_wrap]
    return RuleSet(
        files=tuple(paths), failure=tuple(failure), noise=tuple(noise), never_wrap=tuple(never_wrap)
    )


def rules_in_force(env: Mapping[str, str], project_dir: str | None) -> RuleSet:
    """The rules of the project's and the user's files (an empty set when there are none)."""
    from summarizer.rules.files import rule_files

    return load_rules(rule_files(env, project_dir))
