"""GET /v1/memory/status/{memory_id} and POST /v1/state/namespaces over real HTTP, on both engines,
plus the transcript rules the official SDK relies on (latest `limit` turns, empty turn content)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from memorysync_server import LocalServer, Quota

from ..api import Api


def _status(api: Api, memory_id: Any, user: str | None = "u") -> httpx.Response:
    headers = {"X-End-User-ID": user} if user is not None else {}
    return api.http.get(f"/v1/memory/status/{memory_id}", headers=headers)


# ---- status ----------------------------------------------------------------------------------
def test_status_of_a_stored_memory(api: Api) -> None:
    stored = api.add("u", "I am allergic to peanuts")
    number = stored["id"]
    response = _status(api, number)
    assert response.status_code == 200, response.text
    assert response.json() == {
        "memory_id": number,
        "searchable": True,
        "processing_status": "completed",
        "created_at": stored["created_at"],
    }
    # searchable means it: the memory is found right away.
    found = api.v1("/v1/memory/query", "u", prompt="peanut allergy")["memories"]
    assert f"m_{number}" in [m["memory_id"] for m in found]


def test_status_is_scoped_to_the_end_user_and_the_tenant(server: LocalServer, api: Api) -> None:
    number = api.add("u", "I am allergic to peanuts")["id"]
    for user in ("someone-else", "U"):
        hidden = _status(api, number, user)
        assert hidden.status_code == 404
        assert hidden.json()["detail"].startswith(f"memory {number} is not visible to the caller")
    assert _status(api, number + 1000).status_code == 404
    server.add_key("ms_test_other_tenant_000000000000", "t_other")
    other = Api(server, key="ms_test_other_tenant_000000000000", tenant="t_other")
    try:
        assert _status(other, number).status_code == 404
    finally:
        other.close()
    # After forget it is gone.
    api.forget("u", [number])
    assert _status(api, number).status_code == 404


def test_status_input_errors(api: Api) -> None:
    number = api.add("u", "I am allergic to peanuts")["id"]
    missing = _status(api, number, user=None)
    assert missing.status_code == 422
    assert missing.json()["detail"] == [
        {"loc": ["header", "X-End-User-ID"], "msg": "X-End-User-ID is required", "type": "missing"}
    ]
    for bad in ("0", "-1", "abc", str(2**63), "m_", "m_x", "h_1", "%C2%B2", "1.5", "1e3", "1."):
        response = _status(api, bad)
        assert response.status_code == 422, (bad, response.text)
        assert response.json()["detail"][0]["loc"] == ["path", "memory_id"]
    # The v1 form of the id, as v1 answers name it, works too; a number no row can have is 404.
    assert _status(api, f"m_{number}").json()["memory_id"] == number
    assert _status(api, f"%2B{number}").json()["memory_id"] == number
    assert _status(api, f"{number}.0").json()["memory_id"] == number  # an integer to JSON Schema
    assert _status(api, "m_99999999999999999999").status_code == 404
    assert (
        api.http.get(
            f"/v1/memory/status/{number}", headers={"X-End-User-ID": "u", "X-API-Key": "nope"}
        ).status_code
        == 401
    )


def test_status_is_not_metered(server: LocalServer) -> None:
    server.add_key("ms_test_quota_status_00000000000", server.tenant_id, quota=Quota(adds=1, reads=0))
    api = Api(server, key="ms_test_quota_status_00000000000")
    try:
        number = api.add("u", "I am allergic to peanuts")["id"]
        for _ in range(3):  # reads are used up from the start, and polling still answers
            assert _status(api, number).json()["searchable"] is True
        assert api.v1("/v1/memory/query", "u", prompt="peanuts")["memories"] == []
    finally:
        api.close()


# ---- namespaces ------------------------------------------------------------------------------
def _namespaces(api: Api, user: str = "u", expect: int = 200, **body: Any) -> Any:
    return api.v1("/v1/state/namespaces", user, expect=expect, **body)


@pytest.fixture
def stored_namespaces(api: Api) -> Api:
    for namespace, key in (
        (["agno"], "a"),
        (["agno"], "b"),
        (["agno", "team", "x"], "c"),
        (["agno", "team", "y"], "d"),
        (["agnostic"], "e"),
        (["zeta", "1"], "f"),
    ):
        api.put("u", key, {"k": key}, namespace=namespace)
    api.put("u", "other-source", {}, namespace=["hidden"], source="elsewhere")
    api.put("someone-else", "g", {}, namespace=["theirs"])
    return api


def test_namespaces_of_one_user_and_source(stored_namespaces: Api) -> None:
    api = stored_namespaces
    everything = [["agno"], ["agno", "team", "x"], ["agno", "team", "y"], ["agnostic"], ["zeta", "1"]]
    assert _namespaces(api) == {"namespaces": everything}
    assert _namespaces(api, prefix=[]) == {"namespaces": everything}
    assert _namespaces(api, source="elsewhere") == {"namespaces": [["hidden"]]}
    assert _namespaces(api, "someone-else") == {"namespaces": [["theirs"]]}
    assert _namespaces(api, "nobody") == {"namespaces": []}


def test_namespaces_prefix_depth_and_paging(stored_namespaces: Api) -> None:
    api = stored_namespaces
    # Segment-wise: ["agno"] is not a prefix of ["agnostic"].
    assert _namespaces(api, prefix=["agno"])["namespaces"] == [
        ["agno"],
        ["agno", "team", "x"],
        ["agno", "team", "y"],
    ]
    assert _namespaces(api, prefix=["agno", "team"])["namespaces"] == [
        ["agno", "team", "x"],
        ["agno", "team", "y"],
    ]
    assert _namespaces(api, max_depth=1)["namespaces"] == [["agno"], ["agnostic"], ["zeta"]]
    assert _namespaces(api, max_depth=2)["namespaces"] == [
        ["agno"],
        ["agno", "team"],
        ["agnostic"],
        ["zeta", "1"],
    ]
    assert _namespaces(api, max_depth=2, limit=2, offset=1)["namespaces"] == [["agno", "team"], ["agnostic"]]
    assert _namespaces(api, limit=1, offset=4)["namespaces"] == [["zeta", "1"]]
    assert _namespaces(api, offset=99)["namespaces"] == []
    # Deleting the last record of a namespace removes it from the list.
    api.v1("/v1/state/delete", "u", namespace=["zeta", "1"])
    assert ["zeta", "1"] not in _namespaces(api)["namespaces"]


def test_namespaces_input_errors_and_tenancy(api: Api) -> None:
    for bad in (
        {"max_depth": 0},
        {"max_depth": 21},
        {"limit": 0},
        {"limit": 5001},
        {"offset": -1},
        {"prefix": [""]},
    ):
        _namespaces(api, expect=422, **bad)
    refused = api.post("/v1/state/namespaces", {"tenant_id": "t_other", "user_id": "u"}, expect=403)
    assert "t_other" in refused["detail"]


def test_namespaces_over_quota_are_silent_and_strict_for_evaluation_keys(server: LocalServer) -> None:
    server.add_key("ms_test_quota_ns_000000000000000", server.tenant_id, quota=Quota(adds=5, reads=1))
    api = Api(server, key="ms_test_quota_ns_000000000000000")
    try:
        api.put("u", "k", {}, namespace=["n"])
        assert _namespaces(api) == {"namespaces": [["n"]]}
        assert _namespaces(api) == {"namespaces": []}  # silent: the read came back empty
    finally:
        api.close()
    server.add_key("ms_eval_quota_ns_000000000000000", quota=Quota(adds=5, reads=0), evaluation=True)
    strict = Api(server, key="ms_eval_quota_ns_000000000000000", tenant="default")
    try:
        body = _namespaces(strict, expect=429)
        assert body["detail"]["error"] == "limit_exceeded"
    finally:
        strict.close()


# ---- transcripts the SDK reads and writes ------------------------------------------------------
def test_history_limit_gives_the_latest_turns_oldest_first(api: Api) -> None:
    turns = [{"role": "user", "content": f"turn {i}", "seq": i} for i in range(5)]
    api.v1("/v1/history/append", "u", session_id="s", turns=turns, extract=False)
    latest = api.v1("/v1/history/list", "u", session_id="s", limit=2)
    assert [t["content"] for t in latest["items"]] == ["turn 3", "turn 4"] and latest["total"] == 5
    assert [t["content"] for t in api.v1("/v1/history/list", "u", session_id="s")["items"]] == [
        f"turn {i}" for i in range(5)
    ]
    # Turns without seq come after those with one, in arrival order.
    api.v1(
        "/v1/history/append", "u", session_id="s", turns=[{"role": "user", "content": "late"}], extract=False
    )
    latest = api.v1("/v1/history/list", "u", session_id="s", limit=3)
    assert [t["content"] for t in latest["items"]] == ["turn 3", "turn 4", "late"]
    assert len(api.v1("/v1/history/list", "u", session_id="s", limit=5000)["items"]) == 6


def test_empty_turn_content_is_stored_as_given_and_extracts_nothing(api: Api) -> None:
    appended = api.v1(
        "/v1/history/append",
        "u",
        session_id="s",
        turns=[
            {"role": "assistant", "content": "", "payload": {"tool_calls": [{"name": "lookup"}]}},
            {"role": "user", "content": ""},
            {"role": "user", "content": "   "},
            {"role": "user", "content": "I'm vegan"},
        ],
    )
    assert [(t["role"], t["content"]) for t in appended["items"]] == [
        ("assistant", ""),
        ("user", ""),
        ("user", "   "),
        ("user", "I'm vegan"),
    ]
    assert len(appended["request_ids"]) == 1  # only the non-blank user turn went to extraction
    assert api.texts("u") == ["User is vegan"]
    listed = api.v1("/v1/history/list", "u", session_id="s")["items"]
    assert listed[0]["content"] == "" and listed[0]["payload"] == {"tool_calls": [{"name": "lookup"}]}
    # A retried empty turn is recognised by its idempotency key, not stored twice.
    turn = {"role": "assistant", "content": "", "idempotency_key": "tool-call-1"}
    first = api.v1("/v1/history/append", "u", session_id="s", turns=[turn])["items"][0]
    second = api.v1("/v1/history/append", "u", session_id="s", turns=[turn])["items"][0]
    assert (first["created"], second["created"], second["id"]) == (True, False, first["id"])
    assert len(api.v1("/v1/history/list", "u", session_id="s")["items"]) == 5
