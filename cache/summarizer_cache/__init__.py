"""summarizer_cache: the summary cache adapters (diskcache by default, Redis for teams)."""

__all__: list[str] = []
