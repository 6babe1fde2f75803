"""Zoo generators: memory checkers, sanitizers and test runners (truth from XML/JSON or plants)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from zoo_lib import Made, Truth, case, fresh, line_of, quiet, run, write

MEM_C = """#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { int id; char name[12]; } record;

static record *make(int id) {
    record *r = malloc(sizeof(record));
    r->id = id;
    snprintf(r->name, sizeof r->name, "rec-%d", id);
    return r;
}

static int sum(const int *values, int n) {
    int total = 0;
    for (int i = 0; i <= n; i++) total += values[i];   /* BUG-read */
    return total;
}

int main(void) {
    int *values = malloc(4 * sizeof(int));
    for (int i = 0; i < 4; i++) values[i] = i;
    for (int round = 0; round < 40; round++) printf("round %d: total=%d\\n", round, round * 3);
    printf("sum=%d\\n", sum(values, 4));
    int flag;
    if (flag > 2) puts("flag");                          /* BUG-uninit */
    record *a = make(1);
    record *b = make(2);
    b = make(3);                                         /* BUG-leak */
    free(a);
    printf("%d\\n", a->id);                              /* BUG-uaf */
    char *copy = strdup("leaked twice");                 /* BUG-leak2 */
    free(values);
    return copy == NULL;
}
"""


@case("valgrind_memcheck")
def valgrind_memcheck(_: Path) -> Made:
    work = fresh("valgrind_memcheck")
    write(work, {"records.c": MEM_C})
    run("gcc -g -O0 -o records records.c", work)
    cmd = "valgrind --leak-check=full ./records"
    out, rc = run(cmd, work)
    quiet("valgrind --leak-check=full --xml=yes --xml-file=vg.xml ./records", work)
    truth = Truth(source="valgrind --xml=yes: each error's what/xwhat and its first frame with a file")
    for error in ET.parse(work / "vg.xml").getroot().iter("error"):
        what = error.findtext("what") or error.findtext("xwhat/text") or ""
        truth.must.append(("what", what.split(" in loss record")[0]))
        # Every frame in the program's own source: two leak records may differ only there.
        for frame in error.iter("frame"):
            if frame.findtext("file") == "records.c":
                truth.must.append(("location", f"records.c:{frame.findtext('line')}"))
        truth.first_failure = truth.first_failure or what
    return Made(out, cmd, rc, truth)


ASAN_C = """#include <stdio.h>
#include <stdlib.h>

struct node { int value; struct node *next; };

static struct node *push(struct node *head, int value) {
    struct node *n = malloc(sizeof *n);
    n->value = value;
    n->next = head;
    return n;
}

static void release(struct node *head) {
    while (head) { struct node *next = head->next; free(head); head = next; }
}

int main(void) {
    struct node *list = NULL;
    for (int i = 0; i < 30; i++) { list = push(list, i); printf("pushed %d\\n", i); }
    release(list);
    printf("head value %d\\n", list->value);              /* BUG-uaf */
    return 0;
}
"""


@case("asan_heap_use_after_free")
def asan_heap_use_after_free(_: Path) -> Made:
    work = fresh("asan_heap_use_after_free")
    write(work, {"list.c": ASAN_C})
    run("gcc -g -O0 -fsanitize=address -fno-omit-frame-pointer -o list list.c", work)
    cmd = "./list"
    out, rc = run(cmd, work, {"ASAN_OPTIONS": "detect_leaks=0"})
    bug = line_of(ASAN_C, "BUG-uaf")
    free_line = line_of(ASAN_C, "free(head)")
    truth = Truth(
        source="planted: the use after free and the free() it follows", first_failure="heap-use-after-free"
    )
    truth.must += [
        ("kind", "heap-use-after-free"),
        ("location", f"list.c:{bug}"),
        ("location", f"list.c:{free_line}"),
    ]
    truth.must += [("frame", "freed by thread T0 here")]
    return Made(out, cmd, rc, truth)


UBSAN_C = """#include <stdio.h>
#include <limits.h>

static int scale(int x) { return x * 65536; }                 /* BUG-overflow */
static int shift(int x, int by) { return x << by; }           /* BUG-shift */
static int peek(const char *buf) { return *(const int *)(buf + 1); }  /* BUG-align */

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    int values[4] = {1, 2, 3, 4};
    char raw[16] = {0};
    for (int i = 0; i < 60; i++) printf("step %d ok value=%d\\n", i, i * 7);
    printf("%d\\n", scale(INT_MAX / 1000));
    printf("%d\\n", shift(1, 40));
    int idx = 5;
    printf("%d\\n", values[idx]);                               /* BUG-bounds */
    printf("%d\\n", peek(raw));
    for (int i = 60; i < 120; i++) printf("step %d ok value=%d\\n", i, i * 7);
    return 0;
}
"""


@case("ubsan_runtime_errors")
def ubsan_runtime_errors(_: Path) -> Made:
    work = fresh("ubsan_runtime_errors")
    write(work, {"calc.c": UBSAN_C})
    run("gcc -g -O0 -fsanitize=undefined -fsanitize=bounds -o calc calc.c", work)
    cmd = "./calc"
    out, rc = run(cmd, work)
    truth = Truth(source="planted: the lines marked BUG in the generated source")
    for marker in ("BUG-overflow", "BUG-shift", "BUG-bounds", "BUG-align"):
        truth.must.append(("location", f"calc.c:{line_of(UBSAN_C, marker)}:"))
    truth.first_failure = truth.must[0][1]
    return Made(out, cmd, rc, truth)
