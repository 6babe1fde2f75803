"""Re-make the zoo: run every real tool on this machine and write ``cases/<name>/``.

Usage:
    python evals/zoo/make_zoo.py [NAME ...]      # all cases, or only these

Each generator (``cases_*.py``) writes its sources into ``$ZOO_WORK`` (default
``/tmp/zoo-work``), runs the tool, and derives the truth from the tool's machine-readable mode
or from what it planted. Needs: gcc/g++, valgrind, cargo, javac + Debian's junit4, go,
shellcheck, perl's prove, postgres (initdb/pg_ctl, run as the postgres user), nginx,
redis-server, git, apt-get, npm, cppcheck, clang-tidy, yamllint, php, ruby, terraform,
sqlite3, node, and a venv with pytest, mypy, ruff, pylint (``ZOO_PYTEST``,
``ZOO_MYPY``, ``ZOO_RUFF``, ``ZOO_PYLINT``, ``ZOO_PIP``), pytest 9 (``ZOO_PYTEST9``, default: this
interpreter's), node_modules with eslint and vitest (``ZOO_NODE_MODULES``, ``ZOO_ESLINT``) and
with tape 5 (``ZOO_TAPE_MODULES``).
"""

from __future__ import annotations

import sys
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cases_build  # noqa: F401  (each module registers its cases)
import cases_forms  # noqa: F401
import cases_fresh  # noqa: F401
import cases_lint  # noqa: F401
import cases_numbered  # noqa: F401
import cases_ops  # noqa: F401
import cases_runs  # noqa: F401
import cases_runtime  # noqa: F401
import cases_servers  # noqa: F401
import cases_tests  # noqa: F401
from zoo_lib import CASES, WORK, save


def main(argv: list[str]) -> int:
    """Generate the named cases (all by default); exit 1 if any generator failed."""
    names = argv or sorted(CASES)
    unknown = [n for n in names if n not in CASES]
    if unknown:
        print(f"unknown case(s): {', '.join(unknown)}; known: {', '.join(sorted(CASES))}", file=sys.stderr)
        return 2
    failed = 0
    for name in names:
        try:
            made = CASES[name](WORK)
            truth = save(name, made)
            must = truth["must_survive"]
            print(f"{name}: {len(made.output):,} bytes, exit {truth['exit_code']}, {len(must)} must")  # type: ignore[arg-type]
        except Exception:  # one broken tool must not stop the others
            failed += 1
            print(f"{name}: FAILED\n{traceback.format_exc()}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
