"""Envelope reduction: handles survive, partial reads stay partial, the cap is honoured."""

from __future__ import annotations

import json
from typing import Any

from summarizer.envelope.handles import find_handles, recovery_call
from summarizer.envelope.reduce import compact_size, reduce_envelope

from .conftest import FIXTURES, load, string_values

CAPS = (1, 200, 600, 1500, 4096, 1_000_000)


def test_every_fixture_at_every_cap_keeps_handles_and_parses() -> None:
    """Whatever the cap, the output is one JSON object holding every handle of the input."""
    for path in sorted(FIXTURES.glob("*.json")):
        original = json.loads(path.read_text(encoding="utf-8"))
        handles = {h.value for h in find_handles(original)}
        for cap in CAPS:
            result = reduce_envelope(original, cap=cap)
            text = json.dumps(result.envelope, ensure_ascii=False, separators=(",", ":"))
            assert json.loads(text) == result.envelope
            assert handles <= string_values(result.envelope), (path.name, cap)
            assert result.reduced_bytes == compact_size(result.envelope)
            if result.mode != "compact":
                assert result.reduced_bytes <= cap, (path.name, cap)


def test_the_omit_list_cannot_hide_a_transaction_id() -> None:
    """Omitting `data` (which holds the tx_ id twice) keeps the id at its own path."""
    env = load("edit_commit.json")
    env["retention"]["omit_when_summarizing"] = ["data", "data.transaction", "data.transactionId"]
    out = reduce_envelope(env, cap=100_000).envelope
    assert out["data"]["transactionId"] == "tx_01HZX9K3M4N5P6Q7R8S9T0UVWX"
    assert out["data"]["transaction"]["id"] == "tx_01HZX9K3M4N5P6Q7R8S9T0UVWX"
    assert "diff" not in out["data"]  # the bulky payload did go
    assert out["data"]["artifactPath"].endswith("/patch.diff")


def test_the_omit_list_cannot_remove_the_envelopes_own_fields() -> None:
    """protocol, summary and retention facts are not the tool result's to omit."""
    env = load("command_job.json")
    env["retention"]["omit_when_summarizing"] = ["protocol", "summary", "error", "retention.facts", "*"]
    out = reduce_envelope(env, cap=100_000).envelope
    assert out["protocol"] == "agentic-workspace/v1"
    assert out["summary"] == env["summary"]
    assert out["retention"]["facts"] == env["retention"]["facts"]
    assert out["data"]["job"]["jobId"] == "job_8f3a2b1c9d4e"


def test_wildcards_omit_every_list_item_field() -> None:
    """`data.tasks.*.notes` removes the notes of every task and keeps the board id."""
    result = reduce_envelope(load("tasks_board.json"), cap=100_000)
    tasks = result.envelope["data"]["tasks"]
    assert all(task["notes"].startswith("<omitted ") for task in tasks)
    assert len(result.omitted) == len(tasks) == 30
    assert result.envelope["data"]["boardId"] == "todo_a91f3c2e"


def test_the_cap_forces_the_compact_recovery_list() -> None:
    """180 jobs cannot fit 4096 bytes: each job id comes with its status call and its state."""
    env = load("many_jobs.json")
    result = reduce_envelope(env)
    assert result.mode == "compact"
    recovery = result.envelope["recovery"]
    jobs = env["data"]["jobs"]
    assert [e["value"] for e in recovery[:-1]] == [job["jobId"] for job in jobs]
    first = recovery[0]
    assert first["call"] == f'workspace_command {{action: "status", job_id: "{jobs[0]["jobId"]}"}}'
    assert (first["status"], first["exitCode"], first["startedAt"]) == (
        jobs[0]["status"],
        jobs[0]["exitCode"],
        jobs[0]["startedAt"],
    )
    assert recovery[-1] == {"call": 'workspace_inspect {action: "changes"}'}


def test_a_partial_read_keeps_its_truncated_flag_and_counters_in_every_mode() -> None:
    """The content goes; `truncated` and the *Lines/*Chars/*Bytes counters stay, reduced or compact."""
    env = load("file_read_partial.json")
    reduced = reduce_envelope(env, cap=4096)
    assert reduced.mode == "reduced"
    data = reduced.envelope["data"]
    assert data["content"].startswith("<omitted ")
    assert (data["truncated"], data["totalLines"], data["linesOmitted"], data["contentChars"]) == (
        True,
        2210,
        1810,
        30211,
    )
    compact = reduce_envelope(env, cap=50)
    assert compact.mode == "compact"
    assert compact.envelope["kept"] == {
        "data.path": "src/orders/api.py",
        "data.truncated": True,
        "data.totalLines": 2210,
        "data.linesOmitted": 1810,
        "data.contentChars": 30211,
        "data.contentBytes": 30211,
    }


def test_a_command_job_keeps_status_exit_code_and_start_time() -> None:
    """Pruning the output never loses how the job ended."""
    out = reduce_envelope(load("command_job.json"), cap=800).envelope
    job = out["data"]["job"]
    assert (job["status"], job["exitCode"], job["startedAt"]) == ("exited", 1, "2024-05-02T10:14:07Z")
    assert out["data"]["truncated"] is True
    assert out["data"]["stdoutOmittedLines"] == 1812


def test_a_status_is_kept_for_jobs_but_not_for_every_list_item() -> None:
    """`status` next to a handle, command or exit code survives; a task's status is prunable."""
    env = {
        "protocol": "agentic-workspace/v1",
        "ok": True,
        "operation": "x",
        "summary": "s",
        "data": {
            "job": {"jobId": "job_1", "status": "running", "log": "x" * 3000},
            "tasks": [{"title": "t" * 40, "status": "open"} for _ in range(40)],
        },
    }
    out = reduce_envelope(env, cap=700).envelope
    assert out["data"]["job"]["status"] == "running"
    assert out["data"]["tasks"] == f"<pruned {compact_size(env['data']['tasks'])} bytes>"


def test_source_records_keep_provenance_and_snippets_are_discovery_only() -> None:
    """Fetched sources keep URL, title, time, hash and stored path; search hits are marked."""
    result = reduce_envelope(load("research.json"), cap=4096)
    data = result.envelope["data"]
    for src in data["source_fetch"]:
        assert set(src) >= {"url", "title", "fetchedAt", "contentHash", "storedPath"}
        assert src["content"].startswith("<pruned ")
    assert all(hit["discoveryOnly"] is True for hit in data["source_search"])
    assert "data.source_fetch.0.content" in result.pruned


def test_staged_approvals_come_verbatim_ahead_of_the_recovery_list() -> None:
    """In compact form the approval is whole and precedes the recovery calls; the plan keeps its path."""
    env = load("agent_run_with_approval.json")
    out = reduce_envelope(env, cap=300).envelope
    keys = list(out)
    assert keys.index("approvals") < keys.index("recovery")
    assert out["approvals"] == env["data"]["approvals"]
    values = {e["value"] for e in out["recovery"][:-1]}
    assert {"run_9e8d7c6b5a4f", "approval_3b9c1d2e", "plan_7a6b5c4d"} <= values
    plan = next(e for e in out["recovery"] if e.get("value") == "plan_7a6b5c4d")
    assert plan["path"] == ".workspace/plans/plan_7a6b5c4d.md"


def test_the_omit_list_cannot_touch_a_staged_approval() -> None:
    """An approval is shown verbatim even when the omit list names it or its fields."""
    env = load("agent_run_with_approval.json")
    env["retention"]["omit_when_summarizing"] = ["data.approvals", "data.approvals.*.preview"]
    out = reduce_envelope(env, cap=100_000).envelope
    assert out["data"]["approvals"] == env["data"]["approvals"]


def test_pruning_takes_the_largest_unrelated_field_first() -> None:
    """With room for everything but the biggest field, only that one is pruned."""
    env: dict[str, Any] = {
        "protocol": "agentic-workspace/v1",
        "ok": True,
        "operation": "x",
        "summary": "s",
        "data": {"big": "a" * 5000, "medium": "b" * 2000, "small": "c" * 50, "runId": "run_1a2b"},
    }
    result = reduce_envelope(env, cap=2600)
    assert result.pruned == ("data.big",)
    assert result.envelope["data"]["medium"] == "b" * 2000
    assert result.envelope["data"]["big"] == "<pruned 5002 bytes>"


def test_an_envelope_under_the_cap_comes_back_whole() -> None:
    """Nothing to omit and nothing over the cap: the same envelope, marked whole."""
    env = {
        "protocol": "agentic-workspace/v1",
        "ok": True,
        "operation": "workspace_tasks.show",
        "summary": "1 task",
        "data": {"boardId": "todo_1", "tasks": [{"title": "x"}]},
    }
    result = reduce_envelope(env)
    assert (result.mode, result.envelope) == ("whole", env)


def test_secrets_are_scrubbed_and_handles_are_not() -> None:
    """A secret in stdout or under a secret-looking key never reaches the output."""
    env = load("secrets.json")
    result = reduce_envelope(env)
    text = json.dumps(result.envelope)
    for secret in ("Xk9pLm2QwErT7y", "ghp_Q7w8E9r0", "sk-proj-Ab3d", "hunter2-but-longer"):
        assert secret not in text
    assert "@db.internal:5432/app" in text
    assert result.envelope["data"]["jobId"] == "job_0e1f2a3b"
    assert result.redactions == 4


def test_each_handle_kind_maps_to_its_recovery_call() -> None:
    """The documented calls, with snake_case parameters."""
    assert recovery_call("transaction", "tx_1") == 'workspace_edit {action: "show", transaction_id: "tx_1"}'
    assert recovery_call("job", "job_1") == 'workspace_command {action: "status", job_id: "job_1"}'
    assert recovery_call("board", "todo_1") == 'workspace_tasks {action: "show", board_id: "todo_1"}'
    assert recovery_call("research", "research_1") == (
        'workspace_research {action: "show", research_id: "research_1"}'
    )
    assert recovery_call("run", "run_1") == 'workspace_agent {action: "status", run_id: "run_1"}'
    assert recovery_call("approval", "approval_1") == 'workspace_inspect {action: "changes"}'


def test_handles_are_found_by_field_name_and_by_prefix_anywhere() -> None:
    """camelCase and snake_case fields, and prefixed ids in lists or under unrelated keys."""
    tree = {
        "a": {"job_id": "7"},
        "b": ["tx_9", "not_an_id"],
        "c": {"note": "research_42"},
        "d": "run tests now",
        "e": {"runId": "custom-run"},
    }
    found = {(h.kind, h.value, ".".join(map(str, h.path))) for h in find_handles(tree)}
    assert found == {
        ("job", "7", "a.job_id"),
        ("transaction", "tx_9", "b.0"),
        ("research", "research_42", "c.note"),
        ("run", "custom-run", "e.runId"),
    }
