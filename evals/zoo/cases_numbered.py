"""Zoo generators: runners that print their failures as numbered sections (JUnit 4's JUnitCore,
PHPUnit 9 ``--debug``, minitest's diffs) and node's spec reporter with suites titled "error". Truth
from each runner's machine side: JUnitCore's ``Result``, PHPUnit's ``--log-junit``, a minitest
reporter plugin, node's ``--test-reporter=junit``."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from zoo_lib import Made, Truth, case, fresh, quiet, run, write

_JUNIT = "/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar"

# -- JUnit 4: 400 tests, passing ones chatter on stderr, 6 planted failures -------------------------

_JAVA_FAILING = {7: "quote", 31: "number", 58: "width", 190: "quote", 221: "positive", 350: "number"}


def _java_test(n: int) -> str:
    kind = _JAVA_FAILING.get(n)
    if kind == "quote":
        body = (
            f'assertEquals("Confirm case {n} strips quotes", "quoted string", quote("\\"quoted string\\""));'
        )
    elif kind == "number":
        body = f'assertEquals({n}, parse("{n},5"));'
    elif kind == "width":
        body = "assertEquals(74, Formatter.DEFAULT_WIDTH);"
    elif kind == "positive":
        body = f'assertTrue("value {n} must be positive", -{n} > 0);'
    elif n % 40 == 0:
        body = f'System.err.println("Exception found converting option{n} to desired type: no such class");'
    elif n % 3 == 0:
        body = 'System.err.println("WARNING: option value not set, using the default");'
    else:
        body = f"assertEquals({n * 2}, {n} + {n});"
    return f"    @Test public void case{n:03d}() {{ {body} }}"


def _java_source() -> str:
    tests = "\n".join(_java_test(n) for n in range(400))
    return f"""import static org.junit.Assert.*;
import org.junit.Test;

public class OptionsTest {{
    static class Formatter {{ static final int DEFAULT_WIDTH = 80; }}
    static String quote(String s) {{ return s.startsWith("\\"") ? s.substring(1) : s; }}
    static int parse(String s) {{
        try {{ return Integer.parseInt(s); }}
        catch (NumberFormatException e) {{ throw new IllegalStateException("cannot convert " + s, e); }}
    }}
{tests}
}}
"""


_JAVA_TRUTH = """import org.junit.runner.*; import org.junit.runner.notification.*;
public class Truth { public static void main(String[] a) throws Exception {
  Result r = new JUnitCore().run(Class.forName(a[0]));
  System.out.println("run " + r.getRunCount() + " failures " + r.getFailureCount());
  for (Failure f : r.getFailures()) System.out.println(f.getTestHeader() + "\\t" + f.getException().getClass().getName()
      + "\\t" + String.valueOf(f.getMessage()).split("\\n")[0]); } }
"""


@case("junit4_numbered_failures")
def junit4_numbered_failures(_: Path) -> Made:
    work = fresh("junit4_numbered_failures")
    write(work, {"OptionsTest.java": _java_source(), "Truth.java": _JAVA_TRUTH})
    quiet(f"javac -cp {_JUNIT} OptionsTest.java Truth.java", work)
    cmd = f"java -cp .:{_JUNIT} org.junit.runner.JUnitCore OptionsTest"
    out, rc = run(cmd, work)
    rows = quiet(f"java -cp .:{_JUNIT} Truth OptionsTest", work).splitlines()
    truth = Truth(source="JUnitCore's Result (run count; each failure's header, exception class, message)")
    failures = [row.split("\t") for row in rows[1:]]
    for header, exception, message in failures:
        truth.must += [("test", header), ("message", f"{exception}: {message}")]
    truth.first_failure = failures[0][0]
    total = int(rows[0].split()[1])
    truth.runner_counts = (len(failures), total - len(failures))
    return Made(out, cmd, rc, truth)


# -- PHPUnit 9 --debug: data-provider tests, array diffs, one thrown exception ---------------------


def _php_source() -> str:
    cases = ",\n".join(f"            'route {n}' => ['/r{n}', ['GET', 'POST', 'DELETE']]" for n in range(40))
    return f"""<?php
use PHPUnit\\Framework\\TestCase;

final class RouterTest extends TestCase
{{
    private function allowed(string $path): array
    {{
        $methods = ['GET', 'POST', 'DELETE'];
        return (int) substr($path, 2) % 7 === 3 ? array_slice($methods, 1) : $methods;
    }}

    public function routes(): array
    {{
        return [
{cases}
        ];
    }}

    /** @dataProvider routes */
    public function testAllowedMethods(string $path, array $expected): void
    {{
        $this->assertSame($expected, $this->allowed($path));
    }}

    public function testDuplicateRouteError(): void {{ $this->assertTrue(true); }}
    public function testBadRoute(): void {{ throw new InvalidArgumentException('Cannot register two routes matching "/user"'); }}
}}
"""


@case("phpunit_debug_failures")
def phpunit_debug_failures(_: Path) -> Made:
    work = fresh("phpunit_debug_failures")
    write(work, {"RouterTest.php": _php_source()})
    cmd = "phpunit --debug RouterTest.php"
    out, rc = run(cmd, work)
    quiet("phpunit --log-junit report.xml RouterTest.php", work)
    cases = list(ET.parse(work / "report.xml").getroot().iter("testcase"))
    errors = [c for c in cases if c.find("error") is not None]
    failures = [c for c in cases if c.find("failure") is not None]
    truth = Truth(source="phpunit --log-junit (failing test cases, each failure's diff lines)")
    for item in errors + failures:
        truth.must.append(("test", f"{item.get('class')}::{item.get('name')}"))
        body = (item[0].text or "").splitlines()
        truth.must += [("diff", line) for line in body if line.startswith(("-  ", "+  "))]
    truth.must = list(dict.fromkeys(truth.must))
    # PHPUnit prints its errors' section before its failures'.
    first = (errors + failures)[0]
    truth.first_failure = f"{first.get('class')}::{first.get('name')}"
    truth.runner_counts = (len(errors) + len(failures), len(cases) - len(errors) - len(failures))
    return Made(out, cmd, rc, truth)


# -- minitest: unified diffs of failing assert_equal, one error ------------------------------------

_RUBY_PLUGIN = """require "json"
module Minitest
  class JsonTruth < AbstractReporter
    def initialize; @f = []; @n = 0; end
    def record(r); @n += 1; @f << {name: "#{r.klass}##{r.name}", message: r.failure.message} unless r.passed? || r.skipped?; end
    def report; File.write(ENV["TRUTH_OUT"], JSON.pretty_generate({runs: @n, failures: @f})); end
  end
  def self.plugin_jsontruth_init(_opts); reporter << JsonTruth.new if ENV["TRUTH_OUT"]; end
end
"""


def _ruby_source() -> str:
    tests = []
    for n in range(120):
        closing = "<hr />" if n % 29 == 5 else "<hr>"
        items = "".join(f"  <li>item {k}</li>\\n" for k in range(n % 4 + 2))
        tests.append(
            f"  def test_list_{n:03d}\n"
            f'    assert_equal("<ul>\\n{items}</ul>\\n{closing}\\n", render_list({n % 4 + 2}))\n  end'
        )
    tests.append('  def test_highlight = raise(LoadError, "cannot load such file -- rouge")')
    body = "\n".join(tests)
    return f"""require "minitest/autorun"

def render_list(count) = "<ul>\\n" + (0...count).map {{ |k| "  <li>item #{{k}}</li>\\n" }}.join + "</ul>\\n<hr>\\n"

class TestRender < Minitest::Test
{body}
end
"""


@case("minitest_diff_failures")
def minitest_diff_failures(_: Path) -> Made:
    work = fresh("minitest_diff_failures")
    write(work, {"test_render.rb": _ruby_source(), "plug/minitest/jsontruth_plugin.rb": _RUBY_PLUGIN})
    cmd = "ruby test_render.rb --verbose --seed 42"
    out, rc = run("TRUTH_OUT=truth.json ruby -Iplug test_render.rb --verbose --seed 42", work)
    report = json.loads((work / "truth.json").read_text())
    truth = Truth(source="a minitest reporter plugin (each failure's name and message)")
    for failure in report["failures"]:
        truth.must.append(("test", failure["name"]))
        lines = failure["message"].splitlines()
        truth.must += [
            ("diff", line) for line in lines if line[:1] in "-+" and line[:3] not in ("---", "+++")
        ]
    truth.must = list(dict.fromkeys(truth.must))
    truth.first_failure = report["failures"][0]["name"]
    truth.runner_counts = (len(report["failures"]), report["runs"] - len(report["failures"]))
    return Made(out, cmd, rc, truth)


# -- node --test, spec reporter: suites titled with "error" whose tests pass -----------------------


def _node_source() -> str:
    suites = []
    for s in range(12):
        title = ["Command.error()", "error handling", "when an error occurs", "parse"][s % 4] + f" #{s}"
        tests = []
        for t in range(25):
            wrong = (s, t) in ((3, 7), (11, 19))
            want = "4" if wrong else "4.5"
            tests.append(
                f"  it('reads value {t}', () => assert.strictEqual(String(parse('4.5')), '{want}'));"
            )
        suites.append(f"describe('{title}', () => {{\n" + "\n".join(tests) + "\n});")
    return (
        "const { describe, it } = require('node:test');\nconst assert = require('node:assert');\n"
        "function parse(v) { if (v === '') throw new TypeError('empty value'); return Number(v); }\n\n"
        + "\n".join(suites)
        + "\n"
    )


@case("node_spec_error_suites")
def node_spec_error_suites(_: Path) -> Made:
    work = fresh("node_spec_error_suites")
    write(work, {"suites.test.js": _node_source()})
    cmd = "node --test --test-reporter=spec suites.test.js"
    out, rc = run(cmd, work)
    report = quiet("node --test --test-reporter=junit suites.test.js", work)
    cases = list(ET.fromstring(report).iter("testcase"))
    failed = [c.get("name") or "" for c in cases if c.find("failure") is not None]
    truth = Truth(source="node --test-reporter=junit (failing test cases)")
    truth.must += [("test", name) for name in failed]
    truth.first_failure = failed[0]
    truth.runner_counts = (len(failed), len(cases) - len(failed))
    return Made(out, cmd, rc, truth)
