"""Rules a team can share: failure patterns, noise patterns and commands never to wrap.

``.summarizer/rules.toml`` in a project and ``~/.config/summarizer/rules.toml`` for the user; see
``docs/rules.md``. The modules here import the standard library only at load time
(:mod:`summarizer.rules.files` runs inside the hook before every agent command); validation with
pydantic happens in :mod:`summarizer.rules.model`, on the compressing path only.
"""
