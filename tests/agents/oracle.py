"""Claude Code's documented Bash permission semantics, written independently of the hook.

* rules are checked deny, then ask, then allow; the first kind that matches decides;
* each command of a compound line (``&&``, ``||``, ``;``, ``|``, and the commands inside
  substitutions, ``eval`` and ``sh -c`` strings) is matched separately; deny and ask match when
  any command matches, allow only when every command does;
* ``Bash(prefix:*)`` is a prefix with a word boundary; ``*`` matches any characters; a trailing
  `` *`` also matches the bare command; bare ``Bash`` and ``Bash(*)`` match everything;
* a command is also matched without its ``VAR=value`` prefix and without wrappers
  (``timeout 5``, ``nice -n 5``, ``nohup``, ``env A=1``) for deny and ask;
* with no rule: ``default``, ``acceptEdits`` and ``plan`` ask, ``bypassPermissions`` allows,
  ``dontAsk`` denies.

The commands come from :mod:`tests.agents.shellgen`'s ground truth, never from parsing.
"""

from __future__ import annotations

import re

from tests.agents.shellgen import Cmd

RANK = {"deny": 0, "ask": 1, "allow": 2}
MODE_DEFAULT = {
    "default": "ask",
    "acceptEdits": "ask",
    "plan": "ask",
    "bypassPermissions": "allow",
    "dontAsk": "deny",
}


def _pattern(rule: str) -> str | None:
    if rule == "Bash":
        return "*"
    if rule.startswith("Bash(") and rule.endswith(")"):
        return rule[5:-1]
    return None


def rule_matches(pattern: str, text: str, *, trailing_optional: bool) -> bool:
    """One rule pattern against one command text (whitespace runs count as one space)."""
    text = re.sub(r"\s+", " ", text.strip())
    pattern = re.sub(r"\s+", " ", pattern.strip())
    if pattern.endswith(":*"):
        prefix = pattern[:-2]
        return text == prefix or text.startswith(prefix + " ")
    if trailing_optional and pattern.endswith(" *") and text == pattern[:-2]:
        return True
    regex = ".*".join(re.escape(part) for part in pattern.split("*"))
    return re.fullmatch(regex, text, flags=re.DOTALL) is not None


def _forms(cmd: Cmd) -> list[str]:
    stripped = cmd.words[cmd.wrapped :]
    return [cmd.text, " ".join(cmd.words), " ".join(stripped)]


def _any(patterns: list[str], cmds: list[Cmd], whole: str) -> bool:
    for pattern in patterns:
        if rule_matches(pattern, whole, trailing_optional=True):
            return True
        for cmd in cmds:
            if any(rule_matches(pattern, form, trailing_optional=True) for form in _forms(cmd)):
                return True
    return False


def decision(rules: dict[str, list[str]], cmds: list[Cmd], whole: str, mode: str) -> str:
    """What Claude Code decides for the original line: ``deny``, ``ask`` or ``allow``."""
    patterns = {k: [p for r in v if (p := _pattern(r)) is not None] for k, v in rules.items()}
    if _any(patterns.get("deny", []), cmds, whole):
        return "deny"
    if _any(patterns.get("ask", []), cmds, whole):
        return "ask"
    allow = patterns.get("allow", [])
    if cmds and all(
        any(rule_matches(p, f, trailing_optional=True) for p in allow for f in (c.text, " ".join(c.words)))
        for c in cmds
    ):
        return "allow"
    return MODE_DEFAULT[mode]


def effective(reply: dict[str, object] | None) -> str | None:
    """What the hook's reply makes Claude Code do: its decision, ``"rewrite"`` (no decision), or
    ``None`` (no reply: Claude Code decides on the original itself)."""
    if reply is None:
        return None
    out = reply["hookSpecificOutput"]
    assert isinstance(out, dict)
    decision = out.get("permissionDecision")
    return str(decision) if decision is not None else "rewrite"


def more_permissive(reply: dict[str, object] | None, original: str, mode: str) -> bool:
    """Is the hook's reply (decision plus rewritten command) more permissive than ``original``?

    No reply leaves the decision to Claude Code. A rewrite without a decision runs under the mode's
    own default for an unmatched command, which only ``bypassPermissions`` makes "allow"; a
    rewritten command matches none of the original's rules, so it is judged as "allow" at worst.
    """
    got = effective(reply)
    if got is None:
        return False
    if got == "rewrite":
        got = "allow"
    return RANK[got] > RANK[original]
