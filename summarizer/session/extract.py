"""Offline extraction: what a session decided, discovered, broke, finished, changed and left open.

Keyword rules (docs/session.md), applied sentence by sentence to the conversation's own
text, user and assistant messages only. Tool results are never mined: they are raw file contents,
logs and web pages (they are noise, and they are where injected instructions hide).
Each sentence lands in at most one category, checked in the order failures, decisions,
discoveries, progress, open questions, so "we reverted X because it broke Y" is a failure to avoid,
not a decision to repeat. A sentence that opens by pointing back ("That approach failed.") keeps
the sentence before it, and so does a note like "Leave it open." after a question. Files come from
edit/write tool calls and patch headers, not from prose.

Every item is scrubbed of secrets (``summarizer.core.scrub``) before it leaves this module; the
transcript is untrusted data and nothing in it is followed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from summarizer.core.scrub import scrub
from summarizer.session import resume
from summarizer.session.conversation import Said, bare, current
from summarizer.session.files import file_lines
from summarizer.session.transcript import Transcript, tool_kind
from summarizer.session.triggers import is_compression_request, normalise_question

__all__ = ["MAX_ITEM_CHARS", "UNANSWERED", "Extraction", "extract", "normalise_item"]

MAX_ITEM_CHARS = 280
# Instructions and test runs are kept whole where they can be: a cut instruction is a lost one.
_LONG_ITEM_CHARS = 600
_LONG_SECTIONS = {"instructions", "status"}
# The first Open Questions item when the user's last message has no answer yet (kept verbatim).
UNANSWERED = "Unanswered: "

_FAILURE = re.compile(
    r"\b(?:didn'?t work|did not work|doesn'?t work|does not work|didn'?t help|did not help|broke|breaks"
    r"|failed|reverted|reverting|wrong approach|dead end|rolled back|roll back)\b",
    re.IGNORECASE,
)
_DECISION = re.compile(
    r"\b(?:decided|decide to|chose|choose to|going with|go with|let'?s use|let us use|we'?ll use"
    r"|settled on|opted (?:for|to)|we rejected|ruled out|decision(?=\s*:))\b",
    re.IGNORECASE,
)
_DISCOVERY = re.compile(
    r"\b(?:found that|turns out|turned out|discovered|realized|realised|root cause)\b", re.IGNORECASE
)
_PROGRESS = re.compile(r"\b(?:completed|done|finished|merged)\b", re.IGNORECASE)
_OPEN = re.compile(
    r"\b(?:open question|still open|unresolved|still unclear|not sure (?:whether|if|how)|need to decide"
    r"|TBD)\b",
    re.IGNORECASE,
)
# Code, and what Claude Code wraps in tags (reminders, slash-command echoes and their output), is not
# the conversation's prose; other tags are dropped but their text kept.
_NOISE_BLOCKS = re.compile(
    r"```.*?(?:```|\Z)|<(system-reminder|local-command-stdout|local-command-stderr|command-[a-z]+"
    r"|environment_context|user_instructions)>"
    r".*?(?:</\1>|\Z)|<[a-z-]+>|</[a-z-]+>",
    re.DOTALL,
)
# A sentence that opens by pointing back ("That approach failed") means nothing on its own.
_ANAPHORA = re.compile(r"^(?:that|this|it|which|these|those|both)\b", re.IGNORECASE)
# An ellipsis inside a sentence ("SELECT ... FOR UPDATE") does not end it.
_SENTENCE_END = re.compile(r"(?<=[.!?])(?<!\.\.\.)\s+|\n+")
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d+[.)]|#+)\s*")
_MIN_WORDS = 4


@dataclass(frozen=True, slots=True)
class Extraction:
    """The items found in a transcript, one tuple per section, already scrubbed."""

    goal: tuple[str, ...] = ()
    instructions: tuple[str, ...] = ()
    next_steps: tuple[str, ...] = ()
    status: tuple[str, ...] = ()
    context: tuple[str, ...] = ()
    decisions: tuple[str, ...] = ()
    discoveries: tuple[str, ...] = ()
    progress: tuple[str, ...] = ()
    files: tuple[str, ...] = ()
    failures: tuple[str, ...] = ()
    questions: tuple[str, ...] = ()
    redactions: int = 0
    # Instructions and decisions a later one superseded or relaxed: never to be shown as current.
    retired: tuple[str, ...] = ()


def normalise_item(text: str) -> str:
    """The comparison form of an item: case, markdown punctuation and spacing do not matter."""
    return normalise_question(text.replace("`", ""))


def extract(transcript: Transcript, *, extra_instructions: Sequence[str] = ()) -> Extraction:
    """Pull the document's categories, and what resuming needs (:mod:`.resume`), out of ``transcript``.

    ``extra_instructions`` are the user's instructions given outside the transcript (a PreCompact
    hook's ``custom_instructions``); they stand last, after everything the conversation said.
    """
    buckets: dict[str, list[str]] = {k: [] for k in ("discoveries", "progress", "failures", "questions")}
    decided: list[Said] = []
    users: list[tuple[int, list[str]]] = []
    assistants: list[list[str]] = []
    asked: list[str] = []  # the assistant's questions since the user last spoke
    user_asked: list[str] = []  # the user's questions the assistant has not answered yet
    for position, event in enumerate(transcript.events):
        if event.kind != "message" or event.role not in {"user", "assistant"}:
            continue
        sentences = list(_sentences(event.text, min_words=2 if event.role == "user" else _MIN_WORDS))
        if event.role == "user":
            users.append((position, sentences))
        else:
            assistants.append(sentences)
        if event.role == "user" and asked:
            decided.extend(Said(d, position) for d in _settle(asked, sentences, buckets))
        answering = list(user_asked) if event.role == "assistant" else []
        if event.role == "assistant" and user_asked and sentences:
            # The answer the user was given: their question with the reply's first sentence, unless
            # that sentence is kept in its own right (a decision, a discovery...).
            if _classify(sentences[0], "assistant") in {None, "questions"}:
                for question in user_asked:
                    _answer(buckets["discoveries"], question, sentences[0])
            user_asked.clear()
        if event.role == "user":
            user_asked = [
                s for s in sentences if s.endswith("?") and len(s.split()) >= 3 and not resume.is_request(s)
            ]
        previous = ""
        for sentence in sentences:
            category = _classify(sentence, event.role) if len(sentence.split()) >= _MIN_WORDS else None
            if category == "questions" and answering and not sentence.endswith("?"):
                # "I'm not sure whether..." in a reply: what is open is the user's question.
                buckets["questions"].extend(answering)
                continue
            if category == "decisions":
                decided.append(
                    Said(_with_antecedent(sentence, previous, category), position, event.role == "user")
                )
            elif category:
                item = _with_antecedent(sentence, previous, category)
                buckets[category].append(item)
                if category == "questions" and event.role == "assistant" and sentence.endswith("?"):
                    asked.append(item)
            previous = sentence
    said = resume.instructions(users, extra_instructions)
    unanswered = _unanswered(transcript)
    found_goal = resume.goal([s for _, s in users])
    instructions, decisions = current(said), current(decided, later=said)
    standing = " ".join(bare(i) for i in (*instructions, *decisions))
    retired = [s.text for s in (*said, *decided) if s.stands and s.text not in standing]
    raw = {
        "goal": [found_goal] if found_goal else [],
        "instructions": instructions,
        "next_steps": resume.next_steps(transcript, assistants, [s for _, s in users]),
        "status": resume.status(transcript),
        "context": [],
        "decisions": decisions,
        "discoveries": buckets["discoveries"],
        "progress": _todo_progress(transcript) + buckets["progress"],
        "files": file_lines(transcript, lambda text: next(iter(_sentences(text)), ""), _shorten),
        "failures": buckets["failures"],
        "questions": ([f"{UNANSWERED}{unanswered}"] if unanswered else [])
        + [q for q in buckets["questions"] if not unanswered or q not in unanswered],
    }
    return _clean(raw, retired)


def _clean(raw: dict[str, list[str]], retired: list[str]) -> Extraction:
    """Every item scrubbed, bounded and deduplicated within its section."""
    redactions = 0
    clean: dict[str, tuple[str, ...]] = {}
    for name, items in raw.items():
        kept: list[str] = []
        seen: set[str] = set()
        for item in items:
            # JSON may carry lone surrogates ("\ud800"); they cannot be stored as UTF-8.
            safe = item.encode("utf-8", "replace").decode("utf-8")
            limit = (
                _LONG_ITEM_CHARS if name in _LONG_SECTIONS or safe.startswith(UNANSWERED) else MAX_ITEM_CHARS
            )
            text, found = scrub(_shorten(safe, limit))
            redactions += len(found)
            key = normalise_item(text)
            if key and key not in seen:
                seen.add(key)
                kept.append(text)
        clean[name] = tuple(kept)
    gone = tuple(scrub(_shorten(r))[0] for r in retired)
    return Extraction(redactions=redactions, retired=gone, **clean)


def _unanswered(transcript: Transcript) -> str | None:
    """The main thread's last user message when no assistant text followed it, verbatim."""
    for event in reversed(transcript.events):
        if event.kind != "message" or event.role not in {"user", "assistant"}:
            continue
        if event.role == "assistant":
            if any(_sentences(event.text, min_words=1)):
                return None
            continue
        text = " ".join(_NOISE_BLOCKS.sub(" ", event.text).split())
        if not text or text.startswith("[Request interrupted") or is_compression_request(text):
            continue
        return text
    return None


_YES_NO = re.compile(
    r"^(?:yes|yeah|yep|no|nope|sure|ok(?:ay)?|go (?:with|ahead)|do it|use|keep|let'?s|skip"
    r"|please|definitely|not now|leave)\b",
    re.IGNORECASE,
)


def _settle(asked: list[str], reply: list[str], buckets: dict[str, list[str]]) -> list[str]:
    """The user's reply answers the assistant's pending questions: they leave Open Questions.

    A reply answers when it opens like an answer ("Yes", "No", "Go with", "Use", "Let's") or shares
    two content words with the question; the answer is kept as a decision, "Q → A".
    """
    decisions: list[str] = []
    if not reply:
        asked.clear()
        return decisions
    answer = reply[0]
    for question in asked:
        if _YES_NO.match(answer) or len(_content_words(question) & _content_words(" ".join(reply))) >= 2:
            if question in buckets["questions"]:
                buckets["questions"].remove(question)
            decisions.append(f"{question} → {answer}")
    asked.clear()
    return decisions


def _answer(discoveries: list[str], question: str, answer: str) -> None:
    """Keep "Q → A"; a re-asked question ("Sorry, I lost track: does X?") replaces the older answer."""
    key = normalise_question(question)
    for index, item in enumerate(discoveries):
        old, arrow, _ = item.partition(" → ")
        old_key = normalise_question(old)
        if arrow and (old_key in key or key in old_key):
            del discoveries[index]
            break
    discoveries.append(f"{question} → {answer}")


def _content_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9_]{4,}", text.lower()) if w not in _STOP}


_STOP = frozenset(
    (  # noqa: SIM905 - a word list reads better as one string
        "that this with from have what which there their about should would could will shall into "
        "then than them they your just also been were does doing when where while"
    ).split()
)


def _with_antecedent(sentence: str, previous: str, category: str) -> str:
    """Keep what a sentence points back to: "X. That approach failed." or "Q? Leave it open."."""
    if previous and (
        _ANAPHORA.match(sentence)
        or (category == "questions" and previous.endswith("?") and not sentence.endswith("?"))
    ):
        return f"{previous} {sentence}"
    return sentence


def _classify(sentence: str, role: str) -> str | None:
    if _FAILURE.search(sentence):
        return "failures"
    if _DECISION.search(sentence):
        return "decisions"
    if _DISCOVERY.search(sentence):
        return "discoveries"
    if role == "assistant" and _PROGRESS.search(sentence):
        return "progress"
    if _OPEN.search(sentence) or (role == "assistant" and sentence.endswith("?")):
        return "questions"
    return None


def _sentences(text: str, *, min_words: int = _MIN_WORDS) -> Iterable[str]:
    for piece in _SENTENCE_END.split(_NOISE_BLOCKS.sub(" ", text)):
        sentence = " ".join(_BULLET.sub("", piece).split())
        if len(sentence.split()) >= min_words:
            yield sentence


def _shorten(text: str, limit: int = MAX_ITEM_CHARS) -> str:
    """Bound an item's length at a word boundary (extraction, not the token cap, does this)."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def _todo_progress(transcript: Transcript) -> list[str]:
    """The latest to-do snapshot: completed and in-progress tasks."""
    latest: list[object] = []
    for event in transcript.events:
        if event.kind == "tool_call" and tool_kind(event) == "todo":
            todos = event.tool_input.get("todos") or event.tool_input.get("plan")
            if isinstance(todos, list):
                latest = todos
    out: list[str] = []
    for status, label in (("completed", "Completed"), ("in_progress", "In progress")):
        for item in latest:
            if isinstance(item, dict) and item.get("status") == status:
                text = item.get("content") or item.get("step") or item.get("text")
                if isinstance(text, str) and text.strip():
                    out.append(f"{label}: {text.strip()}")
    return out
