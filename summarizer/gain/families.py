"""Command families: ``pytest -x tests/a`` and ``python -m pytest -q`` are both ``pytest``.

A family is the program that produced the output, plus its subcommand for tools whose subcommands
are different jobs (``git status``, ``npm test``, ``cargo build``, ``docker logs``). What the agent
put around the program does not change the family: ``VAR=1`` prefixes, ``cd dir &&``, wrappers
such as ``timeout 60`` or ``uv run``, ``python -m``, a ``summarizer run --`` already in front, and
anything after a pipe (``pytest | tail -20`` is ``pytest``).
"""

from __future__ import annotations

import os
import re
import shlex

__all__ = ["OUTPUT_FAMILY", "family", "first_program"]

OUTPUT_FAMILY = "(piped into output)"
_UNKNOWN = "(unknown)"

# Tools whose first argument names a different job.
_SUBCOMMANDS = frozenset(
    {
        "git",
        "npm",
        "yarn",
        "pnpm",
        "bun",
        "cargo",
        "go",
        "docker",
        "podman",
        "kubectl",
        "helm",
        "gh",
        "pip",
        "pip3",
        "uv",
        "poetry",
        "dotnet",
        "terraform",
        "gradle",
        "mvn",
        "apt",
        "apt-get",
        "brew",
        "systemctl",
        "journalctl",
        "deno",
        "composer",
        "bundle",
        "rails",
        "django-admin",
        "manage.py",
        "nx",
        "turbo",
        "tox",
        "nox",
        "just",
    }
)
# Words that run the next word as the real program (the number is how many arguments they take).
_WRAPPERS = {
    "timeout": 1,
    "nice": 0,
    "nohup": 0,
    "time": 0,
    "sudo": 0,
    "env": 0,
    "stdbuf": 0,
    "npx": 0,
    "bunx": 0,
    "pnpx": 0,
    "exec": 0,
    "command": 0,
}
# `uv run X`, `poetry run X`, `pnpm exec X`: the family is X.
_RUNNERS = {
    ("uv", "run"),
    ("poetry", "run"),
    ("pnpm", "exec"),
    ("pipenv", "run"),
    ("hatch", "run"),
    ("bundle", "exec"),
}
# Global options that take a value before the subcommand (`git -C dir log`).
_OPTION_WITH_VALUE = {"git": ("-C", "-c"), "docker": ("-H", "--context"), "kubectl": ("-n", "--namespace")}
_STATEFUL = frozenset({"cd", "pushd", "popd", "export", "source", ".", "set", "unset", "alias"})
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_SEPARATORS = re.compile(r"\s*(?:&&|\|\||;|\n)\s*")
_PYTHONS = re.compile(r"^python(?:\d(?:\.\d+)?)?$")


def _words(segment: str) -> list[str]:
    try:
        return shlex.split(segment, comments=False)
    except ValueError:  # unbalanced quotes: the words up to the quote still name the program
        return segment.split()


def _unwrap(words: list[str]) -> list[str]:
    """Drop assignments, wrappers, runners, ``python -m`` and ``summarizer run`` in front."""
    changed = True
    while words and changed:
        changed = False
        while words and _ASSIGNMENT.match(words[0]):
            words, changed = words[1:], True
        if not words:
            break
        program = os.path.basename(words[0])
        if program in ("summarizer", "rtk") and len(words) > 1 and words[1] == "run":
            words, changed = _after_run(words[2:]), True
        elif program in _WRAPPERS:
            skip = 1 + _WRAPPERS[program]
            rest = words[1:]
            while rest and rest[0].startswith("-"):
                rest = rest[1:]
            words, changed = rest[skip - 1 :], True
        elif (len(words) > 1 and (program, words[1]) in _RUNNERS) or (
            _PYTHONS.match(program) and len(words) > 2 and words[1] == "-m"
        ):
            words, changed = words[2:], True
    return words


def _after_run(rest: list[str]) -> list[str]:
    """The command given to ``summarizer run``: after ``--``, or its one shell string."""
    while rest and rest[0].startswith("-") and rest[0] != "--":
        option = rest.pop(0)
        if option in ("--target", "--floor") and rest:
            rest.pop(0)
    if rest and rest[0] == "--":
        return rest[1:]
    if len(rest) == 1:
        return first_program(rest[0])
    return rest


def first_program(command: str) -> list[str]:
    """The words of the command that produced the output: the first segment of the line that is
    not a shell-state builtin (``cd``, ``export``), before any pipe, with wrappers removed."""
    for segment in _SEPARATORS.split(command.strip()):
        head = _pipe_head(segment)
        words = _unwrap(_words(head))
        if words and os.path.basename(words[0]) not in _STATEFUL:
            return words
    return []


def _pipe_head(segment: str) -> str:
    """The part of a segment before its first unquoted ``|``."""
    quote = ""
    for index, char in enumerate(segment):
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "|":
            return segment[:index]
    return segment


def family(command: str | None) -> str:
    """The family of ``command``; ``None`` (an output piped into ``summarizer output``) has its own."""
    if command is None:
        return OUTPUT_FAMILY
    words = first_program(command)
    if not words:
        return _UNKNOWN
    program = os.path.basename(words[0])
    if _PYTHONS.match(program) and len(words) > 1 and words[1].endswith(".py"):
        return f"python {os.path.basename(words[1])}"
    if program in _SUBCOMMANDS:
        args = words[1:]
        while args and args[0] in _OPTION_WITH_VALUE.get(program, ()):
            args = args[2:]
        sub = next((w for w in args if not w.startswith("-")), None)
        if sub is not None and program in ("docker", "podman") and sub == "compose":
            rest = [w for w in words[words.index(sub) + 1 :] if not w.startswith("-")]
            return f"{program} compose {rest[0]}" if rest else f"{program} compose"
        if sub is not None and program in ("npm", "pnpm", "yarn", "bun") and sub == "run":
            rest = [w for w in words[words.index(sub) + 1 :] if not w.startswith("-")]
            return f"{program} run {rest[0]}" if rest else f"{program} run"
        return f"{program} {sub}" if sub is not None else program
    return program
