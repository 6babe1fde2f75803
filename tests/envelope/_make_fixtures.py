"""Regenerate the envelope fixtures in ``fixtures/`` (run by hand; the output is committed).

Realistic agentic-workspace/v1 tool results: each puts its recovery handle, its status and its
artifact path at different depths, around bulky payloads (diffs, stdout, file contents, fetched
pages) of the size real tools return. Secrets in them are fake.
"""

# ruff: noqa: E501, SIM905
from __future__ import annotations

import json
import random
from pathlib import Path

rng = random.Random(4)
OUT = Path(__file__).with_name("fixtures")
WORDS = "the request handler retries with exponential backoff until the circuit breaker opens and the fallback cache serves stale data".split()


def prose(n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def diff(files: int, lines: int) -> str:
    out = []
    for f in range(files):
        out.append(f"diff --git a/src/service_{f}.py b/src/service_{f}.py\n@@ -10,{lines} +10,{lines} @@")
        out += [
            f"-    old_value_{i} = compute({i})\n+    new_value_{i} = compute({i}, retry=True)"
            for i in range(lines)
        ]
    return "\n".join(out)


def stdout(n: int) -> str:
    lines = [f"tests/test_orders.py::test_case_{i} PASSED [{i * 100 // n:3d}%]" for i in range(n)]
    lines[n // 2] = "tests/test_orders.py::test_refund_rounding FAILED"
    lines.append("FAILED tests/test_orders.py::test_refund_rounding - AssertionError: assert 10.01 == 10.0")
    return "\n".join(lines)


def env(
    protocol_ok: bool, operation: str, summary: str, data: dict, importance: str, facts: list, omit: list
) -> dict:
    return {
        "protocol": "agentic-workspace/v1",
        "ok": protocol_ok,
        "operation": operation,
        "summary": summary,
        "data": data,
        "retention": {"importance": importance, "facts": facts, "omit_when_summarizing": omit},
    }


FIXTURES = {
    "edit_commit.json": env(
        True,
        "workspace_edit.apply",
        "Applied 3 edits to src/service_*.py in one transaction.",
        {
            "transactionId": "tx_01HZX9K3M4N5P6Q7R8S9T0UVWX",
            "transaction": {"id": "tx_01HZX9K3M4N5P6Q7R8S9T0UVWX", "state": "committed", "files": 3},
            "diff": diff(3, 60),
            "checks": {"ruff": "passed", "mypy": "passed", "log": prose(400)},
            "artifactPath": ".workspace/transactions/tx_01HZX9K3M4N5P6Q7R8S9T0UVWX/patch.diff",
        },
        "high",
        ["3 files changed", "transaction committed"],
        ["data.diff", "data.transaction", "data.checks.log"],
    ),
    "command_job.json": env(
        False,
        "workspace_command.run",
        "pytest exited 1: 1 failed, 239 passed.",
        {
            "job": {
                "jobId": "job_8f3a2b1c9d4e",
                "command": "pytest -q tests/test_orders.py",
                "status": "exited",
                "exitCode": 1,
                "startedAt": "2024-05-02T10:14:07Z",
                "durationMs": 41230,
            },
            "stdout": stdout(240),
            "stderr": prose(200),
            "truncated": True,
            "stdoutOmittedLines": 1812,
            "stdoutBytes": 402113,
        },
        "high",
        ["test_refund_rounding fails: 10.01 != 10.0"],
        ["data.stdout", "data.stderr"],
    ),
    "file_read_partial.json": env(
        True,
        "workspace_inspect.read",
        "Read lines 1-400 of src/orders/api.py (partial).",
        {
            "path": "src/orders/api.py",
            "content": "\n".join(f"{i:4d}  {prose(10)}" for i in range(1, 401)),
            "truncated": True,
            "totalLines": 2210,
            "linesOmitted": 1810,
            "contentChars": 30211,
            "contentBytes": 30211,
        },
        "medium",
        ["api.py is 2210 lines; only 1-400 read"],
        ["data.content"],
    ),
    "research.json": env(
        True,
        "workspace_research.run",
        "Collected 2 sources on idempotency keys.",
        {
            "researchId": "research_5d2e8f1a",
            "source_fetch": [
                {
                    "url": "https://stripe.com/docs/api/idempotent_requests",
                    "title": "Idempotent requests",
                    "fetchedAt": "2024-05-02T10:20:00Z",
                    "contentHash": "sha256:9f2c1e",
                    "storedPath": ".workspace/research/research_5d2e8f1a/src1.md",
                    "content": prose(1500),
                },
                {
                    "url": "https://datatracker.ietf.org/doc/draft-ietf-httpapi-idempotency-key-header/",
                    "title": "The Idempotency-Key HTTP Header Field",
                    "fetchedAt": "2024-05-02T10:20:05Z",
                    "contentHash": "sha256:41ab07",
                    "storedPath": ".workspace/research/research_5d2e8f1a/src2.md",
                    "content": prose(1500),
                },
            ],
            "source_search": [
                {
                    "url": f"https://example.com/post/{i}",
                    "title": f"Idempotency post {i}",
                    "snippet": prose(40),
                }
                for i in range(8)
            ],
        },
        "medium",
        ["Stripe keeps idempotency keys 24h"],
        [],
    ),
    "agent_run_with_approval.json": env(
        True,
        "workspace_agent.run",
        "Sub-agent staged a migration; waiting for approval.",
        {
            "runId": "run_9e8d7c6b5a4f",
            "status": "waiting_approval",
            "approvals": [
                {
                    "approvalId": "approval_3b9c1d2e",
                    "action": "apply_migration",
                    "summary": "Add orders.refund_cents column",
                    "preview": "ALTER TABLE orders ADD COLUMN refund_cents integer NOT NULL DEFAULT 0;",
                }
            ],
            "plan": {
                "planId": "plan_7a6b5c4d",
                "path": ".workspace/plans/plan_7a6b5c4d.md",
                "steps": [prose(30) for _ in range(40)],
            },
            "transcript": [{"role": "assistant", "content": prose(120)} for _ in range(20)],
        },
        "high",
        ["migration needs approval"],
        ["data.transcript", "data.plan.steps"],
    ),
    "tasks_board.json": env(
        True,
        "workspace_tasks.next",
        "Next task: fix refund rounding.",
        {
            "boardId": "todo_a91f3c2e",
            "tasks": [
                {
                    "id": f"task_{i}",
                    "title": prose(8),
                    "notes": prose(60),
                    "status": "open" if i % 3 else "done",
                }
                for i in range(30)
            ],
        },
        "medium",
        ["12 open tasks"],
        ["data.tasks.*.notes"],
    ),
    "many_jobs.json": env(
        True,
        "workspace_command.list",
        "180 background jobs.",
        {
            "jobs": [
                {
                    "jobId": f"job_{i:04d}{rng.randrange(16**6):06x}",
                    "command": f"make shard-{i}",
                    "status": "running" if i % 7 else "exited",
                    "exitCode": None if i % 7 else 0,
                    "startedAt": f"2024-05-02T10:{i % 60:02d}:00Z",
                    "log": prose(30),
                }
                for i in range(180)
            ]
        },
        "low",
        [],
        ["data.jobs"],
    ),
    "secrets.json": env(
        True,
        "workspace_command.run",
        "Printed the environment.",
        {
            "jobId": "job_0e1f2a3b",
            "status": "exited",
            "exitCode": 0,
            "stdout": "PATH=/usr/bin\nDATABASE_URL=postgres://app:Xk9pLm2QwErT7y@db.internal:5432/app\nGITHUB_TOKEN=ghp_"
            + "Q7w8E9r0T1y2U3i4O5p6A7s8D9f0G1h2J3k4"
            + "\nHOME=/home/dev",
            "env": {
                "OPENAI_API_KEY": "sk-proj-" + "Ab3dEf9hIjKlMnOpQrStUvWxYz0123456789abcdEFGH",
                "password": "hunter2-but-longer",
            },
        },
        "low",
        [],
        [],
    ),
}

if __name__ == "__main__":
    OUT.mkdir(exist_ok=True)
    for name, value in FIXTURES.items():
        (OUT / name).write_text(json.dumps(value, indent=2) + "\n", encoding="utf-8")
        print(f"{name}: {len(json.dumps(value, separators=(',', ':')))} bytes")
