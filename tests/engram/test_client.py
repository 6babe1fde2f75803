"""The HTTP client against engram serve's routes and bodies (reference §5), mocked with respx."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import respx
from summarizer_engram.backend import MemoryBackend, open_backend
from summarizer_engram.client import DEFAULT_URL, Client
from summarizer_engram.models import ExportData
from summarizer_engram.store import Store
from summarizer_engram.tools import HANDLERS

from summarizer.core.errors import InputError, NotFound, StorageError

OBS = {
    "id": 7,
    "session_id": "s1",
    "type": "bugfix",
    "title": "Fix panic",
    "content": "nil map",
    "project": "engram",
    "scope": "project",
    "revision_count": 2,
    "duplicate_count": 1,
    "created_at": "2026-03-01 09:00:00",
    "updated_at": "2026-03-01 10:00:00",
}


@pytest.fixture
def api() -> Iterator[respx.MockRouter]:
    """Every request must match a mocked route of the default engram address."""
    with respx.mock(base_url=DEFAULT_URL, assert_all_called=False, assert_all_mocked=True) as router:
        yield router


@pytest.fixture
def client() -> Iterator[Client]:
    """A client for the default address."""
    c = Client()
    yield c
    c.close()


def _body(route: respx.Route) -> Any:
    return json.loads(route.calls.last.request.content)


def test_open_backend_picks_the_client_for_a_url_and_the_store_otherwise(tmp_path: Any) -> None:
    """SUMMARIZER_ENGRAM_URL set → client; unset → the embedded store at the given path."""
    remote = open_backend(tmp_path / "e.db", "http://127.0.0.1:7437")
    local = open_backend(tmp_path / "e.db", None)
    try:
        assert isinstance(remote, Client) and isinstance(local, Store)
        assert all(isinstance(b, MemoryBackend) for b in (remote, local))  # runtime Protocol check
        assert remote.url == "http://127.0.0.1:7437" and local.path == tmp_path / "e.db"
    finally:
        remote.close()
        local.close()


def test_sessions_routes(api: respx.MockRouter, client: Client) -> None:
    """POST /sessions, POST /sessions/{id}/end, GET /sessions/recent (null → [])."""
    start = api.post("/sessions").respond(201, json={"id": "s1", "status": "created"})
    end = api.post("/sessions/s1/end").respond(200, json={"id": "s1", "status": "completed"})
    recent = api.get("/sessions/recent").respond(200, json=None)
    client.start_session("s1", "engram", "/src")
    client.end_session("s1", "done")
    assert client.recent_sessions("engram", 3) == []
    assert _body(start) == {"id": "s1", "project": "engram", "directory": "/src"}
    assert _body(end) == {"summary": "done"}
    assert dict(recent.calls.last.request.url.params) == {"project": "engram", "limit": "3"}


def test_save_posts_engrams_body_and_cannot_tell_upsert_from_insert(
    api: respx.MockRouter, client: Client
) -> None:
    """Case 62's POST /observations: 201 {"id", "status": "saved"} for every kind of save."""
    route = api.post("/observations").respond(201, json={"id": 7, "status": "saved"})
    result = client.save("s1", "Auth", "gateway", type="architecture", project="engram", topic_key="a/b")
    assert (result.id, result.action, result.truncated) == (7, "saved", False)
    assert _body(route) == {
        "session_id": "s1",
        "type": "architecture",
        "title": "Auth",
        "content": "gateway",
        "project": "engram",
        "scope": "project",
        "topic_key": "a/b",
    }


def test_observation_routes(api: respx.MockRouter, client: Client) -> None:
    """GET, PATCH and DELETE /observations/{id}, GET /observations/recent."""
    api.get("/observations/7").respond(200, json=OBS)
    patch = api.patch("/observations/7").respond(200, json={**OBS, "title": "New"})
    delete = api.delete("/observations/7").respond(
        200, json={"id": 7, "status": "deleted", "hard_delete": True}
    )
    api.get("/observations/recent").respond(200, json=[OBS])
    assert client.get(7).revision_count == 2
    assert client.update(7, title="New", content=None).title == "New"
    assert _body(patch) == {"title": "New"}
    client.delete(7, hard=True)
    assert delete.calls.last.request.url.params["hard"] == "true"
    assert [o.id for o in client.recent_observations("engram")] == [7]
    with pytest.raises(InputError):
        client.update(7)


def test_search_sends_engrams_query_parameters(api: respx.MockRouter, client: Client) -> None:
    """Case 62's GET /search?q=panic&project=engram&scope=project&limit=10."""
    route = api.get("/search").respond(200, json=[{**OBS, "rank": -1.5}])
    hits = client.search("panic", project="engram", scope="project")
    assert hits[0].rank == -1.5
    assert dict(route.calls.last.request.url.params) == {
        "q": "panic",
        "project": "engram",
        "scope": "project",
        "limit": "10",
    }
    api.get("/search").respond(200, json=None)
    assert client.search("nothing") == []
    with pytest.raises(InputError):
        client.search("  ")


def test_timeline_context_stats_prompts_capture(api: respx.MockRouter, client: Client) -> None:
    """The remaining read and write routes, with baseline nulls read as empty lists."""
    api.get("/timeline").respond(
        200, json={"focus": OBS, "before": None, "after": [OBS], "session_info": None, "total_in_range": 2}
    )
    api.get("/context").respond(200, json={"context": "## Memory from Previous Sessions\n"})
    api.get("/stats").respond(
        200, json={"total_sessions": 1, "total_observations": 1, "total_prompts": 0, "projects": None}
    )
    prompt = api.post("/prompts").respond(201, json={"id": 3, "status": "saved"})
    api.get("/prompts/recent").respond(
        200, json=[{"id": 3, "session_id": "s1", "content": "q", "created_at": "2026-03-01 09:00:00"}]
    )
    api.get("/prompts/search").respond(200, json=None)
    passive = api.post("/observations/passive").respond(
        200, json={"extracted": 2, "saved": 1, "duplicates": 1}
    )
    t = client.timeline(7)
    assert t.before == [] and t.after[0].id == 7 and t.session_info is None
    assert client.context("engram").startswith("## Memory")
    assert client.stats().projects == []
    assert client.add_prompt("s1", "q", "engram") == 3
    assert _body(prompt) == {"session_id": "s1", "content": "q", "project": "engram"}
    assert client.recent_prompts()[0].project == ""
    assert client.search_prompts("q") == []
    assert client.passive_capture("s1", "text", "engram", "subagent-stop").saved == 1
    assert _body(passive) == {
        "session_id": "s1",
        "content": "text",
        "project": "engram",
        "source": "subagent-stop",
    }


def test_export_and_import(api: respx.MockRouter, client: Client) -> None:
    """GET /export (null lists) and POST /import with the ExportData body."""
    api.get("/export").respond(
        200,
        json={
            "version": "0.1.0",
            "exported_at": "2026-03-01 09:00:00",
            "sessions": None,
            "observations": [OBS],
            "prompts": None,
        },
    )
    route = api.post("/import").respond(
        200, json={"sessions_imported": 0, "observations_imported": 1, "prompts_imported": 0}
    )
    data = client.export()
    assert type(data) is ExportData
    assert len(data.observations) == 1
    assert client.import_data(data).observations_imported == 1
    assert "normalized_hash" not in _body(route)["observations"][0]


def test_latest_by_topic_filters_recent_observations(api: respx.MockRouter, client: Client) -> None:
    """The baseline API has no topic query; the newest-updated match among recent rows wins."""
    older = {
        **OBS,
        "id": 1,
        "topic_key": "session/p/compressed/2026-01-01",
        "updated_at": "2026-01-01 00:00:00",
    }
    newer = {
        **OBS,
        "id": 2,
        "topic_key": "session/p/compressed/2026-01-02",
        "updated_at": "2026-01-03 00:00:00",
    }
    api.get("/observations/recent").respond(200, json=[older, newer, OBS])
    latest = client.latest_by_topic("session/p/compressed/", project="p")
    assert latest is not None and latest.id == 2


@pytest.mark.parametrize(("status", "error"), [(400, InputError), (404, NotFound), (500, StorageError)])
def test_http_errors_become_typed_errors(
    api: respx.MockRouter, client: Client, status: int, error: type[Exception]
) -> None:
    """engram's {"error": msg} bodies surface in the message."""
    api.get("/observations/9").respond(status, json={"error": "observation not found"})
    with pytest.raises(error, match="observation not found"):
        client.get(9)


def test_an_unreachable_server_says_how_to_recover(api: respx.MockRouter, client: Client) -> None:
    """Connection refused → StorageError naming `engram serve` and the embedded fallback."""
    api.get("/stats").mock(side_effect=httpx.ConnectError("refused"))
    with pytest.raises(StorageError, match="engram serve"):
        client.stats()


def test_tools_work_over_the_client(api: respx.MockRouter, client: Client) -> None:
    """mem_save over HTTP: the default session is created, then the observation posted."""
    sessions = api.post("/sessions").respond(201, json={"id": "manual-save-engram", "status": "created"})
    api.post("/observations").respond(201, json={"id": 1, "status": "saved"})
    text, err = HANDLERS["mem_save"](client, title="Auth", content="gateway", project="engram")
    assert not err and text.startswith('Memory saved: "Auth" (manual)')
    assert _body(sessions)["id"] == "manual-save-engram"
    api.get("/search").mock(side_effect=httpx.ConnectError("refused"))
    text, err = HANDLERS["mem_search"](client, query="auth")
    assert err and text.startswith("Search error:")


def test_deleting_a_missing_id_is_not_found_as_with_the_store(api: respx.MockRouter, client: Client) -> None:
    """engram answers 200 for an unknown id; the client still raises NotFound and sends no DELETE."""
    api.get("/observations/99").respond(404, json={"error": "observation not found"})
    delete = api.delete("/observations/99").respond(200, json={"id": 99, "status": "deleted"})
    with pytest.raises(NotFound, match="#99 not found"):
        client.delete(99)
    assert delete.call_count == 0
