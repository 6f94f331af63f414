"""The SDK's framework-state calls (put/get/list/search/delete_state, list_state_namespaces)."""

from __future__ import annotations

import pytest

from tests.compat.driver import Sdk


def _put(sdk: Sdk, namespace: list[str], key: str, value: dict, **extra: object) -> dict:
    return sdk.put_state(
        tenant_id=sdk.tenant_id, user_id="alice", namespace=namespace, key=key, value=value, **extra
    )


def test_put_get_replace_and_identical_put(sdk: Sdk) -> None:
    t = sdk.tenant_id
    first = _put(sdk, ["agents", "planner"], "prefs", {"tone": "brief"}, text="Prefers brief answers")
    assert first["status"] == "ok"
    assert first["created"] is True
    item = first["item"]
    assert item["id"].startswith("h_")
    assert (item["namespace"], item["key"], item["value"], item["text"], item["source"]) == (
        ["agents", "planner"],
        "prefs",
        {"tone": "brief"},
        "Prefers brief answers",
        "api",
    )

    same = _put(sdk, ["agents", "planner"], "prefs", {"tone": "brief"}, text="Prefers brief answers")
    assert same["created"] is False
    assert same["item"]["id"] == item["id"]

    replaced = _put(sdk, ["agents", "planner"], "prefs", {"tone": "detailed"})
    assert replaced["item"]["value"] == {"tone": "detailed"}
    assert replaced["item"]["text"] == '{"tone": "detailed"}'  # no text: the value's JSON

    got = sdk.get_state(tenant_id=t, user_id="alice", namespace=["agents", "planner"], key="prefs")
    assert got["item"]["value"] == {"tone": "detailed"}
    assert got["item"]["created_at"] == item["created_at"]
    assert got["item"]["updated_at"] >= item["updated_at"]
    assert sdk.get_state(tenant_id=t, user_id="alice", namespace=["agents", "planner"], key="nope") == {
        "item": None
    }
    # Rows are scoped by source, and by user.
    assert sdk.get_state(
        tenant_id=t, user_id="alice", namespace=["agents", "planner"], key="prefs", source="agno"
    ) == {"item": None}
    assert sdk.get_state(tenant_id=t, user_id="bob", namespace=["agents", "planner"], key="prefs") == {
        "item": None
    }


def test_list_by_prefix_newest_first_with_pages(sdk: Sdk) -> None:
    t = sdk.tenant_id
    _put(sdk, ["agno"], "m1", {"memory": "one"})
    _put(sdk, ["agno", "team"], "m2", {"memory": "two"})
    _put(sdk, ["agnostic"], "m3", {"memory": "three"})
    _put(sdk, ["agno"], "m4", {"memory": "four"}, source="agno")

    agno = sdk.list_state(tenant_id=t, user_id="alice", namespace_prefix=["agno"])
    assert agno["total"] == 2  # segment by segment: ["agnostic"] is not under ["agno"]; m4 is another source
    assert [i["key"] for i in agno["items"]] == ["m2", "m1"]

    everything = sdk.list_state(tenant_id=t, user_id="alice")
    assert [i["key"] for i in everything["items"]] == ["m3", "m2", "m1"]
    page = sdk.list_state(tenant_id=t, user_id="alice", limit=1, offset=1)
    assert (page["total"], [i["key"] for i in page["items"]]) == (3, ["m2"])

    other_source = sdk.list_state(tenant_id=t, user_id="alice", source="agno")
    assert [i["key"] for i in other_source["items"]] == ["m4"]
    assert sdk.list_state(tenant_id=t, user_id="bob") == {"items": [], "total": 0}


def test_search_ranks_by_meaning(sdk: Sdk) -> None:
    t = sdk.tenant_id
    _put(sdk, ["notes"], "diet", {"v": 1}, text="The user is vegetarian and avoids meat")
    _put(sdk, ["notes"], "city", {"v": 2}, text="The user lives in Lisbon near the river")
    _put(sdk, ["other"], "food", {"v": 3}, text="The user eats no meat at all")

    found = sdk.search_state(
        tenant_id=t, user_id="alice", query="what food does the user eat", namespace_prefix=["notes"]
    )
    keys = [i["key"] for i in found["items"]]
    assert keys[0] == "diet"
    assert "food" not in keys
    scores = [i["score"] for i in found["items"]]
    assert scores == sorted(scores, reverse=True)
    assert found["total"] == len(found["items"])
    top = sdk.search_state(tenant_id=t, user_id="alice", query="meat", limit=1)
    assert len(top["items"]) == 1
    assert sdk.search_state(tenant_id=t, user_id="bob", query="meat") == {"items": [], "total": 0}


def test_delete_keys_whole_namespace_and_nothing(sdk: Sdk) -> None:
    t = sdk.tenant_id
    a = _put(sdk, ["ns"], "a", {"v": 1})["item"]
    b = _put(sdk, ["ns"], "b", {"v": 2})["item"]
    kept = _put(sdk, ["ns", "child"], "c", {"v": 3})["item"]

    assert sdk.delete_state(tenant_id=t, user_id="bob", namespace=["ns"]) == {
        "deleted_ids": [],
        "deleted_fact_ids": [],
    }
    assert sdk.delete_state(tenant_id=t, user_id="alice", namespace=["ns"], keys=[]) == {
        "deleted_ids": [],
        "deleted_fact_ids": [],
    }
    one = sdk.delete_state(tenant_id=t, user_id="alice", namespace=["ns"], keys=["a", "missing"])
    assert one == {"deleted_ids": [a["id"]], "deleted_fact_ids": []}
    rest = sdk.delete_state(tenant_id=t, user_id="alice", namespace=["ns"])  # keys omitted: whole namespace
    assert rest["deleted_ids"] == [b["id"]]
    left = sdk.list_state(tenant_id=t, user_id="alice")
    assert [i["id"] for i in left["items"]] == [kept["id"]]


def test_extracted_facts_follow_the_value_they_came_from(sdk: Sdk) -> None:
    t = sdk.tenant_id
    put = _put(
        sdk,
        ["agno"],
        "m1",
        {"memory": "x"},
        text="I am allergic to peanuts",
        extract=True,
        metadata={"agent_id": "a1"},
    )
    assert put["deleted_fact_ids"] == []
    [fact] = sdk.list_memories(tenant_id=t, user_id="alice")["memories"]
    assert fact["text"] == "User is allergic to peanuts"
    assert fact["metadata"]["agent_id"] == "a1"

    replaced = _put(
        sdk,
        ["agno"],
        "m1",
        {"memory": "y"},
        text="I am allergic to shellfish",
        extract=True,
        replace_derived_facts=True,
    )
    assert replaced["deleted_fact_ids"] == [fact["memory_id"]]
    [newer] = sdk.list_memories(tenant_id=t, user_id="alice")["memories"]
    assert newer["text"] == "User is allergic to shellfish"

    gone = sdk.delete_state(
        tenant_id=t, user_id="alice", namespace=["agno"], keys=["m1"], delete_derived_facts=True
    )
    assert gone["deleted_fact_ids"] == [newer["memory_id"]]
    assert sdk.list_memories(tenant_id=t, user_id="alice")["total"] == 0


@pytest.mark.parametrize("prefix", [[], None])
def test_an_empty_or_absent_prefix_lists_every_namespace(sdk: Sdk, prefix: list[str] | None) -> None:
    _put(sdk, ["a"], "k1", {"v": 1})
    _put(sdk, ["b", "c"], "k2", {"v": 2})
    listed = sdk.list_state(tenant_id=sdk.tenant_id, user_id="alice", namespace_prefix=prefix)
    assert (listed["total"], sorted(i["key"] for i in listed["items"])) == (2, ["k1", "k2"])


def test_namespaces_lists_cuts_and_pages(sdk: Sdk) -> None:
    t = sdk.tenant_id
    _put(sdk, ["agno"], "k", {"v": 1})
    _put(sdk, ["agno", "team", "x"], "k", {"v": 1})
    _put(sdk, ["agno", "team", "y"], "k", {"v": 1})
    _put(sdk, ["zeta"], "k", {"v": 1})
    _put(sdk, ["other-source"], "k", {"v": 1}, source="agno")
    sdk.put_state(tenant_id=t, user_id="bob", namespace=["bobs"], key="k", value={"v": 1})

    every = sdk.list_state_namespaces(tenant_id=t, user_id="alice")["namespaces"]
    assert sorted(every) == [["agno"], ["agno", "team", "x"], ["agno", "team", "y"], ["zeta"]]
    under = sdk.list_state_namespaces(tenant_id=t, user_id="alice", prefix=["agno", "team"])["namespaces"]
    assert sorted(under) == [["agno", "team", "x"], ["agno", "team", "y"]]
    cut = sdk.list_state_namespaces(tenant_id=t, user_id="alice", prefix=["agno"], max_depth=2)["namespaces"]
    assert sorted(cut) == [["agno"], ["agno", "team"]]
    assert sdk.list_state_namespaces(tenant_id=t, user_id="alice", source="agno")["namespaces"] == [
        ["other-source"]
    ]
    first = sdk.list_state_namespaces(tenant_id=t, user_id="alice", limit=2)["namespaces"]
    rest = sdk.list_state_namespaces(tenant_id=t, user_id="alice", limit=2, offset=2)["namespaces"]
    assert len(first) == 2
    assert sorted(first + rest) == sorted(every)
    assert sdk.list_state_namespaces(tenant_id=t, user_id="bob")["namespaces"] == [["bobs"]]
