"""Zoo generators: test runners in six languages (truth from JUnit XML, JSON, or the planted list)."""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

from zoo_lib import Made, Truth, case, fresh, quiet, run, write

PYTEST_SRC = {
    "inventory.py": """def restock(levels, item, qty):
    if qty < 0:
        raise ValueError(f"negative quantity {qty} for {item}")
    levels[item] = levels.get(item, 0) + qty
    return levels[item]


def price(base, discount):
    return round(base * (1 - discount), 2)
""",
    "conftest.py": """import pytest


@pytest.fixture
def levels():
    return {"apple": 3, "pear": 0}


@pytest.fixture
def warehouse_db():
    raise ConnectionError("warehouse db at 127.0.0.1:5433 refused the connection")
""",
    "test_inventory.py": """import pytest
from inventory import price, restock


@pytest.mark.parametrize("qty", list(range(40)))
def test_restock_adds(levels, qty):
    assert restock(levels, "apple", qty) == 3 + qty


@pytest.mark.parametrize("base,discount,expected", [(10, 0.1, 9.0), (19.99, 0.15, 16.99), (5, 0.5, 2.5), (7, 0.3, 4.8)])
def test_price(base, discount, expected):
    assert price(base, discount) == expected


def test_negative_restock(levels):
    restock(levels, "pear", -2)


def test_sync(warehouse_db):
    assert warehouse_db


@pytest.mark.xfail(reason="rounding policy undecided")
def test_price_half_cent():
    assert price(0.005, 0) == 0.01
""",
}


def _junit_truth(xml_path: Path, source: str, fmt: str = "{classname}::{name}") -> Truth:
    truth = Truth(source=source)
    failed = passed = 0
    for tc in ET.parse(xml_path).getroot().iter("testcase"):
        bad = tc.find("failure") if tc.find("failure") is not None else tc.find("error")
        if tc.find("skipped") is not None:
            continue
        if bad is None:
            passed += 1
            continue
        failed += 1
        name = tc.get("name", "")
        truth.must.append(("test", name))
        truth.first_failure = truth.first_failure or name
    truth.runner_counts = (failed, passed)
    return truth


@case("pytest_params_fixture_errors")
def pytest_params_fixture_errors(_: Path) -> Made:
    work = fresh("pytest_params_fixture_errors")
    write(work, PYTEST_SRC)
    pytest = os.environ.get("ZOO_PYTEST", "/tmp/ob/pyenv/bin/pytest")
    cmd = "pytest -v -p no:cacheprovider"
    out, rc = run(f"{pytest} -v -p no:cacheprovider", work)
    quiet(f"{pytest} -q -p no:cacheprovider --junitxml=junit.xml", work)
    truth = _junit_truth(work / "junit.xml", "pytest --junitxml (failure and error test cases)")
    return Made(out, cmd, rc, truth)


VITEST_TEST = """import {{ describe, expect, it }} from "vitest";
import {{ slugify, clamp }} from "./lib";

describe("slugify", () => {{
{slug}
}});

describe("clamp", () => {{
{clamp}
}});
"""
VITEST_LIB = """export function slugify(text: string): string {
  return text.toLowerCase().trim().replace(/[^a-z0-9]+/g, "-");
}

export function clamp(value: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, value));
}
"""


def _vitest_sources() -> dict[str, str]:
    slug = []
    for n in range(30):
        expected = f"title-{n}" if n not in (7, 19) else f"title {n}"
        slug.append(
            f'  it("turns Title {n} into a slug", () => {{ expect(slugify(" Title {n} ")).toBe("{expected}"); }});'
        )
    slug.append('  it("drops a trailing dash", () => { expect(slugify("Hello!")).toBe("hello"); });')
    clamp = [
        f'  it("clamps {n}", () => {{ expect(clamp({n}, 0, 10)).toBe({min(n, 10)}); }});' for n in range(15)
    ]
    clamp.append(
        '  it("throws on an inverted range", () => { expect(() => clamp(1, 10, 0)).toThrow("inverted"); });'
    )
    return {
        "lib.ts": VITEST_LIB,
        "lib.test.ts": VITEST_TEST.format(slug="\n".join(slug), clamp="\n".join(clamp)),
        "package.json": '{"name": "zoo-vitest", "type": "module", "private": true}\n',
    }


@case("vitest_verbose_fail")
def vitest_verbose_fail(_: Path) -> Made:
    work = fresh("vitest_verbose_fail")
    write(work, _vitest_sources())
    modules = Path(os.environ.get("ZOO_NODE_MODULES", "/tmp/ob/ufo/node_modules"))
    (work / "node_modules").symlink_to(modules)
    cmd = "vitest run --reporter=verbose"
    out, rc = run("node_modules/.bin/vitest run --reporter=verbose", work, {"CI": "1"})
    quiet("node_modules/.bin/vitest run --reporter=json --outputFile=report.json", work, {"CI": "1"})
    report = json.loads((work / "report.json").read_text())
    truth = Truth(source="vitest --reporter=json (assertionResults with status failed)")
    for suite in report["testResults"]:
        for a in suite["assertionResults"]:
            if a["status"] == "failed":
                truth.must.append(("test", a["title"]))
                truth.first_failure = truth.first_failure or a["title"]
    truth.runner_counts = (report["numFailedTests"], report["numPassedTests"])
    (work / "node_modules").unlink()
    return Made(out, cmd, rc, truth)


RUST_LIB = """pub fn parse_pair(text: &str) -> Option<(i32, i32)> {
    let (a, b) = text.split_once(',')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;
{tests}
}
"""
RUST_FAILING = {
    7: 'assert_eq!(parse_pair("7, 8"), Some((8, 7)));',
    13: 'assert!(parse_pair("13;14").is_some(), "separator ; rejected");',
    21: "let v: Vec<i32> = vec![]; let _ = v[21];",
}


@case("cargo_test_failures")
def cargo_test_failures(_: Path) -> Made:
    work = fresh("cargo_test_failures")
    tests = []
    for n in range(30):
        body = RUST_FAILING.get(n, f'assert_eq!(parse_pair("{n}, {n + 1}"), Some(({n}, {n + 1})));')
        tests.append(f"    #[test]\n    fn parses_pair_{n}() {{ {body} }}")
    cargo = '[package]\nname = "pairs"\nversion = "0.1.0"\nedition = "2021"\n'
    write(work, {"Cargo.toml": cargo, "src/lib.rs": RUST_LIB.replace("{tests}", "\n".join(tests))})
    cmd = "cargo test --offline -- --test-threads=1"
    out, rc = run(cmd, work, {"CARGO_TERM_COLOR": "never", "RUST_BACKTRACE": "0"})
    truth = Truth(
        source="planted: three failing tests among 30, run in one thread (libtest runs them in name order)"
    )
    names = sorted(f"tests::parses_pair_{n}" for n in RUST_FAILING)  # string order: _13 < _21 < _7
    truth.must += [("test", name) for name in names]
    truth.first_failure = names[0]
    truth.runner_counts = (len(RUST_FAILING), 30 - len(RUST_FAILING))
    return Made(out, cmd, rc, truth)


GO_TEST = """package calc

import (
	"fmt"
	"testing"
)

func Add(a, b int) int { return a + b }

func TestAdd(t *testing.T) {
	for i := 0; i < 25; i++ {
		t.Run(fmt.Sprintf("case_%02d", i), func(t *testing.T) {
			want := 2 * i
			if i == 9 || i == 17 {
				want++
			}
			if got := Add(i, i); got != want {
				t.Errorf("Add(%d, %d) = %d, want %d", i, i, got, want)
			}
		})
	}
}

func TestDivide(t *testing.T) {
	var m map[string]int
	m["boom"] = 1
}

func TestLogsOnly(t *testing.T) { t.Log("nothing to see") }
"""


@case("go_test_subtests")
def go_test_subtests(_: Path) -> Made:
    work = fresh("go_test_subtests")
    write(work, {"go.mod": "module example.com/calc\n\ngo 1.19\n", "calc_test.go": GO_TEST})
    env = {"GOPROXY": "off", "GOCACHE": str(work / ".cache"), "GOFLAGS": "-count=1"}
    cmd = "go test -v ./..."
    out, rc = run(cmd, work, env)
    truth = Truth(source="go test -json (Action fail on a test)")
    failed = passed = 0
    for line in quiet("go test -json ./...", work, env).splitlines():
        event = json.loads(line)
        if not event.get("Test"):
            continue
        if event["Action"] == "fail":
            failed += 1
            truth.must.append(("test", event["Test"]))
            # The top-level test: `go test -v` prints a parent's `--- FAIL` line above its subtests'.
            truth.first_failure = truth.first_failure or event["Test"].split("/")[0]
        elif event["Action"] == "pass":
            passed += 1
    truth.runner_counts = (failed, passed)
    return Made(out, cmd, rc, truth)


JUNIT_TEST = """import static org.junit.Assert.*;
import org.junit.FixMethodOrder;
import org.junit.Test;
import org.junit.runners.MethodSorters;

@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class LedgerTest {{
{tests}
}}
"""


@case("junit4_console_failures")
def junit4_console_failures(_: Path) -> Made:
    work = fresh("junit4_console_failures")
    tests = []
    failing = {
        4: 'assertEquals("balance after fee", 96, 100 - 5);',
        11: 'assertTrue("ledger closed", false);',
        15: "Object o = null; o.toString();",
    }
    for n in range(20):
        body = failing.get(n, f"assertEquals({n} + 1, {n + 1});")
        tests.append(f"    @Test public void entry{n:02d}() {{ {body} }}")
    write(work, {"LedgerTest.java": JUNIT_TEST.format(tests="\n".join(tests))})
    cp = "/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar:."
    run(f"javac -cp {cp} LedgerTest.java", work)
    cmd = "java -cp /usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar:. org.junit.runner.JUnitCore LedgerTest"
    out, rc = run(cmd, work)
    truth = Truth(source="planted: three failing test methods among 20, run in name order")
    for n in sorted(failing):
        truth.must.append(("test", f"entry{n:02d}(LedgerTest)"))
    truth.first_failure = "entry04(LedgerTest)"
    truth.runner_counts = (3, 17)
    return Made(out, cmd, rc, truth)


PERL_TEST = """use strict;
use warnings;
use Test::More;

sub normalize {{ my $s = shift; $s =~ s/\\s+/ /g; return $s; }}

{tests}
done_testing();
"""


@case("prove_tap_failures")
def prove_tap_failures(_: Path) -> Made:
    work = fresh("prove_tap_failures")
    planted = []
    files = {}
    for f in range(3):
        tests = []
        for n in range(15):
            name = f"normalizes block {f}-{n}"
            expected = "a b" if (f, n) not in ((0, 6), (2, 11)) else "a  b"
            if (f, n) in ((0, 6), (2, 11)):
                planted.append((f"t/{f:02d}-normalize.t", name))
            tests.append(f'is(normalize("a   b"), "{expected}", "{name}");')
        files[f"t/{f:02d}-normalize.t"] = PERL_TEST.format(tests="\n".join(tests))
    write(work, files)
    cmd = "prove -v t/"
    out, rc = run(cmd, work)
    truth = Truth(source="planted: two failing assertions among 45", first_failure=planted[0][1])
    for path, name in planted:
        truth.must += [("test", name), ("file", path)]
    truth.runner_counts = (2, 43)
    return Made(out, cmd, rc, truth)
