"""Replay recorded agent sessions through summarizer's and RTK's hook routes; one table each.

Usage:
    python evals/sessions/replay.py [SESSION.jsonl ...] [--md FILE] [--details]

Needs neither project: every command's output was recorded (``record.py``). For each command:

* **raw**: the recorded output, as the agent sees it with no hook.
* **summarizer**: ``summarizer hook claude`` decides on the command as typed; when it wraps it,
  the wrapped command is run with its inner command replaced by a child that prints the
  recorded output and exits with the recorded status (the same code path as a live run); when
  it does not (``cat``, ``git diff``...), the agent sees the raw output.
* **rtk**: ``rtk rewrite`` decides (exit 0 or 3: rewritten); the rewritten command runs in a
  scratch folder holding the files RTK reads itself, with every tool it calls answered by a
  replaying shim from the calls recorded live (RTK's own flags included); with no rewrite the
  agent sees the raw output. ``replay = live`` counts the commands whose replayed RTK output is
  byte-identical to RTK's output on the live project.

A failure (from the tool's structured reporter) is kept when the agent's text holds the test's
name, or, for a diagnostic, ``file:line`` / ``file(line,`` or the file name plus a line holding
both the line number and the code. Tokens are counted with the package's tokenizer.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from record import make_shims

from summarizer.core.tokens import count_tokens
from summarizer.output.lines import strip_ansi

HERE = Path(__file__).resolve().parent
Row = dict[str, object]


def kept(failure: dict[str, object], text: str) -> bool:
    """Whether the agent's text still names this failure."""
    if failure["kind"] == "test":
        return str(failure["name"]) in text
    file, line, code = str(failure["file"]), int(failure["line"]), str(failure["code"])  # type: ignore[call-overload]
    if f"{file}:{line}" in text or f"{file}({line}," in text:
        return True
    if os.path.basename(file) not in text:
        return False
    number = re.compile(rf"(?<![\d.]){line}(?!\d)")
    return any(number.search(row) and code in row for row in text.splitlines())


def _materialize(row: Row, root: Path) -> None:
    for rel, text in (row.get("files") or {}).items():  # type: ignore[attr-defined]
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, errors="surrogateescape")
    for rel in row.get("touch") or []:  # type: ignore[attr-defined]
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()


def summarizer_route(row: Row, scratch: Path) -> tuple[str, int]:
    """What the agent sees through summarizer's hook."""
    hook_in = {
        "tool_name": "Bash",
        "tool_input": {"command": row["cmd"]},
        "cwd": str(scratch),
        "permission_mode": "bypassPermissions",
    }
    done = subprocess.run(
        ["summarizer", "hook", "claude"],
        input=json.dumps(hook_in),
        capture_output=True,
        text=True,
        check=False,
    )
    if not done.stdout.strip():
        return str(row["output"]), int(row["exit_code"])  # type: ignore[call-overload]
    wrapped = json.loads(done.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
    recorded = scratch / "recorded-output"
    recorded.write_text(str(row["output"]), errors="surrogateescape")
    prefix = wrapped[: wrapped.index(" -- ")]
    inner = f"cat {recorded}; exit {row['exit_code']}"
    replay = f"{prefix} -- sh -c {shlex.quote(inner)}"
    ran = subprocess.run(["bash", "-c", replay], cwd=scratch, capture_output=True, check=False)
    return (ran.stdout + ran.stderr).decode("utf-8", "surrogateescape"), ran.returncode


def rtk_route(row: Row, scratch: Path, shims: Path) -> tuple[str, int, bool | None]:
    """What the agent sees through RTK's hook; and whether the replay equals the live run."""
    done = subprocess.run(["rtk", "rewrite", str(row["cmd"])], capture_output=True, text=True, check=False)
    rewrite = done.stdout.strip()
    if done.returncode not in (0, 3) or not rewrite:
        return str(row["output"]), int(row["exit_code"]), None  # type: ignore[call-overload]
    rtk = row["rtk"]
    assert isinstance(rtk, dict)
    work = scratch / "project"
    work.mkdir()
    _materialize(row, work)
    log = scratch / "calls.jsonl"
    log.write_text("".join(json.dumps(c) + "\n" for c in rtk.get("calls", [])), errors="surrogateescape")
    rtk_dir = os.path.dirname(subprocess.run(["which", "rtk"], capture_output=True, text=True).stdout.strip())
    env = {
        **os.environ,
        "PATH": f"{shims}:{rtk_dir}:/usr/bin:/bin",
        "SHIM_MODE": "replay",
        "SHIM_LOG": str(log),
        "SHIM_ROOT": str(work),
    }
    ran = subprocess.run(
        ["bash", "-c", rewrite],
        cwd=work,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        check=False,
    )
    text = ran.stdout.decode("utf-8", "surrogateescape")
    same = text == rtk.get("live_output") and ran.returncode == rtk.get("live_rc")
    return text, ran.returncode, same


def score(session: str, rows: list[Row], shims: Path) -> list[dict[str, object]]:
    """One result per command."""
    results = []
    for row in rows:
        with tempfile.TemporaryDirectory() as tmp:
            scratch = Path(tmp)
            s_text, s_rc = summarizer_route(row, scratch)
            r_text, r_rc, same = rtk_route(row, scratch, shims)
        failures = row["failures"]
        assert isinstance(failures, list)
        s_clean, r_clean = strip_ansi(s_text), strip_ansi(r_text)
        results.append(
            {
                "session": session,
                "n": row["n"],
                "cmd": row["cmd"],
                "family": row["family"],
                "raw": count_tokens(str(row["output"])),
                "s_tokens": count_tokens(s_text),
                "r_tokens": count_tokens(r_text),
                "failures": len(failures),
                "s_kept": sum(kept(f, s_clean) for f in failures),
                "r_kept": sum(kept(f, r_clean) for f in failures),
                "s_lost": [f for f in failures if not kept(f, s_clean)],
                "r_lost": [f for f in failures if not kept(f, r_clean)],
                "s_rc": s_rc == row["exit_code"],
                "r_rc": r_rc == row["exit_code"],
                "replay_same": same,
            }
        )
    return results


def _pct(part: int, whole: int) -> str:
    return f"{1 - part / whole:.0%}" if whole else "—"


def _line(label: str, rs: list[dict[str, object]]) -> str:
    raw = sum(r["raw"] for r in rs)  # type: ignore[misc]
    s = sum(r["s_tokens"] for r in rs)  # type: ignore[misc]
    t = sum(r["r_tokens"] for r in rs)  # type: ignore[misc]
    f = sum(r["failures"] for r in rs)  # type: ignore[misc]
    return (
        f"| {label} | {len(rs)} | {raw:,} | {s:,} ({_pct(s, raw)} fewer) | {t:,} ({_pct(t, raw)} fewer) | "
        f"{f} | {sum(r['s_kept'] for r in rs)} | {sum(r['r_kept'] for r in rs)} | "  # type: ignore[misc]
        f"{sum(1 for r in rs if r['s_rc'])}/{len(rs)} | {sum(1 for r in rs if r['r_rc'])}/{len(rs)} |"
    )


HEAD = (
    "| {0} | commands | raw tokens | summarizer tokens | RTK tokens | failures | kept (summarizer) | "
    "kept (RTK) | exit codes right (summarizer) | exit codes right (RTK) |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
)


def tables(results: list[dict[str, object]], details: bool) -> str:
    """The per-session and per-family tables, then the losses."""
    out = ["### Per session\n", HEAD.format("session")]
    by_session: dict[str, list[dict[str, object]]] = defaultdict(list)
    by_family: dict[str, list[dict[str, object]]] = defaultdict(list)
    for r in results:
        by_session[str(r["session"])].append(r)
        by_family[str(r["family"])].append(r)
    out += [_line(name, rs) for name, rs in by_session.items()]
    out.append(_line("all", results))
    out += ["\n### Per command family (both sessions)\n", HEAD.format("family")]
    out += [_line(name, rs) for name, rs in sorted(by_family.items())]
    rewritten = [r for r in results if r["replay_same"] is not None]
    out.append(
        f"\nRTK replay identical to RTK's live output (text and exit code): "
        f"{sum(1 for r in rewritten if r['replay_same'])}/{len(rewritten)} rewritten commands"
    )
    out.append("\n### Failures lost and exit codes changed\n")
    for r in results:
        for who, key, rc in (("summarizer", "s_lost", "s_rc"), ("RTK", "r_lost", "r_rc")):
            lost = r[key]
            assert isinstance(lost, list)
            if lost:
                names = ", ".join(
                    str(f.get("name") or f"{f['file']}:{f['line']} {f['code']}") for f in lost[:6]
                )
                more = f" (+{len(lost) - 6} more)" if len(lost) > 6 else ""
                out.append(
                    f"- {who} lost {len(lost)} in {r['session']} #{r['n']} `{r['cmd']}`: {names}{more}"
                )
            if not r[rc]:
                out.append(f"- {who} changed the exit code of {r['session']} #{r['n']} `{r['cmd']}`")
    if details:
        out.append(
            "\n### Per command\n\n| session | # | command | raw | summarizer | RTK | failures | kept S | kept R | replay=live |"
        )
        out.append("|---|---:|---|---:|---:|---:|---:|---:|---:|---|")
        for r in results:
            out.append(
                f"| {r['session']} | {r['n']} | `{r['cmd']}` | {r['raw']:,} | {r['s_tokens']:,} | {r['r_tokens']:,} | "
                f"{r['failures']} | {r['s_kept']} | {r['r_kept']} | {r['replay_same']} |"
            )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    """Replay the sessions and print the tables."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("sessions", nargs="*", type=Path)
    parser.add_argument("--md", type=Path, default=None)
    parser.add_argument("--details", action="store_true")
    args = parser.parse_args(argv)
    files = args.sessions or sorted((HERE / "recorded").glob("*.jsonl"))
    if not files:
        print("no recorded sessions; record one with evals/sessions/record.py", file=sys.stderr)
        return 2
    results: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as tmp:
        shims = Path(tmp) / "shims"
        make_shims(shims)
        for path in files:
            rows = [json.loads(line) for line in path.read_text(errors="surrogateescape").splitlines()]
            results += score(path.stem, rows, shims)
    text = tables(results, args.details)
    print(text)
    if args.md:
        args.md.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
