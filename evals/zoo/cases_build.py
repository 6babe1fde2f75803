"""Zoo generators: compilers, linters and type checkers (truth from each tool's JSON mode)."""

from __future__ import annotations

import json
from pathlib import Path

from zoo_lib import Made, Truth, case, fresh, quiet, run, write

C_MAIN = """#include <stdio.h>
#include <string.h>
#include "util.h"

static int unused_helper(int x) { return x * 2; }

int main(int argc, char **argv) {
    int count = argc;
    char buf[8];
    strcpy(buf, argv[0]);
    printf("%s %d\\n", buf, count, 3);
    undeclared_total += count;            /* PLANT-1 */
    struct point p = {1, 2};              /* PLANT-2 */
    return parse_number(buf, 10, 3);      /* PLANT-3 */
}
"""
C_UTIL_H = "int parse_number(const char *text, int base);\n"
C_UTIL = """#include "util.h"
#include <stdlib.h>

int parse_number(const char *text, int base) {
    int unused;
    long value = strtol(text, NULL, base);
    if (value > 10) return "too big";      /* PLANT-4 */
    return (int)value
}                                          /* PLANT-5 */
"""


def _gcc_truth(work: Path, compiler: str, sources: list[str], flags: str) -> Truth:
    truth = Truth(source=f"{compiler} -fdiagnostics-format=json, one run per file")
    for src in sources:
        raw = quiet(f"{compiler} {flags} -fdiagnostics-format=json -c {src} -o /dev/null 2>&1", work)
        for diag in json.loads(raw or "[]"):
            caret = diag["locations"][0]["caret"] if diag.get("locations") else None
            if caret is None:
                continue
            where = f"{caret['file']}:{caret['line']}:{caret['column']}"
            if diag["kind"] == "error":
                truth.must.append(("location", where))
                truth.first_failure = truth.first_failure or where
            elif diag["kind"] == "warning":
                truth.should.append(("location", where))
    return truth


@case("gcc_c_errors")
def gcc_c_errors(_: Path) -> Made:
    work = fresh("gcc_c_errors")
    write(work, {"main.c": C_MAIN, "util.h": C_UTIL_H, "util.c": C_UTIL})
    cmd = "gcc -Wall -Wextra -fno-diagnostics-color -c main.c util.c"
    out, rc = run(cmd, work)
    return Made(out, cmd, rc, _gcc_truth(work, "gcc", ["main.c", "util.c"], "-Wall -Wextra"))


CPP = """#include <map>
#include <string>
#include <vector>
#include <algorithm>

template <typename T>
struct Box {
    T value;
    T twice() const { return value + value; }
};

struct Opaque {};

int main() {
    std::map<std::string, int> counts;
    counts.insert(42);                                   // PLANT-1
    std::vector<Opaque> items(3);
    std::sort(items.begin(), items.end());               // PLANT-2
    Box<Opaque> box{Opaque{}};
    auto doubled = box.twice();                          // PLANT-3
    int total = counts.at("a") + doubled;
    return total;
}
"""


@case("gpp_template_errors")
def gpp_template_errors(_: Path) -> Made:
    work = fresh("gpp_template_errors")
    write(work, {"main.cpp": CPP})
    cmd = "g++ -std=c++17 -Wall -fno-diagnostics-color -c main.cpp"
    out, rc = run(cmd, work)
    return Made(out, cmd, rc, _gcc_truth(work, "g++", ["main.cpp"], "-std=c++17 -Wall"))


RUST_MAIN = """use std::collections::HashMap;

fn total(values: &Vec<i32>) -> i32 {
    values.iter().sum()
}

fn main() {
    let names = vec![String::from("a"), String::from("b")];
    let moved = names;
    println!("{}", names.len());            // PLANT-1 E0382
    let mut scores: HashMap<String, i32> = HashMap::new();
    scores.insert("x".to_string(), "ten");  // PLANT-2 E0308
    let unused_variable = 3;
    let count: u8 = total(&vec![1, 2]);     // PLANT-3 E0308
    println!("{} {}", moved.len(), count);
    undefined_function(1);                  // PLANT-4 E0425
}
"""
CARGO_TOML = '[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n{deps}'


def _cargo_truth(work: Path) -> Truth:
    truth = Truth(source="cargo build --message-format=json (compiler-message, level error)")
    raw = quiet("cargo build --offline --message-format=json 2>/dev/null", work)
    for line in raw.splitlines():
        msg = json.loads(line)
        if msg.get("reason") != "compiler-message":
            continue
        body = msg["message"]
        spans = [s for s in body["spans"] if s["is_primary"]]
        if body["level"] != "error" or not spans:
            continue
        where = f"{spans[0]['file_name']}:{spans[0]['line_start']}:{spans[0]['column_start']}"
        truth.must.append(("location", where))
        code = (body.get("code") or {}).get("code")
        if code:
            truth.must.append(("code", code))
        truth.first_failure = truth.first_failure or (code or body["message"])
    return truth


@case("cargo_build_errors")
def cargo_build_errors(_: Path) -> Made:
    work = fresh("cargo_build_errors")
    write(work, {"Cargo.toml": CARGO_TOML.format(name="planted", deps=""), "src/main.rs": RUST_MAIN})
    cmd = "cargo build --offline"
    out, rc = run(cmd, work, {"CARGO_TERM_COLOR": "never"})
    return Made(out, cmd, rc, _cargo_truth(work))


@case("cargo_offline_missing_crate")
def cargo_offline_missing_crate(_: Path) -> Made:
    work = fresh("cargo_offline_missing_crate")
    deps = 'zz-planted-missing-crate = "0.3"\n'
    write(
        work, {"Cargo.toml": CARGO_TOML.format(name="needsdep", deps=deps), "src/main.rs": "fn main() {}\n"}
    )
    cmd = "cargo build --offline"
    out, rc = run(cmd, work, {"CARGO_TERM_COLOR": "never"})
    truth = Truth(
        source="planted: one dependency that no registry cache holds",
        first_failure="zz-planted-missing-crate",
    )
    truth.must.append(("package", "zz-planted-missing-crate"))
    return Made(out, cmd, rc, truth)


JAVA_FILES = {
    "src/shop/Cart.java": """package shop;

import java.util.ArrayList;
import java.util.List;

public class Cart {
    private final List<Item> items = new ArrayList<>();

    public void add(Item item) {
        items.add(item);
    }

    public int total() {
        int sum = 0;
        for (Item item : items) {
            sum += item.price();
        }
        return sum + discount;                 // PLANT cannot find symbol
    }

    public String label() {
        return items.size();                   // PLANT incompatible types
    }
}
""",
    "src/shop/Item.java": """package shop;

public record Item(String name, int price) {
    public Item {
        if (price < 0) throw new IllegalArgumentException("negative");
    }

    public Item withPrice(long newPrice) {
        return new Item(name, newPrice);       // PLANT lossy conversion
    }

    public int unused() {
        String s = name.size();                // PLANT no method size()
        return s;                              // PLANT incompatible types
    }
}
""",
}


@case("javac_errors")
def javac_errors(_: Path) -> Made:
    work = fresh("javac_errors")
    write(work, JAVA_FILES)
    cmd = "javac -Xlint:all -d out src/shop/Cart.java src/shop/Item.java"
    out, rc = run(cmd, work)
    truth = Truth(source="planted: the lines marked PLANT in the generated sources")
    for rel in ("src/shop/Cart.java", "src/shop/Item.java"):
        for number, line in enumerate(JAVA_FILES[rel].splitlines(), 1):
            if "PLANT" in line:
                truth.must.append(("location", f"{rel}:{number}"))
    truth.first_failure = truth.must[0][1]
    return Made(out, cmd, rc, truth)
