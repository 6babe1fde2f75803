"""A client for a running ``engram serve`` (HTTP JSON on 127.0.0.1:7437) with the Store's interface.

Routes and bodies are engram's baseline ``internal/server/server.go``. Where the server says less
than the embedded store, the client says so instead of guessing:

* ``save`` returns ``action="saved"`` and ``truncated=False``: engram answers ``{"id", "status"}``
  for an insert, an upsert and a duplicate alike;
* ``latest_by_topic`` filters ``/observations/recent`` (the newest 200 by creation) on the client,
  since the baseline API cannot query by topic key;
* ``null`` collections (baseline Go encoding) are read as ``[]``.

HTTP failures become ``summarizer.core.errors`` types: 400 → :class:`InputError`, 404 → :class:`NotFound`,
anything else or an unreachable server → :class:`StorageError` naming the URL and the way out.
"""

from __future__ import annotations

import re
from typing import Any

import httpx

from summarizer.core.errors import InputError, NotFound, StorageError
from summarizer_engram.models import (
    ExportData,
    ImportResult,
    Observation,
    PassiveCaptureResult,
    Prompt,
    SaveResult,
    SearchResult,
    SessionSummary,
    Stats,
    TimelineResult,
)
from summarizer_engram.normalize import normalize_topic_key

__all__ = ["DEFAULT_URL", "Client"]

DEFAULT_URL = "http://127.0.0.1:7437"
_RECENT_SCAN = 200


def _params(**values: Any) -> dict[str, Any]:
    """Query parameters without the empty ones (engram treats absent and empty alike)."""
    return {k: v for k, v in values.items() if v not in ("", None)}


class Client:
    """engram's HTTP API behind the :class:`~summarizer_engram.backend.MemoryBackend` interface."""

    def __init__(self, url: str = DEFAULT_URL, *, timeout: float = 10.0) -> None:
        self.url = url.rstrip("/")
        try:
            self._http = httpx.Client(base_url=self.url, timeout=timeout)
        except httpx.InvalidURL as exc:  # not an HTTPError: it would escape every caller as a traceback
            shown = re.sub(r"//[^/@\s]*@", "//", self.url)  # never echo a password in the URL
            raise StorageError(
                f"SUMMARIZER_ENGRAM_URL {shown!r} is not a valid URL ({exc}); use http://127.0.0.1:7437, "
                "or unset it to use the embedded store"
            ) from None

    def close(self) -> None:
        """Close the connection pool."""
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call(self, method: str, path: str, *, params: dict[str, Any] | None = None, body: Any = None) -> Any:
        try:
            response = self._http.request(method, path, params=params, json=body)
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            raise StorageError(
                f"engram server {self.url!r} is unreachable ({exc}); start it with `engram serve`, or unset "
                "SUMMARIZER_ENGRAM_URL to use the embedded store"
            ) from exc
        if response.is_success:
            return response.json() if response.content else None
        try:
            detail = response.json().get("error") or response.text
        except (ValueError, AttributeError):
            detail = response.text.strip()
        where = f"{method} {path}"
        if response.status_code == 400:
            raise InputError(f"engram rejected {where}: {detail}; fix the arguments")
        if response.status_code == 404:
            raise NotFound(f"engram has no such record ({where}: {detail})")
        raise StorageError(
            f"engram server failed on {where} (HTTP {response.status_code}: {detail}); "
            "check the server's log, or try again"
        )

    def _list(self, path: str, params: dict[str, Any]) -> list[Any]:
        return list(self._call("GET", path, params=params) or [])

    # sessions
    def start_session(self, id: str, project: str, directory: str = "") -> None:
        """``POST /sessions`` (fill-blanks upsert)."""
        self._call("POST", "/sessions", body={"id": id, "project": project, "directory": directory})

    def end_session(self, id: str, summary: str = "") -> None:
        """``POST /sessions/{id}/end``."""
        self._call("POST", f"/sessions/{id}/end", body={"summary": summary})

    def recent_sessions(self, project: str = "", limit: int = 5) -> list[SessionSummary]:
        """``GET /sessions/recent``."""
        rows = self._list("/sessions/recent", _params(project=project, limit=limit))
        return [SessionSummary.model_validate(r) for r in rows]

    # observations
    def save(
        self,
        session_id: str,
        title: str,
        content: str,
        *,
        type: str = "manual",
        project: str = "",
        scope: str = "project",
        topic_key: str = "",
        tool_name: str = "",
    ) -> SaveResult:
        """``POST /observations``; engram does not say whether it inserted, upserted or deduplicated."""
        body = {"session_id": session_id, "type": type or "manual", "title": title, "content": content}
        body.update(_params(tool_name=tool_name, project=project, scope=scope, topic_key=topic_key))
        reply = self._call("POST", "/observations", body=body)
        return SaveResult(id=int(reply["id"]), action="saved")

    def get(self, id: int) -> Observation:
        """``GET /observations/{id}``."""
        return Observation.model_validate(self._call("GET", f"/observations/{int(id)}"))

    def update(self, id: int, **fields: str | None) -> Observation:
        """``PATCH /observations/{id}`` with the fields that are not ``None``."""
        body = {k: v for k, v in fields.items() if v is not None}
        if not body:
            raise InputError(
                "provide at least one field to update (title, content, type, project, scope, topic_key)"
            )
        return Observation.model_validate(self._call("PATCH", f"/observations/{int(id)}", body=body))

    def delete(self, id: int, *, hard: bool = False) -> None:
        """``DELETE /observations/{id}?hard=``; a missing (or already deleted) id is :class:`NotFound`.

        engram v1.7 answers 200 for an id it does not have, which would make the two backends
        disagree; the client asks first (``GET`` answers 404 for missing and soft-deleted rows), so
        ``delete`` raises :class:`NotFound` exactly where :class:`~summarizer_engram.store.Store` does.
        """
        try:
            self._call("GET", f"/observations/{int(id)}")
        except NotFound:
            raise NotFound(
                f"observation #{id} not found (never saved or already deleted); find ids with search()"
            ) from None
        self._call("DELETE", f"/observations/{int(id)}", params={"hard": "true" if hard else "false"})

    def search(
        self, query: str, *, type: str = "", project: str = "", scope: str = "", limit: int = 10
    ) -> list[SearchResult]:
        """``GET /search``."""
        if not query.strip():
            raise InputError("search query is empty; pass at least one keyword")
        rows = self._list("/search", _params(q=query, type=type, project=project, scope=scope, limit=limit))
        return [SearchResult.model_validate(r) for r in rows]

    def recent_observations(self, project: str = "", scope: str = "", limit: int = 20) -> list[Observation]:
        """``GET /observations/recent``."""
        rows = self._list("/observations/recent", _params(project=project, scope=scope, limit=limit))
        return [Observation.model_validate(r) for r in rows]

    def latest_by_topic(self, prefix: str, *, project: str = "", scope: str = "") -> Observation | None:
        """Newest-updated of the recent observations whose topic_key starts with ``prefix``."""
        key = normalize_topic_key(prefix)
        hits = [
            o
            for o in self.recent_observations(project, scope, _RECENT_SCAN)
            if o.topic_key and o.topic_key.startswith(key)
        ]
        return max(hits, key=lambda o: (o.updated_at, o.id)) if hits else None

    def timeline(self, observation_id: int, before: int = 5, after: int = 5) -> TimelineResult:
        """``GET /timeline``."""
        reply = self._call(
            "GET",
            "/timeline",
            params={"observation_id": int(observation_id), "before": before, "after": after},
        )
        reply["before"] = reply.get("before") or []
        reply["after"] = reply.get("after") or []
        return TimelineResult.model_validate(reply)

    # prompts, context, stats
    def add_prompt(self, session_id: str, content: str, project: str = "") -> int:
        """``POST /prompts``."""
        body = {"session_id": session_id, "content": content, **_params(project=project)}
        return int(self._call("POST", "/prompts", body=body)["id"])

    def recent_prompts(self, project: str = "", limit: int = 20) -> list[Prompt]:
        """``GET /prompts/recent``."""
        return [
            Prompt.model_validate(r)
            for r in self._list("/prompts/recent", _params(project=project, limit=limit))
        ]

    def search_prompts(self, query: str, project: str = "", limit: int = 10) -> list[Prompt]:
        """``GET /prompts/search``."""
        rows = self._list("/prompts/search", _params(q=query, project=project, limit=limit))
        return [Prompt.model_validate(r) for r in rows]

    def context(self, project: str = "", scope: str = "") -> str:
        """``GET /context`` → the markdown."""
        return str(self._call("GET", "/context", params=_params(project=project, scope=scope))["context"])

    def stats(self) -> Stats:
        """``GET /stats``."""
        reply = self._call("GET", "/stats")
        reply["projects"] = reply.get("projects") or []
        return Stats.model_validate(reply)

    def passive_capture(
        self, session_id: str, content: str, project: str = "", source: str = ""
    ) -> PassiveCaptureResult:
        """``POST /observations/passive``."""
        body = {"session_id": session_id, "content": content, **_params(project=project, source=source)}
        return PassiveCaptureResult.model_validate(self._call("POST", "/observations/passive", body=body))

    def export(self) -> ExportData:
        """``GET /export``."""
        reply = self._call("GET", "/export")
        for key in ("sessions", "observations", "prompts"):
            reply[key] = reply.get(key) or []
        return ExportData.model_validate(reply)

    def import_data(self, data: ExportData) -> ImportResult:
        """``POST /import`` (note: engram v1.7's server duplicates observations on re-import)."""
        body = data.model_dump(mode="json", exclude_none=True)
        return ImportResult.model_validate(self._call("POST", "/import", body=body))
