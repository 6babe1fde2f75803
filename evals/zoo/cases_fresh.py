"""Zoo generators: tools the first zoo did not have (cppcheck, clang-tidy, yamllint, php -l,
minitest, go vet, terraform, sqlite3). Truth from each tool's machine-readable mode (XML, YAML,
JSON, parsable) or from the list of what was planted."""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from zoo_lib import Made, Truth, case, fresh, quiet, run, write

# -- cppcheck: C sources with a few planted bugs among style findings ---------------------------


def _c_module(n: int, planted: str) -> str:
    body = [
        "#include <stdlib.h>",
        "#include <string.h>",
        "",
        f"int total_{n}(const int *values, int count) {{",
        "    int sum = 0;",
        "    for (int i = 0; i < count; i++) sum += values[i];",
        "    return sum;",
        "}",
        "",
        f"int unused_{n}(int a, int b) {{ int tmp = a; return a + b; }}",
        "",
        f"void copy_{n}(char *dst, const char *src) {{ strcpy(dst, src); }}",
        "",
    ]
    return "\n".join([*body, planted, ""])


_CPPCHECK_PLANTS = {
    3: "int bad_index(void) {\n    int buf[8];\n    buf[8] = 1;\n    return buf[0];\n}",
    7: "int leak(void) {\n    char *p = malloc(16);\n    if (!p) return 1;\n    return 0;\n}",
    11: "int null_deref(void) {\n    int *p = NULL;\n    return *p;\n}",
    14: "int uninit(void) {\n    int x;\n    return x + 1;\n}",
}


@case("cppcheck_enable_all")
def cppcheck_enable_all(_: Path) -> Made:
    work = fresh("cppcheck_enable_all")
    write(work, {f"src/m{n:02d}.c": _c_module(n, _CPPCHECK_PLANTS.get(n, "")) for n in range(18)})
    flags = "--enable=all --inconclusive --suppress=missingIncludeSystem --std=c11"
    cmd = f"cppcheck {flags} src"
    out, rc = run(cmd, work)
    truth = Truth(source="cppcheck --xml (severity error must survive)")
    # Sorted like the text run (cppcheck checks files in name order) so the first is the first printed.
    xml = quiet(f"cppcheck {flags} --xml src 2>&1 1>/dev/null", work)
    errors = []
    for err in ET.fromstring(xml).iter("error"):
        loc = err.find("location")
        if err.get("severity") == "error" and loc is not None:
            errors.append((loc.get("file", ""), int(loc.get("line", 0)), loc.get("column", "")))
    for file, line, column in sorted(errors):
        where = f"{file}:{line}:{column}"
        truth.must.append(("location", where))
    truth.first_failure = truth.must[0][1] if truth.must else None
    return Made(out, cmd, rc, truth)


# -- clang-tidy: compile errors among readability and bugprone warnings ---------------------------

_TIDY_PLANTS = {2: "    return undeclared_count + 1;", 9: "    struct missing m; return m.x;"}


@case("clang_tidy_checks")
def clang_tidy_checks(_: Path) -> Made:
    work = fresh("clang_tidy_checks")
    files = {}
    for n in range(12):
        planted = _TIDY_PLANTS.get(n, "    return 0;")
        files[f"src/t{n:02d}.c"] = (
            "#include <string.h>\n#include <stdlib.h>\n\n"
            f"int f{n}(int a,int b){{if(a) return b; else return a;}}\n"
            f"void g{n}(char *d, const char *s){{ strcpy(d, s); }}\n"
            f"int h{n}(void) {{\n    int value = 3;\n{planted}\n}}\n"
        )
    write(work, files)
    checks = "-*,bugprone-*,readability-*,clang-analyzer-*"
    sources = " ".join(sorted(files))
    cmd = f"clang-tidy --checks='{checks}' {sources} -- -std=c11"
    out, rc = run(cmd, work)
    truth = Truth(source="clang-tidy --export-fixes (Level Error must survive)")
    quiet(f"clang-tidy --checks='{checks}' --export-fixes=fixes.yaml {sources} -- -std=c11", work)
    raw = (work / "fixes.yaml").read_text() if (work / "fixes.yaml").exists() else ""
    # The YAML is flat enough to read without a YAML library: one "- DiagnosticName:" per entry.
    for entry in raw.split("  - DiagnosticName:")[1:]:
        level = re.search(r"\n\s+Level:\s+(\w+)", entry)
        path = re.search(r"FilePath:\s+'?([^'\n]+)'?", entry)
        offset = re.search(r"FileOffset:\s+(\d+)", entry)
        if not (level and path and offset) or level.group(1) != "Error":
            continue
        source = Path(path.group(1)).read_text()[: int(offset.group(1))]
        line, column = source.count("\n") + 1, len(source) - source.rfind("\n")
        truth.must.append(("location", f"{os.path.relpath(path.group(1), work)}:{line}:{column}"))
    truth.first_failure = truth.must[0][1] if truth.must else None
    return Made(out, cmd, rc, truth)


# -- yamllint: style warnings over many files, a few real errors -----------------------------------

_YAMLLINT_CONFIG = """extends: default
rules:
  line-length: {max: 60, level: warning}
  trailing-spaces: {level: warning}
  indentation: {level: warning}
  comments: {level: warning}
  truthy: {level: warning}
"""


def _yaml_doc(n: int) -> str:
    lines = [
        f"service_{n}:",
        "  enabled: yes   ",
        f"  description: the service number {n} of the fleet, with a long line",
    ]
    lines += ["  ports:", "   - 80", "   - 443", "  #bad comment"]
    if n in (4, 19):
        lines += [f"  timeout_{n}: 10", f"  timeout_{n}: 20"]  # planted: duplicate key (an error)
    if n == 12:
        lines += ["  broken: [1, 2", "  other: 3"]  # planted: syntax error
    return "\n".join(lines) + "\n"


@case("yamllint_standard")
def yamllint_standard(_: Path) -> Made:
    work = fresh("yamllint_standard")
    write(work, {f"conf/s{n:02d}.yaml": _yaml_doc(n) for n in range(24)})
    write(work, {".yamllint": _YAMLLINT_CONFIG})
    cmd = "yamllint conf"
    out, rc = run(cmd, work)
    truth = Truth(source="yamllint -f parsable ([error] rows must survive: file and message)")
    rows = quiet("yamllint -f parsable conf", work).splitlines()
    parsed = [
        re.match(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): \[(?P<level>\w+)\] (?P<msg>.*)$", r)
        for r in rows
    ]
    errors = sorted(
        (
            (m.group("file"), int(m.group("line")), m.group("msg"))
            for m in parsed
            if m and m.group("level") == "error"
        ),
    )
    for file, _, message in errors:
        truth.must += [("file", file), ("message", re.sub(r"\s+\(\S+\)$", "", message))]
    truth.first_failure = errors[0][2].split(" (")[0] if errors else None
    return Made(out, cmd, rc, truth)


# -- php -l over a tree: hundreds of "No syntax errors" and a few parse errors --------------------

_PHP_PLANTS = {23: "echo 'a' 'b';", 141: "function f( { return 1; }", 288: "$x = [1, 2;"}


@case("php_lint_tree")
def php_lint_tree(_: Path) -> Made:
    work = fresh("php_lint_tree")
    files = {}
    for n in range(320):
        body = _PHP_PLANTS.get(n, f"echo 'module {n}';")
        files[f"src/module_{n:03d}.php"] = f"<?php\n$value = {n};\n{body}\n"
    write(work, files)
    cmd = 'for f in src/*.php; do php -l "$f"; done'
    out, _ = run(cmd + "; exit 0", work)
    truth = Truth(source="planted: the files with a syntax error (php -l exits 255 on each)")
    for n in sorted(_PHP_PLANTS):
        name = f"src/module_{n:03d}.php"
        _, code = run(f"php -l {name} >/dev/null 2>&1", work)
        if code != 0:
            truth.must.append(("file", name))
    truth.first_failure = truth.must[0][1] if truth.must else None
    return Made(out, cmd, 255 if truth.must else 0, truth)


# -- minitest (Ruby's bundled test framework), verbose -------------------------------------------

_RUBY_FAILING = {"test_rounds_7", "test_rounds_23", "test_parses_41"}


@case("minitest_verbose_failures")
def minitest_verbose_failures(_: Path) -> Made:
    work = fresh("minitest_verbose_failures")
    tests = []
    for n in range(48):
        name = f"test_rounds_{n}" if n < 30 else f"test_parses_{n}"
        expected = n + 1 if name in _RUBY_FAILING else n
        tests.append(f"  def {name}\n    assert_equal {expected}, {n}.round\n  end\n")
    source = "require 'minitest/autorun'\n\nclass TestNumbers < Minitest::Test\n" + "\n".join(tests) + "end\n"
    write(work, {"test/test_numbers.rb": source})
    cmd = "ruby test/test_numbers.rb -v -s 1234"
    out, rc = run(cmd, work)
    truth = Truth(source="planted: three assertions made to fail (assert_equal n+1, n)")
    truth.must += [("test", name) for name in sorted(_RUBY_FAILING)]
    # minitest runs in a seeded random order: the first failure printed is the first one run.
    text = out.decode("utf-8", "replace")
    order = [m.group(1) for m in re.finditer(r"TestNumbers#(test_\w+) = [\d.]+ s = F", text)]
    truth.first_failure = order[0] if order else None
    truth.runner_counts = (len(_RUBY_FAILING), 48 - len(_RUBY_FAILING))
    return Made(out, cmd, rc, truth)


# -- go vet: printf and copylock findings across packages -------------------------------------------


@case("go_vet_findings")
def go_vet_findings(_: Path) -> Made:
    work = fresh("go_vet_findings")
    files = {"go.mod": "module example.com/vetted\n\ngo 1.19\n"}
    for n in range(6):
        planted = ""
        if n in (1, 4):
            planted = f'\nfunc Report{n}(name string) {{ fmt.Printf("%d items\\n", name) }}\n'
        if n == 3:
            planted = "\nfunc Locked(m sync.Mutex) int { return 1 }\n\nvar _ = sync.Mutex{}\n"
        files[f"pkg{n}/p.go"] = (
            f'package pkg{n}\n\nimport (\n\t"fmt"\n\t"sync"\n)\n\nvar _ sync.Mutex\n\n'
            f'func Hello{n}() {{ fmt.Println("hello {n}") }}\n{planted}'
        )
    write(work, files)
    env = {"GOFLAGS": "-mod=mod", "GOPROXY": "off", "GOCACHE": str(work / ".gocache")}
    cmd = "go vet ./..."
    out, rc = run(cmd, work, env=env)
    truth = Truth(source="go vet -json (every finding's file:line:col must survive)")
    raw = quiet("go vet -json ./... 2>&1", work, env=env)
    # -json prints one JSON object per package after a "# pkg" line.
    found = []
    for block in re.split(r"^# .*$", raw, flags=re.MULTILINE):
        if not block.strip().startswith("{"):
            continue
        for analyzers in json.loads(block).values():
            for findings in analyzers.values():
                for finding in findings:
                    posn = finding["posn"]
                    found.append(
                        os.path.relpath(posn.rsplit(":", 2)[0], work)
                        + ":"
                        + ":".join(posn.rsplit(":", 2)[1:])
                    )
    for where in sorted(found):
        truth.must.append(("location", where))
    truth.first_failure = truth.must[0][1] if truth.must else None
    return Made(out, cmd, rc, truth)


# -- terraform validate: "Error: ... on main.tf line N" blocks ---------------------------------------

_TF = """terraform {
  required_version = ">= 1.0"
}

variable "region" {
  type    = string
  default = "eu-west-1"
}

locals {
  name    = "svc-${var.regon}"
  retries = 3
}

resource "terraform_data" "one" {
  input = local.name
}

resource "terraform_data" "two" {
  input      = local.retries
  triggers   = [terraform_data.one.output]
  unknown_ok = true
}

output "name" {
  value = local.nmae
}
"""


@case("terraform_validate")
def terraform_validate(_: Path) -> Made:
    work = fresh("terraform_validate")
    write(work, {"main.tf": _TF})
    quiet("terraform init -backend=false -input=false -no-color", work)
    cmd = "terraform validate -no-color"
    out, rc = run(cmd, work)
    truth = Truth(source="terraform validate -json (every error's summary and file:line must survive)")
    report = json.loads(quiet("terraform validate -json", work) or "{}")
    for diag in report.get("diagnostics", []):
        if diag.get("severity") != "error":
            continue
        rng = diag.get("range") or {}
        truth.must.append(("summary", diag["summary"]))
        truth.must.append(("location", f"on {rng.get('filename')} line {rng.get('start', {}).get('line')}"))
    truth.first_failure = truth.must[0][1] if truth.must else None
    return Made(out, cmd, rc, truth)


# -- sqlite3 running a script with .echo on: a few statements fail among hundreds -------------------

_SQL_PLANTS = {
    57: "INSERT INTO users VALUES (12, 'duplicate id');",
    133: "INSERT INTO ordrs VALUES (1, 1, 9.5);",
    201: "SELECT name FROM users WHERE id = = 3;",
}


@case("sqlite_script_errors")
def sqlite_script_errors(_: Path) -> Made:
    work = fresh("sqlite_script_errors")
    statements = [
        "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL);",
        "CREATE TABLE orders (id INTEGER PRIMARY KEY, user_id INTEGER, total REAL);",
    ]
    for n in range(2, 240):
        default = (
            "INSERT INTO users VALUES (12, 'first');"
            if n == 3
            else f"INSERT INTO users VALUES ({n + 100}, 'user {n}');"
        )
        statements.append(_SQL_PLANTS.get(n, default))
    write(work, {"load.sql": "\n".join(statements) + "\n"})
    cmd = "sqlite3 -echo -bail off data.db < load.sql"
    out, rc = run("rm -f data.db; sqlite3 -echo data.db < load.sql", work)
    truth = Truth(source="planted: three failing statements (each re-run alone must fail)")
    for n in sorted(_SQL_PLANTS):
        _, code = run(
            f"rm -f t.db; sqlite3 t.db '{statements[0]}' && sqlite3 -bail t.db < /dev/stdin <<'EOF'\n"
            f"INSERT INTO users VALUES (12, 'first');\n{statements[n]}\nEOF",
            work,
        )
        if code != 0:
            truth.must.append(("statement", statements[n]))
    truth.first_failure = truth.must[0][1] if truth.must else None
    return Made(out, cmd, rc, truth)
