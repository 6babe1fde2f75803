"""What summarizer saved, honestly counted: the run ledger, ``summarizer gain`` and ``summarizer discover``.

See ``docs/gain.md``. :mod:`summarizer.gain.ledger` is imported by ``run`` on its fast path and uses
the standard library only.
"""
