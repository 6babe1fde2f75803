"""What an agentic-workspace/v1 envelope must never lose: recovery handles and the kept fields.

A *recovery handle* is the id an agent needs to resume safely after its context was reduced:
the value of a ``transactionId``/``jobId``/``boardId``/``researchId``/``runId`` field (camelCase or
snake_case, also ``approvalId``/``planId``), or any string anywhere in the tree that is an id
prefixed ``tx_``, ``job_``, ``todo_``, ``research_``, ``run_``, ``approval_`` or ``plan_``. Each
kind maps to the workspace call that shows the state again (docs/envelopes.md), with snake_case parameters.

The *kept* predicates say which leaves survive pruning wherever they sit: truncation flags and
the ``*Omitted``/``*Bytes``/``*Chars``/``*Entries``/``*Lines`` counters (a partial read must never
look whole), command-job status/exit code/start time, artifact and stored-content paths, and the
provenance of ``source_*`` records (URL, title, timestamp or hash).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "GENERAL_RECOVERY_CALL",
    "Handle",
    "Path",
    "dotted",
    "find_handles",
    "handle_kind",
    "is_approval",
    "is_kept_leaf",
    "recovery_call",
]

Path = tuple[str | int, ...]

# The call that always helps after a reduction: what changed in the workspace.
GENERAL_RECOVERY_CALL = 'workspace_inspect {action: "changes"}'

_FIELD_KINDS = {
    "transactionid": "transaction",
    "jobid": "job",
    "boardid": "board",
    "researchid": "research",
    "runid": "run",
    "approvalid": "approval",
    "planid": "plan",
}
_PREFIX_KINDS = {
    "tx": "transaction",
    "job": "job",
    "todo": "board",
    "research": "research",
    "run": "run",
    "approval": "approval",
    "plan": "plan",
}
_PREFIXED_ID = re.compile(r"(tx|job|todo|research|run|approval|plan)_[A-Za-z0-9][A-Za-z0-9_\-]*")
_CALLS = {
    "transaction": ("workspace_edit", "show", "transaction_id"),
    "job": ("workspace_command", "status", "job_id"),
    "board": ("workspace_tasks", "show", "board_id"),
    "research": ("workspace_research", "show", "research_id"),
    "run": ("workspace_agent", "status", "run_id"),
}


@functools.lru_cache(maxsize=4096)
def _norm(key: str) -> str:
    return key.replace("_", "").replace("-", "").lower()


def handle_kind(key: str | int | None, value: object) -> str | None:
    """The handle kind of ``value`` found under ``key``, or None if it is not a handle."""
    if not isinstance(value, str) or not value:
        return None
    if isinstance(key, str) and (kind := _FIELD_KINDS.get(_norm(key))):
        return kind
    if "_" in value and (m := _PREFIXED_ID.fullmatch(value)):
        return _PREFIX_KINDS[m.group(1)]
    return None


def recovery_call(kind: str, value: str) -> str:
    """The workspace call that shows a handle's state again (snake_case parameters)."""
    if kind not in _CALLS:  # approvals and plans have no show call: inspect the changes
        return GENERAL_RECOVERY_CALL
    tool, action, param = _CALLS[kind]
    return f"{tool} {{action: {json.dumps(action)}, {param}: {json.dumps(value)}}}"


def dotted(path: Path) -> str:
    """``("data", "items", 3, "jobId")`` -> ``"data.items.3.jobId"`` (``"$"`` for the root)."""
    return ".".join(str(p) for p in path) or "$"


@dataclass(frozen=True, slots=True)
class Handle:
    """One recovery handle: where it was in the original envelope and how to use it."""

    kind: str
    value: str
    path: Path

    @property
    def field(self) -> str:
        """The key it sat under (or the list index as text)."""
        return str(self.path[-1]) if self.path else "$"

    @property
    def call(self) -> str:
        """The recovery call for this handle."""
        return recovery_call(self.kind, self.value)


def find_handles(tree: Any, path: Path = ()) -> Iterator[Handle]:
    """Every recovery handle in ``tree``, depth first, with its path."""
    if isinstance(tree, dict):
        for key, value in tree.items():
            if (kind := handle_kind(key, value)) is not None:
                yield Handle(kind, value, (*path, key))
            else:
                yield from find_handles(value, (*path, key))
    elif isinstance(tree, list):
        for i, value in enumerate(tree):
            if (kind := handle_kind(None, value)) is not None:
                yield Handle(kind, value, (*path, i))
            else:
                yield from find_handles(value, (*path, i))


_FLAG = re.compile(r"(?i)(?:is_?)?truncated|partial|\w*Truncated|\w*_truncated")
_COUNTER = re.compile(
    r"(?:[a-z0-9]+(?:Omitted|Bytes|Chars|Entries|Lines)"
    r"|(?i:\w+_(?:omitted|bytes|chars|entries|lines))|(?i:omitted|total_?lines|total_?bytes))"
)
_JOB = frozenset({"status", "exitcode", "startedat", "finishedat", "endedat", "signal", "timedout"})
_PATHISH = re.compile(r"(?i)(?:\w*path|paths|artifacts?|\w*artifact\w*|stored\w*|uri|url|file)")
_PROVENANCE = frozenset(
    {
        "title",
        "timestamp",
        "fetchedat",
        "retrievedat",
        "publishedat",
        "date",
        "hash",
        "sha256",
        "contenthash",
        "digest",
        "etag",
    }
)
_APPROVAL_KEYS = frozenset({"approvals", "stagedapprovals", "pendingapprovals", "approval"})


_JOB_MARKERS = frozenset({"exitcode", "command", "cmd", "pid"})


def _is_job_like(parent: Mapping[str, Any] | None) -> bool:
    """A dict describing a job, run or transaction: it holds a handle, a command or an exit code."""
    if parent is None:
        return False
    return any(_norm(k) in _JOB_MARKERS or handle_kind(k, v) is not None for k, v in parent.items())


@functools.lru_cache(maxsize=4096)
def _key_class(key: str) -> str | None:
    """What a key name says about its value; cached because the same keys repeat in every item."""
    norm = _norm(key)
    if _FLAG.fullmatch(key):
        return "flag"
    if _COUNTER.fullmatch(key):
        return "counter"
    if norm == "status":
        return "status"
    if norm in _JOB:
        return "job"
    if _PATHISH.fullmatch(key):
        return "path"
    return "provenance" if norm in _PROVENANCE else None


def is_kept_leaf(
    key: str | int | None, value: object, path: Path, parent: Mapping[str, Any] | None = None
) -> bool:
    """Should this leaf survive pruning and omission wherever it sits?

    ``parent`` is the dict holding it: a ``status`` is kept only where it describes a job, a run or
    a transaction (next to a handle, a command or an exit code), not on every list item.
    """
    if not isinstance(key, str) or (cls := _key_class(key)) is None:
        return False
    if isinstance(value, dict) or (isinstance(value, list) and not _is_str_list(value)):
        return False
    if cls == "flag":
        return isinstance(value, bool)
    if cls == "counter":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if cls == "status":
        return not isinstance(value, list) and _is_job_like(parent)
    if cls == "job":
        return not isinstance(value, list)
    if cls == "path":
        return isinstance(value, str) or _is_str_list(value)
    # Provenance of fetched sources: any record under a `source_*` key keeps title/time/hash.
    return any(isinstance(p, str) and p.startswith("source") for p in path)


def _is_str_list(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def is_approval(key: str | int | None, value: object) -> bool:
    """Staged approvals, kept verbatim: a dict or list under an approvals key, or a dict holding an
    approval id."""
    if isinstance(key, str) and _norm(key) in _APPROVAL_KEYS and isinstance(value, (dict, list)):
        return True
    if not isinstance(value, dict):
        return False
    # Cheap test first: this runs on every dict of a large envelope.
    return any(
        _norm(k) == "approvalid"
        or (isinstance(v, str) and v.startswith("approval_") and handle_kind(k, v) == "approval")
        for k, v in value.items()
    )
