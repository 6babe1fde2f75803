"""The hand parsers of the cold paths agree with click, which parses the same options on the warm path.

``output``'s cold parser either defers to click (``None``) or reads exactly what click would; ``run``
accepts a ``--target`` / ``--floor`` value exactly when ``output``'s click options do (docs/cold-path.md).
"""

from __future__ import annotations

import click
import pytest
from hypothesis import given
from hypothesis import strategies as st

from summarizer.agents.cold_output import parse_output_args
from summarizer.agents.run import COLD_MAX_BYTES, RunCall, parse
from summarizer.cli.output import output

TOKENS = st.sampled_from(
    [
        "--target",
        "--target=800",
        "--target=0",
        "--floor",
        "--floor=10",
        "--floor=-1",
        "--exit-code",
        "--exit-code=-2",
        "--json",
        "--command",
        "-",
        "log.txt",
        "other.txt",
        "0",
        "1",
        "42",
        "-5",
        "1.5",
        "abc",
        "",
    ]
)


def _click(args: list[str]) -> dict[str, object] | None:
    """What click reads from ``summarizer output ARGS``; None when it refuses them."""
    try:
        with output.make_context("output", list(args)) as ctx:
            return dict(ctx.params)
    except click.UsageError:
        return None


@given(st.lists(TOKENS, max_size=6))
def test_what_the_cold_output_parser_reads_click_reads_the_same(args: list[str]) -> None:
    """Accepted by hand: click accepts it too, with the same source, options and pass-through bound."""
    cold = parse_output_args(args)
    if cold is None:
        return
    params = _click(args)
    assert params is not None, f"the cold path accepted what click refuses: {args}"
    target = params["target"]
    floor = params["floor"]
    assert isinstance(floor, int) and (target is None or isinstance(target, int))
    bound = max(floor, target if target is not None else 0)
    got = (cold.source, cold.target, cold.floor, cold.exit_code, cold.bound)
    assert got == (params["source"], target, floor, params["exit_code"], min(bound, COLD_MAX_BYTES))


@pytest.mark.parametrize("args", [["--target=800", "log.txt"], ["--floor", "10", "-"], ["--exit-code", "-2"]])
def test_plain_output_calls_take_the_cold_path(args: list[str]) -> None:
    """The calls agents make are read by hand (deferring everything would make the path pointless)."""
    assert parse_output_args(args) is not None


@pytest.mark.parametrize("option", ["--target", "--floor"])
@pytest.mark.parametrize("value", ["0", "1", "800", "-5", "1.5", "abc", "", "007"])
def test_run_takes_the_values_output_takes(option: str, value: str) -> None:
    """``run --target/--floor`` accept a value exactly when ``output``'s click options accept it."""
    by_hand = isinstance(parse([f"{option}={value}", "--", "true"], {}), RunCall)
    assert by_hand == (_click([f"{option}={value}"]) is not None)


def test_the_launcher_dispatches_exactly_the_hook_hosts() -> None:
    """``summarizer hook AGENT`` skips click for exactly the hosts the hook module answers and
    click declares."""
    import ast
    import inspect

    from summarizer import launcher
    from summarizer.agents.hook import HOSTS
    from summarizer.cli.agents import hook

    tree = ast.parse(inspect.getsource(launcher))
    tuples = [
        {e.value for e in node.elts if isinstance(e, ast.Constant)}
        for node in ast.walk(tree)
        if isinstance(node, ast.Tuple)
        and any(isinstance(e, ast.Constant) and e.value == "claude" for e in node.elts)
    ]
    assert tuples == [set(HOSTS)]
    assert set(hook.commands) == set(HOSTS)
