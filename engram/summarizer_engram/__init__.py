"""summarizer_engram: an engram-compatible memory store (SQLite) and a client for `engram serve`."""

__all__: list[str] = []
