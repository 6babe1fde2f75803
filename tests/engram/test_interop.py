"""Interoperability with the real engram binary (v1.7, ../shared/engram): one SQLite file, both ways.

* We write, engram reads: a document saved by ``summarizer session`` is found by ``engram search``
  (a word of its goal), listed by ``engram context`` and by ``GET /search`` of ``engram serve``.
* engram writes, we read: its topic upserts, its duplicate counting and its ``<private>`` stripping
  look the same through our Store.
* Our HTTP client against ``engram serve`` on a free loopback port: save, topic upsert, search, get,
  and the NotFound of a missing id that both backends share.

The binary is found at ``$SUMMARIZER_ENGRAM_BIN`` or ``../shared/engram/engram`` next to the
repository; where it is absent every test here is skipped with that reason.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from summarizer_engram.client import Client
from summarizer_engram.store import Store

from summarizer.core.errors import NotFound
from summarizer.session.service import FileMarks, compress_session
from summarizer.session.transcript import parse_transcript

_DEFAULT = Path(__file__).resolve().parents[3] / "shared" / "engram" / "engram"
ENGRAM = Path(os.environ.get("SUMMARIZER_ENGRAM_BIN") or _DEFAULT)
pytestmark = pytest.mark.skipif(
    not os.access(ENGRAM, os.X_OK),
    reason=f"the real engram binary is absent ({ENGRAM}); see ../shared/engram/README.md",
)
DAY = "2026-12-01"
TRANSCRIPT = "\n".join(
    json.dumps(r)
    for r in (
        {
            "type": "user",
            "sessionId": "7c2d9e10-aaaa-4bbb-8ccc-123456789abc",
            "cwd": "/w/ledgerly",
            "message": {
                "role": "user",
                "content": "The invoice export times out. Make the reconciliation export stream.",
            },
        },
        {
            "type": "user",
            "sessionId": "7c2d9e10-aaaa-4bbb-8ccc-123456789abc",
            "message": {"role": "user", "content": "Keep it to the standard library."},
        },
        {
            "type": "assistant",
            "sessionId": "7c2d9e10-aaaa-4bbb-8ccc-123456789abc",
            "message": {"role": "assistant", "content": "We decided to use a generator with csv.writer."},
        },
    )
)


def _engram(data: Path, *args: str) -> str:
    done = subprocess.run(
        [str(ENGRAM), *args],
        env={**os.environ, "ENGRAM_DATA_DIR": str(data)},
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return done.stdout


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """An engram data directory shared by the binary and our Store."""
    folder = tmp_path / "engram-data"
    folder.mkdir()
    return folder


@pytest.fixture
def served(data: Path) -> Iterator[str]:
    """``engram serve`` on a free loopback port; yields its URL and stops it afterwards."""
    port = _free_port()
    proc = subprocess.Popen(
        [str(ENGRAM), "serve", str(port)],
        env={**os.environ, "ENGRAM_DATA_DIR": str(data)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 15
        while True:
            try:
                if httpx.get(f"{url}/health", timeout=0.5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                pytest.fail(f"engram serve did not come up on port {port}")
            time.sleep(0.05)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _save_session(data: Path) -> str:
    with Store(data / "engram.db") as store:
        report = asyncio.run(
            compress_session(
                parse_transcript(TRANSCRIPT),
                project="ledgerly",
                date=DAY,
                memory=store,
                marks=FileMarks(data.parent / "marks"),
                session_key="k",
                force=True,
            )
        )
    assert report.action == "saved"
    return report.title


def test_engram_search_finds_our_session_document_by_a_word_of_its_goal(data: Path) -> None:
    """`engram search reconciliation` returns the document; its title is the goal, not the topic key."""
    title = _save_session(data)
    assert "reconciliation" in title
    out = _engram(data, "search", "reconciliation", "--project", "ledgerly")
    assert "Found 1 memories" in out and title in out


def test_engram_context_lists_our_session_document(data: Path) -> None:
    """`engram context` shows it under Recent Observations, type session."""
    title = _save_session(data)
    out = _engram(data, "context", "ledgerly")
    assert f"[session] **{title}**" in out


def test_engram_serve_search_finds_our_document(data: Path, served: str) -> None:
    """GET /search of the real server returns what our Store wrote."""
    _save_session(data)
    hits = httpx.get(f"{served}/search", params={"q": "reconciliation", "project": "ledgerly"}).json()
    assert [h["topic_key"] for h in hits] == [f"session/ledgerly/compressed/{DAY}"]


def test_what_engram_writes_reads_the_same_through_our_store(data: Path, served: str) -> None:
    """engram's topic upsert, duplicate count and <private> stripping, read back by our Store."""
    session = {"id": "s1", "project": "p", "directory": "/w/p"}
    httpx.post(f"{served}/sessions", json=session).raise_for_status()
    body = {
        "session_id": "s1",
        "type": "decision",
        "title": "Auth model",
        "project": "p",
        "topic_key": "architecture/auth",
        "content": "JWT v1",
    }
    first = httpx.post(f"{served}/observations", json=body).json()["id"]
    changed = {**body, "content": "JWT v2 <private>k=1</private>"}
    second = httpx.post(f"{served}/observations", json=changed).json()["id"]
    _engram(data, "save", "Same note", "identical content", "--project", "p")
    _engram(data, "save", "Same note", "identical content", "--project", "p")
    with Store(data / "engram.db") as store:
        upserted = store.get(first)
        assert second == first and upserted.revision_count == 2
        assert upserted.content == "JWT v2 [REDACTED]"
        [dup] = [o for o in store.recent_observations("p") if o.title == "Same note"]
        assert dup.duplicate_count == 2
        assert store.search("identical", project="p")[0].title == "Same note"


def test_our_client_against_engram_serve(served: str) -> None:
    """Save, topic upsert, search, get and delete through our Client; a missing id is NotFound."""
    with Client(served) as client:
        client.start_session("s1", "p", "/w/p")
        saved = client.save(
            "s1", "Cache ruling", "diskcache stores JSON only", project="p", topic_key="cache/rule"
        )
        again = client.save(
            "s1", "Cache ruling", "diskcache stores JSON text only", project="p", topic_key="cache/rule"
        )
        assert again.id == saved.id and client.get(saved.id).revision_count == 2
        assert [h.id for h in client.search("diskcache", project="p")] == [saved.id]
        client.delete(saved.id)
        with pytest.raises(NotFound):
            client.get(saved.id)
        with pytest.raises(NotFound):
            client.delete(saved.id)  # engram answers 200 here; both backends say NotFound


_THINGS = [
    "billing",
    "ledger",
    "invoice",
    "export",
    "tenant",
    "webhook",
    "mailer",
    "scheduler",
    "auth",
    "report",
]
_TEAMS = ["finance", "payments", "growth", "support", "platform"]


def _long_transcript(path: Path) -> None:
    """A session whose document is over 6,000 bytes: fifty distinct instructions of the user."""
    said = [
        f"Always keep the {_THINGS[i % 10]} module number {i} backward compatible, because the "
        f"{_TEAMS[i % 5]} team deploys against revision {1000 + i} of it."
        for i in range(50)
    ]
    records = [
        {
            "type": "user",
            "sessionId": "5e7f0c11",
            "cwd": "/w/ledgerly",
            "message": {"role": "user", "content": s},
        }
        for s in ["The reconciliation export times out. Make it stream.", *said]
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def test_a_6000_byte_document_round_trips_whole_through_engram_serve(
    served: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """engram 1.7's server cuts at 2,000 bytes: the document is saved in parts that recover joins."""
    from click.testing import CliRunner

    from summarizer.cli import main

    monkeypatch.setenv("SUMMARIZER_ENGRAM_URL", served)
    monkeypatch.setenv("SUMMARIZER_CACHE_DIR", str(tmp_path / "cache"))
    transcript = tmp_path / "long.jsonl"
    _long_transcript(transcript)
    runner = CliRunner()
    saved = runner.invoke(main, ["session", str(transcript), "--force", "--project", "ledgerly", "--json"])
    assert saved.exit_code == 0, saved.output
    report = json.loads(saved.stdout)
    assert len(report["document"].encode()) > 6000 and report["action"] == "saved"
    assert report["save_attempts"] == 1  # a cut is not another writer: no loop through saves
    recovered = runner.invoke(main, ["recover", "--project", "ledgerly", "--json"])
    assert recovered.exit_code == 0, recovered.output
    assert json.loads(recovered.stdout)["document"] == report["document"]
    again = runner.invoke(main, ["session", str(transcript), "--force", "--project", "ledgerly", "--json"])
    assert json.loads(again.stdout)["action"] == "unchanged"  # the parts read back as the whole
    newest = httpx.get(f"{served}/observations/recent", params={"project": "ledgerly", "limit": 1}).json()[0]
    assert "[truncated]" not in newest["content"]  # a cut document is never the newest
