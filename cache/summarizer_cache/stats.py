"""What ``summarizer cache stats`` reports, shared by every backend, and the admin Protocol."""

from __future__ import annotations

from collections.abc import Collection
from typing import Protocol

from pydantic import BaseModel, ConfigDict

__all__ = ["CacheAdmin", "NamespaceStats"]


class NamespaceStats(BaseModel):
    """One namespace (prompt digest + version + model + parameters) of the summary cache."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    namespace: str
    prompt: str | None = None
    version: str | None = None
    prompt_digest: str | None = None
    model: str | None = None
    entries: int = 0
    size_bytes: int = 0
    hits: int = 0
    misses: int = 0
    stale: bool | None = None


class CacheAdmin(Protocol):
    """The maintenance side of a cache backend (the ``summarizer cache`` commands)."""

    location: str

    def stats(self, current_digests: Collection[str] | None = None) -> list[NamespaceStats]:
        """Per-namespace figures; ``stale`` is set when ``current_digests`` is given."""
        ...

    def prune_stale(self, current_digests: Collection[str]) -> list[NamespaceStats]:
        """Remove every namespace whose prompt digest is not current; return what was removed."""
        ...

    def clear(self) -> int:
        """Remove everything; return the number of stored answers removed."""
        ...

    def close(self) -> None:
        """Release files and connections."""
        ...
