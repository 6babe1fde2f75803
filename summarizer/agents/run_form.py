"""A small output's compact form on ``run``'s fast path, without the compression engine.

Under the pass-through bound the compressor's only choice is a compact form or the original
(docs/tool-output.md, "Listings, version control and search"), so ``run`` makes that choice here
and imports neither the engine nor the tokenizer: the form's parser, the originals store (the
form's header names the restore id) and the ledger. Anything unexpected (an output the parsers do
not read whole, a form that saves too little, a store that cannot be written) returns False and
the original is printed as before.
"""

from __future__ import annotations

import os

from summarizer.agents.child import write_all

__all__ = ["print_small_form"]

_ID_STAND_IN = "0" * 64


def _with_status(text: str, status: int) -> str:
    """A failing status joins the header line (as ``run_compress.with_exit_code`` does); 0 goes
    without saying."""
    if status == 0:
        return text
    first, newline, rest = text.partition("\n")
    head, _, tail = first.rpartition(" · restore ")
    return f"{head} · exit code {status} · restore {tail}{newline}{rest}"


def print_small_form(head: bytes, status: int, command: str, piped: str | None) -> bool:
    """Print the compact form of ``head`` (the whole output, valid UTF-8) when it saves enough;
    True when printed (the original stored and a ledger line written)."""
    from summarizer.output.forms import compact_form, render_form, saves_estimated
    from summarizer.output.lines import strip_ansi

    original = strip_ansi(head.decode("utf-8"))
    form = compact_form(original)
    if form is None or not saves_estimated(original, render_form(form, _ID_STAND_IN)):
        return False
    restore_id = _store(head)
    if restore_id is None:
        return False
    text = _with_status(render_form(form, restore_id), status)
    printed = text.encode("utf-8")
    write_all(1, printed)
    _record(command, head, printed, restore_id, piped)
    return True


def _store(data: bytes) -> str | None:
    from summarizer import app
    from summarizer.agents.paths import store_dir
    from summarizer.core.errors import SummarizerError

    try:
        writer = app.originals_at(store_dir(os.environ), os.environ).writer()
        writer.write(data)
        return writer.commit()
    except (SummarizerError, OSError):
        return None


def _record(command: str, head: bytes, printed: bytes, restore_id: str, piped: str | None) -> None:
    from summarizer.agents.paths import cache_dir
    from summarizer.gain.ledger import LEDGER_DIR, append
    from summarizer.output.kept import estimate_bytes

    append(
        os.path.join(cache_dir(os.environ), LEDGER_DIR),
        tool="run",
        command=command,
        size=len(head),
        tokens_in=estimate_bytes(len(head)),
        tokens_out=estimate_bytes(len(printed)),
        passthrough=False,
        restore_id=restore_id,
        piped=piped,
    )
