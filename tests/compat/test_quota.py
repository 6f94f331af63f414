"""Over a key's plan, the SDK sees the hosted service's silent mode (writes answer normally and store
nothing, reads come back empty) and, for evaluation keys, a strict 429 it raises as RateLimitError."""

from __future__ import annotations

import memorysync
import pytest
from memorysync import BulkAddItem

from memorysync_server import LocalServer, Quota
from tests.compat.driver import Sdk, SdkFactory


@pytest.fixture
def seeded(sdk: Sdk) -> dict[str, object]:
    """Data written with the unlimited key, for the over-quota key of the same tenant to read."""
    t = sdk.tenant_id
    memory = sdk.add("I am allergic to peanuts", tags=["health"])
    assert isinstance(memory, memorysync.Memory)
    sdk.append_history(
        tenant_id=t, user_id="alice", session_id="s-1", turns=[{"role": "user", "content": "hello"}]
    )
    sdk.put_state(tenant_id=t, user_id="alice", namespace=["ns"], key="k", value={"v": 1})
    return {"memory": memory}


@pytest.fixture
def over_quota(server: LocalServer, sdk_factory: SdkFactory) -> Sdk:
    key = server.add_key("ms_test_spent", quota=Quota(adds=0, reads=0))
    return sdk_factory.client("alice", api_key=key)


def test_writes_over_quota_answer_normally_and_store_nothing(over_quota: Sdk, sdk: Sdk) -> None:
    t = sdk.tenant_id
    turn = over_quota.add_turn(tenant_id=t, user_id="alice", text="I live in Leeds")
    assert (turn["processing_status"], turn["status"], turn["request_id"]) == ("skipped", "ok", None)

    added = over_quota.add("I live in Leeds")
    assert isinstance(added, memorysync.AddSkippedResponse)
    assert (added.reason, added.memory_ids) == ("quota_exhausted", [])

    bulk = over_quota.bulk_add([BulkAddItem(text="I live in York"), BulkAddItem(text="I have a cat")])
    assert (bulk.created, bulk.results, bulk.unreported) == (0, [], 2)

    put = over_quota.put_state(tenant_id=t, user_id="alice", namespace=["ns"], key="k2", value={"v": 2})
    assert (put["status"], put["created"]) == ("skipped", False)
    appended = over_quota.append_history(
        tenant_id=t, user_id="alice", session_id="s-2", turns=[{"role": "user", "content": "I live in Leeds"}]
    )
    assert appended == {"items": [], "request_ids": [], "status": "skipped"}

    # Nothing of it reached storage.
    assert sdk.list_memories(tenant_id=t, user_id="alice") == {"memories": [], "total": 0}
    assert sdk.list_state(tenant_id=t, user_id="alice") == {"items": [], "total": 0}
    assert sdk.list_history(tenant_id=t, user_id="alice", session_id="s-2") == {"items": [], "total": 0}


def test_reads_over_quota_come_back_empty(over_quota: Sdk, sdk: Sdk, seeded: dict[str, object]) -> None:
    t = sdk.tenant_id
    assert over_quota.recall(tenant_id=t, user_id="alice", prompt="what is the user allergic to") == {
        "context": "",
        "memories": [],
    }
    assert over_quota.query("what is the user allergic to").memories == []
    assert over_quota.retrieve("what is the user allergic to").memories == []
    assert over_quota.list_memories(tenant_id=t, user_id="alice")["memories"] == []
    assert over_quota.export_all().memories == []
    assert over_quota.list_history(tenant_id=t, user_id="alice", session_id="s-1")["items"] == []
    assert over_quota.get_state(tenant_id=t, user_id="alice", namespace=["ns"], key="k") == {"item": None}
    assert over_quota.list_state(tenant_id=t, user_id="alice")["items"] == []
    assert over_quota.search_state(tenant_id=t, user_id="alice", query="v")["items"] == []
    assert over_quota.list_state_namespaces(tenant_id=t, user_id="alice")["namespaces"] == []
    # The unlimited key still sees everything.
    assert sdk.list_memories(tenant_id=t, user_id="alice")["total"] == 1


def test_unbilled_calls_still_work_over_quota(over_quota: Sdk, sdk: Sdk, seeded: dict[str, object]) -> None:
    memory = seeded["memory"]
    assert isinstance(memory, memorysync.Memory)
    feedback = over_quota.feedback(memory.id, "positive")
    assert feedback.importance_after > feedback.importance_before
    assert over_quota.delete_state(tenant_id=sdk.tenant_id, user_id="alice", namespace=["ns"])["deleted_ids"]
    assert over_quota.forget([memory.id]) == [memory.id]
    assert sdk.list_memories(tenant_id=sdk.tenant_id, user_id="alice")["total"] == 0


def test_an_evaluation_key_over_quota_gets_the_sdks_rate_limit_error(
    server: LocalServer, sdk_factory: SdkFactory
) -> None:
    key = server.add_key(
        "ms_eval_spent", "default", evaluation=True, quota=Quota(adds=0, reads=0, strict=True)
    )
    spent = sdk_factory.client("alice", api_key=key)
    calls = {
        "add": lambda: spent.add("I live in Leeds"),
        "bulk_add": lambda: spent.bulk_add([BulkAddItem(text="I live in York")]),
        "query": lambda: spent.query("where"),
        "recall": lambda: spent.recall(
            tenant_id="default", user_id="alice", prompt="where does the user live"
        ),
        "add_turn": lambda: spent.add_turn(tenant_id="default", user_id="alice", text="I live in Leeds"),
    }
    for name, call in calls.items():
        with pytest.raises(memorysync.RateLimitError) as caught:
            call()
        assert caught.value.status_code == 429, name
        # The SDK can't read the nested limit_exceeded detail (survey 1.6): its own words, no retry hint.
        assert (str(caught.value), caught.value.retry_after_seconds) == ("Rate limited", 0.0), name
        assert caught.value.response["detail"]["error"] == "limit_exceeded", name
