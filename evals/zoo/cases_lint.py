"""Zoo generators: Go build, shellcheck, eslint, ruff, mypy, pylint (truth from JSON modes)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from zoo_lib import Made, Truth, case, fresh, quiet, run, write

GO_FILES = {
    "go.mod": "module example.com/planted\n\ngo 1.19\n",
    "store/store.go": """package store

import (
	"fmt"
	"os"
)

type Store struct {
	items map[string]int
}

func (s *Store) Get(key string) int {
	value, ok := s.items[key]
	return value + ok // PLANT
}

func (s *Store) Save(path string) error {
	f, err := os.Create(path) // PLANT
	fmt.Fprintln(f, s.items)
	return nil
}

func Count(s Store) string {
	return len(s.items) // PLANT
}
""",
    "main.go": """package main

import (
	"example.com/planted/store"
	"strings"
)

func main() {
	s := store.Store{}
	println(s.Missing()) // PLANT
}
""",
}


@case("go_build_errors")
def go_build_errors(_: Path) -> Made:
    work = fresh("go_build_errors")
    write(work, GO_FILES)
    cmd = "go build ./..."
    out, rc = run(cmd, work, {"GOFLAGS": "-mod=mod", "GOPROXY": "off", "GOCACHE": str(work / ".cache")})
    truth = Truth(source="go vet -json per package (type-check errors) is not in go 1.19: planted lines")
    for rel in ("store/store.go",):
        for number, line in enumerate(GO_FILES[rel].splitlines(), 1):
            if "PLANT" in line:
                truth.must.append(("location", f"{rel}:{number}"))
    truth.first_failure = truth.must[0][1]
    return Made(out, cmd, rc, truth)


SH_SCRIPTS = {
    "deploy.sh": """#!/bin/bash
set -e
TARGET=$1
for f in $(ls build/*.tar.gz); do
  cp $f /srv/releases/$TARGET
done
if [ $TARGET == "prod" ]; then
  echo "deploying to $TARGET"
fi
cd /srv/releases
rm -rf $TARGET/*
read line
echo $((1 + ))
""",
    "backup.sh": """#!/bin/sh
SRC=~/data
DEST="/backups/`date +%F`"
[[ -d $DEST ]] || mkdir -p $DEST
tar czf $DEST/data.tgz $SRC 2>&1 >/dev/null
local count=3
echo "done: $COUNT files"
if [ -z $1 ]
then echo "no arg"
fi
""",
}


@case("shellcheck_tty")
def shellcheck_tty(_: Path) -> Made:
    work = fresh("shellcheck_tty")
    write(work, SH_SCRIPTS)
    cmd = "shellcheck deploy.sh backup.sh"
    out, rc = run(cmd, work)
    truth = Truth(source="shellcheck -f json1 (error and warning levels must survive; info/style should)")
    raw = json.loads(quiet("shellcheck -f json1 deploy.sh backup.sh", work))
    for c in raw["comments"]:
        item = ("location", f"In {c['file']} line {c['line']}:")
        code = ("code", f"SC{c['code']}")
        if c["level"] in ("error", "warning"):
            truth.must += [item, code]
            if c["level"] == "error" and truth.first_failure is None:
                truth.first_failure = f"SC{c['code']}"
        else:
            truth.should += [item, code]
    return Made(out, cmd, rc, truth)


def _eslint_sources() -> dict[str, str]:
    files = {}
    for n in range(12):
        body = [f"// module {n}", "const helpers = require('./helpers');", ""]
        for k in range(8):
            body.append(f"function handler{n}_{k}(req, res) {{")
            body.append(f"  var result = helpers.parse(req.body, {k});")
            body.append("  if (result == null) { return res.status(400).send('bad'); }")
            body.append("  return res.json(result)")
            body.append("}")
        if n % 4 == 1:
            body.append(f"undefinedCall{n}(handler{n}_0);")
        if n % 5 == 2:
            body.append(f"const dup{n} = 1;\nconst dup{n} = 2;")
        body.append(f"module.exports = {{ handler{n}_0 }};")
        files[f"src/mod{n:02d}.js"] = "\n".join(body) + "\n"
    files["src/helpers.js"] = "module.exports = { parse: (x) => x };\n"
    files["eslint.config.mjs"] = """export default [
  {
    files: ["src/**/*.js"],
    languageOptions: { sourceType: "commonjs", globals: { require: "readonly", module: "writable" } },
    rules: {
      "no-var": "warn", "eqeqeq": "warn", "semi": ["warn", "always"], "no-unused-vars": "warn",
      "no-undef": "error", "no-redeclare": "error"
    }
  }
];
"""
    return files


@case("eslint_stylish_mixed")
def eslint_stylish_mixed(_: Path) -> Made:
    work = fresh("eslint_stylish_mixed")
    write(work, _eslint_sources())
    eslint = os.environ.get("ZOO_ESLINT", "/tmp/ob/ufo/node_modules/.bin/eslint")
    cmd = "eslint src"
    out, rc = run(f"{eslint} src", work)
    truth = Truth(source="eslint --format json (severity 2 must survive, severity 1 should)")
    for result in json.loads(quiet(f"{eslint} --format json src", work)):
        rel = os.path.relpath(result["filePath"], work)
        for m in result["messages"]:
            # The stylish formatter drops a message's final period (eslint's formatters/stylish.js).
            item = ("message", m["message"].removesuffix("."))
            if m["severity"] == 2:
                truth.must.append(item)
                truth.must.append(("file", rel))
                truth.first_failure = truth.first_failure or item[1]
            else:
                truth.should.append(item)
    return Made(out, cmd, rc, truth)


def _py_sources(modules: int, planted: bool) -> dict[str, str]:
    files = {"pkg/__init__.py": ""}
    for n in range(modules):
        lines = ["import os, sys", "import json", "", f"class record{n}:", "    def __init__(self, Value):"]
        lines += ["        self.Value = Value", "", "    def Get(self, Key, Default = None):"]
        lines += ["        if Key == None: return Default", "        return self.Value.get(Key, Default)", ""]
        for k in range(6):
            lines += [
                f"def Helper_{k}(a,b, c = []):",
                f"    X = a+b # step {k}",
                "    c.append(X)",
                "    return c",
                "",
            ]
        if planted and n % 7 == 3:
            lines += [
                f"def broken_{n}(items: list[int]) -> int:",
                f"    return items.count() + missing_name_{n}",
                "",
            ]
        files[f"pkg/mod{n:03d}.py"] = "\n".join(lines) + "\n"
    return files


@case("ruff_full_context")
def ruff_full_context(_: Path) -> Made:
    work = fresh("ruff_full_context")
    write(work, _py_sources(10, True))
    ruff = os.environ.get("ZOO_RUFF", "/tmp/ob/pyenv/bin/ruff")
    select = "--select E,F,B,N,UP --isolated"
    cmd = f"ruff check --output-format=full {select} pkg"
    out, rc = run(f"{ruff} check --output-format=full {select} pkg", work)
    truth = Truth(
        source="ruff check --output-format=json (F8xx, the planted undefined names, must survive; style should)"
    )
    for d in json.loads(quiet(f"{ruff} check --output-format=json {select} pkg", work)):
        rel = os.path.relpath(d["filename"], work)
        where = f"{rel}:{d['location']['row']}:{d['location']['column']}"
        if d["code"] and d["code"].startswith("F8"):
            truth.must += [("location", where)]
            truth.first_failure = truth.first_failure or where
        else:
            truth.should.append(("location", where))
    return Made(out, cmd, rc, truth)


@case("mypy_pretty_context")
def mypy_pretty_context(_: Path) -> Made:
    work = fresh("mypy_pretty_context")
    write(work, _py_sources(14, True))
    mypy = os.environ.get("ZOO_MYPY", "/tmp/ob/pyenv/bin/mypy")
    cmd = "mypy --strict --pretty --no-incremental pkg"
    out, rc = run(f"{mypy} --strict --pretty --no-incremental pkg", work)
    truth = Truth(source="mypy -O json (errors must survive, notes should)")
    for line in quiet(f"{mypy} --strict --no-incremental -O json pkg", work).splitlines():
        d = json.loads(line)
        where = f"{d['file']}:{d['line']}"
        if d["severity"] == "error":
            truth.must.append(("location", where))
            truth.first_failure = truth.first_failure or where
        else:
            truth.should.append(("location", where))
    return Made(out, cmd, rc, truth)


@case("pylint_convention_flood")
def pylint_convention_flood(_: Path) -> Made:
    return _pylint("pylint_convention_flood", 60)


@case("pylint_thousand_conventions")
def pylint_thousand_conventions(_: Path) -> Made:
    """About a thousand convention, refactor and warning messages around a handful of errors."""
    return _pylint("pylint_thousand_conventions", 22)


def _pylint(name: str, modules: int) -> Made:
    work = fresh(name)
    write(work, _py_sources(modules, True))
    pylint = os.environ.get("ZOO_PYLINT", "/tmp/ob/pyenv/bin/pylint")
    cmd = "pylint --score=n pkg"
    out, rc = run(f"{pylint} --score=n pkg", work)
    truth = Truth(source="pylint --output-format=json (error and fatal must survive; the rest should)")
    for d in json.loads(quiet(f"{pylint} --output-format=json pkg", work) or "[]"):
        row = ("message", f"{d['path']}:{d['line']}:{d['column']}: {d['message-id']}")
        if d["type"] in ("error", "fatal"):
            truth.must.append(row)
            truth.first_failure = truth.first_failure or row[1]
    return Made(out, cmd, rc, truth)
