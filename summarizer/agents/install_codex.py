"""Codex's two extra pieces: ``hooks = true`` in ``config.toml`` and the instruction block in ``AGENTS.md``.

Codex runs hooks only with the ``hooks`` feature on, so ``init codex`` sets it under
``[features]``, each added line marked so ``--uninstall`` removes exactly those lines. The hook
rewrites only where Codex would not ask (:mod:`summarizer.agents.hosts`); for the commands it leaves
alone, a marked block in ``AGENTS.md`` tells the model to use ``summarizer run``. The separator put
before the block is recorded in its marker, so removing it gives back the file's exact bytes.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from summarizer.agents.install_files import read_or_none, write_atomic

__all__ = [
    "CODEX_BLOCK",
    "codex_files",
    "install_feature",
    "install_instructions",
    "instruction_span",
    "uninstall_feature",
    "uninstall_instructions",
]

_BEGIN = "<!-- summarizer:begin"
_END = "<!-- summarizer:end -->"
CODEX_BLOCK = """\
## Tool output (summarizer)

Run commands whose output can be long (tests, builds, linters, installs, logs) through
`summarizer run -- CMD ARGS...` (or `summarizer run "cmd1 && cmd2"` for a shell line). It prints
small outputs unchanged and compresses large ones, keeping every error line, `file:line`
reference and failing test, and exits with the command's own status. The last line,
`[full output: summarizer restore ID ...]`, gives back the full output (`--lines A:B` for a range).
Do not wrap commands whose output you need verbatim (`cat`, `head`, `git diff`, `jq`, ...).
"""


def instruction_span(raw: bytes | None) -> tuple[int, int] | None:
    """Where our block sits in ``AGENTS.md``'s text (start, end past its newline), or None."""
    text = raw.decode("utf-8", "replace") if raw is not None else ""
    start = text.find(_BEGIN)
    end = text.find(_END, start)
    if start < 0 or end < 0:
        return None
    return start, end + len(_END) + 1


def install_instructions(path: Path) -> str:
    """Append the instruction block to ``AGENTS.md`` at ``path`` (once); the line to print."""
    raw = read_or_none(path)
    if instruction_span(raw) is not None:
        return f"codex: already installed in {path}"
    text = raw.decode("utf-8") if raw is not None else ""
    sep = "" if not text or text.endswith("\n\n") else ("\n" if text.endswith("\n") else "\n\n")
    # The separator we added is recorded in the marker, so --uninstall restores the exact bytes.
    block = f"{_BEGIN} sep={len(sep)} -->\n{CODEX_BLOCK}{_END}\n"
    write_atomic(path, (text + sep + block).encode("utf-8"))
    return f"codex: instructions to use `summarizer run` in {path} (where the hook leaves a command alone)"


def uninstall_instructions(path: Path) -> str:
    """Remove the block and the separator added before it; the line to print."""
    raw = read_or_none(path)
    span = instruction_span(raw)
    if raw is None or span is None:
        return f"codex: nothing to remove in {path}"
    text = raw.decode("utf-8")
    start, end = span
    marker = text[start : text.find("\n", start)]
    sep = int(marker.split("sep=", 1)[1].split()[0]) if "sep=" in marker else 0
    rest = text[: start - sep] + text[end:]
    if rest:
        write_atomic(path, rest.encode("utf-8"))
    else:
        path.unlink()
    return f"codex: removed the summarizer block from {path}"


_FEATURE_MARK = "# summarizer init codex"


def install_feature(path: Path) -> str:
    """``hooks = true`` under ``[features]`` in Codex's config.toml, each added line marked."""
    raw = read_or_none(path)
    text = raw.decode("utf-8") if raw is not None else ""
    lines = text.splitlines()
    header = next((i for i, x in enumerate(lines) if x.strip().split("#")[0].strip() == "[features]"), None)
    if header is not None:
        end = next(
            (i for i in range(header + 1, len(lines)) if lines[i].lstrip().startswith("[")), len(lines)
        )
        if any(x.split("=")[0].strip() == "hooks" for x in lines[header + 1 : end]):
            return f"codex: [features] hooks already set in {path} (left as it is)"
        lines.insert(header + 1, f"hooks = true  {_FEATURE_MARK}")
    else:
        if lines and lines[-1].strip():
            lines.append("")
        lines += [f"[features]  {_FEATURE_MARK}", f"hooks = true  {_FEATURE_MARK}"]
    new = "\n".join(lines) + "\n"
    if _toml(text) is not None and _toml(new) is None:
        # `features.x = ...` or `features = {...}` elsewhere: a second [features] would break the file.
        return f"codex: {path} sets features in a form init does not edit; add hooks = true to them yourself"
    write_atomic(path, new.encode("utf-8"))
    return f"codex: [features] hooks = true in {path}"


def _toml(text: str) -> dict[str, object] | None:
    """``text`` read as TOML, or None when it is not valid TOML (imported here: init only)."""
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None


def uninstall_feature(path: Path) -> None:
    """Remove the lines :func:`install_feature` marked (and the file, if nothing else is left)."""
    raw = read_or_none(path)
    if raw is None or _FEATURE_MARK.encode() not in raw:
        return
    lines = [x for x in raw.decode("utf-8").splitlines() if not x.rstrip().endswith(_FEATURE_MARK)]
    while lines and not lines[-1].strip():
        lines.pop()
    if lines:
        write_atomic(path, ("\n".join(lines) + "\n").encode("utf-8"))
    else:
        path.unlink()


def codex_files(scope: str, env: Mapping[str, str], cwd: Path) -> tuple[Path, Path]:
    """(Codex's hooks.json, its config.toml) for ``scope``.

    ``hooks.json`` follows the scope; ``config.toml`` is the user's for both, where the
    ``hooks`` feature is switched on.
    """
    home = Path(env.get("CODEX_HOME") or Path(env.get("HOME") or Path.home()) / ".codex")
    return (
        cwd / ".codex" / "hooks.json" if scope == "project" else home / "hooks.json"
    ), home / "config.toml"
