"""The cold path of ``summarizer output``: plain calls are answered without pydantic or click.

An input that fits in the pass-through bound in bytes (the floor, 500 tokens by default, or
``--target``; a token is at least one byte of valid UTF-8) passes through unchanged whatever the
tokenizer would say: stored in the originals store (``restore`` works as before) and printed
byte-identical. A larger input (or one that is not UTF-8, or holds a secret to redact) is
compressed here by the engine, which needs neither click nor pydantic nor the tokenizer (its token
counts are estimated from the bytes). The rest steps aside *before printing anything* and the
click command runs as if this path had not been there, reading stdin again from what was consumed
(the same contract as the cold path of ``summarizer score``): ``--json``, ``--help``, a missing
file, an empty input, a store directory that cannot be used.
"""

from __future__ import annotations

import io
import os
import sys

from summarizer.agents.child import write_all
from summarizer.agents.run import COLD_MAX_BYTES, DEFAULT_FLOOR
from summarizer.rules.raw import raw_requested

TYPE_CHECKING = False
if TYPE_CHECKING:
    from summarizer.output.kept import Rendering

__all__ = ["parse_output_args", "try_cold_output"]


class OutputCall:
    """A plain ``summarizer output`` call: the source, the pass-through bound in bytes, the plan."""

    __slots__ = ("bound", "exit_code", "floor", "source", "target")

    def __init__(self, source: str, target: int | None, floor: int, exit_code: int | None) -> None:
        self.source = source
        self.target = target
        self.floor = floor
        self.exit_code = exit_code
        # Tokens <= bytes: an input of at most `bound` bytes surely passes through.
        self.bound = min(max(floor, target if target is not None else 0), COLD_MAX_BYTES)


def parse_output_args(args: list[str]) -> OutputCall | None:
    """The call for a plain ``output`` invocation, or ``None`` when click must parse it.

    Anything this parser is not sure of goes to click, so every usage error is click's.
    """
    source: str | None = None
    target: int | None = None
    exit_code: int | None = None
    floor = DEFAULT_FLOOR
    seen: set[str] = set()
    rest = list(args)
    while rest:
        token = rest.pop(0)
        if token == "-" or not token.startswith("-"):
            if source is not None:
                return None
            source = token
            continue
        name, has_value, value = token.partition("=")
        if name not in ("--target", "--floor", "--exit-code") or name in seen:
            return None
        seen.add(name)
        if not has_value:
            if not rest:
                return None
            value = rest.pop(0)
        digits = value[1:] if name == "--exit-code" and value.startswith("-") else value
        if not digits.isdigit() or (name == "--target" and int(value) < 1):
            return None
        if name == "--target":
            target = int(value)
        elif name == "--floor":
            floor = int(value)
        else:
            exit_code = int(value)
    # "" is a file name to click (which refuses it), not stdin
    return OutputCall("-" if source is None else source, target, floor, exit_code)


class _Chain(io.RawIOBase):
    """What the cold path consumed, then the rest of the real stdin."""

    def __init__(self, head: bytes, rest: io.BufferedIOBase | None) -> None:
        self._head = head
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        if self._head:
            n = min(len(buffer), len(self._head))
            buffer[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        if self._rest is None:
            return 0
        data = self._rest.read1(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def _step_aside(source: str, consumed: bytes) -> bool:
    if source == "-" and consumed:
        rest = sys.stdin.buffer if sys.stdin is not None else None
        encoding = getattr(sys.stdin, "encoding", None) or "utf-8"
        sys.stdin = io.TextIOWrapper(io.BufferedReader(_Chain(consumed, rest)), encoding=encoding)  # type: ignore[arg-type]
    return False


def try_cold_output(args: list[str]) -> bool:
    """Answer ``summarizer output ARGS`` here when the input surely passes through; True when done."""
    call = parse_output_args(args)
    if call is None or raw_requested(os.environ):
        return False
    from summarizer.agents.paths import cache_dir
    from summarizer.core.lazyre import use_cache

    use_cache(cache_dir(os.environ))  # the compiled patterns of earlier runs (docs/cold-path.md)
    source, bound = call.source, call.bound
    if source == "-":
        if sys.stdin is None:
            return False
        data = sys.stdin.buffer.read(bound + 1)
    elif os.path.isfile(source):
        try:
            with open(source, "rb") as handle:
                data = handle.read(bound + 1)
        except OSError:
            return False
    else:
        return False
    if not data:
        return _step_aside(source, data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    from summarizer.core.scrub import scrub
    from summarizer.output.forms_sniff import may_have_form

    if len(data) > bound or text is None or scrub(text)[1] or may_have_form(data):
        return _compress(call, data)
    restore_id = _store(data)
    if restore_id is None:
        return _step_aside(source, data)
    sys.stdout.flush()
    if not write_all(sys.stdout.fileno(), data):
        # The reader went away (`| head`): exit 1 quietly, as the click command does.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    _record(len(data), restore_id)
    return True


def _record(size: int, restore_id: str, result: Rendering | None = None) -> None:
    """The ledger line (``summarizer gain``); a compressed result's token counts are estimates."""
    from summarizer.agents.paths import cache_dir
    from summarizer.gain.ledger import LEDGER_DIR, append

    directory = os.path.join(cache_dir(os.environ), LEDGER_DIR)
    passthrough = result is None or result.passthrough
    append(
        directory,
        tool="output",
        command=None,
        size=size,
        tokens_in=None if result is None else result.original_tokens,
        tokens_out=None if result is None else result.compressed_tokens,
        passthrough=passthrough,
        restore_id=restore_id,
    )


def _compress(call: OutputCall, head: bytes) -> bool:
    """Compress the input here (the engine needs neither click nor pydantic); True when done."""
    from summarizer import app
    from summarizer.agents.paths import store_dir
    from summarizer.core.errors import InputError, StorageError
    from summarizer.output.deliver import deliver

    try:
        store = app.originals_at(store_dir(os.environ), os.environ)
    except InputError:
        return _step_aside(call.source, head)
    if call.source == "-":
        rest = sys.stdin.buffer if sys.stdin is not None else None
        from summarizer.output.lines import SNIFF_BYTES  # deliver loads it anyway

        if rest is not None and len(head) < SNIFF_BYTES:
            head += rest.read(SNIFF_BYTES - len(head))  # enough for deliver to tell binary input
        stream: io.BufferedIOBase = io.BufferedReader(_Chain(head, rest))  # type: ignore[arg-type]
    else:
        stream = open(call.source, "rb")  # noqa: SIM115 (closed below)
    from summarizer.agents.run_compress import plan_for

    plan = plan_for("summarizer output", call.target, call.floor, call.exit_code)
    try:
        result = deliver(stream, store, plan, out=sys.stdout.buffer, name=call.source)  # type: ignore[arg-type]
    except (InputError, StorageError) as exc:
        sys.stderr.write(f"summarizer: {exc}\n")
        sys.exit(exc.exit_code)
    except BrokenPipeError:
        # The reader went away (`| head`): exit 1 quietly, as the click command does.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    finally:
        stream.close()
    _record(result.bytes, result.restore_id, result)
    if store.dropped is not None:
        sys.stderr.write(
            f"summarizer output: the input ({store.dropped[1]:,} bytes) is over "
            "SUMMARIZER_ORIGINALS_MAX_BYTES; its original was not stored, so restore cannot give it back\n"
        )
    return True


def _store(data: bytes) -> str | None:
    from summarizer import app
    from summarizer.agents.paths import store_dir
    from summarizer.core.errors import InputError
    from summarizer.output.originals import OriginalNotStored

    try:
        # Not app.build_originals(settings): Settings is pydantic. The same directory, by the
        # light rule (docs/cold-path.md).
        store = app.originals_at(store_dir(os.environ), os.environ)
        writer = store.writer()
    except (OriginalNotStored, InputError):
        return None
    try:
        writer.write(data)
        restore_id = writer.commit()
    except OriginalNotStored as failure:
        failure.read_so_far.close()
        return None
    return restore_id if store.dropped is None else None
