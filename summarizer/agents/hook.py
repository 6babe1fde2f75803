"""``summarizer hook claude``: the Claude Code ``PreToolUse`` hook on ``Bash``.

Claude Code pipes the hook a JSON object (``tool_name``, ``tool_input.command``, ``cwd``,
``permission_mode``, ...). When the command is worth wrapping, the hook answers with
``hookSpecificOutput.updatedInput`` running it through ``summarizer run``; otherwise it prints
nothing and Claude Code runs the command as it would have.

It never weakens the user's permissions (see :mod:`summarizer.agents.permissions`): the rules
are evaluated against the original command, and

=================  ==========================================================================
rule               answer
=================  ==========================================================================
deny               nothing (no rewrite): Claude Code denies the original command itself
ask                ``permissionDecision: "ask"`` with the rewrite
no rule            ``"ask"`` with the rewrite; under ``bypassPermissions`` the rewrite alone
allow              ``"allow"`` with the rewrite; under ``bypassPermissions`` the rewrite alone
=================  ==========================================================================

(Under ``bypassPermissions`` Claude Code drops ``updatedInput`` when a ``permissionDecision`` is
present, rtk-ai/rtk #893; an ``ask`` rule still says ``ask`` there, and the original then runs.)

Commands that are not wrapped (:func:`wrap_reason`): already wrapped; content to read verbatim
(``cat``, ``head``, ``git diff``, ``jq``, ...: compressing a file the agent reads would corrupt
its view); heredocs; interactive programs; background jobs; commands that change the shell's
state (``cd``, ``export``, ``source``...: Claude Code's shell keeps them, a wrapped child would
not); and the prefixes in the user's exclude file (``~/.config/summarizer/hook-exclude``).

Any failure (bad JSON, an unexpected shape) prints nothing and exits 0: the command then runs
unwrapped under Claude Code's own rules. It never exits 2, which would block the command.
"""

from __future__ import annotations

import os
import sys

from summarizer.agents import fastjson
from summarizer.agents.paths import config_dir
from summarizer.agents.permissions import decide, load_rules
from summarizer.agents.shell import CommandLine, read_command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["EXCLUDE_FILE", "VERBATIM", "answer", "exclude_prefixes", "main", "rewrite", "wrap_reason"]

EXCLUDE_FILE = "hook-exclude"

# Output that is content the agent asked to read, word for word (first word, or first two words).
VERBATIM = frozenset(
    {
        "cat",
        "head",
        "tail",
        "less",
        "more",
        "bat",
        "batcat",
        "nl",
        "tac",
        "sed",
        "awk",
        "gawk",
        "cut",
        "jq",
        "yq",
        "xq",
        "xxd",
        "od",
        "hexdump",
        "strings",
        "base64",
        "diff",
        "cmp",
        "grep",
        "egrep",
        "fgrep",
        "rg",
        "ag",
        "ack",
        "echo",
        "printf",
        "pwd",
        "which",
        "type",
        "command",
        "realpath",
        "readlink",
        "stat",
        "file",
        "wc",
        "curl",
        "wget",
        "env",
        "printenv",
        "true",
        "false",
        "test",
        "[",
        "git diff",
        "git show",
        "git blame",
        "git cat-file",
        "git format-patch",
        "git config",
        "git rev-parse",
        "git ls-files",
        "gh pr diff",
        "gh pr view",
        "gh issue view",
        "gh api",
        "kubectl get",
        "kubectl describe",
    }
)
# Programs that want a terminal (any arguments), and REPLs (without arguments).
INTERACTIVE = frozenset(
    {
        "vim",
        "vi",
        "nvim",
        "nano",
        "emacs",
        "pico",
        "micro",
        "man",
        "top",
        "htop",
        "btop",
        "watch",
        "ssh",
        "mosh",
        "telnet",
        "tmux",
        "screen",
        "fzf",
        "ncdu",
        "mc",
        "tig",
        "lazygit",
        "ranger",
    }
)
REPLS = frozenset(
    {
        "python",
        "python3",
        "ipython",
        "node",
        "irb",
        "ghci",
        "psql",
        "mysql",
        "sqlite3",
        "redis-cli",
        "mongo",
        "mongosh",
        "bash",
        "sh",
        "zsh",
        "fish",
        "R",
        "julia",
        "lua",
    }
)
_NO_EDITOR = ("-m", "-F", "--message", "--file", "--no-edit", "-C", "--fixup", "--amend")
# Programs that run another command given as their arguments. Claude Code may match a permission
# rule against the command inside (`timeout 5 rm -rf x` against `Bash(rm:*)`); `summarizer run --
# timeout ...` would no longer match it, so a wrapped command is left alone: never weaken a rule.
RUNS_ANOTHER = frozenset(
    {
        "timeout",
        "nice",
        "nohup",
        "time",
        "stdbuf",
        "ionice",
        "sudo",
        "doas",
        "su",
        "runuser",
        "xargs",
        "chrt",
        "taskset",
        "flock",
        "strace",
        "ltrace",
        "unbuffer",
        "setsid",
        "nsenter",
        "chroot",
        "parallel",
        "watch",
        "caffeinate",
    }
)
SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "fish", "busybox"})
# Builtins whose effect lives in the shell itself.
STATEFUL = frozenset(
    {
        "cd",
        "pushd",
        "popd",
        "export",
        "unset",
        "source",
        ".",
        "alias",
        "unalias",
        "set",
        "shopt",
        "eval",
        "exec",
        "exit",
        "return",
        "declare",
        "typeset",
        "local",
        "readonly",
        "ulimit",
        "umask",
        "trap",
        "wait",
        "jobs",
        "fg",
        "bg",
        "disown",
        "hash",
        "builtin",
        "read",
        "history",
        "setopt",
    }
)


def exclude_prefixes(env: Mapping[str, str]) -> list[str]:
    """The user's exclude list: one command prefix a line, ``#`` starts a comment."""
    try:
        with open(os.path.join(config_dir(env), EXCLUDE_FILE), encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    return [" ".join(text.split()) for line in lines if (text := line.split("#", 1)[0].strip())]


def _interactive(words: list[str]) -> bool:
    program = os.path.basename(words[0])
    if program in INTERACTIVE or (program in REPLS and len(words) == 1):
        return True
    if program == "git" and len(words) > 1:
        flags = set(words[2:])
        if words[1] in ("add", "checkout", "reset", "restore", "stash") and flags & {"-p", "--patch", "-i"}:
            return True
        if words[1] == "rebase" and flags & {"-i", "--interactive"}:
            return True
        if words[1] == "commit" and not any(f.startswith(_NO_EDITOR) for f in flags):
            return True
    return False


def _on_path(program: str, search_path: str) -> bool:
    if "/" in program:
        return True  # a path: `summarizer run` gives the shell's message if it is not runnable
    for folder in search_path.split(os.pathsep):
        candidate = os.path.join(folder or ".", program)
        if os.access(candidate, os.X_OK) and not os.path.isdir(candidate):
            return True
    return False


def wrap_reason(
    command: str,
    line: CommandLine,
    excludes: list[str],
    background: bool = False,
    search_path: str | None = None,
) -> str | None:
    """Why ``command`` must not be wrapped, or ``None`` when it may be.

    With ``search_path``, every program must be an executable on it: anything else is an alias, a
    function or a builtin of the agent's shell, which a wrapped child would not have.
    """
    if not line.segments:
        return "empty"
    if line.broken:
        return "unbalanced quotes"
    if line.heredoc:
        return "heredoc"
    if background or line.background:
        return "background job"
    for words in line.programs():
        program = os.path.basename(words[0])
        if program in ("summarizer", "rtk"):
            return "already wrapped"
        first_two = " ".join([program, *words[1:2]])
        if program in VERBATIM or first_two in VERBATIM:
            return f"verbatim content ({first_two if first_two in VERBATIM else program})"
        if program in STATEFUL:
            return f"changes the shell's state ({program})"
        if program in RUNS_ANOTHER or (program in SHELLS and len(words) > 1):
            return f"runs another command ({program}): permission rules may judge the command inside"
        if _interactive(words):
            return f"interactive ({program})"
        if search_path is not None and not _on_path(words[0], search_path):
            return f"not a program on PATH ({program}: an alias, function or builtin?)"
        text = " ".join(words)
        for prefix in excludes:
            if text == prefix or text.startswith(prefix + " "):
                return f"in the exclude list ({prefix})"
    return None


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\"'\"'") + "'"


def _executable(env: Mapping[str, str]) -> str:
    """``summarizer`` when the one on PATH is this one, else this one's absolute path."""
    own = os.path.realpath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    for folder in (env.get("PATH") or "").split(os.pathsep):
        candidate = os.path.join(folder or ".", "summarizer")
        if os.access(candidate, os.X_OK) and not os.path.isdir(candidate):
            if own and os.path.realpath(candidate) == own:
                return "summarizer"
            break
    if own and os.path.basename(own) == "summarizer":
        return _quote(own) if any(c in own for c in " '\"$`\\") else own
    return "summarizer"


def rewrite(command: str, line: CommandLine, executable: str = "summarizer") -> str:
    """The command through ``summarizer run``: as argv when it is one simple command, else as a
    shell string (the redirections, pipes and lists then stay inside the wrapped command)."""
    if line.simple:
        return f"{executable} run -- {command.strip()}"
    return f"{executable} run {_quote(command)}"


def answer(
    event: Mapping[str, object], env: Mapping[str, str], executable: str = "summarizer"
) -> dict[str, object] | None:
    """The hook's JSON reply to one ``PreToolUse`` event, or ``None`` to say nothing."""
    if event.get("tool_name") != "Bash":
        return None
    tool_input = event.get("tool_input")
    if not isinstance(tool_input, dict):
        return None
    command = tool_input.get("command")
    if not isinstance(command, str) or not command.strip():
        return None
    line = read_command(command)
    background = bool(tool_input.get("run_in_background"))
    if wrap_reason(command, line, exclude_prefixes(env), background, env.get("PATH") or os.defpath):
        return None
    cwd = event.get("cwd")
    project = env.get("CLAUDE_PROJECT_DIR") or (cwd if isinstance(cwd, str) and cwd else os.getcwd())
    decision = decide(load_rules(project, env), command, line)
    if decision == "deny":
        return None
    output: dict[str, object] = {"hookEventName": "PreToolUse"}
    bypass = event.get("permission_mode") == "bypassPermissions"
    if decision == "ask" or (decision is None and not bypass):
        output["permissionDecision"] = "ask"
        output["permissionDecisionReason"] = "summarizer compresses this command's output; " + (
            "your rules ask before running it" if decision == "ask" else "no rule of yours allows it"
        )
    elif decision == "allow" and not bypass:
        output["permissionDecision"] = "allow"
        output["permissionDecisionReason"] = "your rules allow the original command; output compressed"
    output["updatedInput"] = {**tool_input, "command": rewrite(command, line, executable)}
    return {"hookSpecificOutput": output}


def main(args: list[str]) -> int:
    """Read one event on stdin, print the reply (or nothing); always exit 0."""
    if args:
        sys.stderr.write("summarizer hook claude: takes no arguments; it reads the hook JSON on stdin\n")
        return 2
    try:
        event = fastjson.loads(sys.stdin.buffer.read(1 << 20) if sys.stdin is not None else b"")
        reply = answer(event, os.environ, _executable(os.environ)) if isinstance(event, dict) else None
    except Exception:  # never block the agent's command: say nothing, Claude Code decides alone
        return 0
    if reply is not None:
        sys.stdout.write(fastjson.dumps(reply) + "\n")
    return 0
