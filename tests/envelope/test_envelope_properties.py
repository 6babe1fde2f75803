"""Property: no cap and no omit list can make a recovery handle disappear."""

from __future__ import annotations

import json
import string
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from summarizer.envelope.handles import find_handles
from summarizer.envelope.reduce import reduce_envelope

from .conftest import string_values

KEYS = [
    "data",
    "items",
    "content",
    "stdout",
    "job",
    "jobId",
    "transactionId",
    "runId",
    "boardId",
    "researchId",
    "truncated",
    "linesOmitted",
    "path",
    "status",
    "notes",
    "result",
    "password",
]
PREFIXES = ["tx", "job", "todo", "research", "run", "approval", "plan"]

handles = st.builds(
    lambda p, s: f"{p}_{s}",
    st.sampled_from(PREFIXES),
    st.text(string.ascii_letters + string.digits, min_size=1, max_size=10),
)
leaves = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 10**6), st.text(string.printable, max_size=200), handles
)
trees = st.recursive(
    leaves,
    lambda children: st.one_of(
        st.lists(children, max_size=6), st.dictionaries(st.sampled_from(KEYS), children, max_size=6)
    ),
    max_leaves=40,
)
omit_paths = st.lists(st.sampled_from([*KEYS, "*", "0", "1"]), min_size=1, max_size=4).map(".".join)


@st.composite
def envelopes(draw: st.DrawFn) -> dict[str, Any]:
    """A random agentic-workspace/v1 envelope with handles scattered through its data."""
    return {
        "protocol": "agentic-workspace/v1",
        "ok": draw(st.booleans()),
        "operation": draw(st.sampled_from(["workspace_edit.apply", "workspace_command.run"])),
        "summary": draw(st.text(max_size=80)),
        "data": draw(trees),
        "retention": {
            "importance": "high",
            "facts": draw(st.lists(st.text(max_size=30), max_size=3)),
            "omit_when_summarizing": draw(st.lists(omit_paths, max_size=5)),
        },
    }


@settings(max_examples=100, deadline=None)
@given(envelopes(), st.integers(min_value=1, max_value=20_000))
def test_every_handle_survives_any_cap_and_any_omit_list(env: dict[str, Any], cap: int) -> None:
    """Each handle value of the input is a string value of the output, which is valid JSON."""
    result = reduce_envelope(env, cap=cap)
    text = json.dumps(result.envelope, ensure_ascii=False)
    assert json.loads(text) == result.envelope
    assert {h.value for h in find_handles(env)} <= string_values(result.envelope)
    if result.mode != "compact":
        assert result.reduced_bytes <= cap
