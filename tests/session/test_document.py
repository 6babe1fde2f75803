"""The day's document: render/parse, merge by normalised text, and the 2000-token cap."""

from __future__ import annotations

from summarizer.core.tokens import count_tokens
from summarizer.session.document import MAX_TOKENS, SessionDocument, cap, parse, render
from summarizer.session.reconcile import merge


def _doc(**items: list[str]) -> SessionDocument:
    return SessionDocument("2026-11-29", {k: tuple(v) for k, v in items.items()})


def _big() -> SessionDocument:
    """A document well over the cap: 40 items in each section, each one distinct."""

    def many(label: str) -> list[str]:
        return [
            f"{label} {i}: the billing service retries webhook {i} with exponential backoff"
            for i in range(40)
        ]

    return _doc(
        context=many("context"),
        decisions=many("decision"),
        discoveries=many("discovery"),
        progress=many("progress"),
        files=[f"`src/mod_{i}.py` — edited: reason {i}" for i in range(40)],
        failures=many("failure"),
        questions=many("question"),
    )


def test_render_uses_the_seed_format_with_a_date_only_header() -> None:
    """Header without time, sections in the documented order, empty sections omitted."""
    text = render(
        _doc(
            decisions=["Use a Clock protocol"],
            failures=["Retry loop: the race is per request"],
            files=["`src/a.py` — edited"],
        )
    )
    assert text == (
        "## Session Compression — 2026-11-29\n"
        "### Decisions\n- Use a Clock protocol\n"
        "### Files Modified\n- `src/a.py` — edited\n"
        "### Failed Approaches (avoid repeating)\n- Retry loop: the race is per request\n"
    )


def test_parse_reads_back_what_render_wrote_and_keeps_foreign_sections() -> None:
    """A round trip is lossless; an agent's own section and loose prose survive."""
    doc = _big()
    assert parse(render(doc)) == doc
    foreign = parse(
        "Some prose first.\n## Session Compression — 2026-11-28 14:05\n### Decisions\n"
        "- A\n### Links\n- ship it\n"
    )
    assert foreign.date == "2026-11-28"
    assert foreign.section("decisions") == ("A",)
    assert foreign.extra == (("Notes", ("Some prose first.",)), ("Links", ("ship it",)))


def test_merge_appends_only_items_not_already_there() -> None:
    """Case, spacing, backticks and trailing punctuation do not make an item new."""
    old = _doc(decisions=["Use the `Clock` protocol."], files=["`src/a.py` — edited"])
    new = _doc(
        decisions=["use the clock  protocol", "Keep tokens out of the repo"],
        files=["`src/a.py` — edited", "`src/b.py` — created"],
    )
    merged = merge(old, new)
    assert merged.section("decisions") == ("Use the `Clock` protocol.", "Keep tokens out of the repo")
    assert merged.section("files") == ("`src/a.py` — edited", "`src/b.py` — created")
    assert merge(merged, new) == merged


def test_a_completed_task_retires_its_in_progress_line() -> None:
    """The morning's 'In progress: X' gives way to the afternoon's 'Completed: X'."""
    merged = merge(
        _doc(progress=["In progress: Fix the refresh race", "Completed: Reproduce it"]),
        _doc(progress=["Completed: Fix the refresh race"]),
    )
    assert merged.section("progress") == ("Completed: Reproduce it", "Completed: Fix the refresh race")


def test_the_cap_drops_whole_items_questions_then_progress_before_decisions_and_failures() -> None:
    """Under 2000 tokens, every kept item verbatim, and the low-value sections emptied first."""
    doc = _big()
    assert count_tokens(render(doc)) > 2 * MAX_TOKENS
    capped, dropped = cap(doc)
    assert count_tokens(render(capped)) < MAX_TOKENS
    assert dropped == sum(doc.count(k) for k in doc.items) - sum(capped.count(k) for k in capped.items)
    for key in doc.items:  # never an item cut in half: what is kept is a prefix of the original
        assert capped.section(key) == doc.section(key)[: capped.count(key)]
    assert capped.count("questions") == 0 and capped.count("progress") == 0
    assert capped.count("decisions") == 40 and capped.count("failures") == 40


def test_drop_order_within_the_cap_is_questions_first() -> None:
    """Just over the cap, only open questions go."""
    doc = _big()
    small = _doc(
        decisions=list(doc.section("decisions")[:20]),
        progress=list(doc.section("progress")[:20]),
        questions=list(doc.section("questions")),
    )
    capped, dropped = cap(small, max_tokens=count_tokens(render(small)) - 30)
    assert 0 < dropped < 40
    assert (
        capped.count("progress") == 20 and capped.count("decisions") == 20 and capped.count("questions") < 40
    )


def test_capping_is_idempotent_across_a_merge_with_the_same_items() -> None:
    """Re-merging the original into the capped document and capping again changes nothing."""
    doc = _big()
    capped, _ = cap(doc)
    again, _ = cap(merge(parse(render(capped)), doc))
    assert again == capped
