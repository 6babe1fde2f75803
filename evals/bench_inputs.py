"""Generators of the large benchmark inputs: no line repeats, nothing is a corpus cycled.

Four ~60 MB inputs (``build_log``, ``find_ls``, ``jsonl_log``, ``pytest_v``), each written by a
seeded generator, so every run measures the same bytes. The build/test log carries
:data:`BLOCKS` planted multi-line failure blocks of four shapes (compiler error with its
source and notes, Python traceback, Java exception with ``Caused by:``, failed test with its
assertion), whose lines the caller checks in the output. The listing is the machine's real
``find /usr /etc /var /opt -xdev -ls``, repeated under distinct roots (``/srv/mirrorNNNN``) so that no line repeats.
"""

from __future__ import annotations

import json
import random
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

BLOCKS = 50
_WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "sigma",
    "kappa",
    "omega",
    "orbit",
    "cache",
    "queue",
    "ledger",
    "parser",
    "vector",
    "shard",
]


def _hex(rng: random.Random, n: int = 12) -> str:
    return f"{rng.getrandbits(4 * n):0{n}x}"


def _noise_build(rng: random.Random, n: int) -> str:
    kind = n % 7
    mod, f = rng.randrange(400), rng.randrange(100_000)
    if kind == 0:
        return f"[{n % 100:3d}%] Building C object src/mod_{mod}/CMakeFiles/m{mod}.dir/file_{f}.c.o"
    if kind == 1:
        return f"gcc -O2 -Wall -Isrc/include -c src/mod_{mod}/file_{f}.c -o build/obj/{_hex(rng, 8)}.o"
    if kind == 2:
        return f"PASS tests/test_{_WORDS[mod % 14]}_{f}.py::test_case_{n} ({rng.random():.3f}s)"
    if kind == 3:
        return f"2026-03-{1 + n % 28:02d}T{n % 24:02d}:{n % 60:02d}:{rng.randrange(60):02d}.{n % 1000:03d}Z INFO worker-{mod} processed batch {f} id={_hex(rng)}"
    if kind == 4 and n % 5 == 0:
        return f"src/mod_{mod}/file_{f}.c:{rng.randrange(1, 900)}:{rng.randrange(1, 80)}: warning: unused variable 'tmp_{f}' [-Wunused-variable]"
    if kind == 5:
        return f"  CC      drivers/{_WORDS[f % 14]}/{_WORDS[mod % 14]}_{f}.o  ({_hex(rng, 6)})"
    return f"ok {n} - {_WORDS[mod % 14]} handles input {f} in {rng.randrange(1, 999)} ms"


def _block(rng: random.Random, k: int) -> list[str]:
    """Planted failure block ``k``: every line unique to it."""
    shape = k % 4
    f, line = rng.randrange(100_000), rng.randrange(10, 2000)
    if shape == 0:
        return [
            f"src/core/engine_{k}_{f}.c:{line}:17: error: 'planted_symbol_{k}' undeclared (first use in this function)",
            f"  {line} |     total += planted_symbol_{k} * weight_{f};",
            "      |              ^~~~~~~~~~~~~~~~~",
            f"src/core/engine_{k}_{f}.c:{line}:17: note: each undeclared identifier is reported only once for each function it appears in ({k})",
            f"make[2]: *** [src/core/CMakeFiles/core.dir/build.make:{k + 100}: src/core/engine_{k}_{f}.c.o] Error 1",
        ]
    if shape == 1:
        return [
            "Traceback (most recent call last):",
            f'  File "/srv/app/jobs/runner_{k}.py", line {line}, in run_job_{k}',
            f"    result = step_{f}(payload)",
            f'  File "/srv/app/jobs/steps_{k}.py", line {line + 7}, in step_{f}',
            f"    return decode(record['field_{k}'])",
            f"KeyError: 'field_{k}' (planted failure {k}, record {f})",
        ]
    if shape == 2:
        return [
            f"ERROR [main] c.e.billing.Invoicer{k} - invoice {f} failed",
            f"java.lang.IllegalStateException: ledger {k} closed before posting {f}",
            f"\tat com.example.billing.Ledger{k}.post(Ledger{k}.java:{line})",
            f"\tat com.example.billing.Invoicer{k}.run(Invoicer{k}.java:{line + 3})",
            f"Caused by: java.sql.SQLException: connection {f} reset by peer (planted {k})",
            f"\tat com.example.db.Pool{k}.borrow(Pool{k}.java:{line + 11})",
        ]
    return [
        f"FAIL: test_reconcile_{k}_{f} (tests.test_ledger_{k}.LedgerTest{k})",
        "----------------------------------------------------------------------",
        f'  File "/srv/app/tests/test_ledger_{k}.py", line {line}, in test_reconcile_{k}_{f}',
        f"    self.assertEqual(balance_{k}, {f})",
        f"AssertionError: {f + 1} != {f} : planted failure {k}",
    ]


def _write(path: Path, size: int | None, lines: Iterator[str]) -> int:
    """Write ``lines`` until ``size`` bytes (or until they end, with ``None``)."""
    written = 0
    with path.open("w", encoding="utf-8") as out:
        chunk: list[str] = []
        for line in lines:
            chunk.append(line)
            if len(chunk) >= 4096:
                data = "\n".join(chunk) + "\n"
                out.write(data)
                written += len(data.encode())
                chunk = []
                if size is not None and written >= size:
                    return written
        if chunk:
            data = "\n".join(chunk) + "\n"
            out.write(data)
            written += len(data.encode())
    return written


def build_log(path: Path, size: int, seed: int = 7) -> list[list[str]]:
    """A build/test log of ``size`` bytes with :data:`BLOCKS` failure blocks spread through it."""
    rng = random.Random(seed)
    blocks = [_block(rng, k) for k in range(BLOCKS)]
    approx_lines = size // 85
    at = sorted(rng.sample(range(100, max(approx_lines - 100, BLOCKS + 200)), BLOCKS))

    def lines() -> Iterator[str]:
        n, k = 0, 0
        while True:
            if k < BLOCKS and n >= at[k]:
                yield from blocks[k]
                k += 1
            yield _noise_build(rng, n)
            n += 1

    _write(path, size, lines())
    return blocks


def jsonl_log(path: Path, size: int, seed: int = 11) -> None:
    """JSON lines of a web service: a trace id per record, 1% warnings, 0.2% errors with a stack."""
    rng = random.Random(seed)

    def lines() -> Iterator[str]:
        n = 0
        while True:
            level = "error" if n % 500 == 7 else "warn" if n % 100 == 3 else "info"
            rec: dict[str, object] = {
                "ts": f"2026-04-{1 + n // 2_000_000:02d}T{(n // 90000) % 24:02d}:{(n // 1500) % 60:02d}:{(n // 25) % 60:02d}.{n % 1000:03d}Z",
                "level": level,
                "service": f"api-{n % 9}",
                "trace_id": _hex(rng, 32),
                "route": f"/v1/{_WORDS[n % 14]}/{rng.randrange(1_000_000)}",
                "status": 500 if level == "error" else 200,
                "latency_ms": round(rng.random() * 300, 2),
                "msg": "request completed",
            }
            if level == "error":
                rec["msg"] = "upstream call failed"
                rec["error"] = {
                    "type": "TimeoutError",
                    "message": f"deadline exceeded after {rng.randrange(900, 5000)} ms",
                    "stack": f"at call ({_WORDS[n % 14]}.js:{rng.randrange(1, 500)}:{rng.randrange(1, 80)})",
                }
            yield json.dumps(rec, separators=(",", ":"))
            n += 1

    _write(path, size, lines())


def pytest_v(path: Path, size: int, seed: int = 5) -> list[str]:
    """``pytest -v`` of a very large suite: every test id unique, 50 failures with their sections."""
    rng = random.Random(seed)
    approx = size // 80
    failing = set(rng.sample(range(approx), BLOCKS))
    names: list[str] = []

    def lines() -> Iterator[str]:
        yield "============================= test session starts =============================="
        yield "platform linux -- Python 3.11.7, pytest-8.3.5, pluggy-1.5.0 -- /srv/venv/bin/python"
        yield f"collected {approx} items"
        yield ""
        for n in range(approx):
            test = f"tests/{_WORDS[n % 14]}/test_mod_{n // 40:05d}.py::Test{_WORDS[(n // 7) % 14].title()}::test_case_{n}[{_hex(rng, 6)}]"
            status = "FAILED" if n in failing else ("SKIPPED" if n % 97 == 0 else "PASSED")
            if status == "FAILED":
                names.append(test)
            yield f"{test} {status} [{100 * n // approx:3d}%]"
        yield ""
        yield "=================================== FAILURES ==================================="
        for test in names:
            leaf = test.split("::")[-1]
            yield f"_____________________________ {leaf} _____________________________"
            yield f"    def {leaf.split('[')[0]}(self):"
            yield f">       assert compute({rng.randrange(1000)}) == {rng.randrange(1000)}"
            yield "E       AssertionError: values differ"
            yield f"{test.split('::')[0]}:{rng.randrange(10, 900)}: AssertionError"
        yield "=========================== short test summary info ============================"
        for test in names:
            yield f"FAILED {test} - AssertionError: values differ"
        yield f"========== {BLOCKS} failed, {approx - BLOCKS} passed in 8123.45s (2:15:23) =========="

    _write(path, None, lines())
    return names


def find_ls(path: Path, size: int) -> None:
    """The machine's real ``find -ls`` of its system folders, repeated under distinct roots."""
    roots = ["/usr", "/etc", "/var", "/opt"]
    listing = subprocess.run(["find", *roots, "-xdev", "-ls"], capture_output=True, check=False).stdout
    rows = [row for row in listing.decode("utf-8", "replace").split("\n") if row]

    def lines() -> Iterator[str]:
        copy = 0
        while True:
            prefix = f"/srv/mirror{copy:04d}"
            for row in rows:
                cut = row.find(" /")
                yield row if copy == 0 else row[: cut + 1] + prefix + row[cut + 1 :]
            copy += 1

    _write(path, size, lines())


GENERATORS: dict[str, Callable[[Path, int], object]] = {
    "build_log": build_log,
    "find_ls": find_ls,
    "jsonl_log": jsonl_log,
    "pytest_v": pytest_v,
}
