"""summarizer_cache: the summary cache adapters (diskcache by default, Redis for teams).

Both backends implement :class:`summarizer.semantic.ports.SummaryCache` (``get``/``put``) and
:class:`CacheAdmin` (``stats``/``prune_stale``/``clear``) with the same keys: namespace = hash of the
prompt digest (template source + partials + system prompt), prompt version, model and generation
parameters; key = ``s1:<namespace>:<hash of the scrubbed canonical input>``. Values are JSON text.
Only validated model answers are stored; failures and template fallbacks never are.

``RedisCache`` is imported lazily (``from summarizer_cache import RedisCache`` works), so the
default disk path does not import the redis client.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from summarizer_cache._disk import RefusedPickle, TextOnlyDisk
from summarizer_cache.disk import DiskCache
from summarizer_cache.stats import CacheAdmin, NamespaceStats

if TYPE_CHECKING:
    from summarizer_cache._redis import RedisCache

__all__ = ["CacheAdmin", "DiskCache", "NamespaceStats", "RedisCache", "RefusedPickle", "TextOnlyDisk"]


def __getattr__(name: str) -> Any:
    if name == "RedisCache":
        from summarizer_cache._redis import RedisCache

        return RedisCache
    raise AttributeError(f"module 'summarizer_cache' has no attribute {name!r}")
