"""``@record`` behaves as the ``@dataclass`` of the same options (it stands in for it on the cold path)."""

from __future__ import annotations

import dataclasses
import pickle
from collections import Counter
from typing import Any

import pytest

from summarizer.core import records
from summarizer.core.records import record


def _pair(frozen: bool, slots: bool) -> tuple[Any, Any]:
    """The same class body made a dataclass and a record."""

    def body(decorate: Any, make_field: Any) -> Any:
        class Row:
            """A row."""

            name: str
            line: int
            where: str | None = None
            count: int = 1
            seen: list[int] = make_field(default_factory=list)
            tally: Counter[str] = make_field(default_factory=Counter)

            def label(self) -> str:
                return f"{self.name}:{self.line}"

        return decorate(Row)

    plain = body(dataclasses.dataclass(frozen=frozen, slots=slots), dataclasses.field)
    ours = body(record(frozen=frozen, slots=slots), records.field)
    return plain, ours


OPTIONS = [(True, True), (False, True), (False, False)]
ARGS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    (("a", 1), {}),
    (("a", 1, "x.py"), {}),
    (("a",), {"line": 2, "count": 3}),
    ((), {"name": "b", "line": 0, "seen": [1, 2]}),
    (("a", 1, None, 5, [3]), {}),
]


@pytest.mark.parametrize(("frozen", "slots"), OPTIONS)
def test_a_record_is_made_read_compared_and_printed_as_the_dataclass(frozen: bool, slots: bool) -> None:
    plain, ours = _pair(frozen, slots)
    for args, kwargs in ARGS:
        a, b = plain(*args, **kwargs), ours(*args, **kwargs)
        for f in dataclasses.fields(plain):
            assert getattr(a, f.name) == getattr(b, f.name)
        assert repr(a).split("(", 1)[1] == repr(b).split("(", 1)[1]
        assert b == ours(*args, **kwargs)
        assert (b == ours("other", 9)) == (a == plain("other", 9))
        assert b != a  # another class is never equal, as between two dataclasses
        assert b.label() == a.label()
    assert ours.__match_args__ == plain.__match_args__
    assert hasattr(ours, "__slots__") == hasattr(plain, "__slots__")
    assert ours.__doc__ == "A row."
    assert ours.__qualname__ == plain.__qualname__


@pytest.mark.parametrize(("frozen", "slots"), OPTIONS)
def test_the_factories_make_a_fresh_value_for_each_record(frozen: bool, slots: bool) -> None:
    _, ours = _pair(frozen, slots)
    one, two = ours("a", 1), ours("b", 2)
    one.seen.append(1)
    assert two.seen == []


@pytest.mark.parametrize(("frozen", "slots"), OPTIONS)
def test_arguments_are_refused_as_the_dataclass_refuses_them(frozen: bool, slots: bool) -> None:
    plain, ours = _pair(frozen, slots)
    for args, kwargs in [((), {}), (("a",), {}), (("a", 1), {"nope": 2}), (("a", 1, 2, 3, 4, 5, 6), {})]:
        with pytest.raises(TypeError):
            plain(*args, **kwargs)
        with pytest.raises(TypeError):
            ours(*args, **kwargs)


def test_a_frozen_record_refuses_assignment_and_hashes_by_value() -> None:
    @record(frozen=True)
    class Point:
        x: int
        y: int = 0

    p = Point(1, 2)
    with pytest.raises(AttributeError):
        p.x = 3  # type: ignore[misc]
    with pytest.raises(records.FrozenInstanceError):
        del p.y
    with pytest.raises(AttributeError):
        p.z = 1  # type: ignore[attr-defined]
    assert {Point(1, 2), Point(1, 2), Point(2)} == {Point(1, 2), Point(2, 0)}


def test_a_mutable_record_is_unhashable_and_takes_assignment() -> None:
    @record
    class Tally:
        n: int = 0

    t = Tally()
    t.n += 2
    assert t == Tally(2)
    with pytest.raises(TypeError):
        hash(t)
    with pytest.raises(AttributeError):
        t.other = 1  # type: ignore[attr-defined]


def test_replace_asdict_and_fields_read_records_as_the_dataclass_functions_read_dataclasses() -> None:
    @record(frozen=True)
    class Leaf:
        text: str
        at: int = 0

    @record(frozen=True)
    class Tree:
        name: str
        leaves: tuple[Leaf, ...] = ()
        first: Leaf | None = None
        extra: dict[str, list[Leaf]] = records.field(default_factory=dict)

    tree = Tree("t", (Leaf("a"), Leaf("b", 2)), Leaf("c"), {"k": [Leaf("d")]})
    assert records.asdict(tree) == {
        "name": "t",
        "leaves": ({"text": "a", "at": 0}, {"text": "b", "at": 2}),
        "first": {"text": "c", "at": 0},
        "extra": {"k": [{"text": "d", "at": 0}]},
    }
    assert records.replace(tree, name="u") == Tree("u", tree.leaves, tree.first, tree.extra)
    assert [(f.name, f.default) for f in records.fields(Tree)][:2] == [
        ("name", records.MISSING),
        ("leaves", ()),
    ]
    assert records.fields(tree) == records.fields(Tree)
    with pytest.raises(TypeError):
        records.fields(object())
    with pytest.raises(TypeError):
        records.replace(tree, nope=1)


def test_a_field_without_default_after_one_with_a_default_is_refused() -> None:
    with pytest.raises(TypeError, match="follows default"):

        @record
        class Bad:
            a: int = 0
            b: int  # type: ignore[misc]


def test_frozen_records_pickle_like_dataclasses() -> None:
    value = _Pickled("x", 3)
    assert pickle.loads(pickle.dumps(value)) == value


@record(frozen=True)
class _Pickled:
    name: str
    n: int = 0
