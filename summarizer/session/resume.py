"""What an agent needs to resume after compaction: the goal, the user's instructions, the next steps
and the current test/build status, extracted deterministically (no model).

Claude Code's own compaction keeps every user message, the pending tasks and the next step; engram's
``mem_session_summary`` has ``Goal`` and ``Instructions``. These rules recover the same from the
transcript's own words:

* **Goal**: the user's request in one sentence, from the first user message that has one: its first
  sentence that asks for something (an imperative, "can you", "I want", "let's"), with the sentence
  just before it (the problem it answers: "The export times out. Make it stream."), else its first
  sentence.
* **Instructions**: every sentence of a user message that states a constraint, preference or
  prohibition ("don't", "never", "always", "must", "keep it to", "use X not Y", "we ship", "no new
  dependencies", ...), verbatim with the sentences that carry it on, as :mod:`.conversation`
  groups and supersedes them. Questions are not instructions. Only the main thread's user counts:
  the assistant, subagents and the tools cannot give the user's instructions.
* **Next steps**: the pending items of the latest to-do list, then the last stated plan: the plan
  sentences ("next I'll", "then", "still need to", "remaining") of the last assistant message that
  has any, and "next"/"after that" sentences of the last three user messages. A plan sentence the
  assistant took from tool output is not its plan and is dropped: one that says so ("as the tool
  output asked") or that names a command only a tool result holds (``curl … | sh`` from a fetched
  page). Tool output is data; only the user's words and the assistant's own plan count.
* **Status**: the latest run of each test/build/lint command with its counts and failing tests
  (:mod:`.checks`). Tool output is otherwise never mined.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from summarizer.session.checks import status
from summarizer.session.conversation import Said, changes, group_instructions, is_relaxation
from summarizer.session.transcript import Transcript, tool_kind
from summarizer.session.triggers import is_compression_request

__all__ = ["goal", "instructions", "is_instruction", "is_request", "next_steps", "status"]

_APOSTROPHE = str.maketrans({"’": "'", "‘": "'"})
_INSTRUCTION = re.compile(
    r"\b(?:don'?t|do not|doesn'?t need|never|always|must(?:n'?t)?|make sure|be sure to|ensure"
    r"|keep (?:it|this|them|the|everything|all|to)|stick (?:to|with)|prefer|only use|use only"
    r"|instead of|rather than|(?:use|with|on) [\w.+#/ -]{1,40}?,? not\b|avoid"
    r"|no (?:new |extra |external |third[- ]party )"
    r"(?:dependenc(?:y|ies)|librar(?:y|ies)|packages?|deps|changes?|migrations?)"
    r"|without (?:adding|changing|touching|breaking|pulling|new)|we ship"
    r"|we (?:target|support|deploy|run on|are on|use)"
    r"|should(?:n'?t| not)? (?:be|use|stay|keep|go|live|touch|change)"
    r"|please (?:don'?t|do not|keep|use|leave)|has to|have to|needs? to (?:stay|be|keep)"
    r"|leave (?:the|them|this)|stay(?:s)? (?:on|under|within|compatible|below)|under no circumstances"
    r"|is off[- ]limits|not allowed|no more than|at most|at least)\b",
    re.IGNORECASE,
)
# A user sentence that opens by prescribing a tool or method: "Use fsync and write the offset first."
_DIRECTIVE = re.compile(
    r"(?:^|[;:]\s*)(?:please\s+)?(?:use|only use|always use|stick with|go with|store|deploy|host|ship"
    r"|log with|keep|put|place|target|name|prefix|serve|run)\b",
    re.IGNORECASE,
)
_REQUEST = re.compile(
    r"^(?:please\b|pls\b|can you\b|could you\b|would you\b|let'?s\b|i (?:want|need|would like|'d like)\b"
    r"|help me\b|we need to\b|i need you to\b|your task\b|task:|goal:|(?:add|fix|implement|make|write|create"
    r"|refactor|update|migrate|investigate|debug|find|remove|rename|move|port|build|set up|figure out"
    r"|replace|speed up|upgrade|switch|wire|support|convert|split|extract|clean up|document|profile|reduce"
    r"|track down|get)\b)",
    re.IGNORECASE,
)
_PLAN = re.compile(
    r"\b(?:next(?:,|:| step| up| i'?ll| we\b| i will| i need| is\b)|i'?ll\b|i will\b|then i\b|after that"
    r"|afterwards|remaining|still (?:need|have) to|left to do|todo\b|to-do\b|plan(?: is)?:|follow[- ]up"
    r"|going to|will then|once that)",
    re.IGNORECASE,
)
_USER_NEXT = re.compile(
    r"^then\b|\b(?:next|after (?:that|this)|afterwards|later|follow[- ]up|tomorrow)\b", re.IGNORECASE
)


def _plain(text: str) -> str:
    return text.translate(_APOSTROPHE)


def is_instruction(sentence: str) -> bool:
    """True when a user's sentence states a constraint, preference or prohibition."""
    if sentence.rstrip().endswith("?"):
        return False
    plain = _plain(sentence)
    return _INSTRUCTION.search(plain) is not None or _DIRECTIVE.search(plain) is not None


def is_request(sentence: str) -> bool:
    """True when a user's sentence asks for work ("Can you fix...", "Add...") rather than a fact."""
    return _REQUEST.match(_plain(sentence)) is not None


def goal(user_messages: Sequence[Sequence[str]]) -> str | None:
    """The user's request in one sentence (see the module docstring); ``user_messages`` are sentences."""
    for all_sentences in user_messages:
        # "compress context" asks for this very compression: it is nobody's goal.
        sentences = [s for s in all_sentences if not is_compression_request(s)]
        if not sentences:
            continue
        index = next((i for i, s in enumerate(sentences) if _REQUEST.match(_plain(s)) or s.endswith("?")), 0)
        # "The refresh test is flaky on CI. Can you find out why?": the request keeps the problem it
        # answers, the sentence just before it, when both fit in one item.
        if index > 0 and len(sentences[index - 1]) + len(sentences[index]) < 280:
            return f"{sentences[index - 1]} {sentences[index]}"
        return sentences[index]
    return None


def instructions(user_messages: Sequence[tuple[int, Sequence[str]]], extra: Sequence[str] = ()) -> list[Said]:
    """The user's instruction groups with where they were said (see :mod:`.conversation`).

    ``user_messages`` are ``(position, sentences)``; a sentence group that changes or relaxes an
    earlier instruction is a candidate even without an instruction's wording. ``extra`` are
    instructions given outside the conversation (a PreCompact hook's ``custom_instructions``),
    said after everything else.
    """
    out: list[Said] = []
    for position, sentences in user_messages:
        for text, instruction in group_instructions(sentences, is_instruction, is_request):
            if instruction or (not text.endswith("?") and (changes(text) or is_relaxation(text))):
                out.append(Said(text, position, stands=instruction))
    end = max((p for p, _ in user_messages), default=0) + 1
    out.extend(Said(" ".join(text.split()), end + i) for i, text in enumerate(extra) if text.strip())
    return out


def next_steps(
    transcript: Transcript,
    assistant_messages: Sequence[Sequence[str]],
    user_messages: Sequence[Sequence[str]],
) -> list[str]:
    """Pending to-do items, then the last stated plan (see the module docstring)."""
    out = [f"Next: {text}" for status_, text in _latest_todos(transcript) if status_ == "pending"]
    taken = _from_tool_output(transcript, user_messages)
    for sentences in reversed(assistant_messages[-3:]):  # an old plan is not the last stated one
        plan = [s for s in sentences if _PLAN.search(_plain(s)) and not s.endswith("?") and not taken(s)]
        if plan:
            out.extend(plan)
            break
    for sentences in user_messages[-3:]:
        out.extend(
            s for s in sentences if _USER_NEXT.search(s) and not s.endswith("?") and not is_instruction(s)
        )
    return out


# An assistant sentence that says where its step came from: tool output is data, never orders.
_LAUNDERED = re.compile(
    r"\b(?:as|like|because|since) (?:the |that |this )?(?:tool(?:'s)?(?: call)?|command(?:'s)?|build|test)?"
    r" ?(?:output|result|log|response|error(?: message)?|page|readme|file|docs?|instructions?)s?"
    r" (?:asked|asks|says|said|instructs?|instructed|requests?|requested|told|tells|wants?|wanted|suggests?"
    r"|suggested|directs?|directed|demands?|demanded)\b"
    r"|\b(?:the )?(?:tool|command) (?:output|result)s? (?:asked|asks|told|tells|instructed|wants?)"
    r" (?:me|us)\b"
    r"|\b(?:per|following) (?:the )?(?:tool(?:'s)? )?(?:output|result)(?:'s)? instructions?\b",
    re.IGNORECASE,
)
# A command in an assistant sentence: in backticks, or a shell pipeline into an interpreter.
_COMMAND = re.compile(
    r"`([^`\n]{4,})`|\b((?:curl|wget|bash|sh|sudo|rm|chmod|nc|python3?|pip|npm|npx)\b[^.;!?\n]*)",
    re.IGNORECASE,
)


def _squash(text: str) -> str:
    return " ".join(text.split()).lower()


def _from_tool_output(
    transcript: Transcript, user_messages: Sequence[Sequence[str]]
) -> Callable[[str], bool]:
    """A test for plan sentences the assistant took from tool output: it says so ("as the tool output
    asked"), or it names a command that only a tool result holds (not the user, not a call the
    assistant made). Such a sentence is not the assistant's own plan and is never saved as a step.
    """
    results = " ".join(_squash(e.text) for e in transcript.events if e.kind == "tool_result")
    user = " ".join(_squash(s) for sentences in user_messages for s in sentences)

    def taken(sentence: str) -> bool:
        if _LAUNDERED.search(_plain(sentence)):
            return True
        for m in _COMMAND.finditer(sentence):
            command = _squash(m.group(1) or m.group(2)).rstrip(" ,:")
            if len(command) >= 8 and command in results and command not in user:
                return True
        return False

    return taken


def _latest_todos(transcript: Transcript) -> list[tuple[str, str]]:
    latest: list[Any] = []
    for event in transcript.events:
        if event.kind == "tool_call" and tool_kind(event) == "todo":
            todos = event.tool_input.get("todos") or event.tool_input.get("plan")
            if isinstance(todos, list):
                latest = todos
    out = []
    for item in latest:
        if isinstance(item, dict):
            text = item.get("content") or item.get("step") or item.get("text")
            if isinstance(text, str) and text.strip():
                out.append((str(item.get("status") or "pending"), text.strip()))
    return out
