"""A field the server does not know is ignored, not refused, and named back to the sender.

The SDK itself only sends fields the server knows (every ``sdk`` test checks that after it runs),
so this sends what a newer SDK or a typo would, over plain httpx.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import memorysync
import pytest

from memorysync_server.launcher import LocalServer
from tests.compat.driver import IGNORED_HEADER


@pytest.fixture
def raw(server: LocalServer) -> Iterator[httpx.Client]:
    with httpx.Client(
        base_url=server.base_url, headers={"X-API-Key": server.api_key, "X-End-User-ID": "alice"}, timeout=30
    ) as client:
        yield client


def test_a_misspelt_field_is_ignored_and_named_in_the_header(raw: httpx.Client, server: LocalServer) -> None:
    answer = raw.post("/memory/add", json={"text": "I live in Leeds", "tgas": ["home"], "importance": 0.4})
    assert answer.status_code == 200
    assert answer.headers[IGNORED_HEADER] == "tgas"
    stored = answer.json()
    assert (stored["text"], stored["tags"], stored["importance"]) == ("User lives in Leeds", [], 0.4)

    # What the official SDK reads back agrees: the memory is there, without the misspelt tags.
    with memorysync.MemorySyncClient(server.api_key, server.base_url, end_user_id="alice") as sdk:
        memory = sdk.get(stored["id"])
    assert (memory.text, memory.tags) == ("User lives in Leeds", [])


def test_nested_unknown_fields_are_named_by_their_path(raw: httpx.Client) -> None:
    answer = raw.post(
        "/memory/bulk-add",
        json={
            "items": [{"text": "I speak Portuguese", "sesion": "s-1"}, {"text": "I have a dog", "prio": 1}],
            "deduplicate": True,
            "mode": "fast",
        },
    )
    assert answer.status_code == 207
    assert set(answer.headers[IGNORED_HEADER].split(", ")) == {"items[0].sesion", "items[1].prio", "mode"}
    assert [r["status"] for r in answer.json()["results"]] == ["created", "created"]


def test_a_v1_route_ignores_an_unknown_field_too(raw: httpx.Client, server: LocalServer) -> None:
    body = {
        "tenant_id": server.tenant_id,
        "user_id": "alice",
        "prompt": "where does the user live",
        "rerank": True,
    }
    answer = raw.post("/v1/memory/recall", json=body)
    assert answer.status_code == 200
    assert answer.headers[IGNORED_HEADER] == "rerank"
    assert set(answer.json()) == {"context", "memories"}


def test_a_request_with_only_known_fields_carries_no_header(raw: httpx.Client) -> None:
    answer = raw.post("/memory/add", json={"text": "I live in York", "tags": ["home"]})
    assert answer.status_code == 200
    assert IGNORED_HEADER not in answer.headers


def test_unknown_fields_never_loosen_validation_of_known_ones(raw: httpx.Client) -> None:
    answer = raw.post("/memory/add", json={"text": "I live in York", "importance": 7, "tgas": []})
    assert answer.status_code == 422
    assert "importance" in str(answer.json()["detail"])


def test_a_known_field_that_is_not_editable_is_refused_not_ignored(raw: httpx.Client) -> None:
    stored = raw.post("/memory/add", json={"text": "I live in Leeds"}).json()
    answer = raw.patch(f"/memory/{stored['id']}", json={"text": "I live in York", "tags": ["home"]})
    assert answer.status_code == 422
    [problem] = answer.json()["detail"]
    assert problem["loc"] == ["body", "text"]
    assert "not editable" in problem["msg"]
    assert raw.get(f"/memory/{stored['id']}").json()["text"] == "User lives in Leeds"
