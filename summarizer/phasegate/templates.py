"""Deterministic renderings of an entry for its band: the offline path of the semantic summaries.

=========  =====================================================================================
CRITICAL   3 lines: what changed (with contract details) / why it matters to the next agent /
           the gotcha (a trade-off sentence, else the main risk to watch)
HIGH       2 lines: what changed / why it matters to the next agent
MEDIUM     ``[Agent] — <first sentence, <= 80 chars> — <files>``
LOW        ``[Agent] — <files>``
=========  =====================================================================================

The lines are plain sentences without labels or numbering, like the LLM's answers they stand in
for; the memory-bank writer adds ``**What changed:**`` style labels. A ``partial`` entry's first
line starts with the warning sign. Each line is at most :data:`MAX_LINE` characters.

What the "what" and "why" lines carry is decided by the per-agent-pair variant table
(:data:`VARIANTS`): endpoints and status codes for Hermes -> Aphrodite, tables / columns / foreign
keys for the Demeter pairs, and so on. The details come from :func:`summarizer.phasegate.facts.extract_facts`;
a detail already written in the first sentence is not repeated. Everything here is pure.

The template copies the entry's own words, and the entry is data written by another agent: a
sentence that gives orders to the reader ("NOTE TO THE SUMMARY WRITER: ...", "ignore ...", "mark this
as CRITICAL", see :func:`summarizer.semantic.untrusted.addressed`) is never copied, from the summary or any
other text field, and a ``files_changed`` item that gives orders is not a file. When nothing of the
summary is left, the line says so (:data:`WITHHELD`) instead of repeating it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import assert_never

from summarizer.phasegate.facts import Facts, extract_facts, sentences, shorten
from summarizer.phasegate.keywords import find_concepts
from summarizer.phasegate.models import SubtaskSummary
from summarizer.phasegate.scoring import WARNING_SIGN, Band
from summarizer.semantic.untrusted import addressed, without_addressed

__all__ = [
    "MAX_LINE",
    "VARIANTS",
    "WITHHELD",
    "Variant",
    "agent_label",
    "data_only",
    "files_text",
    "first_sentence",
    "render_entry",
    "render_lines",
    "variant_for",
]

MAX_LINE = 200
WITHHELD = "(summary withheld: it only gave orders to the reader)"
MEDIUM_SENTENCE = 80
FILES_SHOWN = 3


@dataclass(frozen=True, slots=True)
class Variant:
    """One row of the variants per agent pair: which facts to carry and how to say why."""

    pair: str
    details: tuple[str, ...]  # Facts field names (or entry fields for the review pairs)
    why: str  # completes "<Next agent> ..." when the entry carries those details


# Lookup order as for the field masks: exact pair, "* -> themis" / "* -> mnemosyne", "from -> *".
VARIANTS: dict[tuple[str, str], Variant] = {
    ("hermes", "aphrodite"): Variant(
        "hermes -> aphrodite",
        ("endpoints", "status_codes"),
        "must call the changed API and handle its status codes",
    ),
    ("hermes", "demeter"): Variant(
        "hermes -> demeter",
        ("tables", "foreign_keys", "columns"),
        "must keep the models and relationships in step",
    ),
    ("demeter", "hermes"): Variant(
        "demeter -> hermes",
        ("tables", "columns", "migrations"),
        "must query the new schema after the migration",
    ),
    ("demeter", "aphrodite"): Variant(
        "demeter -> aphrodite", ("columns", "tables"), "can display and validate the new fields"
    ),
    ("aphrodite", "hermes"): Variant(
        "aphrodite -> hermes", ("components", "endpoints"), "must serve the data this UI requests"
    ),
    ("aphrodite", "demeter"): Variant(
        "aphrodite -> demeter", ("components", "columns"), "must store the state and fields this UI shows"
    ),
    ("hephaestus", "hermes"): Variant(
        "hephaestus -> hermes",
        ("endpoints", "env_vars"),
        "must wire the pipeline inputs, outputs and model endpoints",
    ),
    ("prometheus", "hermes"): Variant(
        "prometheus -> hermes", ("env_vars", "endpoints"), "must match the deploy target, env vars and config"
    ),
    # The reviewer's mask keeps every field (files included), so the line spends its room on the
    # contract and the evidence: what changed at the interface, tests, coverage, an unusual status.
    ("*", "themis"): Variant(
        "* -> themis",
        ("endpoints", "status_codes", "tables", "columns", "migrations", "tests", "coverage", "status"),
        "reviews it with full context",
    ),
    ("*", "mnemosyne"): Variant("* -> mnemosyne", ("status",), "archives it as a minimal record"),
    ("themis", "*"): Variant(
        "themis -> *",
        ("verdict", "critical_issues", "coverage"),
        "gets the review outcome before building on it",
    ),
}
DEFAULT_VARIANT = Variant(
    "* -> *",
    ("endpoints", "status_codes", "tables", "columns", "migrations", "components", "env_vars"),
    "builds on this contract",
)

_LABELS = {
    "endpoints": "",
    "status_codes": "status ",
    "tables": "tables ",
    "columns": "columns ",
    "foreign_keys": "FK to ",
    "migrations": "migration ",
    "components": "components ",
    "env_vars": "env ",
}
# Category names as prose (no slash: "schema/migration" would read as a path to a validator).
_CATEGORY_LABEL = {
    "schema/migration": "schema and migration",
    "auth/security": "auth and security",
    "api": "API contract",
    "code-quality": "code quality",
}
# Why it matters when the entry names no concrete detail: by the riskiest category it mentions.
_CATEGORY_WHY = {
    "schema/migration": "the data model changed, so queries and migrations built on it must be re-checked",
    "auth/security": "auth and security behaviour changed, so every flow relying on it must be re-tested",
    "database": "database keys, indexes or constraints changed, so writes and queries must be re-checked",
    "api": "the API contract changed, so every caller must be re-checked",
    "infrastructure": "deployment or configuration changed, so environments and pipelines must be re-checked",
    "architecture": "a service boundary changed, so its callers must be re-checked",
    "structure": "new files change where things live",
    "code-quality": "behaviour should be unchanged, but renames and deletions can break callers",
}


def agent_label(agent: str | None) -> str:
    """Display name of an agent: ``hermes`` -> ``Hermes``; missing -> ``unknown``."""
    return agent.strip().capitalize() if agent and agent.strip() else "unknown"


def _to_agents(entry: SubtaskSummary, to: str | Iterable[str] | None) -> tuple[str, ...]:
    if to is None:
        return entry.to_agent
    items = to.split(",") if isinstance(to, str) else list(to)
    return tuple(t.strip().lower() for t in items if t.strip())


def variant_for(from_agent: str | None, to_agent: str | None) -> Variant:
    """The variant row for one pair: exact, then ``* -> themis/mnemosyne``, then ``from -> *``."""
    src, dst = (from_agent or "").lower(), (to_agent or "").lower()
    return VARIANTS.get((src, dst)) or VARIANTS.get(("*", dst)) or VARIANTS.get((src, "*")) or DEFAULT_VARIANT


def first_sentence(text: str) -> str:
    """The summary's first sentence that gives no orders, whitespace collapsed (the whole text if
    it has no end mark)."""
    first = next((part for part in sentences(text) if addressed(part) is None), "")
    return " ".join(first.split())


_TEXT_FIELDS = ("status_note", "tests", "coverage", "verdict", "blockers", "unblocks", "title")


def data_only(entry: SubtaskSummary) -> SubtaskSummary:
    """``entry`` without the sentences and file items that give orders to the reader (see the module
    docstring); the entry itself when it has none, so the common case costs one scan per field."""
    update: dict[str, object] = {}
    summary = without_addressed(entry.summary)
    if summary != entry.summary:
        update["summary"] = summary or WITHHELD
    files = tuple(path for path in entry.files_changed if addressed(path) is None)
    if files != entry.files_changed:
        update["files_changed"] = files
    for name in _TEXT_FIELDS:
        value = getattr(entry, name, None)
        if isinstance(value, str) and (clean := without_addressed(value)) != value:
            update[name] = clean or None
    return entry.replaced(**update) if update else entry


def files_text(files: Sequence[str], shown: int = FILES_SHOWN) -> str:
    """``a.py, b.py, c.py +2 more``; ``(no files)`` when empty."""
    if not files:
        return "(no files)"
    head = ", ".join(files[:shown])
    return head if len(files) <= shown else f"{head} +{len(files) - shown} more"


def _sentence(text: str) -> str:
    text = " ".join(text.split()).strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def _detail_values(entry: SubtaskSummary, facts: Facts, name: str) -> tuple[str, tuple[str, ...]]:
    """(label, values) of one detail; contract facts come from ``facts``, review data from the entry."""
    if name in _LABELS:
        return _LABELS[name], tuple(getattr(facts, name))
    issues = entry.critical_issues
    entry_values: dict[str, tuple[str, str | None]] = {
        "files": ("files ", files_text(entry.files_changed, 5) if entry.files_changed else None),
        "tests": ("tests ", entry.tests),
        # "complete" is the default and says nothing; any other status is worth a mention.
        "status": (
            "status ",
            None
            if entry.status == "complete" and not entry.status_note
            else entry.status + (f" ({entry.status_note})" if entry.status_note else ""),
        ),
        "coverage": ("coverage ", entry.coverage),
        "verdict": ("verdict ", entry.verdict),
        "critical_issues": ("critical issues ", None if issues is None else str(issues)),
    }
    label, value = entry_values[name]
    return label, ((value,) if value else ())


def _details(entry: SubtaskSummary, facts: Facts, variants: Sequence[Variant], already: str) -> list[str]:
    names = list(dict.fromkeys(n for v in variants for n in v.details))
    out: list[str] = []
    for name in names:
        label, values = _detail_values(entry, facts, name)
        # Repeat nothing the first sentence already says (e.g. "POST /auth/login" written out).
        fresh = [v for v in values if v not in already]
        if fresh:
            out.append(label + ", ".join(fresh))
    return out


def _what_line(entry: SubtaskSummary, facts: Facts, variants: Sequence[Variant]) -> str:
    first = _sentence(first_sentence(entry.summary)).rstrip(".")
    head = first
    # A long first sentence gives way to the contract details (they are what the next agent needs),
    # but keeps at least 80 characters. A detail the cut removed from the sentence is added back as
    # a detail, hence the second pass; the details themselves are cut last.
    details: list[str] = []
    for _ in range(4):  # converges in one or two rounds; the bound only guards against ping-pong
        fresh = _details(entry, facts, variants, head)
        extra = f" ({'; '.join(fresh)})" if fresh else ""
        cut = shorten(first, max(MEDIUM_SENTENCE, MAX_LINE - len(extra) - 1))
        if fresh == details and cut == head:
            break
        details, head = fresh, cut
    extra = f" ({'; '.join(_details(entry, facts, variants, head))})" if details else ""
    return shorten(head + extra + ".", MAX_LINE)


def _why_line(
    entry: SubtaskSummary, facts: Facts, to_agents: Sequence[str], variants: Sequence[Variant]
) -> str:
    names = [agent_label(a) for a in to_agents] or ["the next agent"]
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    specific = [v for v in variants if v is not DEFAULT_VARIANT]
    has_facts = bool(facts.contract_terms())
    # Review and archive pairs carry entry fields, not contract facts, so they always apply.
    review = any(v.pair.startswith(("themis", "*")) for v in specific)
    if specific and (has_facts or review):
        reason = "; ".join(dict.fromkeys(v.why for v in specific))
        return shorten(_sentence(f"{who} {reason}"), MAX_LINE)
    ranked = sorted(find_concepts(entry.summary), key=lambda c: -(c.impact + c.risk))
    for category in (c.category for c in ranked):
        if category in _CATEGORY_WHY:
            return shorten(_sentence(f"For {who}: {_CATEGORY_WHY[category]}"), MAX_LINE)
    if has_facts:
        return shorten(_sentence(f"{who} {DEFAULT_VARIANT.why}"), MAX_LINE)
    return shorten(_sentence(f"For {who}: a contained change with no contract impact named"), MAX_LINE)


def _with_gotcha(why: str, gotcha: str | None) -> str:
    """``<why> — <gotcha>`` as one sentence; the gotcha's first word is lower-cased if it is plain."""
    if not gotcha:
        return why
    text = gotcha.strip().rstrip(".")
    first = text.split(" ", 1)[0]
    if first[:1].isupper() and first[1:].islower():  # "Refresh" -> "refresh"; "UI", "POST" stay
        text = text[0].lower() + text[1:]
    return shorten(f"{why.rstrip('.')} — {text}.", MAX_LINE)


def _gotcha_line(entry: SubtaskSummary, facts: Facts) -> str:
    if facts.gotcha:
        return shorten(_sentence(facts.gotcha), MAX_LINE)
    if entry.blockers:
        text = f"It was blocked by {entry.blockers}; check that dependency still holds"
        return shorten(_sentence(text), MAX_LINE)
    concepts = sorted(find_concepts(entry.summary), key=lambda c: (-c.risk, -c.impact))
    if concepts:
        top = concepts[0]
        same = [c.name for c in concepts if c.category == top.category][:3]
        label = _CATEGORY_LABEL.get(top.category, top.category)
        text = f"No trade-off recorded; the main risk is the {label} change ({', '.join(same)})"
        return shorten(_sentence(text), MAX_LINE)
    return "No trade-off recorded."


def render_lines(entry: SubtaskSummary, band: Band, to: str | Iterable[str] | None = None) -> tuple[str, ...]:
    """Render ``entry`` for ``band``; ``to`` overrides the entry's next agents (variant choice).

    >>> e = SubtaskSummary(summary="Fixed typo in README.", files_changed=("README.md",), from_agent="hermes")
    >>> render_lines(e, "LOW")
    ('[Hermes] — README.md',)
    """
    entry = data_only(entry)
    agent = f"[{agent_label(entry.from_agent)}]"
    warn = f"{WARNING_SIGN} " if entry.status == "partial" else ""
    if band == "LOW":
        lines: tuple[str, ...] = (f"{warn}{agent} — {files_text(entry.files_changed)}",)
    elif band == "MEDIUM":
        head = shorten(first_sentence(entry.summary).rstrip("."), MEDIUM_SENTENCE)
        lines = (f"{warn}{agent} — {head} — {files_text(entry.files_changed)}",)
    elif band == "HIGH" or band == "CRITICAL":  # not ``in``: that would not narrow the Literal
        to_agents = _to_agents(entry, to)
        variants = [variant_for(entry.from_agent, t) for t in to_agents]
        variants = variants or [variant_for(entry.from_agent, None)]
        facts = extract_facts(entry.summary, entry.files_changed)
        what = _what_line(entry, facts, variants)
        why = _why_line(entry, facts, to_agents, variants)
        if band == "HIGH":
            # No third line: a trade-off the next agent must respect rides on the "why" line.
            # Not for the archive (* -> mnemosyne), which keeps a minimal record.
            archive = bool(to_agents) and all(t == "mnemosyne" for t in to_agents)
            lines = (warn + what, why if archive else _with_gotcha(why, facts.gotcha))
        else:
            lines = (warn + what, why, _gotcha_line(entry, facts))
    else:
        assert_never(band)
    return tuple(shorten(line, MAX_LINE) for line in lines)


def render_entry(entry: SubtaskSummary, band: Band, to: str | Iterable[str] | None = None) -> str:
    """:func:`render_lines` joined by newlines (what ``summarizer compress`` prints)."""
    return "\n".join(render_lines(entry, band, to))
