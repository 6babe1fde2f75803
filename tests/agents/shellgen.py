"""A generator of Bash command lines that knows every command each line runs.

Each generated line comes with the ground truth the oracle needs: the simple commands it can run
(top-level and nested in substitutions, ``eval``, ``sh -c`` strings, functions, heredocs), each as
the words Claude Code's rules are matched against. The truth is built alongside the text, never
read back from it, so the hook's parser is checked against something it did not produce.
``SEED`` makes a run repeatable; ``evals/fuzz_hook.py`` runs the large count.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

SEED = 20261202

PROGRAMS: list[list[str]] = [
    ["pytest", "-x"],
    ["npm", "test"],
    ["make"],
    ["make", "deploy"],
    ["rm", "-rf", "build"],
    ["git", "push", "--force"],
    ["git", "status"],
    ["cargo", "build"],
    ["curl", "http://example.com"],
    ["ls", "-la"],
    ["cat", "notes.txt"],
    ["echo", "hi"],
    ["date"],
]
RULE_POOL = [
    "rm:*",
    "rm -rf *",
    "rm *",
    "git push:*",
    "git push --force",
    "git *",
    "* --force",
    "pytest:*",
    "pytest *",
    "npm test:*",
    "npm:*",
    "make",
    "make:*",
    "make *",
    "*",
    "curl:*",
    "bash:*",
    "sh:*",
    "eval:*",
    "cat:*",
    "echo *",
    "date",
    "timeout:*",
    "cargo build",
    "tail:*",
    "tee:*",
    "f",
    "summarizer:*",
]
MODES = ("default", "acceptEdits", "plan", "bypassPermissions", "dontAsk")
WRAPPERS = [["timeout", "5"], ["nice", "-n", "5"], ["nohup"], ["env", "A=1"]]


@dataclass
class Cmd:
    """One command the line runs: its assignments, its words (wrappers included), its wrapper count."""

    assigns: list[str]
    words: list[str]
    wrapped: int = 0  # how many leading words are wrappers (`timeout 5`)
    nested: bool = False

    @property
    def text(self) -> str:
        return " ".join(self.assigns + self.words)


@dataclass
class Gen:
    """A command line and the commands it runs."""

    text: str
    cmds: list[Cmd] = field(default_factory=list)


def _quote_word(rng: random.Random, word: str) -> str:
    style = rng.random()
    if style < 0.6 and " " not in word:
        return word
    if style < 0.8:
        return "'" + word + "'"
    return '"' + word + '"'


def _plain(rng: random.Random, nested: bool) -> Gen:
    """A simple command without substitutions (quoting varies)."""
    words = list(rng.choice(PROGRAMS))
    assigns: list[str] = []
    wrapped = 0
    roll = rng.random()
    if roll < 0.12:
        assigns = ["VAR=1"]
    elif roll < 0.22:
        wrapper = rng.choice(WRAPPERS)
        wrapped = len(wrapper)
        words = wrapper + words
    text = " ".join(assigns + [_quote_word(rng, w) for w in words])
    return Gen(text, [Cmd(assigns, words, wrapped, nested)])


def _substitution(rng: random.Random, inner: Gen) -> tuple[str, str, bool]:
    """(the word as typed, its text as rules see it, does it run ``inner``)."""
    body = inner.text
    forms = [
        (f"$({body})", f"$({body})", True),
        (f'"$({body})"', f"$({body})", True),
        (f"`{body}`", f"`{body}`", True),
        (f'"`{body}`"', f"`{body}`", True),
        (f'"${{X:-$({body})}}"', f"${{X:-$({body})}}", True),
        (f"${{X:-$({body})}}", f"${{X:-$({body})}}", True),
        (f"<({body})", f"<({body})", True),
        (f">({body})", f">({body})", True),
        ("'$(" + body.replace("'", "") + ")'", "$(" + body.replace("'", "") + ")", False),
        ('"\\$(' + body.replace('"', "") + ')"', "$(" + body.replace('"', "") + ")", False),
    ]
    return rng.choice(forms)


def _with_inner(rng: random.Random, nested: bool, depth: int) -> Gen:
    """A command holding another one: substitution, here-string, eval, sh -c, function, compound."""
    inner = _command(rng, nested=True, depth=depth + 1)
    outer = _plain(rng, nested)
    kind = rng.random()
    if kind < 0.55:
        typed, seen, runs = _substitution(rng, inner)
        outer.text += " " + typed
        outer.cmds[0].words.append(seen)
        return Gen(outer.text, outer.cmds + (inner.cmds if runs else []))
    simple = _plain(rng, True)
    body = " ".join(simple.cmds[0].assigns + simple.cmds[0].words)
    if kind < 0.65:
        return Gen(f'cat <<< "$({inner.text})"', [Cmd([], ["cat"], 0, nested), *inner.cmds])
    if kind < 0.75:
        quote = rng.choice(["'", '"'])
        return Gen(f"eval {quote}{body}{quote}", [Cmd([], ["eval", body], 0, nested), *simple.cmds])
    if kind < 0.85:
        shell, quote = rng.choice(["sh", "bash"]), rng.choice(["'", '"'])
        flag = rng.choice(["-c", "-lc", "-o pipefail -c"])
        words = [shell, *flag.split(), body]
        return Gen(f"{shell} {flag} {quote}{body}{quote}", [Cmd([], words, 0, nested), *simple.cmds])
    if kind < 0.9:
        return Gen(f"f() {{ {inner.text}; }}; f", [*inner.cmds, Cmd([], ["f"], 0, nested)])
    if kind < 0.95:
        opener = rng.choice(["( {} )", "{{ {}; }}", "if true; then {}; fi", "for i in 1; do {}; done"])
        extra = [Cmd([], ["true"], 0, True)] if opener.startswith("if") else []
        return Gen(opener.format(inner.text), [*extra, *inner.cmds])
    return Gen(f"cat <<EOF\n$({inner.text})\nEOF", [Cmd([], ["cat"], 0, nested), *inner.cmds])


def _command(rng: random.Random, nested: bool, depth: int) -> Gen:
    if depth < 2 and rng.random() < 0.35:
        return _with_inner(rng, nested, depth)
    return _plain(rng, nested)


def _pipeline(rng: random.Random) -> Gen:
    first = _command(rng, nested=False, depth=0)
    roll = rng.random()
    if roll < 0.15:
        first.text += rng.choice([" 2>&1", " > out.txt", " 2>/dev/null"])
    if roll > 0.7:
        stage = rng.choice(
            [["tail", "-5"], ["head", "-n", "3"], ["grep", "-c", "x"], ["wc", "-l"], ["tee", "log"]]
        )
        first = Gen(first.text + " | " + " ".join(stage), [*first.cmds, Cmd([], stage)])
    return first


def line(rng: random.Random) -> Gen:
    """One generated command line."""
    parts = [_pipeline(rng) for _ in range(rng.choice([1, 1, 2, 3]))]
    text = parts[0].text
    for part in parts[1:]:
        text += rng.choice([" && ", " || ", "; ", "\n"]) + part.text
    roll = rng.random()
    if roll < 0.04:
        text += " &"
    elif roll < 0.08:
        text += " # $(rm -rf build)"
    return Gen(text, [c for p in parts for c in p.cmds])


def rules(rng: random.Random) -> dict[str, list[str]]:
    """A random Claude Code rule set: a few patterns in each of deny, ask, allow."""
    out: dict[str, list[str]] = {}
    for kind, most in (("deny", 2), ("ask", 2), ("allow", 4)):
        out[kind] = [f"Bash({p})" for p in rng.sample(RULE_POOL, rng.randint(0, most))]
    if rng.random() < 0.2:
        out["allow"].append("Bash")
    return out
