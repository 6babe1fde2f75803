"""agentic-workspace/v1 envelope reduction (docs/envelopes.md): never drop a recovery handle.

:mod:`.handles` recognises recovery handles and protected fields; :mod:`.reduce` prunes an
envelope under a byte cap and falls back to the compact recovery list.
"""
