"""Which cross-references an entry creates (docs/memory-bank.md, "Cross-references").

* CRITICAL entries only create entities: an endpoint needs an HTTP method with a path or a path
  under /api/, /v1/, /v2/ (the bare words "delete" or "route" create none); a migration needs a
  schema-change context (new table, new column, migration, ALTER/CREATE TABLE, ADD COLUMN) and
  names the tables (else the migration ids, else the columns); a component needs the word
  component/page/widget or a .tsx/.jsx/.vue/.svelte file.
* Any compressed entry that was blocked and now completes (a ``blockers`` field) links to the
  unblocking entry in Decision Links (type ``unblocked``); one with an ``unblocks`` field records
  what it unblocked (type ``unblocks``).

The facts come from :func:`summarizer.phasegate.facts.extract_facts` over the scrubbed summary, so no secret
can become an entity name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from summarizer.bank.entry import BankEntry
from summarizer.bank.prepare import Prepared
from summarizer.bank.progress_log import section_heading
from summarizer.bank.xref import XrefIndex
from summarizer.phasegate.facts import extract_facts, shorten
from summarizer.phasegate.keywords import find_concepts

__all__ = ["add_entry_xrefs"]

_SCHEMA_CHANGE = re.compile(r"\bmigrat\w*|\b(?:alter|create)\s+table\b|\badd\s+column\b", re.IGNORECASE)
# The keyword map decides "new table" / "new column" (snake_case, dotted and quoted names included).
_SCHEMA_CONCEPTS = frozenset({"new table", "new column"})
_API_HINTS = ("route", "router", "api", "controller", "handler", "endpoint", "view", "server")
_UI_EXT = (".tsx", ".jsx", ".vue", ".svelte")


def _location(files: Sequence[str], hints: Sequence[str], exts: Sequence[str] = ()) -> str:
    for path in files:
        lowered = path.lower()
        if any(h in lowered for h in hints) or (exts and lowered.endswith(tuple(exts))):
            return path
    return files[0] if files else "-"


def add_entry_xrefs(index: XrefIndex, p: Prepared, entry: BankEntry) -> None:
    """Add (or find again) the cross-references of one stored entry."""
    phase, agent, clean = p.phase, p.agent, p.clean
    summary, files = clean.summary, clean.files_changed
    if entry.band == "CRITICAL":
        facts = extract_facts(summary, files)
        for endpoint in facts.endpoints:
            index.add_entity("endpoint", endpoint, _location(files, _API_HINTS), phase, agent)
        if _SCHEMA_CHANGE.search(summary) or _SCHEMA_CONCEPTS & {c.name for c in find_concepts(summary)}:
            where = _location(files, ("migration", "alembic", "versions", "schema", "models"))
            names = (
                [f"{t} table" for t in facts.tables]
                or [f"migration {m}" for m in facts.migrations]
                or [f"{c} column" for c in facts.columns]
            )
            for name in names:
                index.add_entity("migration", name, where, phase, agent)
        for component in facts.components:
            index.add_entity(
                "component",
                component,
                _location(files, ("component", "page", "widget"), _UI_EXT),
                phase,
                agent,
            )
    heading = section_heading(p.date, p.phase, p.agent, p.subtask)[4:]
    if clean.blockers and clean.status == "complete":
        index.add_link(
            "unblocked",
            shorten(f"{agent} P{phase} completed after: {clean.blockers}", 120),
            f"02-progress-log.md ({heading})",
            phase,
        )
    if clean.unblocks:
        index.add_link(
            "unblocks",
            shorten(f"{agent} P{phase} unblocked: {clean.unblocks}", 120),
            f"02-progress-log.md ({heading})",
            phase,
        )
