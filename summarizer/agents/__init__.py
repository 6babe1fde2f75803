"""Agent integration: ``summarizer run``, the agent hooks and ``summarizer init``.

Nothing is imported here: ``run`` and ``hook`` are on every agent command's path and load only
the standard library until they need more (see :mod:`summarizer.launcher`).
"""
