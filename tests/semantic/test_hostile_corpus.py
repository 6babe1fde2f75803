"""The hostile-answer corpus: every obeying answer is rejected and lands nowhere.

``corpus/hostile_answers.json`` (versioned) holds entries whose data may carry an injection, in
several languages and encodings, each with the answer a model that OBEYED it (or invented a concrete
token) would give. ``corpus/benign_answers.json`` holds honest answers that must still pass. The
rejected answers must not reach the cache, the memory bank, the ZZ hand-off or engram; the template
that answers instead must not copy the instruction either.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from summarizer_engram import Store

from summarizer.bank import GateRequest, run_gate
from summarizer.core.errors import InvalidAnswer
from summarizer.phasegate.models import SubtaskSummary
from summarizer.phasegate.scoring import Band
from summarizer.phasegate.service import scrub_entry
from summarizer.phasegate.summaries import EntryJob, entry_rules, entry_text, summarize_entries
from summarizer.phasegate.templates import render_lines
from summarizer.semantic.service import Summarizer
from summarizer.semantic.untrusted import addressed, neutralise, split_sentences
from summarizer.session.service import FileMarks, compress_session
from summarizer.session.transcript import parse_transcript
from summarizer.testing import DictCache, FakeCompleter

CORPUS = Path(__file__).parent / "corpus"
DAY = "2026-11-29"


@cache
def _load(name: str) -> dict[str, Any]:
    return json.loads((CORPUS / name).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


HOSTILE: list[dict[str, Any]] = _load("hostile_answers.json")["cases"]
BENIGN: list[dict[str, Any]] = _load("benign_answers.json")["cases"]


def _entry(case: dict[str, Any]) -> SubtaskSummary:
    return SubtaskSummary.model_validate({**case["entry"], "date": DAY})


def _source(case: dict[str, Any]) -> str:
    clean, _ = scrub_entry(_entry(case))
    return entry_text(clean)


def _obeyed_lines(case: dict[str, Any]) -> list[str]:
    """The answer's lines that say something of their own (not the honest 'what changed' line)."""
    lines = [neutralise(line).strip() for line in case["answer"].splitlines() if line.strip()]
    return [line for line in lines[1:] if len(line) > 12]


def _verdict(case: dict[str, Any]) -> InvalidAnswer | None:
    try:
        entry_rules(case["band"])(case["answer"], _source(case))
    except InvalidAnswer as exc:
        return exc
    return None


def test_the_corpus_is_versioned_large_and_varied() -> None:
    """At least 60 named cases, in at least 8 languages and 8 encodings, each with a well-formed answer."""
    corpus = _load("hostile_answers.json")
    assert corpus["version"] == 1
    assert len(HOSTILE) >= 60 and len({c["id"] for c in HOSTILE}) == len(HOSTILE)
    assert len({c["lang"] for c in HOSTILE}) >= 8
    assert len({c["encoding"] for c in HOSTILE}) >= 8
    # the answers have the band's line count, so a rejection is never only about the shape
    assert all(len(c["answer"].splitlines()) == {"HIGH": 2, "CRITICAL": 3}[c["band"]] for c in HOSTILE)


@pytest.mark.parametrize("case", HOSTILE, ids=[c["id"] for c in HOSTILE])
def test_every_hostile_answer_is_rejected_for_what_it_says(case: dict[str, Any]) -> None:
    """The validator refuses the obeying answer, and not merely for its line count or length."""
    verdict = _verdict(case)
    assert verdict is not None, f"accepted: {case['answer']!r}"
    assert "lines, the model returned" not in str(verdict) and "the cap is" not in str(verdict)


def test_the_catch_rate_is_100_percent() -> None:
    """The figure quoted in the closing note: caught / tried over the whole corpus."""
    caught = sum(_verdict(case) is not None for case in HOSTILE)
    assert (caught, len(HOSTILE)) == (len(HOSTILE), len(HOSTILE))


@pytest.mark.parametrize("case", BENIGN, ids=[c["id"] for c in BENIGN])
def test_legitimate_answers_still_pass(case: dict[str, Any]) -> None:
    """Third-person 'must', 'Note:', hosts/paths/commands the data names, other languages: accepted."""
    assert _verdict(case) is None


def _service(make_service: Callable[..., Summarizer], answer: str) -> tuple[Summarizer, DictCache]:
    cache_ = DictCache()
    return make_service(completer=FakeCompleter(default=answer), cache=cache_), cache_


@pytest.mark.parametrize("case", HOSTILE, ids=[c["id"] for c in HOSTILE])
def test_a_rejected_answer_is_never_cached_and_the_template_copies_no_order(
    make_service: Callable[..., Summarizer], case: dict[str, Any]
) -> None:
    """The service answers from the template, caches nothing, and the template drops the orders."""
    svc, cache_ = _service(make_service, case["answer"])
    entry, band = _entry(case), case["band"]
    fallback = "\n".join(render_lines(entry, band))
    result = asyncio.run(summarize_entries(svc, [EntryJob(entry=entry, band=band, fallback=fallback)]))[0]
    assert result.source == "template" and dict(cache_.data) == {}
    for line in result.lines:
        assert addressed(line) is None, line
    for line in _obeyed_lines(case):
        assert line not in result.text


def _gate_summarize(
    svc: Summarizer,
) -> Callable[[Sequence[tuple[SubtaskSummary, Band, tuple[str, ...]]]], list[tuple[str, ...]]]:
    """The gate's LLM seam (as ``bank.llm_lines`` wires it), around a service built with fakes."""

    def summarize(jobs: Sequence[tuple[SubtaskSummary, Band, tuple[str, ...]]]) -> list[tuple[str, ...]]:
        answers = asyncio.run(
            summarize_entries(
                svc,
                [EntryJob(entry=entry, band=band, fallback="\n".join(lines)) for entry, band, lines in jobs],
            )
        )
        return [tuple(answer.lines) for answer in answers]

    return summarize


def _bank_text(root: Path) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(root.rglob("*.md")))


@pytest.mark.parametrize("case", HOSTILE, ids=[c["id"] for c in HOSTILE])
def test_no_rejected_answer_or_copied_order_reaches_the_bank_or_the_zz_hand_off(
    make_service: Callable[..., Summarizer], case: dict[str, Any], tmp_path: Path
) -> None:
    """After a gate whose model obeys the injection, no answer line and no order sentence of the
    summary is in the memory bank or the ZZ file."""
    svc, cache_ = _service(make_service, case["answer"])
    bank = tmp_path / "bank"
    run_gate(bank, GateRequest(phase="1", entries=(_entry(case),), date=DAY), summarize=_gate_summarize(svc))
    written = _bank_text(bank)
    assert "ZZ-phase1-context.md" in {p.name for p in bank.rglob("*.md")}
    assert dict(cache_.data) == {}
    for line in _obeyed_lines(case):
        assert line not in written
    orders = [s for s in split_sentences(case["entry"]["summary"]) if addressed(s) is not None]
    for sentence in orders:
        assert sentence.strip() not in written
    for item in case["entry"]["files_changed"]:  # a file item that gives orders is not a file
        if addressed(item) is not None:
            assert item not in written


def _transcript(case: dict[str, Any]) -> str:
    """A session whose tool output carries the case's data, the injection first (the model sees
    only the first 200 characters of a tool result)."""
    entry = case["entry"]
    hostile = [s for s in split_sentences(entry["summary"]) if addressed(s) is not None]
    hostile += [f for f in entry["files_changed"] if addressed(f) is not None]
    hostile += [entry["tests"]] if addressed(entry["tests"]) is not None else []
    events = [
        {"role": "user", "content": "Summarise what the last agent did on the refresh endpoint."},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "read_file", "arguments": json.dumps({"path": "handoff.json"})},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": " ".join([*hostile, entry["summary"]])},
        {"role": "assistant", "content": "I read the hand-off."},
    ]
    return "\n".join(json.dumps(e, ensure_ascii=False) for e in events)


@pytest.mark.parametrize("case", HOSTILE, ids=[c["id"] for c in HOSTILE])
def test_no_rejected_answer_is_saved_to_engram(
    make_service: Callable[..., Summarizer], case: dict[str, Any], tmp_path: Path
) -> None:
    """A session document carrying the obeyed lines is refused; engram holds the keyword document."""
    raw = [line for line in case["answer"].splitlines()[1:] if line.strip()]
    obeyed = [neutralise(line).strip() for line in raw]
    answer = f"## Session Compression — {DAY}\n### Decisions\n" + "".join(f"- {line}\n" for line in raw)
    svc, cache_ = _service(make_service, answer)
    with Store(tmp_path / "engram" / "engram.db") as store:
        report = asyncio.run(
            compress_session(
                parse_transcript(_transcript(case)),
                project="shopapi",
                date=DAY,
                memory=store,
                marks=FileMarks(tmp_path / "marks"),
                session_key="s",
                force=True,
                summarizer=svc,
            )
        )
        saved = store.latest_by_topic(f"session/shopapi/compressed/{DAY}", project="shopapi")
    assert report.source == "keywords" and dict(cache_.data) == {}
    assert saved is not None and "\x1b" not in saved.content
    for line in obeyed:
        assert line not in saved.content
