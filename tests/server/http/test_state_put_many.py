"""``/v1/state/put_many``: several ``/v1/state/put`` bodies in one call, each answered as its put
would be, in order, stored in one unit of work. Over real HTTP, on both engines."""

from __future__ import annotations

from typing import Any

import pytest

from memorysync_server import LocalServer
from memorysync_server.http.quota import Quota

from ..api import Api

PATH = "/v1/state/put_many"


def item(api: Api, key: str, text: str, user: str = "u", **body: Any) -> dict[str, Any]:
    return {
        "tenant_id": api.tenant,
        "user_id": user,
        "namespace": ["agno"],
        "key": key,
        "value": {"memory": text},
        "text": text,
        "source": "agno",
        "as_fact": True,
        "replace_derived_facts": True,
        **body,
    }


def states(api: Api, user: str = "u") -> dict[str, str]:
    listed = api.v1("/v1/state/list", user, source="agno", limit=500)["items"]
    return {row["key"]: row["text"] for row in listed}


def test_each_item_is_answered_as_its_put_in_order_and_is_a_fact(api: Api) -> None:
    texts = ["Prefers morning meetings", "Lives in Porto", "Is allergic to peanuts"]
    answer = api.post(PATH, {"items": [item(api, f"k{i}", t) for i, t in enumerate(texts)]})
    assert [(a["item"]["key"], a["created"], a["status"]) for a in answer["items"]] == [
        ("k0", True, "ok"),
        ("k1", True, "ok"),
        ("k2", True, "ok"),
    ]
    assert states(api) == {"k0": texts[0], "k1": texts[1], "k2": texts[2]}
    assert sorted(api.texts("u")) == sorted(texts)
    # Each record's vector is its own: a search for one text finds that record first.
    for i, text in enumerate(texts):
        found = api.v1("/v1/state/search", "u", source="agno", query=text, limit=1)["items"]
        assert found[0]["key"] == f"k{i}", (text, found)


def test_an_identical_record_is_not_written_and_a_changed_one_replaces_its_fact(api: Api) -> None:
    first = api.post(PATH, {"items": [item(api, "a", "Lives in Porto"), item(api, "b", "Is vegan")]})
    again = api.post(PATH, {"items": [item(api, "a", "Lives in Lisbon"), item(api, "b", "Is vegan")]})
    changed, same = again["items"]
    assert changed["created"] is False and len(changed["deleted_fact_ids"]) == 1
    assert same["created"] is False and same["item"] == first["items"][1]["item"]  # untouched
    assert sorted(api.texts("u")) == ["Is vegan", "Lives in Lisbon"]


def test_items_may_name_several_users_of_the_tenant(api: Api) -> None:
    api.post(
        PATH, {"items": [item(api, "a", "Plays the cello", user="ana"), item(api, "a", "Runs", user="bo")]}
    )
    assert states(api, "ana") == {"a": "Plays the cello"} and states(api, "bo") == {"a": "Runs"}


def test_a_record_named_twice_is_written_in_order(api: Api) -> None:
    answer = api.post(PATH, {"items": [item(api, "a", "Lives in Porto"), item(api, "a", "Lives in Lisbon")]})
    assert [a["created"] for a in answer["items"]] == [True, False]
    assert states(api) == {"a": "Lives in Lisbon"} and api.texts("u") == ["Lives in Lisbon"]


def test_an_item_of_another_tenant_is_refused_and_nothing_is_stored(api: Api) -> None:
    body = {"items": [item(api, "a", "Lives in Porto"), {**item(api, "b", "Is vegan"), "tenant_id": "other"}]}
    refused = api.post(PATH, body, expect=403)
    assert refused["detail"].startswith("items[1]: ") and "GET /org/projects" in refused["detail"]
    assert states(api) == {} and api.texts("u") == []


@pytest.mark.parametrize(
    ("items", "says"),
    [(0, "must not be an empty list"), (101, "at most 100 items")],
)
def test_an_empty_or_oversized_batch_is_a_422_that_says_the_limit(api: Api, items: int, says: str) -> None:
    refused = api.post(PATH, {"items": [item(api, f"k{i}", "Is vegan") for i in range(items)]}, expect=422)
    assert says in str(refused["detail"])
    assert states(api) == {}


def test_past_the_plans_quota_the_rest_is_skipped_and_not_stored(server: LocalServer) -> None:
    server.add_key("ms_test_two_adds", quota=Quota(adds=2))
    api = Api(server, key="ms_test_two_adds")
    answer = api.post(PATH, {"items": [item(api, f"k{i}", f"Fact number {i}") for i in range(4)]})
    assert [a["status"] for a in answer["items"]] == ["ok", "ok", "skipped", "skipped"]
    assert answer["items"][2]["item"]["id"] == "h_0"  # no row behind it
    assert states(Api(server)) == {"k0": "Fact number 0", "k1": "Fact number 1"}
    api.close()


def test_a_call_whose_texts_add_up_past_the_cap_is_a_422_and_stores_nothing(api: Api) -> None:
    long = "I keep bees in the back garden and sell the honey at the market. " * 240  # ~15,600
    body = {"items": [item(api, f"k{i}", long[: 15_000 + i]) for i in range(3)]}  # 45,003 in all
    refused = api.post(PATH, body, expect=422)
    assert "45,003 characters" in refused["detail"] and "at most 32,000" in refused["detail"]
    assert states(api) == {}
    api.post(PATH, {"items": body["items"][:2]})  # 30,001: one call takes it
    assert set(states(api)) == {"k0", "k1"}


def test_the_cap_is_the_one_openapi_yaml_states() -> None:
    from memorysync_server.http.routes.state import MAX_TOTAL_TEXT_CHARS
    from memorysync_server.http.spec import load_spec

    schema = load_spec().document["components"]["schemas"]["PutStateManyRequest"]
    assert schema["x-max-total-text-chars"] == MAX_TOTAL_TEXT_CHARS
