"""Mid-session memory compression (seed 001): transcripts in, one engram document per project and day.

Modules: :mod:`.transcript` (read JSONL transcripts), :mod:`.triggers` (is a compression due?),
:mod:`.extract` (offline keyword rules), :mod:`.document` (the day's document: merge, cap, render),
:mod:`.service` (compress and recover against an engram backend).
"""
