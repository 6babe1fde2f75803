"""What the agent's own ``| head`` / ``| tail`` keeps of an output: the honest baseline for ``gain``.

When a hook wraps ``pytest | tail -20`` as ``summarizer run --piped-into 'tail -20' -- pytest |
tail -20``, ``run`` sees the whole output but the agent, with or without us, sees only what
``tail -20`` lets through. The ledger therefore records the tokens of ``tail -20`` applied to the
original (what the agent would have seen without us) and to what ``run`` printed (what it saw), so
only the part we cut is credited. The standard library only: ``run`` uses it on its fast path.

Understood: ``head``/``tail`` with ``-n N``, ``-nN``, ``-N``, ``--lines=N``, ``--lines N``, ``-c N``,
``--bytes=N`` (``tail -n +N`` starts at line N), and no option (10 lines). Anything else is not
understood (:func:`parse_trimmer` gives ``None``) and the run is credited against the whole output.
"""

from __future__ import annotations

__all__ = ["Trimmer", "parse_trimmer"]


class Trimmer:
    """``head`` or ``tail`` keeping ``count`` lines (or bytes); ``tail`` ``from_start``: ``+N``."""

    __slots__ = ("bytes", "count", "from_start", "program")

    def __init__(
        self, program: str, count: int, *, unit_bytes: bool = False, from_start: bool = False
    ) -> None:
        self.program = program
        self.count = count
        self.bytes = unit_bytes
        self.from_start = from_start

    def apply(self, data: bytes) -> bytes:
        """What the trimmer prints of ``data``."""
        if self.bytes:
            if self.program == "head":
                return data[: self.count]
            return data[self.count - 1 :] if self.from_start else data[-self.count :] if self.count else b""
        lines = data.splitlines(keepends=True)
        if self.program == "head":
            return b"".join(lines[: self.count])
        if self.from_start:
            return b"".join(lines[max(self.count - 1, 0) :])
        return b"".join(lines[-self.count :]) if self.count else b""


def _number(text: str) -> tuple[int, bool] | None:
    plus = text.startswith("+")
    digits = text[1:] if plus else text
    return (int(digits), plus) if digits.isdigit() else None


def parse_trimmer(text: str) -> Trimmer | None:
    """The trimmer ``text`` names (``tail -20``, ``head -n 50``), or ``None`` when not understood."""
    words = text.split()
    if not words or words[0].rsplit("/", 1)[-1] not in ("head", "tail"):
        return None
    program = words[0].rsplit("/", 1)[-1]
    rest = words[1:]
    count, plus, unit_bytes = 10, False, False
    while rest:
        word = rest.pop(0)
        name, has_value, value = word.partition("=")
        if name in ("-n", "--lines", "-c", "--bytes") and not has_value:
            if not rest:
                return None
            value = rest.pop(0)
        elif word.startswith(("-n", "-c")) and len(word) > 2 and not word.startswith("--"):
            name, value = word[:2], word[2:]
        elif word[1:].isdigit() and word.startswith("-"):
            name, value = "-n", word[1:]
        elif name not in ("--lines", "--bytes"):
            return None
        parsed = _number(value)
        if parsed is None:
            return None
        count, plus = parsed
        unit_bytes = name in ("-c", "--bytes")
    if plus and program == "head":
        plus = False  # head +N is GNU head's N
    return Trimmer(program, count, unit_bytes=unit_bytes, from_start=plus)
