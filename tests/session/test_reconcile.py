"""A later compression reconciles with the stored document instead of contradicting it."""

from __future__ import annotations

from summarizer.session.document import SessionDocument, current_first, parse, render
from summarizer.session.reconcile import merge, similar


def _doc(**items: list[str]) -> SessionDocument:
    return SessionDocument("2026-12-01", {k: tuple(v) for k, v in items.items()})


def test_an_answered_question_leaves_open_questions() -> None:
    """The later run decided what the question asked: the question goes, the decision stays."""
    old = _doc(questions=["Should the export use gzip or zstd compression? (session aaaa1111)"])
    new = _doc(decisions=["We decided to use zstd compression for the export (session bbbb2222)"])
    merged = merge(old, new)
    assert merged.section("questions") == ()
    assert merged.section("decisions") == new.section("decisions")


def test_an_unrelated_question_stays_open() -> None:
    """Only overlap of the question's own words answers it."""
    old = _doc(questions=["Should the export use gzip or zstd compression?"])
    new = _doc(decisions=["We decided to pin the postgres image to 16.4"])
    assert merge(old, new).section("questions") == old.section("questions")


def test_a_completed_item_leaves_in_progress_and_next_steps() -> None:
    """Finished work is not still "In progress" nor a next step."""
    old = _doc(
        progress=["In progress: Stream rows from the exporter (session aaaa1111)"],
        next_steps=["Next: Stream rows from the exporter (session aaaa1111)"],
    )
    new = _doc(progress=["Completed: Stream rows from the exporter (session aaaa1111)"])
    merged = merge(old, new)
    assert merged.section("progress") == ("Completed: Stream rows from the exporter (session aaaa1111)",)
    assert merged.section("next_steps") == ()


def test_the_same_file_is_one_line_with_edits_combined_per_session() -> None:
    """Two sessions' edits add up; a re-run of one session replaces its own count."""
    old = _doc(files=["`app/db.py` — edited (3 edits): pool timeout (session aaaa1111)"])
    other = _doc(files=["`app/db.py` — edited (2 edits) (session bbbb2222)"])
    merged = merge(old, other)
    assert merged.section("files") == (
        "`app/db.py` — edited (5 edits): pool timeout (sessions aaaa1111: 3, bbbb2222: 2)",
    )
    rerun = _doc(files=["`app/db.py` — edited (4 edits) (session bbbb2222)"])
    again = merge(parse(render(merged)), rerun)
    assert again.section("files") == (
        "`app/db.py` — edited (7 edits): pool timeout (sessions aaaa1111: 3, bbbb2222: 4)",
    )


def test_still_open_is_not_a_new_near_duplicate_question() -> None:
    """ "X? That is still open." merges with "X?": one question, the tags of both sessions."""
    old = _doc(questions=["Should we backport the Clock protocol to the 1.x branch? (session aaaa1111)"])
    new = _doc(
        questions=[
            "Should we backport the Clock protocol to the 1.x branch? That is still open. (session bbbb2222)"
        ]
    )
    merged = merge(old, new)
    assert len(merged.section("questions")) == 1
    assert merged.section("questions")[0].endswith("(sessions aaaa1111, bbbb2222)")


def test_items_naming_different_specifics_are_never_merged() -> None:
    """Near-identical wording about t1 and t2 stays two items."""
    assert not similar(
        "Shard table t1 by tenant because row 1 is hot", "Shard table t2 by tenant because row 2 is hot"
    )
    assert similar("Use the Clock protocol in tests.", "use the clock protocol in tests")


def test_merging_the_same_run_twice_changes_nothing() -> None:
    """Idempotent: a re-run of the same compression is a no-op."""
    run = _doc(
        decisions=["Use zstd (session aaaa1111)"],
        files=["`a.py` — edited (session aaaa1111)"],
        questions=["Is the 1.x branch still supported? (session aaaa1111)"],
    )
    once = merge(_doc(), run)
    assert merge(parse(render(once)), run) == parse(render(once))


def test_the_current_session_comes_first() -> None:
    """recover's ordering: the resumed session's items first, each group in stored order."""
    doc = _doc(decisions=["A (session aaaa1111)", "B (session bbbb2222)", "C (session aaaa1111)"])
    assert current_first(doc, "bbbb2222").section("decisions") == (
        "B (session bbbb2222)",
        "A (session aaaa1111)",
        "C (session aaaa1111)",
    )
