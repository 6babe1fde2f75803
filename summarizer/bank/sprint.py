"""Sprint close (C5) and the wisdom bridge (docs/memory-bank.md).

``close_sprint``, under the bank lock:

1. archive the cross-reference index as it stands (``_notes/archive/YYYY-MM-xref-index.md``; the
   index itself stays, its IDs survive sprint boundaries);
2. archive each ``<learnings>/<feature>/learnings.md`` (``YYYY-MM-learnings.md``), then delete it;
3. flag what is unresolved: artifacts still in ``.tmp/``, entries stored as ``partial`` and the
   ``## Unfinished`` rows (they stay listed until an agent's batch reports the work done);
4. remove the ZZ files (they were injected into the next phases; they go only here) and stale
   ``*.tmp`` partial writes.

``injection_block`` builds what the orchestrator puts in the next agent's prompt::

    ## Previous Wave Learnings
    <learnings.md, or "(none recorded)": extraction is advisory>

    ## Compressed Context (Phase N → Phase N+1)
    <ZZ-phase{N}-context.md>

    Apply these learnings and context to your implementation.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from summarizer.bank import atomic
from summarizer.bank.archive import append_block, archive_file
from summarizer.bank.artifacts import classify
from summarizer.bank.handoff import resolved_by_links
from summarizer.bank.layout import BankPaths, load_state
from summarizer.bank.markdown import read_bank_text
from summarizer.bank.report import CloseReport, GateReport
from summarizer.bank.zz import next_phase_label, zz_name
from summarizer.core.errors import NotFound
from summarizer.core.scrub import scrub

__all__ = ["close_sprint", "default_learnings_dir", "inject_command", "injection_block", "with_inject_hints"]


def default_learnings_dir(root: Path) -> Path:
    """``.pantheon/learnings`` next to the default ``.pantheon/memory-bank``."""
    return root.parent / "learnings"


def _learnings_files(learnings: Path) -> list[Path]:
    if not learnings.is_dir():
        return []
    return sorted(p for p in learnings.glob("*/learnings.md") if p.is_file())


def close_sprint(root: Path, *, date: str, learnings: Path | None = None) -> CloseReport:
    """Close the sprint for the bank at ``root``; see the module docstring for the steps."""
    paths = BankPaths(root)
    learnings = learnings or default_learnings_dir(root)
    with atomic.bank_lock(root):
        cleaned = atomic.clean_stale_temp(root)
        state = load_state(root)  # validates the bank before anything is changed
        writes: list[tuple[Path, str]] = []
        index_text = state.current(paths.xref)
        xref_archived = False
        if index_text is not None:
            target = archive_file(root, date, "xref-index")
            body = [line for line in index_text.rstrip("\n").split("\n")[1:]]
            new = append_block(
                read_bank_text(target),
                f"# Cross-Reference Archive — {date[:7]}",
                f"Sprint close {date}",
                [line.replace("## ", "### ", 1) if line.startswith("## ") else line for line in body],
            )
            if new is not None:
                writes.append((target, new))
                xref_archived = True
        archived: list[Path] = []
        target = archive_file(root, date, "learnings")
        current = read_bank_text(target)
        for path in _learnings_files(learnings):
            text = scrub(read_bank_text(path) or "")[0]
            body = [
                line.replace("## ", "### ", 1) if line.startswith("## ") else line
                for line in text.rstrip("\n").split("\n")
            ]
            updated = append_block(
                current,
                f"# Learnings Archive — {date[:7]}",
                f"{path.parent.name} — sprint close {date}",
                body,
            )
            current = updated if updated is not None else current
            archived.append(path)
        if current is not None and current != read_bank_text(target):
            writes.append((target, current))
        unresolved = [f".tmp/{artifact.name} ({artifact.kind})" for artifact, _ in state.artifacts]
        unresolved += [
            f"partial entry {e.date} — {e.phase}: {e.who}"
            for e in state.active.entries()
            if e.status == "partial"
        ]
        unresolved += [
            f"{row.status} entry {row.date} — {row.phase}: {row.agent} ({row.reason})"
            for row in resolved_by_links(
                state.active.unfinished,
                [(link.type, link.links_to) for link in state.xref.links],
                state.active.entries(),
            )
        ]
        atomic.check_writable([path for path, _ in writes])
        for path, text in writes:
            atomic.atomic_write(path, text)
        for path in archived:  # archived first, deleted second
            atomic.remove_file(path)
        removed = []
        if paths.tmp.is_dir():
            for zz in sorted(paths.tmp.glob("ZZ-phase*-context.md")):
                if classify(zz.name).kind == "OWN" and atomic.remove_file(zz):
                    removed.append(zz.name)
    return CloseReport(
        zz_removed=tuple(removed),
        learnings_archived=tuple(str(p) for p in archived),
        xref_archived=xref_archived,
        unresolved=tuple(unresolved),
        cleaned=tuple(str(p.relative_to(root)) for p in cleaned),
    )


def injection_block(
    root: Path, phase: str, *, feature: str = "default", learnings: Path | None = None
) -> str:
    """The wisdom-bridge block for the agent of the phase after ``phase``."""
    zz_path = BankPaths(root).tmp / zz_name(phase)
    zz = read_bank_text(zz_path)
    if zz is None:
        gate = [
            "summarizer",
            "gate",
            "--phase",
            phase,
            "--feature",
            feature,
            "--bank",
            str(root),
            "ENTRIES.jsonl",
        ]
        raise NotFound(
            f"no ZZ artifact for phase {phase!r} at {str(zz_path)!r}; gate the phase first: "
            + shlex.join(gate)
        )
    learned_path = (learnings or default_learnings_dir(root)) / feature / "learnings.md"
    learned = read_bank_text(learned_path)
    learned_text = scrub(learned)[0].strip() if learned and learned.strip() else "(none recorded)"
    return (
        "\n".join(
            [
                "## Previous Wave Learnings",
                learned_text,
                "",
                f"## Compressed Context (Phase {phase} → Phase {next_phase_label(phase)})",
                zz.rstrip("\n"),
                "",
                "Apply these learnings and context to your implementation.",
            ]
        )
        + "\n"
    )


def _same(a: Path, b: Path) -> bool:
    return a.expanduser().resolve() == b.expanduser().resolve()


def inject_command(
    phase: str, feature: str, root: Path, *, default_root: Path, learnings: Path | None = None
) -> str:
    """The ``summarizer gate --inject`` command line that prints this phase's block when pasted.

    ``--feature``, ``--bank`` and ``--learnings`` are spelled out whenever they are not what the
    command would assume on its own (the default bank, ``<bank>/../learnings``, feature ``default``).
    """
    args = ["summarizer", "gate", "--inject", phase]
    if feature != "default":
        args += ["--feature", feature]
    if not _same(root, default_root):
        args += ["--bank", str(root)]
    if learnings is not None and not _same(learnings, default_learnings_dir(root)):
        args += ["--learnings", str(learnings)]
    return shlex.join(args)


def with_inject_hints(
    report: GateReport, root: Path, *, default_root: Path, learnings: Path | None = None
) -> GateReport:
    """``report`` with one pasteable ``--inject`` command per ZZ file it wrote or kept."""
    phases = [
        Path(name).name.removeprefix("ZZ-phase").removesuffix("-context.md") for name in report.zz_files
    ]
    commands = tuple(
        inject_command(p, report.feature, root, default_root=default_root, learnings=learnings)
        for p in phases
    )
    return report.model_copy(update={"inject_commands": commands})
