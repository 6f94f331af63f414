"""The SDK's conversation-memory calls (add_turn, recall, list_memories) against the local server."""

from __future__ import annotations

import re

import memorysync
import pytest

from tests.compat.driver import Sdk
from tests.support.blocks import undated


def test_a_turn_becomes_facts_that_list_and_recall_return(sdk: Sdk) -> None:
    t = sdk.tenant_id
    sent = sdk.add_turn(
        tenant_id=t,
        user_id="alice",
        text="Remember that I'm allergic to penicillin",
        speaker="human@sdk::chat-1#h1",
        session_id="chat-1",
        metadata={"channel": "web", "nested": {"dropped": True}},
    )
    assert sent["memory_id"] is None
    assert sent["already_exists"] is False
    assert sent["request_id"].startswith("req_")
    assert sent["processing_status"] in ("distilling", "completed")

    listed = sdk.list_memories(tenant_id=t, user_id="alice")
    assert listed["total"] == 1
    [fact] = listed["memories"]
    assert fact["text"] == "User is allergic to penicillin"
    assert fact["memory_id"].startswith("m_")
    assert fact["source"] == "chat"  # the SDK's default source
    # The SDK folds session_id= into metadata; scalars reach the fact, objects and reserved keys don't.
    # The server adds when it was said.
    said = fact["metadata"].pop("occurred_at")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", said)
    assert fact["metadata"] == {
        "channel": "web",
        "session_id": "chat-1",
        "write_origin": "turn-extraction",
        "turn_role": "user",
    }

    recalled = sdk.recall(tenant_id=t, user_id="alice", prompt="Which medicines must the user avoid?", k=3)
    assert undated(recalled["context"]).splitlines() == ["- User is allergic to penicillin"]
    assert [m["memory_id"] for m in recalled["memories"]] == [fact["memory_id"]]
    assert recalled["memories"][0]["text"] == fact["text"]
    assert recalled["memories"][0]["score"] > 0


def test_the_pipeline_outcomes_come_back_as_the_sdk_documents_them(sdk: Sdk) -> None:
    t = sdk.tenant_id
    turn = {
        "tenant_id": t,
        "user_id": "alice",
        "speaker": "human@sdk::s#h2",
        "occurred_at": "2026-11-30T08:00:00Z",
    }
    first = sdk.add_turn(text="My husband and I live in Leeds", **turn)
    assert first["already_exists"] is False

    replay = sdk.add_turn(text="My husband and I live in Leeds", **turn)
    assert replay["already_exists"] is True
    assert replay["processing_status"] == "skipped_replay"

    assistant = sdk.add_turn(tenant_id=t, user_id="alice", text="You live in Leeds, noted.", role="assistant")
    assert assistant["processing_status"] == "skipped_non_user_turn"
    prefixed = sdk.add_turn(tenant_id=t, user_id="alice", text="assistant: I also live in Paris")
    assert prefixed["processing_status"] == "skipped_non_user_turn"
    filler = sdk.add_turn(tenant_id=t, user_id="alice", text="ok thanks")
    assert filler["processing_status"] == "skipped_low_value"
    assert filler["status"] == "ok"

    texts = [m["text"] for m in sdk.list_memories(tenant_id=t, user_id="alice")["memories"]]
    assert texts == ["User and their husband live in Leeds"]


def test_the_sdk_refuses_what_the_route_cannot_take_before_sending(sdk: Sdk) -> None:
    before = len(sdk.log)
    with pytest.raises(memorysync.ValidationError):
        sdk.add_turn(tenant_id=sdk.tenant_id, user_id="alice", messages=[{"role": "user", "content": "hi"}])
    with pytest.raises(memorysync.ValidationError):
        sdk.add_turn(tenant_id=sdk.tenant_id, user_id="alice", text="   ")
    assert len(sdk.log) == before


def test_list_pages_newest_first_and_never_shows_another_users_facts(sdk: Sdk) -> None:
    t = sdk.tenant_id
    for text in ("I work as a nurse", "I have a dog called Biscuit", "I speak French fluently"):
        sdk.add_turn(tenant_id=t, user_id="alice", text=text)
    sdk.add_turn(tenant_id=t, user_id="bob", text="I have a cat called Miso")

    everything = sdk.list_memories(tenant_id=t, user_id="alice")
    assert everything["total"] == 3
    assert [m["text"] for m in everything["memories"]] == [
        "User speaks French fluently",
        "User has a dog called Biscuit",
        "User works as a nurse",
    ]
    page = sdk.list_memories(tenant_id=t, user_id="alice", limit=1, offset=1)
    assert page["total"] == 3
    assert [m["memory_id"] for m in page["memories"]] == [everything["memories"][1]["memory_id"]]

    bob = sdk.list_memories(tenant_id=t, user_id="bob")
    assert [m["text"] for m in bob["memories"]] == ["User has a cat called Miso"]
    recalled = sdk.recall(tenant_id=t, user_id="bob", prompt="Does the user have a dog called Biscuit?")
    assert "Biscuit" not in recalled["context"]
    assert {m["memory_id"] for m in recalled["memories"]} <= {m["memory_id"] for m in bob["memories"]}


def test_a_tenant_the_key_does_not_own_is_refused_with_the_sdks_auth_error(sdk: Sdk) -> None:
    with pytest.raises(memorysync.AuthError) as caught:
        sdk.list_memories(tenant_id="someone-else", user_id="alice")
    assert caught.value.status_code == 403


def test_recall_types_narrow_to_event_types_and_unknown_names_are_dropped(sdk: Sdk) -> None:
    t = sdk.tenant_id
    sdk.add_turn(tenant_id=t, user_id="alice", text="I drink green tea every morning")
    liked = sdk.add("I prefer window seats on long flights")
    assert not isinstance(liked, memorysync.AddSkippedResponse)
    sdk.update(liked.id, event_type="preference")
    prompt = "What does the user like to drink and where does the user like to sit?"

    everything = sdk.recall(tenant_id=t, user_id="alice", prompt=prompt, k=5)
    assert len(everything["memories"]) == 2
    narrowed = sdk.recall(tenant_id=t, user_id="alice", prompt=prompt, k=5, types=["preference"])
    assert [m["memory_id"] for m in narrowed["memories"]] == [f"m_{liked.id}"]
    assert undated(narrowed["context"]) == "- User prefers window seats on long flights"

    with_typo = sdk.recall(
        tenant_id=t, user_id="alice", prompt=prompt, k=5, types=["preference", "prefrence"]
    )
    assert with_typo["memories"] == narrowed["memories"]
    assert (
        sdk.exchanges("/v1/memory/recall")[-1].response_headers["x-memorysync-dropped-types"] == "prefrence"
    )
    # Only unknown names: nothing is left to narrow by, so every type comes back.
    unknown = sdk.recall(tenant_id=t, user_id="alice", prompt=prompt, k=5, types=["nonsense"])
    assert len(unknown["memories"]) == 2
