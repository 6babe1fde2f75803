"""The ``summarizer`` console entry point, with cold paths for ``score``, ``run``, ``output`` and ``hook``.

``summarizer run``, ``summarizer output`` and ``summarizer hook claude`` sit in front of every
command an agent runs, so they are dispatched here before anything else is imported: their
modules (:mod:`summarizer.agents.run`, :mod:`summarizer.agents.cold_output`,
:mod:`summarizer.agents.hook`) use the standard library until the input proves it needs more.
This module itself imports nothing beyond ``os`` and ``sys`` at load time for the same reason
(``typing``, ``dataclasses`` and the phase-gate package alone cost a third of ``python -c pass``).

Agents call ``summarizer score`` once per entry, so its start-up time is a measured goal (at most
ten times ``python -c pass``, ``evals/bench_score.py``). click and pydantic alone cost more than
that, so a plain ``score`` call (flags or one JSON object, no help, no error) is answered here with
the standard library and the pure scoring modules: :func:`summarizer.phasegate.entry_rules.light_entry` reads
the entry, :func:`summarizer.phasegate.service.score_one` scores it, and :func:`score_report` prints it, the
same functions the click command uses.

The cold path never decides anything the click command would decide differently: whenever it is
unsure (an unknown option, ``--help``, a missing file, invalid JSON, a value only pydantic can
judge) it steps aside *before printing anything*, and the click command runs as if it had not been
there, including reading stdin again. Every error message therefore comes from one place.
``tests/phase/test_launcher.py`` runs both paths on the same inputs and compares their output.

Why a second parser beside click at all: it was measured (``evals/bench_score.py``, the row "click +
light entry reader"). click with the same light reader and no pydantic still costs more than ten
times ``python -c pass`` for ``summarizer score``, and the commands an agent runs before every tool
call (``run``, ``output``, ``hook``) must start within three times it. Importing click alone takes
most of that budget, so the hot commands are answered here and everything else goes to click.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads the name)
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

__all__ = ["main", "try_cold_score"]

_VALUE_OPTIONS = {"--text": "text", "--files": "files", "--status": "status", "--from": "from_agent",
                  "--to": "to_agent", "--phase": "phase"}  # fmt: skip


class _Call:
    def __init__(self) -> None:
        self.entry: str | None = None
        self.as_json = False
        self.text: str | None = None
        self.files: str | None = None
        self.status: str | None = None
        self.from_agent: str | None = None
        self.to_agent: str | None = None
        self.phase: str | None = None


def _parse(args: Sequence[str]) -> _Call | None:
    # click's own parser is the import this path avoids. This one accepts only unambiguous forms
    # (each option once, values not starting with "-") and returns None for the rest, which click
    # then parses, so it needs none of click's error handling.
    call = _Call()
    seen: set[str] = set()
    rest = list(args)
    positional_only = False
    while rest:
        token = rest.pop(0)
        if positional_only or token == "-" or not token.startswith("-"):
            if call.entry is not None:
                return None
            call.entry = token
            continue
        if token == "--":
            positional_only = True
            continue
        name, has_value, value = token.partition("=")
        if name in seen:
            return None
        seen.add(name)
        if name == "--json" and not has_value:
            call.as_json = True
        elif name in _VALUE_OPTIONS:
            if not has_value:
                if not rest or rest[0].startswith("-"):
                    return None
                value = rest.pop(0)
            setattr(call, _VALUE_OPTIONS[name], value)
        else:
            return None
    return call


def _entry_data(call: _Call, stdin_data: bytes | None) -> dict[str, Any] | None:
    from summarizer.phasegate.entry_rules import flag_mapping

    if call.entry is None:
        if call.text is None or not call.text.strip():
            return None
        return flag_mapping(call.text, files=call.files, status=call.status, from_agent=call.from_agent,
                            to_agent=call.to_agent, phase=call.phase)  # fmt: skip
    if call.text is not None or any(v is not None for v in (call.files, call.status, call.from_agent,
                                                             call.to_agent, call.phase)):  # fmt: skip
        return None  # overriding a file's fields goes through the model
    if stdin_data is not None:
        raw = stdin_data
    elif os.path.isfile(call.entry):  # a regular file: reading it here does not consume it
        with open(call.entry, "rb") as handle:
            raw = handle.read()
    else:
        return None
    return _one_object(raw)


def _one_object(raw: bytes) -> dict[str, Any] | None:
    import json

    from summarizer.errors import InputError
    from summarizer.jsonio import loads

    try:
        text = raw.decode("utf-8").strip()
    except UnicodeDecodeError:
        return None
    if not text.startswith("{") or "\x00" in text:
        return None
    try:
        value = loads(text, source="entry")
    except (json.JSONDecodeError, InputError):
        return None
    return value if type(value) is dict else None


def try_cold_score(args: Sequence[str], read_stdin: Callable[[], bytes]) -> str | None:
    """What ``summarizer score ARGS`` prints, or ``None`` when the click command must answer.

    ``read_stdin`` is called only for ``ENTRY`` ``-`` on an otherwise acceptable command line.
    """
    from summarizer.jsonio import pretty
    from summarizer.phasegate.entry_rules import light_entry
    from summarizer.phasegate.render import score_report
    from summarizer.phasegate.service import score_one

    call = _parse(args)
    if call is None or any(not _encodable(arg) for arg in args):
        return None
    data = _entry_data(call, read_stdin() if call.entry == "-" else None)
    entry = light_entry(data) if data is not None else None
    if entry is None:
        return None
    result = score_one(entry)
    text = pretty(result.as_dict()) if call.as_json else "\n".join(score_report(result, entry.from_agent))
    # click.echo strips ANSI escapes when stdout is not a terminal; leave such text to click.
    return None if "\x1b" in text else text + "\n"


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # undecodable argv bytes arrive as lone surrogates
        return False
    return True


def _cold_path(args: list[str]) -> bool:
    """Answer ``summarizer score`` here if possible; True when done."""
    encoding = getattr(sys.stdout, "encoding", None) or ""  # no stdout at all when fd 1 is closed
    if not args or args[0] != "score" or encoding.lower().replace("-", "") != "utf8":
        return False
    consumed: list[bytes] = []

    def read_stdin() -> bytes:
        consumed.append(sys.stdin.buffer.read() if sys.stdin is not None else b"")
        return consumed[0]

    output = try_cold_score(args[1:], read_stdin)
    if output is None:
        if consumed:  # the click command reads stdin again
            import io

            encoding = getattr(sys.stdin, "encoding", None) or "utf-8"
            sys.stdin = io.TextIOWrapper(io.BytesIO(consumed[0]), encoding=encoding)
        return False
    try:
        sys.stdout.write(output)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`| head`): exit 1 quietly, as the click command does, and point
        # stdout at /dev/null so the interpreter's final flush does not complain either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except OSError as exc:
        sys.stderr.write(f"summarizer: {exc.strerror or exc} (I/O); check the path and permissions\n")
        sys.exit(1)
    return True


def main() -> None:
    """The ``summarizer`` command."""
    args = sys.argv[1:]
    if args and args[0] == "run":
        from summarizer.agents.run import main as run

        sys.exit(run(args[1:]))
    if args[:2] == ["hook", "claude"]:
        from summarizer.agents.hook import main as hook

        sys.exit(hook(args[2:]))
    if args and args[0] == "output":
        from summarizer.agents.cold_output import try_cold_output

        if try_cold_output(args[1:]):
            return
    if _cold_path(args):
        return
    from summarizer.cli import main as cli

    cli()
