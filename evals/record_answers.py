"""Turn the model answers of an eval run into recorded contenders for ``summarizer eval --offline``.

    python evals/record_answers.py eval-report/results.jsonl evals/datasets/recorded \
        --as "prompts@HEAD=v1" --as "v2=v2"

Writes one ``<label>.jsonl`` per contender (``{"case", "text", "model"}`` per line), keeping only
cells the model (or the answer cache) answered: template fallbacks and MEDIUM/LOW template lines
are the template contender's business, and replaying them would only duplicate it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path, help="results.jsonl of an eval run")
    parser.add_argument("out", type=Path, help="folder of recorded answers")
    parser.add_argument(
        "--as",
        dest="mapping",
        action="append",
        default=[],
        help="CONTENDER=LABEL; repeat (default: every contender under its own label)",
    )
    args = parser.parse_args()
    mapping = dict(item.split("=", 1) for item in args.mapping)
    rows: dict[str, list[dict[str, str]]] = {}
    for line in args.results.read_text(encoding="utf-8").splitlines():
        cell = json.loads(line)
        output = cell.get("output") or {}
        if output.get("source") not in ("llm", "cache"):
            continue
        if mapping and cell["contender"] not in mapping:
            continue
        label = mapping.get(cell["contender"], cell["contender"])
        rows.setdefault(label, []).append(
            {"case": cell["case_id"], "text": output["text"], "model": output.get("model") or ""}
        )
    args.out.mkdir(parents=True, exist_ok=True)
    for label, answers in rows.items():
        path = args.out / f"{label}.jsonl"
        path.write_text("".join(json.dumps(a, ensure_ascii=False) + "\n" for a in answers), encoding="utf-8")
        print(f"{path}: {len(answers)} answers")


if __name__ == "__main__":
    main()
