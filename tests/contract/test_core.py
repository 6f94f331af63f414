"""memorysync_core: settings, the client it builds, tenant discovery, errors and the seed."""

from __future__ import annotations

import asyncio
import threading

import httpx
import pytest
from memorysync_client.api.memory import recall
from memorysync_client.models import ErrorBody, QueryResponse, RecallRequest, RecallResponse

from memorysync_core import (
    Connection,
    LoopThread,
    MemorySyncError,
    acall,
    call,
    fnv1a64,
    prepare_text,
    resolve_settings,
    turn_seed,
    user_agent,
)
from tests.support.stub_http import Reply, StubHTTP

PROJECT = {
    "id": "p_1",
    "name": "Default",
    "tenant_id": "t_acme",
    "is_default": True,
    "memory_count": 0,
    "created_at": "2026-01-01T00:00:00Z",
    "updated_at": "2026-01-01T00:00:00Z",
}


# ---- the idempotency seed all MemorySync adapters share (FNV-1a 64 over UTF-16 units) -----
@pytest.mark.parametrize(
    "text,expected",
    [
        ("human:hello", "dc7ad99e64417378"),
        ("", "cbf29ce484222325"),
        ("a", "af63dc4c8601ec8c"),
        ("human:héllo 😀", "d1573593e0eeedf9"),
    ],
)
def test_fnv1a64_contract_vectors(text, expected):
    assert fnv1a64(text) == expected


def test_turn_seed_contract_vector():
    seed = turn_seed("human", "ag2::chat-42", "I always take the window seat")
    assert seed == "human@ag2::chat-42#h30f269bc6ced778d"


def test_turn_seed_rejects_unknown_roles():
    with pytest.raises(ValueError, match="'human' or 'ai'"):
        turn_seed("user", "ag2::s", "hi")  # type: ignore[arg-type]


def test_prepare_text_trims_then_truncates():
    assert prepare_text("  hi  ") == "hi"
    assert prepare_text(" " + "x" * 20_000) == "x" * 16_000


# ---- settings ---------------------------------------------------------------------------
def test_missing_key_is_a_value_error_that_says_how_to_fix_it():
    with pytest.raises(ValueError, match="MEMORYSYNC_API_KEY"):
        resolve_settings(environ={})
    with pytest.raises(ValueError, match="api_key="):
        resolve_settings(api_key="   ", environ={})


def test_explicit_arguments_win_over_the_environment():
    env = {"MEMORYSYNC_API_KEY": "ms_env", "MEMORYSYNC_BASE_URL": "http://env:1"}
    assert resolve_settings(environ=env).api_key == "ms_env"
    assert resolve_settings(environ=env).base_url == "http://env:1"
    explicit = resolve_settings("ms_arg", "http://arg:2/", environ=env)
    assert (explicit.api_key, explicit.base_url) == ("ms_arg", "http://arg:2")
    assert resolve_settings("k", environ={}).base_url == "https://api.memorysync.io"


def test_bad_base_url_is_rejected_with_an_example():
    with pytest.raises(ValueError, match="http"):
        resolve_settings("k", "api.memorysync.io", environ={})


def test_settings_repr_does_not_leak_the_key():
    assert "supersecretvalue" not in repr(resolve_settings("ms_live_supersecretvalue", environ={}))


# ---- the built client on the wire --------------------------------------------------------
def _projects(status=200, body=None):
    return lambda rec: Reply(status, [PROJECT] if body is None else body)


def test_client_sends_key_project_and_user_agent_headers():
    with StubHTTP(_projects()) as stub:
        conn = Connection(api_key="ms_test_1", base_url=stub.base_url, project_id="proj-9")
        assert conn.tenant_id() == "t_acme"
        conn.close()
    headers = {k.lower(): v for k, v in stub.requests[0].headers.items()}
    assert headers["x-api-key"] == "ms_test_1"
    assert headers["x-project-id"] == "proj-9"
    assert headers["user-agent"] == user_agent() and user_agent().startswith("memorysync-kit/")
    assert user_agent().split("/")[1][0].isdigit()


def test_tenant_is_discovered_once_and_cached():
    with StubHTTP(_projects()) as stub:
        conn = Connection(api_key="k", base_url=stub.base_url)
        assert [conn.tenant_id() for _ in range(3)] == ["t_acme"] * 3
        assert asyncio.run(conn.atenant_id()) == "t_acme"
    assert len(stub.requests) == 1


def test_explicit_tenant_skips_discovery():
    with StubHTTP(_projects()) as stub:
        assert Connection(api_key="k", base_url=stub.base_url, tenant_id="t_x").tenant_id() == "t_x"
    assert stub.requests == []


@pytest.mark.parametrize("status", [401, 403])
def test_keys_without_projects_scope_use_the_default_tenant(status):
    with StubHTTP(_projects(status, {"detail": "missing scope projects:read"})) as stub:
        assert Connection(api_key="ms_eval_1", base_url=stub.base_url).tenant_id() == "default"


@pytest.mark.parametrize("is_async", [False, True])
def test_server_errors_during_discovery_raise_instead_of_switching_tenant(is_async):
    with StubHTTP(_projects(503, {"detail": "maintenance"})) as stub:
        conn = Connection(api_key="k", base_url=stub.base_url)
        with pytest.raises(MemorySyncError) as info:
            conn.tenant_id() if not is_async else asyncio.run(conn.atenant_id())
    assert info.value.status_code == 503 and info.value.detail == "maintenance" and info.value.transient
    assert conn.tenants.cached is None  # nothing wrong was cached: the next call asks again


@pytest.mark.parametrize(
    "body", [[], [{**PROJECT, "tenant_id": None}], [{k: v for k, v in PROJECT.items() if k != "tenant_id"}]]
)
def test_no_usable_project_says_to_pass_tenant_id(body):
    with StubHTTP(_projects(200, body)) as stub, pytest.raises(MemorySyncError, match="tenant_id="):
        Connection(api_key="k", base_url=stub.base_url).tenant_id()


def test_unreachable_server_is_a_transient_error_without_status():
    with StubHTTP(_projects()) as stub:
        url = stub.base_url
    conn = Connection(api_key="k", base_url=url, timeout=2.0)
    with pytest.raises(MemorySyncError, match="could not reach") as info:
        conn.tenant_id()
    assert info.value.status_code is None and info.value.transient
    assert f"at {url.rstrip('/')} " in str(info.value)
    assert "MEMORYSYNC_BASE_URL" not in str(info.value)


@pytest.mark.parametrize("is_async", [False, True])
def test_failing_to_reach_the_hosted_default_says_how_to_use_a_local_server(is_async, monkeypatch):
    monkeypatch.delenv("MEMORYSYNC_BASE_URL", raising=False)

    def no_network(request):  # fault injection: what a machine without DNS for the hosted URL sees
        raise httpx.ConnectError("[Errno -2] Name or service not known", request=request)

    conn = Connection(api_key="k", transport=httpx.MockTransport(no_network))
    with pytest.raises(MemorySyncError) as info:
        asyncio.run(conn.atenant_id()) if is_async else conn.tenant_id()
    message = str(info.value)
    assert "could not reach the server at https://api.memorysync.io (ConnectError" in message
    assert "export MEMORYSYNC_BASE_URL=http://127.0.0.1:8787" in message


# ---- one error type for every failure ---------------------------------------------------
def _recall(conn: Connection):
    body = RecallRequest(tenant_id="t", user_id="u", prompt="hello there")
    return call(recall.sync_detailed, client=conn.client, body=body)


def test_plan_limit_429_keeps_the_nested_detail():
    detail = {"error": "limit_exceeded", "message": "Monthly reads exhausted; upgrade the plan."}
    with StubHTTP(lambda rec: Reply(429, {"detail": detail})) as stub, pytest.raises(MemorySyncError) as info:
        _recall(Connection(api_key="k", base_url=stub.base_url))
    err = info.value
    assert (err.status_code, err.detail, err.limit_exceeded, err.transient) == (429, detail, True, True)
    assert "upgrade the plan" in str(err)


def test_a_408_for_a_body_that_stalled_on_the_way_is_worth_retrying():
    detail = "Request Timeout: the request body made no progress for 5 s"
    with StubHTTP(lambda rec: Reply(408, {"detail": detail})) as stub, pytest.raises(MemorySyncError) as info:
        _recall(Connection(api_key="k", base_url=stub.base_url))
    assert info.value.status_code == 408 and info.value.transient


def test_validation_422_lists_where_and_why():
    detail = [
        {
            "loc": ["body", "prompt"],
            "msg": "String should have at least 1 character",
            "type": "string_too_short",
        }
    ]
    with StubHTTP(lambda rec: Reply(422, {"detail": detail})) as stub, pytest.raises(MemorySyncError) as info:
        _recall(Connection(api_key="k", base_url=stub.base_url))
    assert info.value.detail == detail and not info.value.transient
    assert "body.prompt: String should have at least 1 character" in str(info.value)


def test_undocumented_status_and_non_json_body_still_raise_cleanly():
    with StubHTTP(lambda rec: Reply(502, None)) as stub, pytest.raises(MemorySyncError) as info:
        _recall(Connection(api_key="k", base_url=stub.base_url))
    assert info.value.status_code == 502 and info.value.transient


def test_success_returns_the_generated_model():
    ok = {"context": "- User is vegan", "memories": []}
    with StubHTTP(lambda rec: Reply(200, ok)) as stub:
        result = _recall(Connection(api_key="k", base_url=stub.base_url))
    assert result.context == "- User is vegan"
    assert stub.requests[0].body == {"tenant_id": "t", "user_id": "u", "prompt": "hello there"}


@pytest.mark.parametrize("is_async", [False, True])
def test_expect_returns_the_success_model_or_raises_naming_what_came(is_async):
    body = RecallRequest(tenant_id="t", user_id="u", prompt="hello there")
    ok = {"context": "- User is vegan", "memories": []}
    with StubHTTP(lambda rec: Reply(200, ok)) as stub:
        conn = Connection(api_key="k", base_url=stub.base_url)

        def run(expect):
            if is_async:
                return asyncio.run(
                    acall(recall.asyncio_detailed, client=conn.client, body=body, expect=expect)
                )
            return call(recall.sync_detailed, client=conn.client, body=body, expect=expect)

        assert run(RecallResponse).context == "- User is vegan"
        assert isinstance(run((QueryResponse, RecallResponse, ErrorBody)), RecallResponse)
        with pytest.raises(MemorySyncError, match="parsed as RecallResponse, expected QueryResponse") as info:
            run(QueryResponse)  # a 2xx body that is not the expected model is never handed on
    assert info.value.status_code == 200 and not info.value.transient


def test_expect_still_raises_the_servers_error_for_a_non_2xx():
    with (
        StubHTTP(lambda rec: Reply(503, {"detail": "starting"})) as stub,
        pytest.raises(MemorySyncError) as info,
    ):
        conn = Connection(api_key="k", base_url=stub.base_url)
        body = RecallRequest(tenant_id="t", user_id="u", prompt="hello there")
        call(recall.sync_detailed, client=conn.client, body=body, expect=RecallResponse)
    assert info.value.status_code == 503 and info.value.transient


# ---- the background loop ----------------------------------------------------------------
def test_loop_thread_runs_coroutines_off_the_callers_loop_and_enforces_timeouts():
    lt = LoopThread(name="test-loop")
    try:

        async def where():
            return threading.current_thread().name

        async def caller():  # inside a running loop, the bridge must not touch it
            return lt.run(where(), timeout=1.0)

        assert asyncio.run(caller()) == "test-loop"
        with pytest.raises(TimeoutError):
            lt.run(asyncio.sleep(5), timeout=0.05)
        assert lt.run(where(), timeout=1.0) == "test-loop"  # still healthy after a timeout
    finally:
        lt.stop()
    assert not lt.alive


def test_concurrent_first_async_callers_share_one_discovery():
    with StubHTTP(lambda rec: Reply(200, [PROJECT], delay=0.1)) as stub:
        conn = Connection(api_key="k", base_url=stub.base_url)

        async def many():
            return await asyncio.gather(*(conn.atenant_id() for _ in range(5)))

        assert asyncio.run(many()) == ["t_acme"] * 5
    assert len(stub.requests) == 1


# ---- whose error: ours, the transport's, or the server's answer --------------------------
@pytest.mark.parametrize("is_async", [False, True])
def test_a_programming_error_in_our_call_surfaces_as_itself_and_sends_nothing(is_async):
    body = RecallRequest(tenant_id="t", user_id="u", prompt="hello there")
    with StubHTTP(lambda rec: Reply(200, {"context": "", "memories": []})) as stub:
        conn = Connection(api_key="k", base_url=stub.base_url)
        with pytest.raises(TypeError, match="bodyy"):
            if is_async:
                asyncio.run(acall(recall.asyncio_detailed, client=conn.client, bodyy=body))
            else:
                call(recall.sync_detailed, client=conn.client, bodyy=body)
    assert stub.requests == []


@pytest.mark.parametrize("is_async", [False, True])
@pytest.mark.parametrize(
    "answer",
    [{"memories": []}, {"context": "- x", "memories": [{"memory_id": "m_1"}]}, ["not", "an", "object"]],
)
def test_an_answer_that_does_not_parse_is_the_servers_fault_and_not_transient(is_async, answer):
    body = RecallRequest(tenant_id="t", user_id="u", prompt="hello there")
    with StubHTTP(lambda rec: Reply(200, answer)) as stub:
        conn = Connection(api_key="k", base_url=stub.base_url)
        with pytest.raises(
            MemorySyncError, match=r"recall: the server's HTTP 200 answer does not match openapi\.yaml"
        ) as info:
            if is_async:
                asyncio.run(acall(recall.asyncio_detailed, client=conn.client, body=body))
            else:
                call(recall.sync_detailed, client=conn.client, body=body)
    assert info.value.status_code == 200 and not info.value.transient
    assert len(stub.requests) == 1
