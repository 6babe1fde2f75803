"""The user's Claude Code permission rules, evaluated against the ORIGINAL command.

Claude Code matches its rules against the command it is about to run. Once our hook rewrites
``npm test`` into ``summarizer run -- npm test``, a rule ``Bash(npm test:*)`` no longer matches
(anthropics/claude-code #65393), so a hook that says nothing would turn "allowed" into "asked"
and, worse, one that says ``allow`` would turn "denied" or "asked" into "allowed" (the mistake
rtk-ai/rtk #886 shipped). The hook therefore reads the rules itself, from the files Claude Code
reads, and decides on the command the agent wrote:

* **deny** when any simple command in it (or the whole line) matches a deny rule;
* else **ask** when any part matches an ask rule;
* else **allow** only when *every* simple command matches an allow rule, read strictly;
* else no rule (``None``).

Matching is deliberately lopsided. Deny and ask rules are read liberally (``Bash(ls *)`` also
matches a bare ``ls``; rules from the settings of parent directories count too), because reading
too much there only costs a question. Allow rules are read strictly (only the project's own and
the user's files; nothing behind a command substitution), because reading too much there would
weaken the user's permissions. A settings file that exists but cannot be read or parsed makes
the answer at least "ask".
"""

from __future__ import annotations

import os

from summarizer.agents import fastjson

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from summarizer.agents.shell import CommandLine

__all__ = ["Rules", "decide", "load_rules", "matches", "settings_files"]

MANAGED_SETTINGS = "/etc/claude-code/managed-settings.json"


class Rules:
    """Bash permission patterns by kind; ``unreadable`` lists files that could not be read."""

    __slots__ = ("allow", "ask", "deny", "unreadable")

    def __init__(self) -> None:
        self.allow: list[str] = []
        self.ask: list[str] = []
        self.deny: list[str] = []
        self.unreadable: list[str] = []


def settings_files(project_dir: str, env: Mapping[str, str]) -> tuple[list[str], list[str]]:
    """(files whose allow rules count, files whose deny/ask rules count too) in Claude Code's places."""
    home = env.get("HOME") or os.path.expanduser("~")
    user_dir = env.get("CLAUDE_CONFIG_DIR") or os.path.join(home, ".claude")
    strict = [
        MANAGED_SETTINGS,
        os.path.join(user_dir, "settings.json"),
        os.path.join(project_dir, ".claude", "settings.json"),
        os.path.join(project_dir, ".claude", "settings.local.json"),
    ]
    liberal = list(strict)
    parent = os.path.dirname(os.path.abspath(project_dir))
    while parent and parent != os.path.dirname(parent):
        liberal += [
            os.path.join(parent, ".claude", "settings.json"),
            os.path.join(parent, ".claude", "settings.local.json"),
        ]
        parent = os.path.dirname(parent)
    return strict, liberal


def _bash_patterns(values: object) -> list[str]:
    out: list[str] = []
    if not isinstance(values, list):
        return out
    for rule in values:
        if not isinstance(rule, str):
            continue
        rule = rule.strip()
        if rule == "Bash":
            out.append("*")
        elif rule.startswith("Bash(") and rule.endswith(")"):
            out.append(rule[5:-1].strip())
    return out


def load_rules(project_dir: str, env: Mapping[str, str]) -> Rules:
    """Read the Bash rules from every settings file Claude Code would read for ``project_dir``."""
    strict, liberal = settings_files(project_dir, env)
    rules = Rules()
    for path in dict.fromkeys(liberal):
        try:
            with open(path, encoding="utf-8") as handle:
                data = fastjson.loads(handle.read())
        except FileNotFoundError:
            continue
        except (OSError, ValueError):
            rules.unreadable.append(path)
            continue
        permissions = data.get("permissions") if isinstance(data, dict) else None
        if not isinstance(permissions, dict):
            continue
        rules.deny += _bash_patterns(permissions.get("deny"))
        rules.ask += _bash_patterns(permissions.get("ask"))
        if path in strict:
            rules.allow += _bash_patterns(permissions.get("allow"))
    return rules


def _glob(pattern: str, text: str) -> bool:
    """``*`` matches any run of characters (spaces included); nothing else is special."""
    parts = pattern.split("*")
    if len(parts) == 1:
        return text == pattern
    if not text.startswith(parts[0]):
        return False
    pos = len(parts[0])
    for middle in parts[1:-1]:
        found = text.find(middle, pos)
        if found < 0:
            return False
        pos = found + len(middle)
    last = parts[-1]
    return len(text) - pos >= len(last) and text.endswith(last)


def matches(pattern: str, command: str, *, liberal: bool) -> bool:
    """Does one rule's pattern match one command? (``liberal``: also the bare prefix of ``cmd *``.)"""
    pattern = " ".join(pattern.split())
    command = " ".join(command.split())
    if pattern in ("", "*"):
        return True
    if pattern.endswith(":*"):  # legacy prefix form: `npm run test:*`
        prefix = pattern[:-2].rstrip()
        return command == prefix or command.startswith(prefix + " ")
    if liberal and pattern.endswith(" *") and command == pattern[:-2]:
        return True
    return _glob(pattern, command)


def decide(rules: Rules, command: str, line: CommandLine) -> str | None:
    """``"deny"``, ``"ask"``, ``"allow"`` or ``None`` (no rule) for the original ``command``."""
    parts = line.texts()
    candidates = [command.strip(), *parts, *(" ".join(words) for words in line.programs())]
    if any(matches(p, c, liberal=True) for p in rules.deny for c in candidates):
        return "deny"
    if any(matches(p, c, liberal=True) for p in rules.ask for c in candidates):
        return "ask"
    if rules.unreadable:
        return "ask"
    if line.broken or line.substitution or line.redirect or not parts:
        return None  # what Claude Code would make of these is not ours to guess: never "allow"
    if all(any(matches(p, c, liberal=False) for p in rules.allow) for c in parts):
        return "allow"
    return None
