"""The phase gate (docs/phase-gate.md): score `subtask_summary` entries and render priority-aware hand-offs.

Rules (entry_rules, keywords, scoring, facts, masks, budget, templates) are pure; :mod:`.service`
holds the use cases the edges call (score, compress, batch, stats) and :mod:`.summaries` the
CRITICAL/HIGH semantic-summary use case over the generic :mod:`summarizer.semantic` service. The
package init imports nothing, so the cold ``summarizer score`` path loads only what it uses.
"""
