"""The SDK's session-transcript calls (append_history, list_history, delete_history)."""

from __future__ import annotations

from tests.compat.driver import Sdk


def _append(sdk: Sdk, session: str = "s-1", **extra: object) -> dict:
    return sdk.append_history(
        tenant_id=sdk.tenant_id,
        user_id="alice",
        session_id=session,
        source="sdk-tests",
        turns=[
            {"role": "Human", "content": "My husband and I live in Leeds", "seq": 0},
            {"role": "ai", "content": "Leeds is lovely.", "seq": 1, "payload": {"tool_calls": [], "n": 1}},
            {"role": "planner", "content": "step 1: look it up", "seq": 2, "idempotency_key": "plan-1"},
        ],
        **extra,
    )


def test_append_then_list_gives_back_the_transcript_as_sent(sdk: Sdk) -> None:
    appended = _append(sdk, metadata={"channel": "web"})
    assert appended["status"] == "ok"
    items = appended["items"]
    assert [(i["role"], i["content"], i["seq"]) for i in items] == [
        ("user", "My husband and I live in Leeds", 0),
        ("assistant", "Leeds is lovely.", 1),
        ("planner", "step 1: look it up", 2),
    ]
    assert all(i["id"].startswith("h_") and i["created"] is True for i in items)
    assert all(i["session_id"] == "s-1" and i["source"] == "sdk-tests" for i in items)
    assert items[1]["payload"] == {"tool_calls": [], "n": 1}

    listed = sdk.list_history(tenant_id=sdk.tenant_id, user_id="alice", session_id="s-1")
    assert listed["total"] == 3
    assert [i["id"] for i in listed["items"]] == [i["id"] for i in items]
    assert listed["items"][1]["payload"] == {"tool_calls": [], "n": 1}
    # The source filter scopes rows; no source means every source.
    other = sdk.list_history(tenant_id=sdk.tenant_id, user_id="alice", session_id="s-1", source="elsewhere")
    assert other == {"items": [], "total": 0}

    # The user turn went through extraction: a fact carrying the session, and no transcript row in memory.
    facts = sdk.list_memories(tenant_id=sdk.tenant_id, user_id="alice")["memories"]
    assert [f["text"] for f in facts] == ["User and their husband live in Leeds"]
    assert facts[0]["metadata"]["session_id"] == "s-1"
    assert facts[0]["metadata"]["channel"] == "web"


def test_a_limit_reads_the_latest_turns_oldest_first(sdk: Sdk) -> None:
    _append(sdk)
    latest = sdk.list_history(tenant_id=sdk.tenant_id, user_id="alice", session_id="s-1", limit=2)
    assert [i["seq"] for i in latest["items"]] == [1, 2]
    assert latest["total"] == 3


def test_a_turn_with_empty_content_is_stored_as_given(sdk: Sdk) -> None:
    appended = sdk.append_history(
        tenant_id=sdk.tenant_id,
        user_id="alice",
        session_id="s-2",
        turns=[
            {"role": "assistant", "content": "", "payload": {"tool_calls": [{"name": "lookup"}]}},
            {"role": "user", "content": ""},
        ],
    )
    assert [(t["role"], t["content"], t["created"]) for t in appended["items"]] == [
        ("assistant", "", True),
        ("user", "", True),
    ]
    listed = sdk.list_history(tenant_id=sdk.tenant_id, user_id="alice", session_id="s-2")
    assert [(i["content"], i["payload"]) for i in listed["items"]] == [
        ("", {"tool_calls": [{"name": "lookup"}]}),
        ("", None),
    ]
    # An empty user turn is kept in the transcript but gives no memory.
    assert sdk.list_memories(tenant_id=sdk.tenant_id, user_id="alice")["total"] == 0


def test_a_retried_append_stores_nothing_twice(sdk: Sdk) -> None:
    first = _append(sdk)
    again = _append(sdk)
    assert [i["id"] for i in again["items"]] == [i["id"] for i in first["items"]]
    assert [i["created"] for i in again["items"]] == [False, False, False]
    assert sdk.list_history(tenant_id=sdk.tenant_id, user_id="alice", session_id="s-1")["total"] == 3
    assert sdk.list_memories(tenant_id=sdk.tenant_id, user_id="alice")["total"] == 1


def test_without_extraction_no_fact_is_made(sdk: Sdk) -> None:
    _append(sdk, extract=False)
    assert sdk.list_memories(tenant_id=sdk.tenant_id, user_id="alice")["total"] == 0


def test_delete_by_string_ids_then_by_session_with_derived_facts(sdk: Sdk) -> None:
    t = sdk.tenant_id
    items = _append(sdk)["items"]
    [fact] = sdk.list_memories(tenant_id=t, user_id="alice")["memories"]

    gone = sdk.delete_history(tenant_id=t, user_id="alice", ids=[items[2]["id"], "h_999999"])
    assert gone == {"deleted_ids": [items[2]["id"]], "deleted_fact_ids": []}
    assert sdk.list_history(tenant_id=t, user_id="alice", session_id="s-1")["total"] == 2

    session = sdk.delete_history(tenant_id=t, user_id="alice", session_id="s-1", delete_derived_facts=True)
    assert sorted(session["deleted_ids"]) == sorted(i["id"] for i in items[:2])
    assert session["deleted_fact_ids"] == [fact["memory_id"]]
    assert sdk.list_memories(tenant_id=t, user_id="alice")["total"] == 0
    assert sdk.list_history(tenant_id=t, user_id="alice", session_id="s-1")["total"] == 0


def test_another_user_neither_sees_nor_deletes_the_transcript(sdk: Sdk) -> None:
    t = sdk.tenant_id
    items = _append(sdk)["items"]
    assert sdk.list_history(tenant_id=t, user_id="bob", session_id="s-1") == {"items": [], "total": 0}
    assert sdk.delete_history(tenant_id=t, user_id="bob", ids=[i["id"] for i in items])["deleted_ids"] == []
    assert sdk.delete_history(tenant_id=t, user_id="bob", session_id="s-1")["deleted_ids"] == []
    assert sdk.list_history(tenant_id=t, user_id="alice", session_id="s-1")["total"] == 3


def test_delete_takes_integer_ids_as_the_sdk_allows(sdk: Sdk) -> None:
    items = _append(sdk)["items"]
    numbers = [int(i["id"].removeprefix("h_")) for i in items[:2]]
    gone = sdk.delete_history(
        tenant_id=sdk.tenant_id, user_id="alice", ids=[numbers[0], items[1]["id"], 999999]
    )
    assert sorted(gone["deleted_ids"]) == sorted(i["id"] for i in items[:2])
    left = sdk.list_history(tenant_id=sdk.tenant_id, user_id="alice", session_id="s-1")
    assert [i["id"] for i in left["items"]] == [items[2]["id"]]
