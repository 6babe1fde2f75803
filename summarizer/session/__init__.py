"""Mid-session memory compression (docs/session.md): transcripts in, one engram document per project and day.

Modules: :mod:`.transcript` (read JSONL transcripts), :mod:`.triggers` (is a compression due?),
:mod:`.extract` (offline keyword rules) and :mod:`.resume` (goal, instructions, next steps, test
status), :mod:`.document` (the day's document: tags, cap, render, parse), :mod:`.reconcile` (merge a
later compression), :mod:`.model` and :mod:`.check` (a model's document and its check),
:mod:`.marks` (compression marks, the topic lock), :mod:`.project` (engram's project detection),
:mod:`.service` (compress and recover against an engram backend), :mod:`.usecase` (what the CLI
and the MCP server call).
"""
