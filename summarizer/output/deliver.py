"""What ``summarizer output`` writes: the compressed rendering, the input itself, or the JSON envelope.

The edge's logic, kept beside the engine so every front end (the click command, the cold launcher,
``summarizer run``) prints the same bytes and every test can hand in its own store. The store is
a parameter: :mod:`summarizer.app` builds the real one.

When the original cannot be stored, a compressed rendering would lose the cut lines for good, so the
whole input goes to ``out`` uncompressed (what was read, then the rest of the stream), scrubbed of
secrets like everything else that leaves the process, and a
:class:`~summarizer.core.errors.StorageError` says why; the caller exits 1.
"""

from __future__ import annotations

from summarizer.core.errors import InputError, StorageError

TYPE_CHECKING = False  # typing stays off the cold path (docs/cold-path.md)
if TYPE_CHECKING:
    from typing import BinaryIO, NoReturn

    from summarizer.output.compressor import Plan
    from summarizer.output.kept import Rendering
    from summarizer.output.originals import OriginalNotStored, OriginalStore

__all__ = ["deliver"]


def deliver(
    stream: BinaryIO,
    store: OriginalStore,
    plan: Plan,
    *,
    out: BinaryIO,
    as_json: bool = False,
    name: str = "-",
) -> Rendering:
    """Compress ``stream`` into ``store`` and write what ``summarizer output`` prints to ``out``.

    The JSON envelope reports real token counts (the tokenizer is loaded for it); the text
    rendering estimates them from the bytes, so pydantic and the tokenizer stay unloaded.
    """
    from summarizer.core.records import replace
    from summarizer.output.compressor import compress_plain
    from summarizer.output.lines import SNIFF_BYTES, looks_binary
    from summarizer.output.originals import OriginalNotStored

    peek = getattr(stream, "peek", None)
    if peek is not None and looks_binary(peek(SNIFF_BYTES)):
        raise InputError(
            f"input {name!r} is binary data, not a tool's text output; give summarizer output "
            "the text a command printed"
        )
    try:
        result = compress_plain(stream, store, replace(plan, exact_tokens=as_json or plan.exact_tokens))
    except OriginalNotStored as failure:
        _hand_back(failure, stream, out, as_json=as_json)
    if result.bytes == 0:
        raise InputError(f"input {name!r} is empty; give it some content")
    if as_json:
        from summarizer.core.jsonio import pretty
        from summarizer.output.models import result_of

        out.write((pretty(result_of(result).model_dump(mode="json")) + "\n").encode("utf-8"))
    elif result.passthrough and not result.redactions:
        for block in store.iter_bytes(result.restore_id):  # byte-identical: the stored original
            out.write(block)
    else:
        out.write(result.text.encode("utf-8"))
    out.flush()
    return result


def _hand_back(failure: OriginalNotStored, stream: BinaryIO, out: BinaryIO, *, as_json: bool) -> NoReturn:
    """Write the whole input uncompressed (scrubbed), then raise :class:`StorageError` (exit 1).

    With ``as_json`` too: ``out`` is the one channel sure to reach the caller (the disk just failed),
    and exit 1 with the stderr line tells it this is not JSON.
    """
    from summarizer.core.scrub import ChunkScrubber
    from summarizer.output.lines import READ_SIZE

    # Not stored is no reason to print a secret: the input goes out scrubbed, line structure kept.
    clean = ChunkScrubber()
    with failure.read_so_far as read_so_far:
        for block in read_so_far:
            out.write(clean.feed(block))
    # The stream is positioned just past what the store took; copy the rest without holding it.
    while block := stream.read(READ_SIZE):
        out.write(clean.feed(block))
    out.write(clean.finish())
    out.flush()
    printed = "printed the input unchanged" + (" instead of JSON" if as_json else "")
    if clean.redactions:
        printed += f" but for {clean.redactions:,} redacted secrets"
    if read_so_far.missing is not None:
        start, count = read_so_far.missing
        printed += (
            f" except bytes {start + 1:,}-{start + count:,}, which could not be read back "
            f"({read_so_far.missing_reason}); re-run the command to get them"
        )
    raise StorageError(
        f"could not store the original ({failure.reason}); {printed}; "
        "set SUMMARIZER_CACHE_DIR to a writable directory with free space"
    ) from failure
