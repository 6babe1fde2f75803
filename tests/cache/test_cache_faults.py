"""A cache that cannot be opened, read or written: no cache, one warning line, and the summary.

End to end through the real CLI (respx answers as OpenAI, nothing leaves the process) for the
faults a user can cause from outside: a corrupt or truncated ``cache.db``, ``SUMMARIZER_CACHE_DIR``
naming a file, a read-only directory, a malformed or unreachable ``SUMMARIZER_CACHE_URL``. The faults
that need a live store (a held lock, a full disk, a read-only database) run on the real diskcache
through :class:`FailSafeCache` and the real ``Summarizer``.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx
from click.testing import CliRunner
from summarizer_cache import DiskCache, FailSafeCache

from summarizer.cli import main
from summarizer.core.errors import StorageError
from summarizer.phasegate.models import SubtaskSummary
from summarizer.phasegate.summaries import EntryJob, summarize_entries
from summarizer.semantic.prompts import PromptLibrary
from summarizer.semantic.service import Summarizer
from summarizer.testing import FakeCompleter, openai_chat_body

URL = "https://api.openai.com/v1/chat/completions"
MODEL = "openai/gpt-4o-mini"
REPO = Path(__file__).resolve().parents[2]
GOOD = (
    "Added POST /api/auth/refresh, which returns 200 with a new token pair or 401 on reuse.\n"
    "Aphrodite must call it when a request fails with 401 and store the new pair.\n"
    "Refresh tokens rotate on every use, so a reused token is rejected."
)
ENTRY = {
    "summary": "Added JWT auth endpoint POST /api/auth/refresh with refresh token rotation; returns 200 "
    "with a new token pair or 401 when the refresh token was reused. Chose rotation over sliding "
    "expiry, trading one extra write per refresh for reuse detection.",
    "files_changed": ["backend/routers/auth.py", "backend/services/auth_service.py"],
    "from": "hermes",
    "to": "aphrodite",
    "unblocks": "aphrodite login screen",
}
PASSWORD = "S3cretRedisPw9"


def _reply(text: str) -> httpx.Response:
    return httpx.Response(200, json=openai_chat_body(text))


@pytest.fixture(autouse=True)
def model_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """A dummy key: litellm makes the call and respx answers it."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")


def _summaries() -> Path:
    return Path(os.environ["SUMMARIZER_CACHE_DIR"]) / "summaries"


def _corrupt(_: pytest.MonkeyPatch) -> None:
    _summaries().mkdir(parents=True)
    (_summaries() / "cache.db").write_bytes(b"this is not an SQLite database\n" * 200)


def _truncated(_: pytest.MonkeyPatch) -> None:
    cache = DiskCache(_summaries())
    for i in range(200):
        cache._cache.set(f"filler:{i}", "z" * 2000)
    cache.close()
    db = _summaries() / "cache.db"
    db.write_bytes(db.read_bytes()[:8192])
    for extra in ("cache.db-wal", "cache.db-shm"):
        (_summaries() / extra).unlink(missing_ok=True)


def _dir_is_a_file(monkeypatch: pytest.MonkeyPatch) -> None:
    path = Path(os.environ["SUMMARIZER_CACHE_DIR"]).parent / "a-file"
    path.write_text("not a directory")
    monkeypatch.setenv("SUMMARIZER_CACHE_DIR", str(path))


def _read_only(_: pytest.MonkeyPatch) -> None:
    if os.geteuid() == 0:
        pytest.skip("root ignores directory permissions; the read-only database case runs below")
    _summaries().mkdir(parents=True)
    _summaries().chmod(0o500)


def _malformed_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SUMMARIZER_CACHE_URL", f"redis://:{PASSWORD}@cache-host:notaport/0")


def _unreachable_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SUMMARIZER_CACHE_URL", f"redis://:{PASSWORD}@127.0.0.1:1/0")


FAULTS: dict[str, Callable[[pytest.MonkeyPatch], None]] = {
    "corrupt cache.db": _corrupt,
    "truncated cache.db": _truncated,
    "SUMMARIZER_CACHE_DIR is a file": _dir_is_a_file,
    "read-only directory": _read_only,
    "malformed SUMMARIZER_CACHE_URL": _malformed_url,
    "unreachable Redis": _unreachable_url,
}


@pytest.fixture(params=list(FAULTS))
def fault(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Each fault in turn, set up in this test's private cache directory."""
    FAULTS[request.param](monkeypatch)
    yield request.param
    if _summaries().exists():
        _summaries().chmod(0o700)


def _warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "summary cache is off" in line]


def test_compress_still_prints_the_model_summary(fault: str, tmp_path: Path) -> None:
    """Exit 0, the model's lines on stdout, one warning on stderr, no password anywhere."""
    entry = tmp_path / "entry.json"
    entry.write_text(json.dumps(ENTRY))
    with respx.mock(assert_all_mocked=True) as mock:
        route = mock.post(URL).mock(return_value=_reply(GOOD))
        result = CliRunner().invoke(main, ["compress", str(entry), "--json", "--model", MODEL])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["source"] == "llm" and data["lines"] == GOOD.splitlines() and route.call_count == 1
    assert len(_warnings(result.stderr)) == 1, result.stderr
    assert PASSWORD not in result.output


def test_batch_warns_once_for_many_entries(fault: str, tmp_path: Path) -> None:
    """Three model summaries, one warning: the cache is switched off at the first fault."""
    batch = tmp_path / "batch.jsonl"
    entries = [dict(ENTRY, summary=ENTRY["summary"] + f" Variant {i}.") for i in range(3)]
    batch.write_text("\n".join(json.dumps(e) for e in entries))
    with respx.mock(assert_all_mocked=True) as mock:
        mock.post(URL).mock(return_value=_reply(GOOD))
        result = CliRunner().invoke(main, ["batch", str(batch), "--json", "--model", MODEL])
    assert result.exit_code == 0, result.output
    rows = [row for phase in json.loads(result.stdout)["phases"] for row in phase["entries"]]
    assert [row["source"] for row in rows] == ["llm"] * 3
    assert len(_warnings(result.stderr)) == 1, result.stderr


def test_a_session_is_still_saved(fault: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`session --model` with a broken cache: the document is written by the model and saved."""
    day = "2026-11-29"
    answer = (
        f"## Session Compression — {day}\n### Context\n- Working on: the flaky token refresh test\n"
        "### Decisions\n- Inject a Clock protocol: tests must freeze time\n"
    )
    transcript = REPO / "tests" / "session" / "fixtures" / "claude_code.jsonl"
    monkeypatch.setenv("SUMMARIZER_MODEL", MODEL)
    with respx.mock(assert_all_mocked=True) as mock:
        mock.post(URL).mock(return_value=_reply(answer))
        result = CliRunner().invoke(
            main, ["session", str(transcript), "--date", day, "--json", "--project", "p"]
        )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["source"] == "llm" and report["action"] == "saved"
    assert len(_warnings(result.stderr)) == 1, result.stderr
    recovered = CliRunner().invoke(main, ["recover", "--project", "p"])
    assert "Inject a Clock protocol" in recovered.stdout


def test_a_precompact_hook_still_saves_and_prints_the_memory(
    fault: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`session --hook` (Claude Code's PreCompact) with a broken cache: saved, and printed for the agent."""
    day = "2026-11-29"
    answer = (
        f"## Session Compression — {day}\n### Context\n- Working on: the flaky token refresh test\n"
        "### Decisions\n- Inject a Clock protocol: tests must freeze time\n"
    )
    transcript = REPO / "tests" / "session" / "fixtures" / "claude_code.jsonl"
    payload = {
        "session_id": "abc",
        "transcript_path": str(transcript),
        "cwd": "/home/dev/shopapi",
        "hook_event_name": "PreCompact",
        "trigger": "auto",
        "custom_instructions": "",
    }
    monkeypatch.setenv("SUMMARIZER_MODEL", MODEL)
    with respx.mock(assert_all_mocked=True) as mock:
        mock.post(URL).mock(return_value=_reply(answer))
        result = CliRunner().invoke(main, ["session", "--hook", "--date", day], input=json.dumps(payload))
    assert result.exit_code == 0, result.output
    assert f"- Topic: session/shopapi/compressed/{day}" in result.stdout
    assert "Inject a Clock protocol" in CliRunner().invoke(main, ["recover", "--project", "shopapi"]).stdout
    assert len(_warnings(result.stderr)) == 1, result.stderr


# ---- faults of a live store: real diskcache, FailSafeCache, the real service -----------------------


def _service(cache: FailSafeCache, prompts: Path) -> Summarizer:
    return Summarizer(PromptLibrary(prompts), completer=FakeCompleter([GOOD] * 4), cache=cache, model=MODEL)


def _job(i: int) -> EntryJob:
    entry = SubtaskSummary.model_validate(dict(ENTRY, summary=ENTRY["summary"] + f" Variant {i}."))
    return EntryJob(entry, "CRITICAL", "TEMPLATE\nTEMPLATE\nTEMPLATE")


@pytest.fixture
def prompts(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "prompts", tmp_path / "prompts")
    return tmp_path / "prompts"


def _hold_lock(directory: Path) -> sqlite3.Connection:
    DiskCache(directory).close()
    holder = sqlite3.connect(directory / "cache.db", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    return holder


def _full_disk(cache: DiskCache) -> None:
    # SQLite's own "database or disk is full" (SQLITE_FULL): the file may not grow by one page.
    con: Any = cache._cache._con
    pages = con.execute("PRAGMA page_count").fetchone()[0]
    con.execute(f"PRAGMA max_page_count = {pages}")
    for i in range(1000):  # fill the free pages so the next write must grow the file
        try:
            cache._cache.set(f"filler:{i}", "f" * 3000)
        except sqlite3.Error:
            break


def _read_only_db(cache: DiskCache) -> None:
    cache._cache._con.execute("PRAGMA query_only = ON")  # SQLITE_READONLY on every write


@pytest.mark.parametrize("break_it", [_full_disk, _read_only_db], ids=["full disk", "read-only database"])
def test_a_store_that_cannot_be_written_still_summarises(
    tmp_path: Path, prompts: Path, break_it: Callable[[DiskCache], None]
) -> None:
    """Writes fail for real inside SQLite; every entry still gets the model's summary, one warning."""
    backend = DiskCache(tmp_path / "summaries")
    break_it(backend)
    warnings: list[str] = []
    svc = _service(FailSafeCache(lambda: backend, warn=warnings.append), prompts)
    results = asyncio.run(summarize_entries(svc, [_job(i) for i in range(3)]))
    assert [g.source for g in results] == ["llm"] * 3 and results[0].lines == tuple(GOOD.splitlines())
    assert len(warnings) == 1 and "summary cache is off" in warnings[0]


def test_a_held_lock_costs_one_timeout_then_no_cache(tmp_path: Path, prompts: Path) -> None:
    """Another process holds SQLite's lock: the first call times out, later ones skip the cache."""
    holder = _hold_lock(tmp_path / "summaries")
    warnings: list[str] = []
    try:
        cache = FailSafeCache(lambda: DiskCache(tmp_path / "summaries", timeout_s=0.2), warn=warnings.append)
        results = asyncio.run(summarize_entries(_service(cache, prompts), [_job(i) for i in range(3)]))
    finally:
        holder.close()
    assert [g.source for g in results] == ["llm"] * 3
    assert len(warnings) == 1 and cache.fault is not None


def test_a_healthy_cache_is_not_switched_off(tmp_path: Path, prompts: Path) -> None:
    """The wrapper is transparent when nothing is wrong: the second run is a cache hit, no warning."""
    warnings: list[str] = []
    cache = FailSafeCache(lambda: DiskCache(tmp_path / "summaries"), warn=warnings.append)
    svc = _service(cache, prompts)
    assert asyncio.run(summarize_entries(svc, [_job(0)]))[0].source == "llm"
    assert asyncio.run(summarize_entries(svc, [_job(0)]))[0].source == "cache"
    assert warnings == [] and cache.fault is None
    assert isinstance(cache.backend, DiskCache)
    cache.close()


def test_a_long_lived_process_tries_the_store_again_later(tmp_path: Path, prompts: Path) -> None:
    """After retry_after_s the next lookup reopens the store; a healthy one is used again."""
    now = [0.0]
    attempts: list[int] = []

    def opener() -> DiskCache:
        attempts.append(1)
        if len(attempts) == 1:
            raise StorageError("cannot open the summary cache: database is locked")
        return DiskCache(tmp_path / "summaries")

    warnings: list[str] = []
    cache = FailSafeCache(opener, warn=warnings.append, retry_after_s=60, clock=lambda: now[0])
    svc = _service(cache, prompts)
    assert asyncio.run(summarize_entries(svc, [_job(0)]))[0].source == "llm"
    now[0] = 30.0
    assert asyncio.run(summarize_entries(svc, [_job(0)]))[0].source == "llm"  # still off: not reopened
    assert len(attempts) == 1
    now[0] = 61.0
    assert asyncio.run(summarize_entries(svc, [_job(0)]))[0].source == "llm"  # reopened, stored
    assert asyncio.run(summarize_entries(svc, [_job(0)]))[0].source == "cache"
    assert len(attempts) == 2 and len(warnings) == 1
    cache.close()
