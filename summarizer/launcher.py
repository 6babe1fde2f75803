"""The ``summarizer`` entry point: cold paths for ``run``, ``output`` and ``hook``, click for the rest.

``summarizer run``, ``summarizer output`` and ``summarizer hook <agent>`` sit in front of every
command an agent runs (goal: within three times ``python -c pass``), so they are dispatched here
before anything else is imported: their modules (:mod:`summarizer.agents.run`,
:mod:`summarizer.agents.cold_output`, :mod:`summarizer.agents.hook`) use the standard library until
the input proves it needs more. Importing click alone would take most of that budget. This module
itself imports nothing beyond ``os`` and ``sys`` at load time for the same reason.

``summarizer score`` used to have a hand-written argument parser here too. It was measured against
click with the light entry reader and no pydantic (``evals/bench_score.py``, the row "click + light
entry reader"): 7.3x ``python -c pass`` against the goal of 10x, so that parser is gone. ``score``
is an ordinary click command that reads plain entries with
:func:`summarizer.phasegate.entry_rules.light_entry` and leaves everything else to the model.
"""

from __future__ import annotations

import sys

__all__ = ["main"]


def main() -> None:
    """The ``summarizer`` command."""
    args = sys.argv[1:]
    if args and args[0] == "run":
        from summarizer.agents.run import main as run

        sys.exit(run(args[1:]))
    if args[:1] == ["hook"] and args[1:2] and args[1] in ("claude", "codex", "gemini", "cursor", "copilot"):
        from summarizer.agents.hook import main as hook

        sys.exit(hook(args[2:], args[1]))
    if args and args[0] == "output":
        from summarizer.agents.cold_output import try_cold_output

        if try_cold_output(args[1:]):
            _exit_now()
            return
    from summarizer.cli import main as cli

    if args[:1] == ["eval"]:
        # An eval that called a model imported litellm: some 3,000 modules whose teardown takes
        # a quarter of a second. The command has closed its stores and written its reports.
        try:
            cli()
        except SystemExit as done:
            if done.code is None or isinstance(done.code, int):
                _exit_now(done.code or 0)
            raise
        return
    cli()


def _exit_now(code: int = 0) -> None:
    """End a finished command at once: exit handlers run and output is flushed, but the
    interpreter's teardown (freeing every module and object: about 7 ms, a tenth of a cold
    ``output``; a quarter of a second once litellm is loaded) is skipped, as the process is about
    to end anyway. Anything unusual gets the normal exit."""
    import atexit
    import os

    run_handlers = getattr(atexit, "_run_exitfuncs", None)
    if run_handlers is None or sys.getprofile() is not None or sys.gettrace() is not None:
        return  # a profiler or debugger writes its results after the program returns
    run_handlers()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (AttributeError, OSError, ValueError):
        return  # the interpreter reports it on the way out, as it always did
    os._exit(code)
