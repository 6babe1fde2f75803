"""The service end to end through the real litellm (respx providers): the fallback contract.

Whatever the provider does (fails, times out, returns garbage, answers in the wrong shape, invents a
path), the caller gets a summary: the model's when it is valid, else the template's with the reason.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx
import pytest
import respx

from summarizer.phasegate.models import SubtaskSummary
from summarizer.phasegate.summaries import EntryJob, summarize_entries, summarize_entry
from summarizer.semantic.llm import LiteLLMCompleter
from summarizer.semantic.retry import RetryPolicy
from summarizer.semantic.service import Generation, Summarizer
from summarizer.testing import DictCache

from .conftest import GOOD_CRITICAL, Provider

TEMPLATE = "TEMPLATE line one\nTEMPLATE line two\nTEMPLATE line three"
Run = Callable[[Summarizer, EntryJob], Generation]


def _batch(svc: Summarizer, job: EntryJob) -> Generation:
    return asyncio.run(summarize_entries(svc, [job]))[0]


def _async(svc: Summarizer, job: EntryJob) -> Generation:
    async def go() -> Generation:
        return await summarize_entry(svc, job)

    return asyncio.run(go())


@pytest.fixture(params=[_batch, _async], ids=["batch", "one"])
def run(request: pytest.FixtureRequest) -> Run:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture
def service(provider: Provider, make_service: Callable[..., Summarizer]) -> tuple[Summarizer, DictCache]:
    cache = DictCache()
    completer = LiteLLMCompleter(retry=RetryPolicy.immediate(attempts=3))
    return make_service(completer=completer, cache=cache, model=provider.model), cache


def _job(entry: SubtaskSummary) -> EntryJob:
    return EntryJob(entry=entry, band="CRITICAL", fallback=TEMPLATE)


def test_valid_answer_is_used_and_cached(
    provider: Provider, service: tuple[Summarizer, DictCache], run: Run, hermes_entry: SubtaskSummary
) -> None:
    """A valid 3-line answer comes back as ``source=llm`` with usage and cost, and is cached."""
    svc, cache = service
    with respx.mock(assert_all_mocked=True) as mock:
        route = mock.post(provider.url).mock(return_value=provider.ok(GOOD_CRITICAL))
        first = run(svc, _job(hermes_entry))
        second = run(svc, _job(hermes_entry))
    assert route.call_count == 1
    assert first.source == "llm" and first.lines == tuple(GOOD_CRITICAL.splitlines())
    assert first.usage.completion_tokens == 30 and first.cost_usd is not None
    assert second.source == "cache" and second.cached and second.text == first.text
    assert len(cache.data) == 1


def test_server_errors_until_the_cap_fall_back_to_the_template(
    provider: Provider, service: tuple[Summarizer, DictCache], run: Run, hermes_entry: SubtaskSummary
) -> None:
    """500 on every attempt: 3 calls, then the template with the reason; nothing is cached."""
    svc, cache = service
    with respx.mock(assert_all_mocked=True) as mock:
        route = mock.post(provider.url).mock(
            return_value=httpx.Response(500, json={"error": {"message": "x"}})
        )
        result = run(svc, _job(hermes_entry))
    assert route.call_count == 3
    assert result.source == "template" and result.text == TEMPLATE
    assert result.reason is not None and "ProviderUnavailable" in result.reason
    assert cache.data == {}


def test_timeout_falls_back_to_the_template(
    provider: Provider, service: tuple[Summarizer, DictCache], run: Run, hermes_entry: SubtaskSummary
) -> None:
    """Timeouts are retried, then the template answers."""
    svc, cache = service
    with respx.mock(assert_all_mocked=True) as mock:
        mock.post(provider.url).mock(side_effect=httpx.ConnectTimeout("timed out"))
        result = run(svc, _job(hermes_entry))
    assert result.source == "template" and cache.data == {}


def test_malformed_provider_json_falls_back_to_the_template(
    provider: Provider, service: tuple[Summarizer, DictCache], run: Run, hermes_entry: SubtaskSummary
) -> None:
    """A body that is not JSON: one call, the template, the reason says malformed."""
    svc, cache = service
    with respx.mock(assert_all_mocked=True) as mock:
        route = mock.post(provider.url).mock(return_value=httpx.Response(200, text="<html>oops"))
        result = run(svc, _job(hermes_entry))
    assert route.call_count == 1
    assert result.source == "template" and result.reason is not None and "malformed" in result.reason
    assert cache.data == {}


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        ("Only one line about the refresh endpoint.", "expected 3 lines"),
        (GOOD_CRITICAL + "\nA fourth line nobody asked for.", "expected 3 lines"),
        (
            "Added POST /api/auth/refresh in backend/routers/session_store.py.\n"
            "Aphrodite must call it on 401.\nTokens rotate on every use.",
            "session_store.py",
        ),
        (
            "Added POST /api/v2/tokens/renew for the UI.\nAphrodite must call it on 401.\nTokens rotate.",
            "/api/v2/tokens/renew",
        ),
    ],
    ids=["too-few-lines", "too-many-lines", "invented-file", "invented-endpoint"],
)
def test_invalid_answer_is_replaced_by_the_template_and_not_cached(
    provider: Provider,
    service: tuple[Summarizer, DictCache],
    run: Run,
    hermes_entry: SubtaskSummary,
    answer: str,
    why: str,
) -> None:
    """Wrong line count or an invented path: the template answers, the reason says why."""
    svc, cache = service
    with respx.mock(assert_all_mocked=True) as mock:
        mock.post(provider.url).mock(return_value=provider.ok(answer))
        result = run(svc, _job(hermes_entry))
    assert result.source == "template" and result.text == TEMPLATE
    assert result.reason is not None and why in result.reason
    assert cache.data == {}


def test_cut_off_answer_is_never_cached(
    provider: Provider, service: tuple[Summarizer, DictCache], run: Run, hermes_entry: SubtaskSummary
) -> None:
    """finish_reason=length: even a well-shaped answer is discarded for the template, uncached."""
    svc, cache = service
    with respx.mock(assert_all_mocked=True) as mock:
        mock.post(provider.url).mock(return_value=provider.ok(GOOD_CRITICAL, finish="length"))
        result = run(svc, _job(hermes_entry))
    assert result.source == "template" and result.reason is not None and "cut off" in result.reason
    assert cache.data == {}
