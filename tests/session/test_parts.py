"""A server that cuts long documents (engram serve before 1.8.1): parts that recover joins, or one refusal."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from summarizer_engram import Store

from summarizer.core.errors import StorageError
from summarizer.session.document import SessionDocument, render
from summarizer.session.parts import CUT_SUFFIX, cut_at, split
from summarizer.session.service import FileMarks, compress_session, recover
from summarizer.session.transcript import Event, Transcript

DAY = "2026-12-01"


class CuttingServer:
    """The real store behind a server that keeps ``limit`` bytes of each save, as engram 1.7 does."""

    def __init__(self, store: Store, limit: int) -> None:
        self.store, self.limit, self.saves = store, limit, 0

    def start_session(self, id: str, project: str, directory: str = "") -> None:
        self.store.start_session(id, project, directory)

    def save(self, session_id: str, title: str, content: str, **kw: Any) -> object:
        self.saves += 1
        data = content.encode()
        if len(data) > self.limit:
            content = data[: self.limit].decode(errors="ignore") + CUT_SUFFIX
        return self.store.save(session_id, title, content, **kw)

    def latest_by_topic(self, prefix: str, *, project: str = "", scope: str = "") -> Any:
        return self.store.latest_by_topic(prefix, project=project, scope=scope)


def _long_session() -> Transcript:
    said = [
        f"Always keep the module number {i} backward compatible, because team {i % 5} deploys {900 + i}."
        for i in range(60)
    ]
    return Transcript(
        tuple(Event(i, "message", "user", s) for i, s in enumerate(said)), session_id="5e7f0c11"
    )


def _compress(memory: Any, marks: FileMarks) -> Any:
    return asyncio.run(
        compress_session(
            _long_session(), project="p", date=DAY, memory=memory, marks=marks, session_key="k", force=True
        )
    )


def test_a_cut_document_is_saved_in_parts_that_recover_joins(store: Store, marks: FileMarks) -> None:
    """6,000+ bytes through a 2,000-byte server: whole on recovery, one cut save and one save per part."""
    server = CuttingServer(store, 2000)
    report = _compress(server, marks)
    assert report.action == "saved" and len(report.document.encode()) > 6000
    parts = len(split(report.document, 2000))
    assert server.saves == 1 + parts  # the cut save, then the parts: no loop
    assert recover(server, "p").document == report.document
    found = store.latest_by_topic(f"session/p/compressed/{DAY}", project="p")
    assert found is not None and CUT_SUFFIX not in found.content
    server.saves = 0
    assert _compress(server, marks).action == "unchanged" and server.saves == 0


def test_a_server_too_small_for_any_part_is_refused_in_one_line(store: Store, marks: FileMarks) -> None:
    """A 60-byte server: one line naming the limit and the fix; the cut document is not left newest."""
    report = _compress(CuttingServer(store, 60), marks)
    assert report.action == "unavailable" and report.error is not None
    assert "60 bytes" in report.error and "1.8.1" in report.error and "\n" not in report.error
    found = store.latest_by_topic(f"session/p/compressed/{DAY}", project="p")
    assert found is not None and CUT_SUFFIX not in found.content


def test_cut_at_reads_the_limit_from_what_the_server_kept() -> None:
    """engram 1.7 keeps the first N bytes and says '... [truncated]'; a whole save is not a cut."""
    text = render(SessionDocument(DAY, {"decisions": tuple(f"decision {i}" for i in range(300))}))
    kept = text.encode()[:2000].decode() + CUT_SUFFIX
    assert cut_at(text, kept) == 2000
    assert cut_at(text, text + "\n") is None
    with pytest.raises(StorageError, match=r"1\.8\.1"):
        split("x" * 500 + "\n", 200)
