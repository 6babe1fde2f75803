"""Reduce an agentic-workspace/v1 tool-result envelope without losing what is needed to resume.

Pure: a JSON object in, a :class:`EnvelopeReduction` out. The steps (docs/envelopes.md):

1. **Scrub** every string (secrets never leave, even in a reduced envelope). Recovery handles are
   ids and are left verbatim. Search results (dicts with a ``snippet``) get ``discoveryOnly: true``.
2. **Omit** what ``retention.omit_when_summarizing`` names (dotted paths from the root, ``*`` for
   list items or dict values). The tool result is untrusted, so an omitted subtree is cut down to
   its *kept* leaves (handles, truncation flags and counters, job status, paths), never removed
   whole, and the envelope's own fields (protocol, ok, operation, summary, error, retention
   importance and facts) cannot be omitted at all.
3. **Prune** the largest subtrees holding nothing kept, largest first, each replaced by a
   ``"<pruned N bytes>"`` marker, until the compact JSON fits the cap (default 4096 bytes).
4. If it still does not fit, emit the **compact** form: the envelope's own fields, the kept
   leaves by dotted path, staged approvals verbatim, then the recovery list with one workspace
   call per handle. The cap can only be exceeded by must-keep data; a handle is never dropped.

The JSON is never sliced: every output is a whole JSON object built from whole values.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from summarizer.core.errors import InputError
from summarizer.core.scrub import scrub
from summarizer.core.scrub_patterns import generic_kind, plausible_value
from summarizer.envelope.handles import (
    GENERAL_RECOVERY_CALL,
    Path,
    dotted,
    find_handles,
    handle_kind,
    is_approval,
    is_kept_leaf,
)

__all__ = ["DEFAULT_CAP", "EnvelopeReduction", "RecoveryEntry", "compact_size", "reduce_envelope"]

DEFAULT_CAP = 4096
_OWN_FIELDS = ("protocol", "ok", "operation", "summary", "error")
_OWN_RETENTION = ("importance", "facts")


class RecoveryEntry(BaseModel):
    """One recovery handle and the call that shows its state again."""

    model_config = ConfigDict(frozen=True)

    kind: str
    field: str
    path: str
    value: str
    call: str


class EnvelopeReduction(BaseModel):
    """The reduced envelope and an account of what was done to it."""

    model_config = ConfigDict(frozen=True)

    envelope: dict[str, Any]
    mode: Literal["whole", "reduced", "compact"]
    original_bytes: int
    reduced_bytes: int
    cap: int
    omitted: tuple[str, ...]
    pruned: tuple[str, ...]
    recovery: tuple[RecoveryEntry, ...]
    redactions: int


def compact_size(value: Any) -> int:
    """Bytes of the compact UTF-8 JSON of ``value``: the unit of ``--cap``."""
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())


def _is_own(path: Path) -> bool:
    """The envelope's own fields: never omitted, never pruned."""
    if len(path) >= 1 and path[0] in _OWN_FIELDS:
        return True
    return len(path) >= 2 and path[0] == "retention" and path[1] in _OWN_RETENTION


# --- step 1: scrub ---------------------------------------------------------------------------


def _scrub_tree(node: Any, key: str | int | None, counter: list[int]) -> Any:
    if isinstance(node, dict):
        out: dict[str, Any] = {}
        for k, v in node.items():
            new_key, reds = scrub(k)
            counter[0] += len(reds)
            if new_key in out:  # two keys scrubbed to one placeholder: keep both values
                new_key = f"{new_key}#{len(out)}"
            out[new_key] = _scrub_tree(v, k, counter)
        if "snippet" in out and "discoveryOnly" not in out:
            out["discoveryOnly"] = True  # a search hit, not a fetched page
        return out
    if isinstance(node, list):
        return [_scrub_tree(v, None, counter) for v in node]
    if not isinstance(node, str) or handle_kind(key, node) is not None:
        return node
    if isinstance(key, str) and (kind := generic_kind(key)) and plausible_value(node, key):
        counter[0] += 1  # {"password": "..."}: the key says it all, whatever the value looks like
        return f"[REDACTED:{kind}]"
    text, reds = scrub(node)
    counter[0] += len(reds)
    return text


# --- what must be kept ------------------------------------------------------------------------


def _kept_here(node: Any, key: str | int | None, path: Path, parent: Any) -> bool:
    """This node itself must be kept whole: no need to look inside it."""
    if _is_own(path) or handle_kind(key, node) is not None or is_approval(key, node):
        return True
    if not isinstance(parent, dict):
        return False
    if "snippet" in parent and key in ("title", "discoveryOnly"):
        return True
    return is_kept_leaf(key, node, path, parent)


def _has_keep(node: Any, key: str | int | None, path: Path, parent: Any = None) -> bool:
    """Does this subtree hold anything that must survive omission and pruning?"""
    if _kept_here(node, key, path, parent):
        return True
    if isinstance(node, dict):
        return any(_has_keep(v, k, (*path, k), node) for k, v in node.items())
    if isinstance(node, list):
        return any(_has_keep(v, i, (*path, i)) for i, v in enumerate(node))
    return False


def _skeleton(node: Any, key: str | int | None, path: Path, parent: Any = None) -> Any:
    """``node`` cut down to its kept content (the caller knows there is some)."""
    if not isinstance(node, (dict, list)) or _kept_here(node, key, path, parent):
        return node
    if isinstance(node, dict):
        kept = {
            k: _skeleton(v, k, (*path, k), node) for k, v in node.items() if _has_keep(v, k, (*path, k), node)
        }
        dropped = {k: v for k, v in node.items() if k not in kept}
        if dropped:
            kept["_omittedBytes"] = compact_size(dropped)
        return kept
    items = [_skeleton(v, i, (*path, i)) for i, v in enumerate(node) if _has_keep(v, i, (*path, i))]
    if len(items) < len(node):
        items.append(f"<{len(node) - len(items)} items omitted>")
    return items


# --- step 2: omit -----------------------------------------------------------------------------


def _matches(tree: Any, parts: list[str], path: Path = ()) -> list[Path]:
    if not parts:
        return [path]
    head, rest = parts[0], parts[1:]
    if isinstance(tree, dict):
        keys = list(tree) if head == "*" else [head] if head in tree else []
        return [p for k in keys for p in _matches(tree[k], rest, (*path, k))]
    if isinstance(tree, list):
        if head == "*":
            return [p for i, v in enumerate(tree) for p in _matches(v, rest, (*path, i))]
        if head.isdigit() and int(head) < len(tree):
            return _matches(tree[int(head)], rest, (*path, int(head)))
    return []


def _get(tree: Any, path: Path) -> Any:
    for part in path:
        tree = tree[part]
    return tree


def _set(tree: Any, path: Path, value: Any) -> None:
    _get(tree, path[:-1])[path[-1]] = value


def _inside_approval(tree: Any, path: Path) -> bool:
    node = tree
    for part in path[:-1]:
        node = node[part]
        if is_approval(part, node):
            return True
    return False


def _omit_paths(tree: dict[str, Any]) -> list[str]:
    retention = tree.get("retention")
    raw = retention.get("omit_when_summarizing") if isinstance(retention, dict) else None
    return [p for p in raw if isinstance(p, str) and p.strip()] if isinstance(raw, list) else []


def _apply_omits(tree: dict[str, Any]) -> list[str]:
    done: list[str] = []
    targets = [path for spec in _omit_paths(tree) for path in _matches(tree, spec.strip().split("."))]
    # Deepest first, so a wildcard path inside an already omitted parent is still well defined.
    for path in sorted(set(targets), key=len, reverse=True):
        if not path or _is_own(path) or path[0] == "retention" or _inside_approval(tree, path):
            continue  # the tool result cannot omit the envelope's own fields or an approval
        node = _get(tree, path)
        parent = _get(tree, path[:-1])
        if _has_keep(node, path[-1], path, parent):
            _set(tree, path, _skeleton(node, path[-1], path, parent))
        else:
            _set(tree, path, f"<omitted {compact_size(node)} bytes>")
        done.append(dotted(path))
    return done


# --- step 3: prune ----------------------------------------------------------------------------


def _collect(node: Any, key: str | int | None, path: Path, parent: Any, out: list[tuple[Any, Path]]) -> bool:
    """Add the maximal subtrees below ``node`` that hold nothing kept to ``out``.

    One bottom-up pass: returns whether ``node`` holds something kept; a node that holds nothing is
    left for its caller to record whole (its own children are then discarded).
    """
    if _kept_here(node, key, path, parent):
        return True
    below: list[tuple[Any, Path]] = []
    keep = False
    if isinstance(node, dict):
        children: list[tuple[Any, str | int]] = list(node.items())
    elif isinstance(node, list):
        children = list(enumerate(node))
    else:
        return False
    for k, v in children:
        child_path = (*path, k)
        if _collect(v, k, child_path, node if isinstance(node, dict) else None, below):
            keep = True
        else:
            below.append((v, child_path))
    if keep or not path:
        out.extend(below)
    return keep


def _prune(tree: dict[str, Any], budget: int) -> list[str]:
    done: list[str] = []
    total = compact_size(tree)
    if total <= budget:
        return done
    found: list[tuple[Any, Path]] = []
    _collect(tree, None, (), None, found)
    # (size, marker) per candidate; a marker is ASCII with no escapes, so its JSON size is len + 2.
    candidates = sorted(((compact_size(node), path) for node, path in found), key=lambda c: -c[0])
    savings = [size - (len(f"<pruned {size} bytes>") + 2) for size, _ in candidates]
    if total - sum(s for s in savings if s > 0) > budget:
        return done  # even pruning everything cannot fit: go straight to the compact form
    for (size, path), saving in zip(candidates, savings, strict=True):
        if total <= budget or saving <= 0:
            break  # fits, or everything left is smaller than its own marker
        _set(tree, path, f"<pruned {size} bytes>")
        total -= saving
        done.append(dotted(path))
    return done


# --- step 4: compact --------------------------------------------------------------------------


def _kept_leaves(
    node: Any, key: str | int | None, path: Path, parent: Any, out: dict[str, Any], approvals: list[Any]
) -> None:
    if _is_own(path) or (path and path[0] == "retention"):
        return
    if is_approval(key, node):
        if isinstance(node, list):
            approvals.extend(node)
        else:
            approvals.append(node)
        return
    if handle_kind(key, node) is not None:
        return  # listed with its call in the recovery list
    if path and isinstance(parent, dict) and is_kept_leaf(key, node, path, parent):
        out[dotted(path)] = node
    elif isinstance(node, dict):
        for k, v in node.items():
            _kept_leaves(v, k, (*path, k), node, out, approvals)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            _kept_leaves(v, i, (*path, i), None, out, approvals)


def _recovery(original: dict[str, Any]) -> tuple[RecoveryEntry, ...]:
    seen: set[tuple[str, str]] = set()
    entries: list[RecoveryEntry] = []
    for h in find_handles(original):
        if (h.kind, h.value) not in seen:
            seen.add((h.kind, h.value))
            entries.append(
                RecoveryEntry(kind=h.kind, field=h.field, path=dotted(h.path), value=h.value, call=h.call)
            )
    return tuple(entries)


def _compact(
    scrubbed: dict[str, Any], recovery: tuple[RecoveryEntry, ...], meta: dict[str, Any]
) -> dict[str, Any]:
    out: dict[str, Any] = {k: scrubbed[k] for k in _OWN_FIELDS if k in scrubbed}
    retention = scrubbed.get("retention")
    if isinstance(retention, dict):
        own = {k: retention[k] for k in _OWN_RETENTION if k in retention}
        if own:
            out["retention"] = own
    kept: dict[str, Any] = {}
    approvals: list[Any] = []
    _kept_leaves(scrubbed, None, (), None, kept, approvals)
    by_parent: dict[str, list[str]] = {}
    for dotted_key in kept:
        by_parent.setdefault(dotted_key.rpartition(".")[0], []).append(dotted_key)
    entries: list[dict[str, Any]] = []
    for e in recovery:
        # A handle's kept siblings (a job's status, exit code, start time) travel with it.
        siblings = by_parent.pop(e.path.rpartition(".")[0], [])
        state = {k.rpartition(".")[2]: kept.pop(k) for k in siblings}
        entries.append({"field": e.field, "value": e.value, **state, "call": e.call})
    if kept:
        out["kept"] = kept
    if approvals:
        out["approvals"] = approvals  # verbatim, ahead of the recovery list
    out["recovery"] = [*entries, {"call": GENERAL_RECOVERY_CALL}]
    out["_reduction"] = meta
    return out


def reduce_envelope(envelope: Mapping[str, Any], *, cap: int = DEFAULT_CAP) -> EnvelopeReduction:
    """Reduce ``envelope`` to at most ``cap`` bytes of compact JSON, keeping every recovery handle."""
    if cap < 1:
        raise InputError(f"cap must be at least 1 byte, not {cap}; pass a positive byte budget")
    # A JSON-native deep copy. Python's json reads NaN and Infinity, which are not JSON: they come
    # back as the strings "NaN", "Infinity", "-Infinity" so what we print stays JSON, and the value
    # is still there for a reader (dropping it would make the tool's answer look whole).
    original: dict[str, Any] = json.loads(json.dumps(dict(envelope)), parse_constant=str)
    original_bytes = compact_size(original)
    recovery = _recovery(original)
    counter = [0]
    scrubbed: dict[str, Any] = _scrub_tree(original, None, counter)
    tree: dict[str, Any] = json.loads(json.dumps(scrubbed))
    omitted = _apply_omits(tree)
    meta: dict[str, Any] = {"mode": "reduced", "originalBytes": original_bytes}
    pruned = _prune(tree, max(cap - compact_size({"_reduction": meta}) - 40, 0))
    if omitted or pruned:
        meta.update(omittedPaths=len(omitted), prunedFields=len(pruned))
        tree["_reduction"] = meta
    mode: Literal["whole", "reduced", "compact"] = "reduced" if omitted or pruned else "whole"
    if compact_size(tree) > cap:
        mode = "compact"
        tree = _compact(scrubbed, recovery, {"mode": "compact", "originalBytes": original_bytes})
    return EnvelopeReduction(
        envelope=tree,
        mode=mode,
        original_bytes=original_bytes,
        reduced_bytes=compact_size(tree),
        cap=cap,
        omitted=tuple(omitted),
        pruned=tuple(pruned),
        recovery=recovery,
        redactions=counter[0],
    )
