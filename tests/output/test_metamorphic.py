"""Metamorphic property: planting real failure lines into large real noise never loses one.

For every failure family, K real-shaped error lines (or blocks) are planted at random positions in
real noise (a ``find`` listing, LogHub HDFS INFO records, ``pip -vv`` output, a 600-test all-pass
pytest run); whatever the noise, the positions and the target (down to 500 tokens), each planted
failure's key text survives in the rendering (file-factored rows read whole).
"""

from __future__ import annotations

import io
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from summarizer.output import OriginalStore, OutputOptions, compress
from summarizer.output.grouping import expand
from tests.output.conftest import fixture_bytes

_NOISE = {
    name: fixture_bytes(name).decode().splitlines()
    for name in (
        "noise_find_listing.txt",
        "noise_hdfs_info.txt",
        "noise_pip_vv.txt",
        "real_pytest_all_pass_600.txt",
    )
}

# Each family: (lines to plant as one block, the texts that must survive). ``{i}`` varies per copy.
_FAMILIES: dict[str, tuple[list[str], list[str]]] = {
    "pytest": (
        ["FAILED tests/test_cart_{i}.py::test_total[1 000] - AssertionError: assert 3 == 4"],
        ["tests/test_cart_{i}.py::test_total[1 000]"],
    ),
    "unittest": (
        ["FAIL: test_remove_{i} (__main__.InventoryTest.test_remove_{i})"],
        ["FAIL: test_remove_{i} (__main__.InventoryTest.test_remove_{i})"],
    ),
    "cargo": (
        ["error[E0425]: cannot find value `total_{i}` in this scope", "  --> src/ledger_{i}.rs:12:9"],
        ["cannot find value `total_{i}`", "src/ledger_{i}.rs:12:9"],
    ),
    "go": (["--- FAIL: TestParse{i} (0.00s)", "    parse_test.go:4{i}: got 3, want 4"], ["TestParse{i}"]),
    "node": (["not ok {i} - totals match for cart {i}"], ["totals match for cart {i}"]),
    "tsc": (
        ["src/app_{i}.ts(3,{i}): error TS2339: Property 'nmae' does not exist on type 'User'."],
        ["src/app_{i}.ts(3,{i})"],
    ),
    "eslint": (
        ["/home/dev/js/src/util_{i}.js", "  6:14  error  'undefinedThing{i}' is not defined  no-undef"],
        ["/home/dev/js/src/util_{i}.js", "'undefinedThing{i}' is not defined"],
    ),
    "gcc_make": (
        [
            "src/part_{i}.c:179:12: error: 'missing_{i}' undeclared (first use in this function)",
            "make: *** [Makefile:7: src/part_{i}.o] Error 1",
        ],
        ["src/part_{i}.c:179:12", "make: *** [Makefile:7: src/part_{i}.o] Error 1"],
    ),
    "javac": (
        ["src/main/java/App{i}.java:[12,5] cannot find symbol"],
        ["src/main/java/App{i}.java:[12,5]"],
    ),
    "mypy": (
        [
            'app/mod_{i}.py:13: error: Argument 1 to "scale" has incompatible type "str";'
            ' expected "int"  [arg-type]'
        ],
        ["app/mod_{i}.py:13", "[arg-type]"],
    ),
    "pip": (["ERROR: No matching distribution found for leftpad{i}==9.9"], ["leftpad{i}==9.9"]),
    "npm": (["npm error 404 Not Found - GET https://registry.npmjs.org/nopkg{i} - Not found"], ["nopkg{i}"]),
    "git": (["CONFLICT (content): Merge conflict in src/mod{i}/handlers.py"], ["src/mod{i}/handlers.py"]),
    "coreutils": (
        ["find: '/var/lib/private_{i}': Permission denied"],
        ["/var/lib/private_{i}': Permission denied"],
    ),
    "python_traceback": (
        [
            "Traceback (most recent call last):",
            '  File "/srv/app/main_{i}.py", line 4{i}, in <module>',
            "    run()",
            "KeyError: 'sku-{i}'",
        ],
        ["KeyError: 'sku-{i}'", "/srv/app/main_{i}.py"],
    ),
    "jvm_trace": (
        [
            "java.lang.IllegalStateException: ledger {i} closed",
            "\tat com.acme.Ledger.post(Ledger.java:4{i})",
            "\tat java.base/java.lang.Thread.run(Thread.java:833)",
        ],
        ["IllegalStateException: ledger {i} closed", "Ledger.java:4{i}"],
    ),
    "js_trace": (
        ["TypeError: cart{i}.items is undefined", "    at total (/home/dev/js/src/cart{i}.js:2:16)"],
        ["TypeError: cart{i}.items is undefined", "src/cart{i}.js:2:16"],
    ),
    "http_5xx": (
        ['INFO:werkzeug:127.0.0.1 - - [01/Dec/2026 14:36:57] "GET /orders/{i}/total HTTP/1.1" 500 -'],
        ['"GET /orders/{i}/total HTTP/1.1" 500'],
    ),
    "validation_block": (
        [
            "pydantic_core._pydantic_core.ValidationError: 2 validation errors for Settings{i}",
            "services.{i}.port",
            "  Input should be less than or equal to 65535 [type=less_than_equal, input_value=7001{i}]",
            "workers_{i}",
            "  Input should be a valid integer [type=int_parsing, input_value='four']",
        ],
        ["services.{i}.port", "input_value=7001{i}", "workers_{i}", "Input should be a valid integer"],
    ),
}


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    family=st.sampled_from(sorted(_FAMILIES)),
    noise=st.sampled_from(sorted(_NOISE)),
    size=st.integers(min_value=300, max_value=1500),
    positions=st.lists(st.floats(min_value=0, max_value=1), min_size=1, max_size=4),
    target=st.sampled_from([500, 1000, 3000]),
)
def test_planted_failures_survive_in_real_noise(
    tmp_path: Path, family: str, noise: str, size: int, positions: list[float], target: int
) -> None:
    """K copies of a family's failure, planted anywhere in real noise, all survive at any target."""
    block, needles = _FAMILIES[family]
    noise_lines = _NOISE[noise][:size]
    # Blocks go between noise lines, never inside another block.
    cuts = sorted(int(where * len(noise_lines)) for where in positions)
    lines: list[str] = []
    wanted: list[str] = []
    start = 0
    for copy, at in enumerate(cuts, start=1):
        lines += noise_lines[start:at] + [line.format(i=copy) for line in block]
        wanted.extend(needle.format(i=copy) for needle in needles)
        start = at
    lines += noise_lines[start:]
    data = ("\n".join(lines) + "\n").encode()
    store = OriginalStore(tmp_path / "originals")
    result = compress(io.BytesIO(data), store, OutputOptions(target_tokens=target, floor_tokens=0))
    text = expand(result.text)
    for needle in wanted:
        assert needle in text, (family, noise, needle)
