"""The user's Claude Code permission rules, evaluated against the ORIGINAL command.

Claude Code matches its rules against the command it is about to run. Once our hook rewrites
``npm test`` into ``summarizer run -- npm test``, a rule ``Bash(npm test:*)`` no longer matches
(anthropics/claude-code #65393), so a hook that says nothing would turn "allowed" into "asked"
and, worse, one that says ``allow`` would turn "denied" or "asked" into "allowed" (the mistake
rtk-ai/rtk #886 shipped). The hook therefore reads the rules itself, from the files Claude Code
reads, and decides on every command the original line can run (:func:`summarizer.agents.shell.parse`
finds them, substitutions and ``sh -c`` strings included):

* **deny** when a deny rule matches any command (or the whole line);
* else **ask** when an ask rule matches any command;
* else **ask** when a settings file exists but cannot be read;
* else **allow** only when an allow rule matches *every* command;
* else no rule (``None``).

Matching is deliberately lopsided. Deny and ask rules are read liberally: a command is also tried
without its ``VAR=value`` prefix and without wrappers (``timeout 5``, ``nice``, ``env``), rules in
the settings of parent directories count, and ``Bash(ls *)`` also matches a bare ``ls``. A rule that
matches only some later words of a command (``sudo rm -rf x`` against ``Bash(rm:*)``) gives
``"unsure"``: the hook then says nothing and lets Claude Code decide. Allow rules are read strictly:
only the project's own and the user's files, the command as written (its ``VAR=value`` prefix
dropped only when every value is a literal).
"""

from __future__ import annotations

import os

from summarizer.agents.shell import skip_wrappers
from summarizer.core import fastjson

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from summarizer.agents.shell import Line, Simple

__all__ = [
    "Rules",
    "allowed",
    "bash_patterns",
    "decide",
    "liberal",
    "load_rules",
    "matches",
    "settings_files",
]

MANAGED_SETTINGS = "/etc/claude-code/managed-settings.json"


class Rules:
    """Bash permission patterns by kind; ``unreadable`` lists files that could not be read."""

    __slots__ = ("allow", "ask", "deny", "unreadable")

    def __init__(
        self,
        allow: list[str] | None = None,
        ask: list[str] | None = None,
        deny: list[str] | None = None,
    ) -> None:
        self.allow: list[str] = list(allow or [])
        self.ask: list[str] = list(ask or [])
        self.deny: list[str] = list(deny or [])
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


def bash_patterns(values: object, tool: str = "Bash") -> list[str]:
    """The patterns of ``Tool(pattern)`` rules for ``tool`` in a rule list (bare ``Tool``: ``*``)."""
    out: list[str] = []
    if not isinstance(values, list):
        return out
    for rule in values:
        if not isinstance(rule, str):
            continue
        rule = rule.strip()
        if rule == tool:
            out.append("*")
        elif rule.startswith(tool + "(") and rule.endswith(")"):
            out.append(rule[len(tool) + 1 : -1].strip())
    return out


def load_rules(project_dir: str, env: Mapping[str, str]) -> Rules:
    """Read the Bash rules from every settings file Claude Code would read for ``project_dir``."""
    strict, liberal = settings_files(project_dir, env)
    rules = Rules()
    for path in dict.fromkeys(liberal):
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        except FileNotFoundError:
            continue
        except (OSError, ValueError):
            rules.unreadable.append(path)
            continue
        try:
            data = fastjson.loads(text)
        except Exception:  # the C scanner raises SystemError on a trailing comma: any error is "unreadable"
            rules.unreadable.append(path)
            continue
        permissions = data.get("permissions") if isinstance(data, dict) else None
        if not isinstance(permissions, dict):
            continue
        rules.deny += bash_patterns(permissions.get("deny"))
        rules.ask += bash_patterns(permissions.get("ask"))
        if path in strict:
            rules.allow += bash_patterns(permissions.get("allow"))
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
    if pattern.endswith(":*"):  # legacy prefix form with a word boundary: `npm run test:*`
        prefix = pattern[:-2].rstrip()
        return command == prefix or command.startswith(prefix + " ")
    if liberal and pattern.endswith(" *") and command == pattern[:-2]:
        return True
    return _glob(pattern, command)


def _exact_forms(cmd: Simple) -> list[str]:
    argv = cmd.argv
    return [cmd.text(), cmd.text(assigns=False), " ".join(argv[skip_wrappers(argv) :])]


def _suffixes(cmd: Simple) -> list[str]:
    argv = cmd.argv
    return [" ".join(argv[k:]) for k in range(1, len(argv))]


def liberal(patterns: list[str], line: Line) -> str | None:
    """``"yes"`` when a pattern matches a command (or the line), ``"unsure"`` on a later word only."""
    whole = line.source.strip()
    if any(matches(p, whole, liberal=True) for p in patterns):
        return "yes"
    unsure = False
    for cmd in line.commands:
        if any(matches(p, form, liberal=True) for p in patterns for form in _exact_forms(cmd)):
            return "yes"
        unsure = unsure or any(matches(p, form, liberal=True) for p in patterns for form in _suffixes(cmd))
    return "unsure" if unsure else None


def allowed(patterns: list[str], cmd: Simple) -> bool:
    """Does an allow rule match ``cmd`` as written (``VAR=value`` dropped only for literal values)?"""
    forms = [cmd.text()]
    if cmd.assigns and not any(w.dynamic for w in cmd.assigns):
        forms.append(cmd.text(assigns=False))
    return any(matches(p, form, liberal=False) for p in patterns for form in forms)


def decide(rules: Rules, line: Line) -> str | None:
    """``"deny"``, ``"ask"``, ``"allow"``, ``"unsure"`` or ``None`` (no rule) for the original line."""
    for kind, patterns in (("deny", rules.deny), ("ask", rules.ask)):
        found = liberal(patterns, line)
        if found == "yes":
            return kind
        if found == "unsure":
            return "unsure"
    if rules.unreadable:
        return "ask"
    if all(allowed(rules.allow, cmd) for cmd in line.commands):
        return "allow"
    return None
