"""Tool-output compression: stream the input once, keep every coordinate, render within a budget.

Public entry point: :func:`compress`. It reads a binary stream chunk by chunk, stores the original
byte-for-byte in the content-addressed store while reading (so the original is always one
``summarizer restore`` away), runs the :class:`~summarizer.output.engine.Engine` over the chunks
and renders the result with :func:`~summarizer.output.render.render`.

Token counts use the real o200k tokenizer (:func:`summarizer.tokens.count_tokens`). Counting is
about 1 MB/s, so past :data:`EXACT_TOKEN_BYTES` the original's count is extrapolated from every
:data:`TOKEN_SAMPLE_EVERY`-th chunk and ``original_tokens_exact`` says so.

Pass-through: inputs under the floor, or under the target (by default: 10,000 tokens or fewer),
come back unchanged; byte-identical unless the scrubber had to redact a secret.
"""

from __future__ import annotations

from typing import BinaryIO

from summarizer.output.classify import decide
from summarizer.output.engine import Engine
from summarizer.output.lines import iter_chunks
from summarizer.output.models import DEFAULT_BUDGET, DEFAULT_THRESHOLD, OutputOptions, OutputResult
from summarizer.output.originals import OriginalStore, TeeReader
from summarizer.output.render import passthrough_result, render
from summarizer.tokens import count_tokens, is_exact

__all__ = ["compress", "resolve_target"]

EXACT_TOKEN_BYTES = 2 << 20
TOKEN_SAMPLE_EVERY = 16


def resolve_target(original_tokens: int, options: OutputOptions) -> int | None:
    """The token budget, or ``None`` when the input passes through unchanged."""
    if original_tokens <= options.floor_tokens:
        return None
    if options.target_tokens is not None:
        return None if original_tokens <= options.target_tokens else options.target_tokens
    return None if original_tokens <= DEFAULT_THRESHOLD else DEFAULT_BUDGET


def compress(stream: BinaryIO, store: OriginalStore, options: OutputOptions | None = None) -> OutputResult:
    """Compress one tool output read from ``stream``; the original is kept in ``store``."""
    options = options or OutputOptions()
    writer = store.writer()
    engine = Engine()
    tokens_counted = 0
    bytes_counted = 0
    chunks = 0
    try:
        for chunk in iter_chunks(TeeReader(stream, writer)):
            engine.feed(chunk)
            chunks += 1
            if bytes_counted < EXACT_TOKEN_BYTES or chunks % TOKEN_SAMPLE_EVERY == 0:
                text = chunk.data.decode("utf-8", "replace")
                # Chunks end at a newline that split() removed; count it back.
                tokens_counted += count_tokens(text + "\n")
                bytes_counted += len(chunk.data) + 1
    except BaseException:
        writer.abort()
        raise
    engine.finish()
    restore_id = writer.commit()
    total_bytes = writer.size
    exact = bytes_counted >= total_bytes and is_exact()
    if total_bytes == 0:
        original_tokens = 0
    elif bytes_counted >= total_bytes:
        original_tokens = max(
            tokens_counted - (0 if total_bytes and _ends_with_newline(store, restore_id) else 1), 0
        )
    else:
        original_tokens = round(tokens_counted * total_bytes / max(bytes_counted, 1))
    target = resolve_target(original_tokens, options)
    classification = decide(engine.family_counts())
    if target is None:
        return passthrough_result(
            store, restore_id, engine, classification, original_tokens, exact, total_bytes, options
        )
    return render(
        engine,
        store_id=restore_id,
        classification=classification,
        original_tokens=original_tokens,
        exact=exact,
        total_bytes=total_bytes,
        target=target,
        options=options,
    )


def _ends_with_newline(store: OriginalStore, restore_id: str) -> bool:
    path = store.path(restore_id)
    size = path.stat().st_size
    if size == 0:
        return False
    with path.open("rb") as handle:
        handle.seek(size - 1)
        return handle.read(1) == b"\n"
