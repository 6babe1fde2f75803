"""Regular expressions compiled on first use, for modules on the cold path.

``re.compile`` of this package's patterns at import time cost about 1.5x ``python -c pass`` in
CPU on every ``summarizer output``, and most of those patterns are not used by a given input: the
secret scrubber's rules run only on a line holding one of their trigger strings, the output
engine's tool rules only on outputs of that tool. :func:`lazy` returns a stand-in that compiles
its pattern the first time a method or attribute is asked for, then keeps the compiled pattern's
bound methods as its own attributes, so a call costs what a call on the compiled pattern costs.

The stand-in is typed as the ``re.Pattern`` it becomes and answers every attribute of one. It is
not an instance of ``re.Pattern``: pass ``.pattern`` (its source) where a function of ``re``
wants a pattern.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, AnyStr

__all__ = ["lazy"]

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split", "scanner")


class _Lazy:
    """A pattern source and flags until first use; then the compiled pattern's methods."""

    def __init__(self, source: Any, flags: int) -> None:
        self._args: tuple[Any, int] = (source, flags)
        self.pattern = source

    def __getattr__(self, name: str) -> Any:
        # Only reached for what is not set yet: the first use of anything but `pattern`.
        compiled = re.compile(*self._args)
        for method in _METHODS:
            setattr(self, method, getattr(compiled, method))
        self.flags, self.groups, self.groupindex = compiled.flags, compiled.groups, compiled.groupindex
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self.pattern!r})"


def lazy(source: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """``re.compile(source, flags)``, done the first time the pattern is used."""
    return _Lazy(source, flags)  # type: ignore[return-value]
