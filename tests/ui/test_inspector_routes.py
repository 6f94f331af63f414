"""The inspector's own JSON routes, /openapi.json and /docs, over HTTP against a real LocalServer."""

from __future__ import annotations

import re
from datetime import datetime, timezone

import httpx
import pytest

from memorysync_server import LocalServer
from memorysync_server.http.spec import load_spec
from tests.server.api import Api

KEYS = {"ms_test_acme": "t_acme", "ms_test_other": "t_other"}


@pytest.fixture
def two_tenants(tmp_path):
    with LocalServer(tmp_path / "m.db", keys=KEYS) as server:
        acme, other = Api(server, "ms_test_acme", "t_acme"), Api(server, "ms_test_other", "t_other")
        yield server, acme, other
        acme.close()
        other.close()


def _get(server: LocalServer, path: str, key: str | None, **params) -> httpx.Response:
    headers = {"X-API-Key": key} if key else {}
    return httpx.get(server.base_url + path, params=params, headers=headers)


def test_users_are_listed_per_tenant_with_their_counts(two_tenants) -> None:
    server, acme, other = two_tenants
    acme.v1(
        "/v1/history/append",
        "alice",
        session_id="s1",
        turns=[{"role": "user", "content": "I'm vegan."}, {"role": "assistant", "content": "Noted."}],
    )
    acme.put("bob", "k", {"v": 1}, namespace=["prefs"])
    other.turn("mallory", "I moved to Oslo")

    listed = _get(server, "/inspector/api/users", "ms_test_acme").json()
    assert listed["tenant_id"] == "t_acme" and listed["total"] == 2
    by_user = {u["user_id"]: u for u in listed["users"]}
    assert by_user["alice"]["memories"] == len(acme.texts("alice")) == 1
    assert (by_user["alice"]["turns"], by_user["alice"]["state_items"]) == (2, 0)
    assert (by_user["bob"]["memories"], by_user["bob"]["turns"], by_user["bob"]["state_items"]) == (0, 0, 1)
    # Most recently active first: bob's state came after alice's turns.
    assert [u["user_id"] for u in listed["users"]] == ["bob", "alice"]

    theirs = _get(server, "/inspector/api/users", "ms_test_other").json()
    assert [u["user_id"] for u in theirs["users"]] == ["mallory"] and theirs["tenant_id"] == "t_other"
    # Another tenant's user looks empty, never leaks.
    assert _get(server, "/inspector/api/user", "ms_test_other", user_id="alice").json()["memories"] == 0


def test_one_user_summary_names_sessions_and_state_namespaces(two_tenants) -> None:
    server, acme, _ = two_tenants
    for session in ("s1", "s2"):
        acme.v1(
            "/v1/history/append",
            "alice",
            session_id=session,
            source="ag2",
            turns=[{"role": "user", "content": f"hello from {session}"}],
        )
    acme.put("alice", "a", {"v": 1}, namespace=["agno", "memories"])
    acme.put("alice", "b", {"v": 2}, namespace=["agno", "memories"])
    acme.put("alice", "c", {"v": 3}, namespace=["prefs"], source="ag2")
    before = _get(server, "/inspector/api/user", "ms_test_acme", user_id="alice").json()
    assert [s["session_id"] for s in before["sessions"]] == ["s2", "s1"]
    assert before["sessions"][0]["turns"] == 1 and before["sessions"][0]["sources"] == ["ag2"]
    assert {(s["source"], tuple(s["namespace"]), s["items"]) for s in before["state"]} == {
        ("api", ("agno", "memories"), 2),
        ("ag2", ("prefs",), 1),
    }
    assert (before["turns"], before["state_items"]) == (2, 3)
    acme.turn("alice", "I always take the window seat")
    after = _get(server, "/inspector/api/user", "ms_test_acme", user_id="alice").json()
    assert after["memories"] == before["memories"] + 1 and after["version"] != before["version"]
    assert (
        _get(server, "/inspector/api/user", "ms_test_acme", user_id="alice").json()["version"]
        == after["version"]
    )


def test_forget_user_deletes_that_users_rows_only(two_tenants) -> None:
    server, acme, other = two_tenants
    for api in (acme, other):
        api.turn("alice", "I'm vegan")
        api.v1("/v1/history/append", "alice", session_id="s", turns=[{"role": "user", "content": "I ski"}])
        api.put("alice", "k", {"v": 1})
    acme.turn("bob", "I moved to Oslo")
    gone = httpx.delete(
        server.base_url + "/inspector/api/user",
        params={"user_id": "alice"},
        headers={"X-API-Key": "ms_test_acme"},
    ).json()
    assert gone == {
        "tenant_id": "t_acme",
        "user_id": "alice",
        "deleted": {"memories": 2, "turns": 1, "state_items": 1},
    }
    assert acme.texts("alice") == []
    assert acme.v1("/v1/memory/recall", "alice", prompt="what do I eat? vegan")["memories"] == []
    summary = _get(server, "/inspector/api/user", "ms_test_acme", user_id="alice").json()
    assert (summary["memories"], summary["turns"], summary["state_items"]) == (0, 0, 0)
    assert acme.texts("bob") == ["User moved to Oslo"]
    assert len(other.texts("alice")) == 2  # the same user id in another tenant is someone else
    # Replay receipts went too: the same turn sent again is stored again, not "already seen".
    again = acme.turn("alice", "I'm vegan")
    assert again["already_exists"] is False and acme.texts("alice") == ["User is vegan"]


@pytest.mark.parametrize(
    ("path", "params", "status", "needle"),
    [
        ("/inspector/api/users", {}, 401, "X-API-Key"),
        ("/inspector/api/user", {"user_id": "a"}, 401, "X-API-Key"),
    ],
)
def test_inspector_routes_need_a_key(two_tenants, path, params, status, needle) -> None:
    server, *_ = two_tenants
    response = _get(server, path, None, **params)
    assert response.status_code == status and needle in response.json()["detail"]
    wrong = _get(server, path, "ms_test_nope", **params)
    assert wrong.status_code == 401 and "Unknown API key" in wrong.json()["detail"]
    assert httpx.delete(server.base_url + "/inspector/api/user", params={"user_id": "a"}).status_code == 401


def test_bad_parameters_get_a_422_that_says_what_to_send(two_tenants) -> None:
    server, *_ = two_tenants
    for params, field in [({}, "user_id"), ({"user_id": ""}, "user_id"), ({"user_id": "x" * 257}, "user_id")]:
        response = _get(server, "/inspector/api/user", "ms_test_acme", **params)
        assert response.status_code == 422 and response.json()["detail"][0]["loc"] == ["query", field]
    for limit in ("0", "-1", "abc", "1001"):
        response = _get(server, "/inspector/api/users", "ms_test_acme", limit=limit)
        assert response.status_code == 422 and "from 1 to 1000" in response.json()["detail"][0]["msg"]


def test_openapi_json_is_the_spec_the_server_validates_with(server: LocalServer) -> None:
    served = httpx.get(server.base_url + "/openapi.json").json()
    document = load_spec().document
    assert served["servers"][0] == {"url": server.base_url, "description": "This memorysync-server"}
    assert served["servers"][1:] == document["servers"]
    assert {k: v for k, v in served.items() if k != "servers"} == {
        k: v for k, v in document.items() if k != "servers"
    }


def test_docs_and_page_assets_are_served_by_the_server(server: LocalServer) -> None:
    docs = httpx.get(server.base_url + "/docs")
    assert docs.status_code == 200
    for asset in re.findall(r'(?:src|href)="(/[^"]+)"', docs.text):
        assert httpx.get(server.base_url + asset).status_code == 200, asset
    page = httpx.get(server.base_url + "/")
    assert page.status_code == 200 and "default-src 'self'" in page.headers["content-security-policy"]
    for asset in re.findall(r'(?:src|href)="(/[^"]+)"|": "(/[^"]+)"', page.text):
        url = next(a for a in asset if a)
        response = httpx.get(server.base_url + url)
        assert response.status_code == 200 and len(response.content) > 100, url
    # The API's own 404 still answers every other path.
    missing = httpx.get(server.base_url + "/inspector/nope")
    assert missing.status_code == 404 and "/docs" in missing.json()["detail"]
    wrong = httpx.post(server.base_url + "/inspector/api/users", headers={"X-API-Key": server.api_key})
    assert wrong.status_code == 405 and "GET" in wrong.headers["allow"] and "POST" in wrong.json()["detail"]
    wrong = httpx.put(server.base_url + "/inspector/api/user", params={"user_id": "a"})
    assert wrong.status_code == 405 and {"GET", "DELETE"} <= set(wrong.headers["allow"].split(", "))
    detail = httpx.get(server.base_url + "/v2/nothing").json()["detail"]
    assert "/docs" in detail and "/openapi.json" in detail


def test_users_page_by_activity_then_id(tmp_path) -> None:
    # A frozen clock: every row has the same time, so the user id breaks the tie.
    frozen = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)
    with LocalServer(tmp_path / "m.db", keys=KEYS, clock=lambda: frozen) as server:
        api = Api(server, "ms_test_acme", "t_acme")
        for user in ("carol", "alice", "bob"):
            api.turn(user, "I moved to Oslo")
        api.put("dave", "k", {"v": 1})
        listed = _get(server, "/inspector/api/users", "ms_test_acme", limit="2", offset="1").json()
        assert listed["total"] == 4
        assert [u["user_id"] for u in listed["users"]] == ["bob", "carol"]
        assert listed["users"][0]["last_activity"] == "2026-01-02T03:04:05.000000Z"
        api.close()
