"""Score ``summarizer session`` (keyword rules, offline) on generated sessions with recorded facts.

Usage:
    python evals/eval_session_facts.py [--cases N] [--out DIR]

Each case is written by ``tests/session/conversations.py`` in Claude Code, OpenCode and Codex
shapes, with its facts recorded as the generator wrote them (never read back from the text). Each
transcript goes through the same path as ``summarizer session FILE --offline --force`` (parse,
extract, cap) and the document is scored against the facts. ``--out`` also writes every transcript
and a ``facts.jsonl`` so the set can be inspected or replayed through the CLI.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from summarizer.session.service import Unavailable, compress_session
from summarizer.session.transcript import parse_transcript
from tests.session.conversations import generate, score, write

SHAPES = ("claude_code", "opencode", "codex")


class _NoMarks:
    def get(self, key: str) -> int | None:
        return None

    def set(self, key: str, tool_calls: int) -> None:
        return None


def document_for(text: str) -> str:
    """The document ``summarizer session --offline --force`` would save (engram left out)."""
    report = asyncio.run(
        compress_session(
            parse_transcript(text),
            project="app",
            date="2026-12-01",
            memory=Unavailable("eval: not saved"),
            marks=_NoMarks(),
            session_key="eval",
            force=True,
        )
    )
    return report.document


def run(cases: int, out: Path | None = None) -> tuple[Counter[str], dict[str, Counter[str]]]:
    """Totals over every case, and per shape."""
    total: Counter[str] = Counter()
    per_shape: dict[str, Counter[str]] = {s: Counter() for s in SHAPES}
    for seed in range(cases):
        for shape in SHAPES:
            turns, facts = generate(seed, shape)
            text = write(turns, facts)
            counts = score(document_for(text), facts)
            total.update(counts)
            per_shape[shape].update(counts)
            if out is not None:
                (out / f"{facts.case}.jsonl").write_text(text, encoding="utf-8")
                with (out / "facts.jsonl").open("a", encoding="utf-8") as handle:
                    handle.write(json.dumps(dataclasses.asdict(facts)) + "\n")
    return total, per_shape


ROWS = (
    ("current instructions kept whole", "current_whole", "current"),
    ("superseded instructions/decisions shown as current", "superseded_shown", "superseded"),
    ("subagent claims/prompts kept as the user's", "subagent_kept", "subagent"),
    ("tool-result injections and compaction-summary lines kept", "other_foreign_kept", "other_foreign"),
    ("unanswered last questions kept verbatim (first)", "unanswered_verbatim", "unanswered"),
    ("answered last questions marked unanswered", "answered_marked_open", None),
    ("failing test names kept (first 5 of each run)", "failing_kept", "failing"),
    ("test runs whose remaining failures are counted", "failing_rest_counted", None),
    ("test runs with the right counts", "counts_right", None),
    ("deleted files shown as deleted", "deleted_shown", "deleted"),
    ("renamed files shown as renamed", "renamed_shown", "renamed"),
)


def table(total: Counter[str], per_shape: dict[str, Counter[str]], runs: int) -> str:
    """The markdown table quoted in docs/session.md."""
    head = "| fact | all | " + " | ".join(SHAPES) + " |\n|---|---|" + "---|" * len(SHAPES)
    lines = [head]
    for label, key, of in ROWS:
        cells = []
        for counts, n in [(total, runs)] + [(per_shape[s], runs // len(SHAPES)) for s in SHAPES]:
            whole = counts[of] if of else n
            cells.append(f"{counts[key]}/{whole}")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    """Generate, score, print the table."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cases", type=int, default=20, help="conversations per shape [20]")
    parser.add_argument("--out", type=Path, help="also write the transcripts and facts.jsonl here")
    args = parser.parse_args()
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "facts.jsonl").write_text("", encoding="utf-8")
    total, per_shape = run(args.cases, args.out)
    print(table(total, per_shape, args.cases * len(SHAPES)))


if __name__ == "__main__":
    main()
