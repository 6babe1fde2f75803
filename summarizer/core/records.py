"""Plain records for the cold path: ``@record`` is the part of ``@dataclass`` this package uses.

``summarizer run`` and ``summarizer output`` start in front of every command an agent runs, and
``import dataclasses`` imports ``inspect`` (with ``ast``, ``dis`` and ``tokenize``): about 1x
``python -c pass`` in CPU before a line of ours runs, and every ``@dataclass`` then costs about
0.6 ms to build (docs/cold-path.md has the figures). A record costs one small ``exec`` for its
``__init__``; equality, hashing and ``repr`` are shared functions.

What a record is, as a dataclass with the same options would be: the annotated fields in order,
each with an optional default or ``field(default_factory=...)``; ``__init__``, ``__repr__``,
``__eq__`` (same class, equal fields) and ``__match_args__``; ``__slots__`` unless
``slots=False``; ``frozen=True`` adds ``__hash__`` over the fields and refuses assignment
(:class:`FrozenInstanceError`, an ``AttributeError``), a mutable record is unhashable.
:func:`fields`, :func:`replace` and :func:`asdict` read and copy them. Type checkers see a
dataclass (``dataclass_transform``). ``tests/core/test_records.py`` holds the two to the same
behaviour.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar, dataclass_transform, overload

    _T = TypeVar("_T")
else:

    def dataclass_transform(**_options):
        return lambda function: function

    def overload(function):
        return function


__all__ = ["MISSING", "Field", "FrozenInstanceError", "asdict", "field", "fields", "record", "replace"]


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class FrozenInstanceError(AttributeError):
    """Assignment to a field of a frozen record."""


class Field:
    """One field of a record: its name, its default (or :data:`MISSING`) and its default factory."""

    __slots__ = ("default", "default_factory", "name")
    init = True  # every field is an argument of __init__, as in a dataclass without init=False

    def __init__(self, default: Any = MISSING, default_factory: Any = MISSING) -> None:
        """A field spec; the name is filled in when the record is built."""
        self.name = ""
        self.default = default
        self.default_factory = default_factory

    def __repr__(self) -> str:
        return f"Field(name={self.name!r}, default={self.default!r}, factory={self.default_factory!r})"


def field(*, default_factory: Callable[[], _T]) -> _T:
    """A field whose default is made fresh for each record (``field(default_factory=list)``)."""
    return Field(default_factory=default_factory)  # type: ignore[return-value]


def fields(record_or_class: Any) -> tuple[Field, ...]:
    """The fields of a record (or record class), in order."""
    found: tuple[Field, ...] | None = getattr(record_or_class, "__record_fields__", None)
    if found is None:
        raise TypeError(f"{record_or_class!r} is not a record")
    return found


def replace(obj: _T, /, **changes: Any) -> _T:
    """A copy of the record ``obj`` with ``changes`` applied (``__init__`` runs again)."""
    for f in fields(obj):
        if f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return type(obj)(**changes)


def asdict(obj: Any) -> dict[str, Any]:
    """The record ``obj`` as a dict, nested records, lists, tuples and dicts converted too."""
    fields(obj)
    return _plain(obj)  # type: ignore[no-any-return]


def _plain(value: Any) -> Any:
    if hasattr(type(value), "__record_fields__"):
        return {f.name: _plain(getattr(value, f.name)) for f in value.__record_fields__}
    if isinstance(value, list | tuple):
        return type(value)(_plain(v) for v in value)
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    return value


def _repr(self: Any) -> str:
    inner = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in self.__record_fields__)
    return f"{type(self).__qualname__}({inner})"


def _values(self: Any) -> tuple[Any, ...]:
    return tuple([getattr(self, f.name) for f in self.__record_fields__])


def _eq(self: Any, other: object) -> object:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return _values(self) == _values(other)


def _hash(self: Any) -> int:
    return hash(_values(self))


def _frozen_setattr(self: Any, name: str, value: object) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self: Any, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


def _getstate(self: Any) -> list[Any]:
    return list(_values(self))


def _setstate(self: Any, state: list[Any]) -> None:
    for f, value in zip(self.__record_fields__, state, strict=True):
        object.__setattr__(self, f.name, value)  # also for a frozen record, as unpickling must


_FACTORY = object()  # the default in __init__'s signature of a field with a default factory


def _init(cls_name: str, specs: list[Field], frozen: bool) -> Callable[..., None]:
    """``__init__`` for the fields, compiled once (per-instance speed: records are made per line)."""
    scope: dict[str, Any] = {"_FACTORY": _FACTORY, "_set": object.__setattr__}
    params, body = ["self"], []
    for i, spec in enumerate(specs):
        name = spec.name
        if spec.default_factory is not MISSING:
            scope[f"_factory{i}"] = spec.default_factory
            params.append(f"{name}=_FACTORY")
            value = f"_factory{i}() if {name} is _FACTORY else {name}"
        elif spec.default is not MISSING:
            scope[f"_default{i}"] = spec.default
            params.append(f"{name}=_default{i}")
            value = name
        else:
            params.append(name)
            value = name
        body.append(f"_set(self, {name!r}, {value})" if frozen else f"self.{name} = {value}")
    source = f"def __init__({', '.join(params)}):\n    " + "\n    ".join(body or ["pass"])
    from summarizer.core.lazyre import compiled_source

    exec(compiled_source(source), scope)  # the source is made of the class's own field names
    init: Callable[..., None] = scope["__init__"]
    init.__qualname__ = f"{cls_name}.__init__"
    return init


def _build(cls: type[_T], frozen: bool, slots: bool) -> type[_T]:
    namespace = dict(cls.__dict__)
    specs: list[Field] = []
    for name, annotation in namespace.get("__annotations__", {}).items():
        if str(annotation).startswith(("ClassVar", "typing.ClassVar")):
            continue
        default = namespace.pop(name, MISSING) if slots else namespace.get(name, MISSING)
        spec = default if isinstance(default, Field) else Field(default=default)
        if not slots and isinstance(default, Field):
            namespace.pop(name)
        spec.name = name
        if specs and spec.default is MISSING and spec.default_factory is MISSING:
            last = specs[-1]
            if last.default is not MISSING or last.default_factory is not MISSING:
                raise TypeError(f"non-default argument {name!r} follows default argument")
        specs.append(spec)
    namespace.pop("__dict__", None)
    namespace.pop("__weakref__", None)
    if slots:
        namespace["__slots__"] = tuple(spec.name for spec in specs)
    namespace["__record_fields__"] = tuple(specs)
    namespace["__match_args__"] = tuple(spec.name for spec in specs)
    namespace["__init__"] = _init(cls.__qualname__, specs, frozen)
    namespace.setdefault("__repr__", _repr)
    namespace.setdefault("__eq__", _eq)
    if frozen:
        if slots:
            namespace["__getstate__"], namespace["__setstate__"] = _getstate, _setstate
        namespace["__hash__"] = _hash
        namespace["__setattr__"] = _frozen_setattr
        namespace["__delattr__"] = _frozen_delattr
    elif "__hash__" not in cls.__dict__ or cls.__dict__["__hash__"] is None:
        namespace["__hash__"] = None
    built: type[_T] = type(cls.__name__, cls.__bases__, namespace)
    built.__qualname__ = cls.__qualname__
    return built


@overload
def record(cls: type[_T], /) -> type[_T]: ...


@overload
def record(*, frozen: bool = False, slots: bool = True) -> Callable[[type[_T]], type[_T]]: ...  # noqa: F811


@dataclass_transform(field_specifiers=(field,))
def record(  # noqa: F811 (the overloads above are for type checkers)
    cls: type[_T] | None = None, /, *, frozen: bool = False, slots: bool = True
) -> type[_T] | Callable[[type[_T]], type[_T]]:
    """Make ``cls`` a record (the dataclass of the same options); ``@record`` or ``@record(frozen=True)``."""
    if cls is None:
        return lambda c: _build(c, frozen, slots)
    return _build(cls, frozen, slots)
