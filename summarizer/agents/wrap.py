"""Which parts of a command line go through ``summarizer run``, and the rewritten line.

Each top-level pipeline of a parsed line (:mod:`summarizer.agents.shell`) is either wrapped in
place or left exactly as written, so the agent's shell still runs everything else itself: ``cd
src && pytest`` becomes ``cd src && summarizer run -- pytest`` (the ``cd`` still moves the agent's
shell), ``VAR=1 pytest`` becomes ``VAR=1 summarizer run -- pytest``, ``timeout 60 pytest`` becomes
``summarizer run -- timeout 60 pytest``.

A pipeline is wrapped when its first command is worth compressing and everything after the
first ``|`` only trims what is displayed (``head``/``tail`` with a line or byte count:
``summarizer run -- pytest | tail -20``) or copies it (``tee``: the whole pipeline goes in, so the
file still gets the full output). A pipe that computes from the output (``grep -c``, ``wc -l``,
``jq``, ``sort | uniq -c``) is left alone: compressing before it would change its answer.

Never wrapped: content to read verbatim (``cat``, ``head``, ``git diff``, ``git log -p``, ``jq``:
compressing a file the agent reads would corrupt its view; the listings and searches among them are wrapped:
``ls``, ``find`` without ``-exec``, ``grep -rn``, ``git diff --stat``, see :func:`lists`),
commands already wrapped, interactive programs, commands that change the shell's state or run a
string as a command (``export``, ``eval``, ``sh -c``, ``sudo``, ``xargs``), words that are no
program on ``PATH`` (aliases, functions), and the user's never-wrap prefixes. Background jobs
leave the whole line alone.
"""

from __future__ import annotations

import os
import sys

from summarizer.agents.paths import config_dir
from summarizer.agents.shell import SHELLS, Line, Opaque, parse, skip_wrappers
from summarizer.rules.raw import raw_requested

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from summarizer.agents.shell import Simple

__all__ = [
    "EXCLUDE_FILE",
    "INTERACTIVE",
    "RUNS_ANOTHER",
    "STATEFUL",
    "VERBATIM",
    "exclude_prefixes",
    "executable",
    "lists",
    "plan",
    "prepare",
    "quote",
    "reads_only",
    "skip_reason",
]

EXCLUDE_FILE = "hook-exclude"


def _words(text: str) -> list[str]:
    """A word list written as words (easier to read and to extend than a column of strings)."""
    return text.split()


# Output that is content the agent asked to read, word for word (first word, or first two words).
VERBATIM = frozenset(
    _words(
        "cat head tail less more bat batcat nl tac sed awk gawk cut jq yq xq xxd od hexdump strings base64"
        " diff cmp grep egrep fgrep rg ag ack echo printf pwd which type realpath readlink stat file wc"
        " curl wget printenv true false test [ ls tree find du df"
    )
) | {
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
# Programs that want a terminal (any arguments), and REPLs (without arguments).
INTERACTIVE = frozenset(
    _words(
        "vim vi nvim nano emacs pico micro man top htop btop watch ssh mosh telnet tmux screen fzf ncdu"
        " mc tig lazygit ranger"
    )
)
REPLS = frozenset(
    _words(
        "python python3 ipython node irb ghci psql mysql sqlite3 redis-cli mongo mongosh bash sh zsh fish"
        " R julia lua"
    )
)
# Programs that run another command given as a string or as their arguments, beyond the plain
# wrappers `summarizer run` can take as they are (timeout, nice, nohup, stdbuf, env).
RUNS_ANOTHER = frozenset(
    _words(
        "sudo doas su runuser xargs chrt taskset flock strace ltrace unbuffer setsid nsenter chroot"
        " parallel watch caffeinate eval exec command builtin time script find"
    )
)
# Builtins whose effect lives in the shell itself.
STATEFUL = frozenset(
    _words(
        "cd pushd popd export unset source . alias unalias set shopt exec exit return declare typeset"
        " local readonly ulimit umask trap wait jobs fg bg disown hash builtin read history setopt"
    )
)
# `cat FILE` of one source file is wrapped as `run --content`: past about 3,000 tokens the agent
# gets its outline (definitions, bodies folded, exact restore ranges), never a log's compression.
SOURCE_SUFFIXES = frozenset(
    _words(
        "py pyi js mjs cjs jsx ts mts cts tsx vue svelte go rs java kt kts scala groovy c h cc cpp cxx hh"
        " hpp hxx m mm cs fs swift rb php pl pm lua ex exs erl hs ml mli clj dart r jl zig nim sh bash zsh"
        " sql proto"
    )
)
_PLAIN_WRAPPERS = frozenset({"timeout", "nice", "nohup", "stdbuf", "env"})
_NO_EDITOR = ("-m", "-F", "--message", "--file", "--no-edit", "-C", "--fixup", "--amend")
_TRIMMERS = frozenset({"head", "tail"})
_FIND_RUNS = frozenset({"-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls"})
_SEARCHERS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack"})
_GIT_STATS = frozenset({"--stat", "--shortstat", "--numstat", "--name-only", "--name-status"})


def quote(text: str) -> str:
    """``text`` as one single-quoted shell word.

    Single quotes are the one shell quoting with no expansion inside, so the rewritten line hands
    ``summarizer run`` exactly the text the agent wrote.
    """
    return "'" + text.replace("'", "'\"'\"'") + "'"


def _commit_opens_editor(flags: list[str]) -> bool:
    for flag in flags:
        if flag.startswith(_NO_EDITOR):
            return False
        if flag.startswith("-") and not flag.startswith("--") and any(c in flag[1:] for c in "mFC"):
            return False  # a bundle such as `-qam` holds -m
    return True


def _interactive(argv: list[str]) -> bool:
    program = os.path.basename(argv[0])
    if program in INTERACTIVE or (program in REPLS and len(argv) == 1):
        return True
    if program == "git" and len(argv) > 1:
        flags = argv[2:]
        bundled = {c for f in flags if f.startswith("-") and not f.startswith("--") for c in f[1:]}
        if argv[1] in ("add", "checkout", "reset", "restore", "stash") and (
            "--patch" in flags or bundled & {"p", "i"}
        ):
            return True
        if argv[1] == "rebase" and ("--interactive" in flags or "i" in bundled):
            return True
        if argv[1] == "commit" and _commit_opens_editor(flags):
            return True
    return False


def on_path(program: str, search_path: str) -> bool:
    """Is ``program`` an executable file (a path, or a name found on ``search_path``)?

    ``summarizer run`` executes the program directly, so an alias, a shell function or a builtin
    (not on ``PATH``) would not run as the agent's shell runs it: such a command is not wrapped.
    """
    if "/" in program:
        return True  # a path: `summarizer run` gives the shell's message if it is not runnable
    for folder in search_path.split(os.pathsep):
        candidate = os.path.join(folder or ".", program)
        if os.access(candidate, os.X_OK) and not os.path.isdir(candidate):
            return True
    return False


def source_cat(cmd: Simple) -> bool:
    """``cat FILE`` of one source file, written plainly: no option, no redirection, no glob."""
    argv = cmd.argv
    if len(argv) != 2 or argv[0] != "cat" or cmd.redirects or cmd.assigns:
        return False
    path = argv[1]
    plain = path[:1] not in ("-", "") and all(c.isalnum() or c in "._/-+@~" for c in path)
    return plain and path.rpartition(".")[2].lower() in SOURCE_SUFFIXES and "/" not in path.rpartition(".")[2]


_GIT_PATCHES = ("-p", "-u", "--patch", "--patch-with-stat", "--patch-with-raw", "--unified", "-U", "--cc")


def shows_patches(argv: list[str]) -> bool:
    """``git log -p`` (``--patch``, ``-u``, ``-U3``...): commits with their diffs are content to read,
    like ``git show`` and ``git diff``."""
    if os.path.basename(argv[0]) != "git" or argv[1:2] != ["log"]:
        return False
    for arg in argv[2:]:
        if arg == "--":
            break
        if arg.startswith(_GIT_PATCHES):
            return True
        if arg[:1] == "-" and arg[1:2] != "-" and arg[1:2].isalpha() and "p" in arg[1:]:
            return True  # a bundle such as -pw
    return False


def lists(argv: list[str]) -> bool:
    """True for a command that prints a listing or search hits, not content: ``ls``, ``du``,
    ``find`` without ``-exec``, ``git ls-files``, ``grep``/``rg`` with line numbers, ``git show`` or
    ``git diff`` with ``--stat``. Their compact forms keep every name, path and line number
    (docs/tool-output.md)."""
    program = os.path.basename(argv[0])
    args = argv[1:]
    if program in ("ls", "du"):
        return True
    if program == "find":
        return not any(a in _FIND_RUNS for a in args)
    if program in _SEARCHERS:
        return any(a == "--line-number" or (a[:1] == "-" and a[1:2] != "-" and "n" in a[1:]) for a in args)
    if program == "git" and args:
        if args[0] == "ls-files":
            return True
        return args[0] in ("show", "diff") and any(a in _GIT_STATS for a in args[1:])
    return False


def reads_only(line: Line) -> bool:
    """Does every command the line can run only read (``cat`` of a file, a listing, a search, a
    verbatim reader), apart from moving between folders?

    Claude Code runs such commands without asking; a rewrite it has no rule for would be asked
    about on every ``cat`` and ``ls``, so the hook leaves these lines alone unless a rule allows them
    (or under ``bypassPermissions``)."""
    for cmd in line.commands:
        argv = cmd.argv
        if not argv or argv[0] in ("cd", "pushd", "popd"):
            continue
        program = os.path.basename(argv[0])
        if not (source_cat(cmd) or lists(argv) or program in VERBATIM or " ".join(argv[:2]) in VERBATIM):
            return False
    return True


def skip_reason(cmd: Simple, excludes: list[str], search_path: str | None) -> str | None:
    """Why ``cmd`` (one simple command) is not wrapped, or ``None`` when it may be."""
    argv = cmd.argv
    if not argv:
        return "only assignments"
    inner = argv
    if os.path.basename(argv[0]) in _PLAIN_WRAPPERS:
        k = skip_wrappers(argv)
        if any(os.path.basename(w) in ("command", "exec", "time") for w in argv[:k]):
            return "runs another command (a shell builtin as a wrapper)"
        inner = argv[k:]
    if not inner:
        return "a wrapper without a command"
    program = os.path.basename(inner[0])
    first_two = " ".join([program, *inner[1:2]])
    if program in ("summarizer", "rtk"):
        return "already wrapped"
    if (program in VERBATIM or first_two in VERBATIM) and not source_cat(cmd) and not lists(inner):
        return f"verbatim content ({first_two if first_two in VERBATIM else program})"
    if shows_patches(inner):
        return "verbatim content (git log with patches)"
    if program in STATEFUL:
        return f"changes the shell's state ({program})"
    if (
        (program in RUNS_ANOTHER and not lists(inner))
        or (program in SHELLS and len(inner) > 1)
        or program in _PLAIN_WRAPPERS
    ):
        return f"runs another command ({program})"
    if _interactive(inner):
        return f"interactive ({program})"
    if search_path is not None and not all(on_path(w, search_path) for w in (argv[0], inner[0])):
        return f"not a program on PATH ({program}: an alias, function or builtin?)"
    text = " ".join(argv)
    inner_text = " ".join(inner)
    for prefix in excludes:
        if any(t == prefix or t.startswith(prefix + " ") for t in (text, inner_text)):
            return f"in the never-wrap list ({prefix})"
    return None


def _trimmer(cmd: Simple) -> bool:
    """``head``/``tail`` showing part of their input, with nothing but a count."""
    argv = cmd.argv
    if not argv or argv[0] not in _TRIMMERS or cmd.redirects or cmd.assigns:
        return False
    rest = argv[1:]
    i = 0
    while i < len(rest):
        arg = rest[i]
        if arg in ("-n", "-c") and i + 1 < len(rest) and rest[i + 1].lstrip("+-").isdigit():
            i += 2
            continue
        if (arg[:1] == "-" and arg[1:].isdigit()) or (
            arg.startswith(("--lines=", "--bytes=", "-n", "-c"))
            and arg.split("=")[-1].lstrip("-n+c").isdigit()
        ):
            i += 1
            continue
        return False  # a file, -f/--follow, or anything else
    return True


def _tee(cmd: Simple) -> bool:
    return bool(cmd.argv) and cmd.argv[0] == "tee" and not cmd.redirects and not cmd.assigns


def _wrapped(src: str, cmd: Simple, executable: str, piped: str = "") -> str:
    """One simple command through ``summarizer run``: argv form, or a shell string with redirections.

    ``piped`` names the display trimmer after it (``tail -20``): ``run --piped-into`` records it, so
    ``gain`` credits only what was cut from what the trimmer would have shown.
    """
    run = f"{executable} run" + (f" --piped-into {quote(piped)}" if piped else "")
    if source_cat(cmd):
        run += " --content"
    if cmd.redirects:
        return f"{run} {quote(src[cmd.start : cmd.end])}"
    words = src[cmd.words[0].start : cmd.words[-1].end]
    if cmd.assigns:
        return f"{src[cmd.assigns[0].start : cmd.assigns[-1].end]} {run} -- {words}"
    return f"{run} -- {words}"


def plan(
    line: Line, excludes: list[str], search_path: str | None, executable: str = "summarizer"
) -> tuple[str | None, str]:
    """(the rewritten line, or ``None``; why not / what was wrapped)."""
    if line.background:
        return None, "background job"
    src = line.source
    edits: list[tuple[int, int, str]] = []
    reasons: list[str] = []
    for pipeline in line.pipelines:
        first, rest = pipeline.commands[0], pipeline.commands[1:]
        reason = skip_reason(first, excludes, search_path)
        if reason is None and rest and not all(_trimmer(c) for c in rest) and not all(_tee(c) for c in rest):
            reason = "a pipe that computes from the output"
        if reason is None and rest and source_cat(first):
            reason = "verbatim content (cat, piped on)"
        if reason is not None:
            reasons.append(reason)
            continue
        if rest and all(_tee(c) for c in rest):
            start, end = first.start, rest[-1].end
            edits.append((start, end, f"{executable} run {quote(src[start:end])}"))
        else:
            piped = " | ".join(" ".join(c.argv) for c in rest)
            edits.append((first.start, first.end, _wrapped(src, first, executable, piped)))
    if not edits:
        return None, "; ".join(dict.fromkeys(reasons)) or "nothing to wrap"
    out = src
    for start, end, text in sorted(edits, reverse=True):
        out = out[:start] + text + out[end:]
    return out.strip(), "wrapped"


def exclude_prefixes(env: Mapping[str, str], project_dir: str | None = None) -> list[str]:
    """Never-wrap command prefixes: the user's ``hook-exclude`` file (one a line, ``#`` comments),
    then the ``[[never_wrap]]`` rules of the project's and the user's ``rules.toml``."""
    from summarizer.rules.files import never_wrap_prefixes

    try:
        with open(os.path.join(config_dir(env), EXCLUDE_FILE), encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except (OSError, UnicodeDecodeError):
        lines = []
    listed = [" ".join(text.split()) for line in lines if (text := line.split("#", 1)[0].strip())]
    return listed + never_wrap_prefixes(env, project_dir or os.getcwd())


def executable(env: Mapping[str, str]) -> str:
    """``summarizer`` when the one on PATH is this one, else this one's absolute path.

    The short name keeps the rewritten line readable for the agent and the user; the path keeps
    it running this installation when another ``summarizer`` comes first on ``PATH``.
    """
    own = os.path.realpath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    for folder in (env.get("PATH") or "").split(os.pathsep):
        candidate = os.path.join(folder or ".", "summarizer")
        if os.access(candidate, os.X_OK) and not os.path.isdir(candidate):
            if own and os.path.realpath(candidate) == own:
                return "summarizer"
            break
    if own and os.path.basename(own) == "summarizer":
        return quote(own) if any(c in own for c in " '\"$`\\") else own
    return "summarizer"


def prepare(
    command: object, env: Mapping[str, str], project_dir: str, exe: str = "summarizer"
) -> tuple[Line, str] | None:
    """The parsed line and its rewrite, or ``None`` when nothing in it is to be wrapped."""
    if not isinstance(command, str) or not command.strip() or raw_requested(env):
        return None  # SUMMARIZER_RAW=1: the session asked for untouched output
    try:
        line = parse(command)
    except Opaque:
        return None
    rewritten, _ = plan(line, exclude_prefixes(env, project_dir), env.get("PATH") or os.defpath, exe)
    return (line, rewritten) if rewritten is not None else None
