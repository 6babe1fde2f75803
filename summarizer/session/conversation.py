"""The conversation as the user lived it: whose words count, and which of them still stand.

Extraction reads this model, not the raw events:

* **Only the main thread's user is the user.** A subagent's messages (Claude Code's sidechain
  records, an OpenCode message of another session) arrive as role ``subagent``; compaction
  summaries and tool results are not messages at all (:mod:`.transcript`). None of them can give an
  instruction or make a decision.
* **An instruction is the user's whole sentence group**: the sentence that gives it and the
  sentences right after it that carry it on ("Keep the signatures unchanged. And no mocks in the
  tests: we test against a real SQLite file." is one instruction).
* **A later instruction on the same subject supersedes the earlier one.** The later one says it
  changes something ("actually", "instead", "no longer", "forget", "scratch that", "X, not Y"...)
  and shares the subject's words with the earlier one. The earlier one is dropped and the later one
  carries it as ``(superseded: …)``. A sentence that changes an earlier instruction is an
  instruction itself, whatever its wording ("Scratch that, Postgres it is.").
* **A relaxation narrows the ban it relaxes**: "lodash.throttle is fine" after "no new
  dependencies" replaces the ban with ``lodash.throttle is fine (relaxes: No new dependencies.)``.
* **Decisions follow the same rule**: a later decision, or a later instruction, that changes an
  earlier decision's subject retires it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = [
    "Said",
    "bare",
    "changes",
    "current",
    "group_instructions",
    "is_relaxation",
    "subject_words",
]

_APOSTROPHE = str.maketrans({"’": "'", "‘": "'"})
# A sentence that says it changes what was said before.
_CHANGE = re.compile(
    r"\b(?:actually|instead|no longer|not any ?more|forget|scratch that|changed? (?:my|our) minds?"
    r"|on second thought|never ?mind|let'?s not|after all|switch(?:ing)? (?:to|back|over)"
    r"|replace|drop(?:ping)?|revert(?:ing)? to|correction|rather than|rather\b|ignore what i said"
    r"|disregard|new plan|change of plan|stop using|move away from)\b"
    r"|,\s*not\s+(?!to\b|be\b|a\b|the\b)\w",
    re.IGNORECASE,
)
_RELAX = re.compile(
    r"\b(?:is|are) (?:fine|ok|okay|allowed|acceptable|alright|all right)\b"
    r"|\byou (?:can|may) (?:now )?(?:use|add|touch|edit|change|modify|import|pull in|keep)\b"
    r"|\bfeel free\b|\bgo ahead (?:and|with)\b|\b(?:it'?s|that'?s) fine to\b|\bmake an exception\b",
    re.IGNORECASE,
)
_BAN = re.compile(
    r"\b(?:don'?t|do not|never|no|avoid|without|not allowed|off[- ]limits|must ?n'?t|shouldn'?t)\b",
    re.IGNORECASE,
)
# A sentence that carries the previous one on: same instruction, next sentence.
_CONTINUES = re.compile(
    r"^(?:and|also|plus|but|or|nor|so|because|since|otherwise|same (?:for|goes)|as well|too|except|unless"
    r"|especially|in particular)\b",
    re.IGNORECASE,
)
_DEPENDENCY = re.compile(r"\b(?:dependenc(?:y|ies)|deps|packages?|librar(?:y|ies))\b", re.IGNORECASE)
_PACKAGE_LIKE = re.compile(r"\b[a-z][\w-]*[.-][\w.-]*[a-z0-9]\b")
_TOKEN = re.compile(r"[a-z0-9][a-z0-9_.+#/-]*")
_STOP = frozenset(
    (  # noqa: SIM905 - a word list reads better as one string
        "the and for that this with from have has had was were are not but its into then than them they "
        "you your our out all any can will would should could been being also just use used using one "
        "two via per yet let lets let's don't dont do does did please actually instead longer forget "
        "scratch changed change mind thought never mind after switch switching back over replace drop "
        "dropping revert reverting correction rather ignore said disregard new plan stop move away "
        "keep make want need needs like more any anymore here there now what which when where while "
        "fine okay allowed acceptable alright right sure it's that's is be go going we'll i'll want "
        "always must only still too very much some way thing things stuff it them those these about "
        "add added adding don doesn didn isn aren won shouldn mustn wasn weren haven"
    ).split()
)
_ANNOTATION = re.compile(r"\s*\((?:superseded|relaxes): .*\)$")
_NOTE_CHARS = 100


@dataclass(frozen=True, slots=True)
class Said:
    """One instruction or decision with where it was said (its position in the conversation)."""

    text: str
    at: int
    from_user: bool = True
    # False for a user sentence that counts only if it changes or relaxes an earlier item.
    stands: bool = True


def bare(text: str) -> str:
    """An item without its ``(superseded: …)`` / ``(relaxes: …)`` note."""
    return _ANNOTATION.sub("", text)


def subject_words(text: str) -> set[str]:
    """The words that name what a sentence is about (tools, files, libraries, nouns)."""
    plain = _ANNOTATION.sub("", text).translate(_APOSTROPHE).lower()
    words = {w.strip(".-+#") for token in _TOKEN.findall(plain) for w in token.split("/")}
    return {w for w in words if len(w) >= 3 and w not in _STOP}


def changes(text: str) -> bool:
    """Whether a sentence says it changes something said before."""
    return _CHANGE.search(text.translate(_APOSTROPHE)) is not None


def is_relaxation(text: str) -> bool:
    """Whether a sentence lifts or narrows a restriction ("lodash.throttle is fine")."""
    return _RELAX.search(text.translate(_APOSTROPHE)) is not None and not text.rstrip().endswith("?")


def _overlap(new: str, old: str) -> float:
    """How much of ``old``'s subject ``new`` names (0 when they are not on one subject)."""
    a, b = subject_words(new), subject_words(old)
    shared = a & b
    if not shared or len(shared) * 3 < min(len(a), len(b)):
        return 0.0
    return len(shared) / len(b)


def _relaxed_ban(new: str, earlier: Sequence[Said]) -> Said | None:
    """The ban ``new`` relaxes: the one it shares most words with (the newest of equals), else a
    dependency ban when it names a package ("lodash.throttle is fine" after "no new dependencies")."""
    bans = [s for s in reversed(earlier) if _BAN.search(s.text.translate(_APOSTROPHE))]
    named = subject_words(new)
    best, found = 0, None
    for ban in bans:  # newest first: a tie keeps the newer ban
        if (count := len(named & subject_words(ban.text))) > best:
            best, found = count, ban
    if found is None and (_DEPENDENCY.search(new) or _PACKAGE_LIKE.search(new)):
        found = next((b for b in bans if _DEPENDENCY.search(b.text)), None)
    return found


def group_instructions(
    sentences: Sequence[str], is_instruction: Callable[[str], bool], is_request: Callable[[str], bool]
) -> list[tuple[str, bool]]:
    """One user message's sentences joined into groups: each with whether it is an instruction.

    After an instruction, a sentence that opens with "and", "also", "but"... joins it, and so does
    one that is neither an instruction, a question, a request nor a change of its own (the reason
    or the detail: "Reviewers read them on their phones."). Every other sentence opens a group.
    """
    groups: list[tuple[str, bool]] = []
    for sentence in sentences:
        instruction = is_instruction(sentence)
        carries_on = bool(_CONTINUES.match(sentence)) or not (
            instruction or is_request(sentence) or changes(sentence) or is_relaxation(sentence)
        )
        if groups and groups[-1][1] and carries_on and not sentence.endswith("?"):
            groups[-1] = (f"{groups[-1][0]} {sentence}", True)
            continue
        groups.append((sentence, instruction))
    return groups


def _note(kind: str, old: str) -> str:
    text = _ANNOTATION.sub("", old)
    if len(text) > _NOTE_CHARS:
        text = text[:_NOTE_CHARS].rsplit(" ", 1)[0] + "…"
    return f" ({kind}: {text})"


def current(items: Sequence[Said], *, later: Sequence[Said] = ()) -> list[str]:
    """The items that still stand, in order, each carrying what it superseded or relaxed.

    ``later`` are statements from another list that can retire an item too (the user's instructions
    retire the decisions they change); they are not returned.
    """
    standing: list[Said] = []
    for item in sorted(items, key=lambda s: s.at):
        standing = _apply(standing, item, keep=True)
    for other in sorted(later, key=lambda s: s.at):
        standing = _apply(standing, other, keep=False)
    return [s.text for s in standing]


def _apply(standing: list[Said], new: Said, *, keep: bool) -> list[Said]:
    earlier = [s for s in standing if s.at < new.at]
    if new.from_user and is_relaxation(new.text):
        target = _relaxed_ban(new.text, earlier)
        if target is not None:
            rest = [s for s in standing if s is not target]
            return [*rest, Said(new.text + _note("relaxes", target.text), new.at)] if keep else rest
    if changes(new.text):
        # A change replaces the one earlier item it is most about (the newest of equals).
        scored = [
            (_overlap(new.text, s.text), i) for i, s in enumerate(earlier) if new.from_user or not s.from_user
        ]
        score, index = max(scored, default=(0.0, -1))
        if score > 0:
            gone = earlier[index]
            rest = [s for s in standing if s is not gone]
            if not keep:
                return rest
            return [*rest, Said(new.text + _note("superseded", gone.text), new.at, new.from_user)]
    return [*standing, new] if keep and new.stands else standing
