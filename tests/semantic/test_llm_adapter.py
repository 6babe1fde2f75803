"""The litellm adapter against the REAL litellm, with respx standing in for the providers.

No request leaves the process: ``assert_all_mocked=True`` fails any call respx does not answer.
"""

from __future__ import annotations

import asyncio
import gc
import json
import subprocess
import sys
import warnings
from collections.abc import Callable

import httpx
import pytest
import respx

from summarizer.core.errors import ProviderError, ProviderUnavailable, RateLimited
from summarizer.semantic import llm
from summarizer.semantic.llm import LiteLLMCompleter
from summarizer.semantic.ports import Completion, CompletionRequest
from summarizer.semantic.retry import RetryPolicy
from tests.conftest import chat_completion

from .conftest import OPENAI, Provider

Call = Callable[[LiteLLMCompleter, CompletionRequest], Completion]


def _async(c: LiteLLMCompleter, r: CompletionRequest) -> Completion:
    return asyncio.run(c.complete(r))


@pytest.fixture(params=[_async], ids=["async"])
def call(request: pytest.FixtureRequest) -> Call:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture
def completer() -> LiteLLMCompleter:
    return LiteLLMCompleter(retry=RetryPolicy.immediate(attempts=3))


def _request(provider: Provider) -> CompletionRequest:
    return CompletionRequest(model=provider.model, system="SYSTEM-TEXT", user="USER-TEXT", max_tokens=77)


def test_success_returns_text_usage_and_cost(
    provider: Provider, call: Call, completer: LiteLLMCompleter
) -> None:
    """One HTTP call; the prompts reach the provider; usage and cost are recorded."""
    with respx.mock(assert_all_mocked=True) as mock:
        route = mock.post(provider.url).mock(return_value=provider.ok("first line\nsecond line"))
        result = call(completer, _request(provider))
    assert route.call_count == 1
    sent = json.loads(route.calls[0].request.content)
    assert "SYSTEM-TEXT" in json.dumps(sent) and "USER-TEXT" in json.dumps(sent)
    assert sent["max_tokens"] == 77
    assert result.text == "first line\nsecond line"
    assert result.finish_reason == "stop"
    assert (result.usage.prompt_tokens, result.usage.completion_tokens) == (120, 30)
    assert result.cost_usd is not None and result.cost_usd > 0


def test_rate_limit_then_success_makes_exactly_two_calls(
    provider: Provider, call: Call, completer: LiteLLMCompleter
) -> None:
    """A 429 is retried by our policy only: one failed call, one good call, nothing more."""
    with respx.mock(assert_all_mocked=True) as mock:
        route = mock.post(provider.url).mock(
            side_effect=[httpx.Response(429, json={"error": {"message": "slow down"}}), provider.ok("ok")]
        )
        result = call(completer, _request(provider))
    assert route.call_count == 2
    assert result.text == "ok"


def test_server_error_is_retried_up_to_the_cap_then_raised_typed(
    provider: Provider, call: Call, completer: LiteLLMCompleter
) -> None:
    """5xx is transient: exactly ``attempts`` calls, then ProviderUnavailable (never litellm's type)."""
    with respx.mock(assert_all_mocked=True) as mock:
        route = mock.post(provider.url).mock(
            return_value=httpx.Response(500, json={"error": {"message": "x"}})
        )
        with pytest.raises(ProviderUnavailable, match="unavailable"):
            call(completer, _request(provider))
    assert route.call_count == 3


def test_timeout_is_transient_and_retried(
    provider: Provider, call: Call, completer: LiteLLMCompleter
) -> None:
    """A read timeout becomes ProviderUnavailable after the retry cap."""
    with respx.mock(assert_all_mocked=True) as mock:
        route = mock.post(provider.url).mock(side_effect=httpx.ReadTimeout("timed out"))
        with pytest.raises(ProviderUnavailable):
            call(completer, _request(provider))
    assert route.call_count == 3


def test_malformed_json_is_a_provider_error_and_not_retried(
    provider: Provider, call: Call, completer: LiteLLMCompleter
) -> None:
    """A body that is not the provider's JSON fails at once with a typed, non-transient error."""
    with respx.mock(assert_all_mocked=True) as mock:
        route = mock.post(provider.url).mock(return_value=httpx.Response(200, text="{not json"))
        with pytest.raises(ProviderError) as info:
            call(completer, _request(provider))
    assert not isinstance(info.value, RateLimited | ProviderUnavailable)
    assert route.call_count == 1


def test_bad_request_is_not_retried(provider: Provider, call: Call, completer: LiteLLMCompleter) -> None:
    """A 400 is the caller's problem: one call, a ProviderError that says what to check."""
    with respx.mock(assert_all_mocked=True) as mock:
        route = mock.post(provider.url).mock(
            return_value=httpx.Response(
                400, json={"error": {"message": "bad", "type": "invalid_request_error"}}
            )
        )
        with pytest.raises(ProviderError, match="--model") as info:
            call(completer, _request(provider))
    assert not isinstance(info.value, RateLimited | ProviderUnavailable)
    assert route.call_count == 1


def test_rejected_key_names_the_variable_to_set(
    provider: Provider, call: Call, completer: LiteLLMCompleter
) -> None:
    """A 401 is not retried and the message names the environment variable."""
    with respx.mock(assert_all_mocked=True) as mock:
        route = mock.post(provider.url).mock(
            return_value=httpx.Response(401, json={"error": {"message": "invalid x-api-key"}})
        )
        with pytest.raises(ProviderError, match=f"{provider.name.upper()}_API_KEY"):
            call(completer, _request(provider))
    assert route.call_count == 1


def test_missing_key_is_reported_before_any_request(
    provider: Provider, call: Call, completer: LiteLLMCompleter, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No key configured: a clear ProviderError naming the variable; nothing is retried."""
    monkeypatch.delenv("OPENAI_API_KEY")
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    with respx.mock(assert_all_mocked=True, assert_all_called=False) as mock:
        route = mock.post(provider.url).mock(
            return_value=httpx.Response(401, json={"error": {"message": "no"}})
        )
        with pytest.raises(ProviderError, match=f"^no API key: set {provider.name.upper()}_API_KEY;"):
            call(completer, _request(provider))
    assert route.call_count == 0


def test_every_attempt_is_reported_to_the_observer_with_its_duration(provider: Provider, call: Call) -> None:
    """A timeout then an answer: the observer hears two attempts, the first failed (evals count them)."""
    heard: list[tuple[float, bool]] = []
    completer = LiteLLMCompleter(
        retry=RetryPolicy.immediate(attempts=3), observer=lambda s, ok: heard.append((s, ok))
    )
    with respx.mock(assert_all_mocked=True) as mock:
        mock.post(provider.url).mock(side_effect=[httpx.ReadTimeout("slow"), provider.ok("ok")])
        call(completer, _request(provider))
    assert [ok for _, ok in heard] == [False, True] and all(0 <= s < 5 for s, _ in heard)


def test_a_server_that_does_not_answer_is_named(call: Call, completer: LiteLLMCompleter) -> None:
    """A refused connection to --api-base says which server did not answer and what to do."""
    request = CompletionRequest(model="openai/local", system="s", user="u", api_base="http://127.0.0.1:9/v1")
    with respx.mock(assert_all_mocked=True) as mock:
        mock.post("http://127.0.0.1:9/v1/chat/completions").mock(side_effect=httpx.ConnectError("refused"))
        with pytest.raises(ProviderUnavailable, match=r"^http://127.0.0.1:9/v1 did not answer .*--api-base"):
            call(completer, request)


def test_cut_off_answer_is_reported_as_length(
    provider: Provider, call: Call, completer: LiteLLMCompleter
) -> None:
    """The provider's "ran out of tokens" stop reason is normalised to ``length``."""
    with respx.mock(assert_all_mocked=True) as mock:
        mock.post(provider.url).mock(return_value=provider.ok("half a sent", finish="length"))
        result = call(completer, _request(provider))
    assert result.cut_off


def test_api_base_routes_an_openai_compatible_server_without_a_key(
    call: Call, completer: LiteLLMCompleter, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--api-base`` sends to the given server; a local server needs no OPENAI_API_KEY."""
    request = CompletionRequest(
        model="openai/local-model", system="s", user="u", api_base="http://127.0.0.1:9/v1"
    )
    body = chat_completion("local-model", "hi", prompt_tokens=1, completion_tokens=1)
    with respx.mock(assert_all_mocked=True) as mock:
        route = mock.post("http://127.0.0.1:9/v1/chat/completions").mock(
            return_value=httpx.Response(200, json=body)
        )
        result = call(completer, request)
    assert route.call_count == 1
    assert result.text == "hi"
    assert result.cost_usd is None  # unknown to the cost map: unknown, not an error


_IMPORT = """
import gc
import os
import sys

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
collections = []
gc.callbacks.append(lambda phase, info: collections.append(info["generation"]) if phase == "start" else None)
from summarizer.semantic.llm import _litellm

enabled = False
collections.clear()
_litellm()
enabled = gc.isenabled()
gc.disable()  # from here on, this script's own allocations could trigger collections
walked = len(gc.get_objects())
print(sorted(set(collections)), enabled, "litellm" in sys.modules, walked * 10 < gc.get_freeze_count())
"""


def test_litellm_is_imported_without_a_collection_and_its_objects_are_never_walked_again() -> None:
    """No collection runs during the import, and later ones do not see litellm's objects.

    Every automatic collection walks all the objects made so far (a quarter of the import's CPU,
    and a second or more of an eval run after it), and none of litellm's is garbage. The
    collector itself is back on after the import.
    """
    done = subprocess.run([sys.executable, "-c", _IMPORT], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["[]", "True", "True", "True"]


def test_a_cancel_asked_for_while_the_import_held_the_loop_stops_before_litellm_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A deadline that ran out during the import: the call ends cleanly, before any request.

    Inside ``litellm.acompletion`` the cancel would land in litellm's hand-off to its executor,
    which then drops the coroutine it made ("coroutine ... was never awaited").
    """
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    real = llm._litellm

    def importing() -> object:
        task = asyncio.current_task()
        assert task is not None
        task.cancel()  # what the deadline asks from its thread while the import holds this loop
        return real()

    monkeypatch.setattr(llm, "_litellm", importing)
    completer = LiteLLMCompleter(retry=RetryPolicy.immediate(attempts=1))
    with (
        warnings.catch_warnings(record=True) as caught,
        respx.mock(assert_all_mocked=True, assert_all_called=False) as mock,
    ):
        warnings.simplefilter("always")
        route = mock.post(OPENAI.url).mock(return_value=OPENAI.ok("never sent"))
        with pytest.raises(asyncio.CancelledError):
            asyncio.run(completer.complete(_request(OPENAI)))
        gc.collect()
    assert route.call_count == 0
    assert [str(w.message) for w in caught if "never awaited" in str(w.message)] == []
