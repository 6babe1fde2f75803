"""The large-output half of ``summarizer run``: compress what the command printed, store it, print.

Reached only when the output is past the floor in bytes (or not valid UTF-8). The engine runs
without pydantic, the settings model or the tokenizer (token counts are estimated from the
bytes), so deciding costs little more than the read. The output already held in memory
is replayed first, then the rest is read from the child's pipe as the compressor asks for it:
one pass, the original streamed into the store, memory bounded.

The compressor renders its header before the command's exit status can be known (the stream
ends when the command does), so the ``exit code: N`` line is added to the rendering here.
"""

from __future__ import annotations

import sys

from summarizer.agents.child import ChildOutput, write_all

TYPE_CHECKING = False  # typing stays off the cold path (docs/cold-path.md)
if TYPE_CHECKING:
    from summarizer.output.compressor import Plan
    from summarizer.output.kept import Rendering
    from summarizer.output.models import OutputResult
    from summarizer.output.originals import OriginalNotStored, OriginalStore

__all__ = ["compress_run", "plan_for", "shown_tokens", "team_patterns", "with_exit_code"]


class _Replay:
    """The bytes already read, then the rest of the child's output; keeps the last ``keep_end``
    bytes that went through, so the end can be read again without the stored original."""

    def __init__(self, head: bytes, child: ChildOutput, keep_end: int = 0) -> None:
        self._head = head
        self._child = child
        self._keep_end = keep_end
        self.end = b""

    def read(self, size: int = -1) -> bytes:
        """Up to ``size`` bytes (all when negative), fewer only at the end."""
        data = self._read(size)
        if self._keep_end and data:
            self.end = (self.end + data)[-self._keep_end :]
        return data

    def _read(self, size: int) -> bytes:
        if not self._head:
            return self._child.read(size)
        if size < 0:
            data, self._head = self._head, b""
            return data + self._child.read(-1)
        data, self._head = self._head[:size], self._head[size:]
        return data + self._child.read(size - len(data)) if len(data) < size else data


def team_patterns(who: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The failure and noise patterns of the rule files in force for the working directory; a
    broken file is skipped with one stderr line (the output is never lost over a rule)."""
    import os

    from summarizer.core.errors import InputError
    from summarizer.rules.files import rule_files

    files = rule_files(os.environ, os.getcwd())
    if not files:
        return (), ()
    from summarizer.rules.model import load_rules

    try:
        rules = load_rules(files)
    except InputError as exc:
        sys.stderr.write(f"{who}: {exc}; compressing without your rules\n")
        return (), ()
    return rules.failure_patterns, rules.noise_patterns


def plan_for(
    who: str, target: int | None, floor: int, exit_code: int | None = None, *, content: bool = False
) -> Plan:
    """The compression plan of a call, with the team's rules in force for the working directory;
    ``content``: the output is a file to read, never compressed as a log."""
    from summarizer.output.compressor import Plan

    failures, noise = team_patterns(who)
    return Plan(
        target_tokens=target,
        floor_tokens=floor,
        exit_code=exit_code,
        failure_patterns=failures,
        noise_patterns=noise,
        content=content,
    )


def with_exit_code(text: str, status: int) -> str:
    """The rendering with ``exit code: N`` as its second header line."""
    first, newline, rest = text.partition("\n")
    if first.startswith("[summarizer · ") and " · restore " in first:
        # A compact form's one-line header: a failing status joins it; 0 goes without saying.
        if status == 0:
            return text
        head, _, tail = first.rpartition(" · restore ")
        return f"{head} · exit code {status} · restore {tail}{newline}{rest}"
    if first.startswith("[summarizer output"):
        return (
            f"{first}\nexit code: {status}{newline}{rest}" if newline else f"{first}\nexit code: {status}\n"
        )
    return f"exit code: {status}\n{text}"


def compress_run(
    target: int | None,
    floor: int,
    child: ChildOutput,
    head: bytes,
    streamed: int | None,
    command: str | None = None,
    piped: str | None = None,
    *,
    content: bool = False,
) -> int:
    """Compress and print the output; ``streamed`` bytes were printed already (None: stdout closed).

    ``command`` labels the ledger record (``summarizer gain``); ``piped`` is the display trimmer
    the output goes into (``--piped-into``), counted on both sides of the record."""
    import os

    from summarizer import app
    from summarizer.agents.paths import cache_dir, store_dir
    from summarizer.core.errors import SummarizerError
    from summarizer.core.lazyre import use_cache
    from summarizer.output.compressor import compress_plain
    from summarizer.output.originals import OriginalNotStored

    use_cache(cache_dir(os.environ))  # before the first pattern compiles
    from summarizer.agents.recap import TAIL_BYTES

    stream = _Replay(head, child, TAIL_BYTES if piped is not None else 0)
    try:
        # Not app.build_originals(settings): Settings is pydantic. The same directory, by the
        # light rule (docs/cold-path.md).
        store = app.originals_at(store_dir(os.environ), os.environ)
        from summarizer.output.lines import looks_binary  # the compressor loads it anyway

        if looks_binary(head):
            return _store_binary(stream, store, child, streamed)
        plan = plan_for("summarizer run", target, floor, content=content)
        result = compress_plain(stream, store, plan)  # type: ignore[arg-type]
    except OriginalNotStored as failure:
        return _hand_back(failure, stream, child, streamed or 0)
    except SummarizerError as exc:
        # The output cannot be compressed (a bad setting): never lose it, print it as it came.
        _copy_rest(stream, streamed or 0, already=b"")
        sys.stderr.write(f"summarizer run: {exc}; printed the output unchanged\n")
        return child.wait()
    status = child.wait()
    if streamed is None:
        return status
    shown = _print(result, store, streamed, status, piped, stream.end)
    _record(command, result, shown, head[: streamed or 0], store, piped)
    if store.dropped is not None:
        rid, size = store.dropped
        sys.stderr.write(
            f"summarizer run: the output ({size:,} bytes) is over SUMMARIZER_ORIGINALS_MAX_BYTES; it was "
            f"not stored, so `summarizer restore {rid[:12]}` cannot give it back\n"
        )
    return status


def _store_binary(stream: _Replay, store: OriginalStore, child: ChildOutput, streamed: int | None) -> int:
    """Binary output (an executable, an archive) is no text for an agent: stored whole, one line shown."""
    writer = store.writer()
    size = 0
    for data in iter(lambda: stream.read(1 << 20), b""):
        writer.write(data)
        size += len(data)
    restore_id = writer.commit()
    status = child.wait()
    if streamed is not None:
        note = "" if store.dropped is None else " (over SUMMARIZER_ORIGINALS_MAX_BYTES: not stored)"
        write_all(
            1,
            (
                f"\n[summarizer run · binary output, {size:,} bytes, not shown{note} · "
                f"exit code {status} · summarizer restore {restore_id[:12]} > FILE gives it back]\n"
            ).encode(),
        )
    return status


def _print(
    result: Rendering,
    store: OriginalStore,
    streamed: int,
    status: int,
    piped: str | None = None,
    original_end: bytes = b"",
) -> str | None:
    """Print what follows the streamed head; the text printed, or None when it was the original."""
    if result.passthrough:
        # Byte-identical, from the stored original, after what was already streamed.
        skip = streamed
        for block in store.iter_bytes(result.restore_id):
            if skip >= len(block):
                skip -= len(block)
                continue
            if not write_all(1, memoryview(block)[skip:]):
                return None
            skip = 0
        return None
    text = _after_head(result.text, streamed, status)
    if piped is not None:
        from summarizer.agents.recap import for_trimmer

        text = for_trimmer(text, piped, original_end)
    write_all(1, text.encode("utf-8", "replace"))
    return text


def _after_head(rendering: str, streamed: int, status: int) -> str:
    text = with_exit_code(rendering, status)
    if streamed:
        text = (
            f"\n[summarizer run: the first {streamed:,} bytes above were printed as they came; "
            "the whole output, compressed, follows]\n" + text
        )
    return text


def shown_tokens(output: bytes, result: OutputResult | Rendering, stream_bytes: int, status: int = 0) -> int:
    """The tokens an agent reads when ``run`` prints ``output`` compressed as ``result``: the
    ``stream_bytes`` head (``summarizer.agents.run.STREAM_BYTES``), the marker and the rendering
    (``discover`` measures missed savings with it)."""
    from summarizer.core.tokens import count_tokens

    if result.passthrough:
        return result.original_tokens
    head = output[:stream_bytes]
    return count_tokens(head.decode("utf-8", "replace") + _after_head(result.text, len(head), status))


def _record(
    command: str | None,
    result: Rendering,
    shown: str | None,
    streamed: bytes,
    store: OriginalStore,
    piped: str | None,
) -> None:
    """The ledger line: ``out`` counts everything the agent was shown, the streamed head included.

    Both sides are estimated from the bytes, as the engine's own counts are here: loading the
    tokenizer for a ledger line would cost every compressed run 0.5 s and 80 MB."""
    import os

    from summarizer.agents.paths import cache_dir
    from summarizer.gain.ledger import LEDGER_DIR, append
    from summarizer.gain.trim import parse_trimmer
    from summarizer.output.kept import estimate_tokens as count_tokens

    size, tokens_in = result.bytes, result.original_tokens
    # The agent read the streamed head and the rendering as one text: count them as one.
    printed = None if shown is None else streamed + shown.encode("utf-8", "replace")
    trimmer = parse_trimmer(piped) if piped is not None else None
    if trimmer is not None and store.dropped is None:
        # Without us the agent would have seen what the trimmer keeps of the original, no more.
        kept = trimmer.apply(b"".join(store.iter_bytes(result.restore_id)))
        size, tokens_in = len(kept), count_tokens(kept.decode("utf-8", "replace"))
        printed = kept if printed is None else trimmer.apply(printed)
    tokens_out = tokens_in if printed is None else count_tokens(printed.decode("utf-8", "replace"))
    append(
        os.path.join(cache_dir(os.environ), LEDGER_DIR),
        tool="run",
        command=command,
        size=size,
        tokens_in=tokens_in,
        tokens_out=tokens_out,
        passthrough=shown is None,
        restore_id=result.restore_id,
        piped=piped,
    )


def _copy_rest(stream: _Replay, skip: int, already: bytes) -> None:
    """Print ``already`` and the rest of the stream, scrubbed, leaving out the first ``skip`` bytes
    (the head streamed as it came)."""
    from summarizer.core.scrub import ChunkScrubber

    clean = ChunkScrubber()
    for data in (already, *iter(lambda: stream.read(1 << 20), b"")):
        if skip >= len(data):
            skip -= len(data)
            continue
        write_all(1, clean.feed(data[skip:]))
        skip = 0
    write_all(1, clean.finish())


def _hand_back(failure: OriginalNotStored, stream: _Replay, child: ChildOutput, streamed: int) -> int:
    """The store failed: print the output uncompressed and scrubbed (as ``summarizer output`` does)."""
    with failure.read_so_far as read_so_far:
        taken = b"".join(read_so_far)
    _copy_rest(stream, streamed, taken)
    status = child.wait()
    sys.stderr.write(f"summarizer run: {failure}; printed the output unchanged\n")
    return status
