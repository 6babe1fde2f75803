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


# Both planting properties: 40 plantings each, the store fixture reused across examples on purpose.
_PLANTING = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@_PLANTING
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


# Whole multi-line failure blocks: every line of each must survive, with the near-duplicate of the
# noise line planted just above it (the failing variant of a repeated step).
_BLOCKS: dict[str, list[str]] = {
    "valgrind": [
        "==4242== Invalid read of size 4",
        "==4242==    at 0x109206: sum_{i} (records.c:1{i})",
        "==4242==    by 0x1092A3: main (records.c:24)",
        "==4242==  Address 0x4a8b04{i} is 0 bytes after a block of size 16 alloc'd",
        "==4242==    at 0x48407B4: malloc (vg_replace_malloc.c:381)",
        "==4242==    by 0x10919D: make_{i} (records.c:8)",
    ],
    "asan": [
        "==99==ERROR: AddressSanitizer: heap-use-after-free on address 0x60200000001{i} at pc 0x55d bp 0x7ff",
        "READ of size 4 at 0x60200000001{i} thread T0",
        "    #0 0x55d in use_{i} /src/uaf.c:1{i}",
        "freed by thread T0 here:",
        "    #0 0x7f{i} in free",
        "    #1 0x55e in drop_{i} /src/uaf.c:2{i}",
    ],
    "postgres": [
        "2026-12-01 10:00:0{i}.123 UTC [2250{i}] ERROR:  duplicate key value violates unique"
        ' constraint "o{i}_pkey"',
        "2026-12-01 10:00:0{i}.123 UTC [2250{i}] DETAIL:  Key (id)=({i}7) already exists.",
        "2026-12-01 10:00:0{i}.123 UTC [2250{i}] STATEMENT:  INSERT INTO orders VALUES ({i}7, 'x');",
    ],
    "shellcheck": [
        "In deploy_{i}.sh line 1{i}:",
        "echo $(( $(date +%s) - start_{i} ))",
        "     ^-- SC1102 (error): Shells disambiguate $(( differently or not at all.",
    ],
    "gcc": [
        "src/part_{i}.c:179:12: error: 'missing_{i}' undeclared (first use in this function)",
        "  179 |     return missing_{i} + 1;",
        "      |            ^~~~~~~~~",
        "src/part_{i}.c:179:12: note: each undeclared identifier is reported only once",
    ],
    "rustc": [
        "error[E0308]: mismatched types",
        "  --> src/ledger_{i}.rs:12:9",
        "   |",
        "12 |         total_{i}",
        "   |         ^^^^^^^^^ expected `u32`, found `i64`",
    ],
    "unittest": [
        "FAIL: test_reconcile_{i} (tests.test_ledger.LedgerTest)",
        "----------------------------------------------------------------------",
        "Traceback (most recent call last):",
        '  File "/srv/app/tests/test_ledger.py", line 4{i}, in test_reconcile_{i}',
        "    self.assertEqual(balance_{i}, 9{i})",
        "AssertionError: 9{i}5 != 9{i}",
    ],
    "java_caused_by": [
        "java.lang.IllegalStateException: ledger {i} closed",
        "\tat com.acme.Ledger.post(Ledger.java:4{i})",
        "Caused by: java.io.IOException: disk {i} full",
        "\tat com.acme.Disk.write(Disk.java:7{i})",
    ],
}


def _short_line_at(lines: list[str], at: int) -> int:
    """``at``, or the nearest cut before it whose line above is at most 200 characters long."""
    while at > 1 and len(lines[at - 1]) > 200:
        at -= 1
    return at


def _near_duplicate(line: str, token: str) -> str:
    """``line`` with its last word replaced by ``token``: a variant of a noise line."""
    words = line.rstrip().rsplit(maxsplit=1)
    if len(words) < 2:
        head, _, _ = line.rpartition("/")
        return f"{head}/{token}" if head else token
    return f"{words[0]} {token}"


@_PLANTING
@given(
    family=st.sampled_from(sorted(_BLOCKS)),
    # pip -vv lines run to ~100 tokens: three blocks' context alone fills these targets there, and
    # the folding order decides what stays (the order is tested with the other noises).
    noise=st.sampled_from(sorted(set(_NOISE) - {"noise_pip_vv.txt"})),
    size=st.integers(min_value=600, max_value=1500),  # a few blocks in 300 lines is a dense report
    positions=st.lists(st.floats(min_value=0.05, max_value=1), min_size=1, max_size=3),
    target=st.sampled_from([2000, 3000]),  # small targets fold the variants first, by design
)
def test_planted_blocks_survive_whole_with_their_failing_variant(
    tmp_path: Path, family: str, noise: str, size: int, positions: list[float], target: int
) -> None:
    """Whole failure blocks planted in real noise keep every line, and the near-duplicate of a noise
    line just above each block (the step that failed) is printed whole, not merged into a pattern."""
    block = _BLOCKS[family]
    noise_lines = [line for line in _NOISE[noise][:size] if line.strip()]
    # The variant is printed within a quarter of the target: plant it after a line of common length.
    cuts = sorted({_short_line_at(noise_lines, max(1, int(where * len(noise_lines)))) for where in positions})
    lines: list[str] = []
    wanted: list[str] = []
    start = 0
    variants: list[str] = []
    for copy, at in enumerate(cuts, start=1):
        variant = _near_duplicate(noise_lines[at - 1], f"variant_{copy}_failed.cfg")
        planted = [line.format(i=copy) for line in block]
        lines += [*noise_lines[start:at], variant, *planted]
        variants.append(variant.strip())
        wanted += [line.strip() for line in planted]
        start = at
    lines += noise_lines[start:]
    data = ("\n".join(lines) + "\n").encode()
    store = OriginalStore(tmp_path / "originals")
    result = compress(io.BytesIO(data), store, OutputOptions(target_tokens=target, floor_tokens=0))
    text = expand(result.text)
    for needle in wanted:
        assert needle in text, (family, noise, target, needle)
    for variant in variants:
        # A small listing's compact form lists every path under its directory ("dir/ name name").
        listed = result.text.startswith("[summarizer · listing") and variant.rsplit("/", 1)[-1] in text
        assert variant in text or listed, (family, noise, target, variant)
