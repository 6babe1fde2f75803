"""Files Modified: what each file went through in the session, from tool calls, never from prose.

* Edit/Write/MultiEdit/apply_patch calls (and generic edit records) edit or create a file; the
  line keeps the edit count and why: the call's own description, else the assistant's sentence
  right before the first edit.
* Shell commands delete and rename: ``git rm``, ``rm``, ``git mv``, ``mv`` (each part of a
  ``&&``/``;``/``|`` chain), and a patch's ``*** Delete File:`` / ``*** Move to:``. A command whose
  result says it failed ("No such file", "fatal:", "cannot remove") changed nothing.

One line per file, by its last name: `` `app/db.py` — edited (3 edits): why ``,
`` `old.py` — deleted ``, `` `new.py` — renamed from `old.py` ``, or edited and renamed
(`` `new.py` — edited (2 edits), renamed from `old.py` ``).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from summarizer.session.transcript import Event, Transcript, shell_patch, tool_kind, tool_path

__all__ = ["file_lines"]

_PATCH_FILE = re.compile(
    r"^\*\*\* (Add|Update|Delete) File: (.+?)\s*$|^\*\*\* Move to: (.+?)\s*$", re.MULTILINE
)
_CHAIN = re.compile(r"&&|\|\||;|\||\n")
_FAILED = re.compile(
    r"No such file|fatal:|cannot remove|cannot move|cannot stat|did not match any files|Permission denied",
    re.IGNORECASE,
)
_WRAPPERS = {"sudo", "command", "nohup", "time"}


@dataclass(slots=True)
class _File:
    verb: str = "edited"  # created, edited, deleted, renamed
    edits: int = 0
    renamed_from: str = ""
    why: str = ""
    order: int = 0


def file_lines(
    transcript: Transcript, first_sentence: Callable[[str], str], shorten: Callable[[str], str]
) -> list[str]:
    """One line per file the session changed (see the module docstring).

    ``first_sentence`` gives an assistant message's first sentence (the "why" of the next edit);
    ``shorten`` bounds an item's length.
    """
    files: dict[str, _File] = {}
    results = transcript.results()
    last_said = ""
    for index, event in enumerate(transcript.events):
        if event.kind == "message" and event.role == "assistant":
            said = first_sentence(event.text)
            last_said = "" if said.endswith("?") else said
            continue
        if event.kind != "tool_call":
            continue
        result = results.get(index)
        if tool_kind(event) == "edit":
            _edits(files, event, transcript.cwd, last_said)
        elif result is None or not _FAILED.search(result.text[:2000]):
            for verb, paths in _shell_changes(event):
                _shell(files, verb, [_relative(p, transcript.cwd) for p in paths])
        last_said = ""
    ordered = sorted(files.items(), key=lambda kv: kv[1].order)
    return [_render(path, f, shorten) for path, f in ordered]


def _render(path: str, f: _File, shorten: Callable[[str], str]) -> str:
    if f.verb == "deleted":
        return f"`{path}` — deleted"
    if f.verb == "renamed" and not f.edits:
        return f"`{path}` — renamed from `{f.renamed_from}`"
    verb = "created" if f.verb == "created" else "edited"
    count = f" ({f.edits} edits)" if f.edits > 1 else ""
    moved = f", renamed from `{f.renamed_from}`" if f.renamed_from else ""
    why = f": {shorten(f.why)}" if f.why else ""
    return f"`{path}` — {verb}{count}{moved}{why}"


def _entry(files: dict[str, _File], path: str) -> _File:
    if path not in files:
        files[path] = _File(order=len(files))
    return files[path]


def _edits(files: dict[str, _File], event: Event, cwd: str | None, last_said: str) -> None:
    for change, path, target in _edited_paths(event):
        path = _relative(path, cwd)
        if change == "Delete":
            _shell(files, "rm", [path])
            continue
        entry = _entry(files, path)
        if entry.verb == "deleted":  # written again after a deletion
            entry.verb, entry.edits = "edited", 0
        if not entry.why and (event.change or (last_said and entry.edits == 0)):
            entry.why = event.change or last_said
        entry.edits += 1
        if change == "Add" and entry.edits == 1:
            entry.verb = "created"
        if target:
            _shell(files, "mv", [path, _relative(target, cwd)])


def _shell(files: dict[str, _File], verb: str, paths: list[str]) -> None:
    if verb == "rm":
        for path in paths:
            entry = _entry(files, path.rstrip("/"))
            entry.verb, entry.why, entry.renamed_from = "deleted", "", ""
        return
    *sources, target = paths
    for source in sources:
        old = source.rstrip("/")
        new = (
            f"{target.rstrip('/')}/{old.rsplit('/', 1)[-1]}"
            if len(sources) > 1 or target.endswith("/")
            else target
        )
        entry = files.pop(old) if old in files else _File(verb="renamed", order=len(files))
        if entry.verb == "deleted":
            continue
        entry.renamed_from = entry.renamed_from or old
        files[new] = entry


def _shell_changes(call: Event) -> Iterator[tuple[str, list[str]]]:
    """``("rm", paths)`` and ``("mv", [sources..., target])`` for each deleting or moving command."""
    command = call.tool_input.get("command") or call.tool_input.get("cmd")
    if isinstance(command, list):
        parts = [str(p) for p in command]
        command = parts[-1] if len(parts) >= 3 and parts[1] in {"-lc", "-c"} else shlex.join(parts)
    if not isinstance(command, str):
        return
    for piece in _CHAIN.split(command):
        try:
            argv = shlex.split(piece)
        except ValueError:
            argv = piece.split()
        while argv and (argv[0] in _WRAPPERS or "=" in argv[0]):
            argv = argv[1:]
        if argv[:1] == ["git"] and len(argv) > 1:
            argv = argv[1:]
        if not argv or argv[0] not in {"rm", "mv"}:
            continue
        paths = [a for a in argv[1:] if not a.startswith("-")]
        if "--cached" in argv or not paths or (argv[0] == "mv" and len(paths) < 2):
            continue
        yield argv[0], paths


def _edited_paths(call: Event) -> list[tuple[str, str, str]]:
    """``(change, path, moved_to)``: change is Add, Update or Delete."""
    name = call.tool.lower().rsplit("__", 1)[-1]
    patch = call.tool_input.get("patch") or call.tool_input.get("input") or shell_patch(call)
    if isinstance(patch, str) and "*** " in patch:  # Codex/OpenCode apply_patch format
        out: list[tuple[str, str, str]] = []
        for verb, path, moved in _PATCH_FILE.findall(patch):
            if moved and out:
                out[-1] = (out[-1][0], out[-1][1], moved)
            elif path:
                out.append((verb, path, ""))
        return out
    path = tool_path(call)
    if path is None:
        return []
    creates = name in {"write", "create_file", "write_file"} or call.tool_input.get("command") == "create"
    return [("Add" if creates else "Update", path, "")]


def _relative(path: str, cwd: str | None) -> str:
    if cwd and path.startswith(cwd.rstrip("/") + "/"):
        return path[len(cwd.rstrip("/")) + 1 :]
    return path
