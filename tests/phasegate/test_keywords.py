"""The keyword map: every row's test vectors, and the documented examples spelled out."""

from __future__ import annotations

import re

import pytest

from summarizer.phasegate.keywords import CONCEPTS, concept, find_concepts, words_of


def names(text: str) -> set[str]:
    return {c.name for c in find_concepts(text)}


@pytest.mark.parametrize(
    ("name", "text"), [(c.name, m) for c in CONCEPTS for m in c.matches], ids=lambda v: str(v)
)
def test_every_row_matches_its_positive_vectors(name: str, text: str) -> None:
    """Each concept finds every text listed in its ``matches`` column."""
    assert name in names(text)


@pytest.mark.parametrize(
    ("name", "text"), [(c.name, r) for c in CONCEPTS for r in c.rejects], ids=lambda v: str(v)
)
def test_every_row_rejects_its_negative_vectors(name: str, text: str) -> None:
    """No concept fires on the look-alikes listed in its ``rejects`` column."""
    assert name not in names(text)


def test_every_row_has_vectors_on_both_sides() -> None:
    """A row without vectors is an untested regex; the table must not grow one."""
    assert all(c.matches and c.rejects for c in CONCEPTS)


CONCEPT_VECTORS = {
    "auth": (
        ["auth", "authn", "authz", "authentication", "authorize", "authorized", "authorization"],
        ["author", "authored"],
    ),
    "role": (["role", "roles"], ["controller", "rollout"]),
    "token": (["token", "tokens", "tokenize"], []),
    "route": (["route", "routes", "routing", "router", "routers"], []),
    "index": (["index", "indexes", "indices", "indexed", "reindex"], []),
    "delete": (["delete", "deletes", "deleted", "deletion"], []),
    "API": (["API", "the api"], ["rapid", "capital", "apiary"]),
    "CSS": (["CSS"], ["access", "success"]),
    "deprecat": (["deprecate", "deprecated", "deprecation"], []),
    "style": (["style"], ["lifestyle"]),
    "comment": (["comment", "comments", "commented"], []),
}


@pytest.mark.parametrize("name", sorted(CONCEPT_VECTORS))
def test_spec_examples_hold(name: str) -> None:
    """docs/phase-gate.md: the concept examples, case-insensitive, whole words or stems as ruled."""
    positives, negatives = CONCEPT_VECTORS[name]
    for text in positives:
        assert name in names(text), text
        assert name in names(text.upper()), text.upper()
    for text in negatives:
        assert name not in names(text), text


def test_the_seed_example_finds_auth_which_the_seed_forgot() -> None:
    """The worked example mentions ``auth``; the original hand calculation left it out."""
    found = [c.name for c in find_concepts("Added JWT auth endpoint with refresh token rotation")]
    assert found == ["auth", "JWT", "token", "endpoint"]


def test_snake_case_and_paths_split_into_words() -> None:
    """``auth_service.py`` mentions auth and service; camelCase stays one word."""
    assert words_of("auth_service.py") == ["auth", "service", "py"]
    assert {"auth", "service"} <= names("see auth_service.py")
    assert names("AuthService") == set()


def test_scrubber_placeholders_do_not_score() -> None:
    """``[REDACTED:jwt]`` and ``[REDACTED:password]`` are not mentions of JWT or password."""
    assert names("leaked [REDACTED:jwt] and [REDACTED:password] in a log line") == set()


def test_multi_word_concepts_need_their_phrase() -> None:
    """ "new table" needs a creating verb near "table"; the word table alone is not enough."""
    assert "new table" in names("Created the sessions table")
    assert "new table" not in names("Fixed the table of contents")
    assert "foreign key" not in names("a foreign keyboard layout")


def test_concept_lookup_by_name() -> None:
    """Rows are addressable by their keyword."""
    assert concept("JWT").impact == 0.8
    with pytest.raises(KeyError):
        concept("nope")


def test_word_patterns_are_disjoint() -> None:
    """No word of any vector fullmatches two concepts' word patterns (the matcher picks one)."""

    patterns = {c.name: re.compile(c.words) for c in CONCEPTS if c.words}
    vocabulary = {w for c in CONCEPTS for text in (*c.matches, *c.rejects) for w in words_of(text)}
    for word in vocabulary:
        hits = [name for name, rx in patterns.items() if rx.fullmatch(word)]
        assert len(hits) <= 1, (word, hits)
