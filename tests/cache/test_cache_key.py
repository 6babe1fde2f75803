"""Invariants of the cache key recipe (hypothesis): what must and must not change the key."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from summarizer.core.scrub import scrub
from summarizer.semantic.prompts import PromptLibrary
from summarizer.semantic.service import GenerationParams, Summarizer
from summarizer.semantic.untrusted import Untrusted

REPO_PROMPTS = Path(__file__).resolve().parents[2] / "prompts"
LIBRARY = PromptLibrary(REPO_PROMPTS)
texts = st.text(min_size=1, max_size=60)


def _key(values: dict[str, object], model: str = "m/x", nonce: str = "a" * 32, **params: object) -> str:
    svc = Summarizer(LIBRARY, model=model, nonce=lambda: nonce, params=GenerationParams(**params))  # type: ignore[arg-type]
    rendered, canonical, _, _ = svc._prepare("tool_output", values)
    return str(svc.cache_key(rendered, canonical))


@settings(max_examples=40, deadline=None)
@given(output=texts, focus=texts, nonce=st.sampled_from(["a" * 32, "b" * 32]))
def test_value_order_and_nonce_do_not_change_the_key(output: str, focus: str, nonce: str) -> None:
    """Insertion order of the values and the per-call nonce are not part of the key."""
    forward = {"output": Untrusted(output), "focus": focus}
    backward = {"focus": focus, "output": Untrusted(output)}
    assert _key(forward) == _key(backward, nonce=nonce)


@settings(max_examples=40, deadline=None)
@given(a=texts, b=texts)
def test_keys_are_equal_exactly_when_the_scrubbed_inputs_are(a: str, b: str) -> None:
    """The key hashes the scrubbed input: equal text, equal key; any other difference, another key."""
    same_key = _key({"output": Untrusted(a)}) == _key({"output": Untrusted(b)})
    assert same_key == (scrub(a)[0] == scrub(b)[0])


def test_model_and_parameters_change_the_namespace() -> None:
    """Another model, max_tokens or temperature: another namespace."""
    values = {"output": Untrusted("x")}
    base = _key(values)
    others = {_key(values, model="m/y"), _key(values, max_tokens=99), _key(values, temperature=0.5)}
    assert len({base, *others}) == 4
    assert base.split(":")[1] != _key(values, model="m/y").split(":")[1]
