"""The SDK's legacy memory calls (/memory/* and the v1 status route), scoped by ``X-End-User-ID``."""

from __future__ import annotations

import memorysync
import pytest
from memorysync import BulkAddItem

from tests.compat.driver import Sdk, SdkFactory
from tests.support.blocks import undated


def _add(sdk: Sdk, text: str, **fields: object) -> memorysync.Memory:
    stored = sdk.add(text, **fields)
    assert isinstance(stored, memorysync.Memory), stored
    return stored


def test_add_stores_what_the_sdk_sent_and_get_reads_it_back(sdk: Sdk) -> None:
    stored = _add(
        sdk,
        "Remember that I'm allergic to penicillin",
        source="sdk-tests",
        tags=["health", "allergy"],
        importance=0.8,
        session_id="s-1",
        metadata={"channel": "web"},
    )
    assert stored.id > 0
    assert stored.text == "User is allergic to penicillin"
    assert (stored.source, stored.tags, stored.importance) == ("sdk-tests", ["health", "allergy"], 0.8)
    assert stored.metadata is not None
    assert (stored.metadata["channel"], stored.metadata["session_id"]) == ("web", "s-1")
    assert stored.created_at

    got = sdk.get(stored.id)
    assert got == stored
    # The same fact through the v1 view of the same end user.
    listed = sdk.list_memories(tenant_id=sdk.tenant_id, user_id="alice")["memories"]
    assert [m["memory_id"] for m in listed] == [f"m_{stored.id}"]

    status = sdk.status(stored.id)
    assert str(status["memory_id"]).removeprefix("m_") == str(stored.id)
    assert status["searchable"] is True
    assert status["processing_status"] == "completed"


def test_a_resent_client_ref_and_an_empty_candidate_are_skips(sdk: Sdk) -> None:
    first = _add(sdk, "I work as a translator in Porto", client_ref="crm-42")
    again = sdk.add("I work as a translator in Porto", client_ref="crm-42")
    assert isinstance(again, memorysync.AddSkippedResponse)
    assert (again.status, again.reason, again.memory_ids) == ("skipped", "already_ingested", [first.id])

    nothing = sdk.add("ok thanks")
    assert isinstance(nothing, memorysync.AddSkippedResponse)
    assert (nothing.reason, nothing.memory_ids) == ("no_high_value_content", [])
    assert sdk.list_memories(tenant_id=sdk.tenant_id, user_id="alice")["total"] == 1


def test_end_users_never_see_each_others_memories(sdk: Sdk) -> None:
    bob = sdk.as_user("bob")
    mine = _add(sdk, "I have a dog called Biscuit")
    # end_user_id= on one call acts for that user (header and body both say bob).
    theirs = _add(sdk, "I have a cat called Miso", end_user_id="bob")

    assert bob.get(theirs.id).text == "User has a cat called Miso"
    for reader, hidden in ((sdk, theirs.id), (bob, mine.id)):
        attempts = {
            "get": lambda r=reader, h=hidden: r.get(h),
            "status": lambda r=reader, h=hidden: r.status(h),
            "update": lambda r=reader, h=hidden: r.update(h, tags=["stolen"]),
            "history": lambda r=reader, h=hidden: r.history(h),
            "feedback": lambda r=reader, h=hidden: r.feedback(h, "negative"),
        }
        for name, attempt in attempts.items():
            with pytest.raises(memorysync.NotFoundError) as caught:
                attempt()
            assert caught.value.status_code == 404, name
            # The server's own answer, not a missing route: it names the memory and says nothing more.
            assert f"memory {hidden} is not visible to the caller" in str(caught.value), name
    assert [m.id for m in sdk.query("pet", k=10).memories] == [mine.id]
    assert [m.id for m in bob.query("pet", k=10).memories] == [theirs.id]
    assert bob.forget([mine.id]) == []
    assert sdk.get(mine.id).text == "User has a dog called Biscuit"
    assert [m["id"] for m in bob.export_all().memories] == [theirs.id]


def test_update_history_and_supersede_are_recorded_as_revisions(sdk: Sdk) -> None:
    oslo = _add(sdk, "I live in Oslo", tags=["home"], importance=0.5)
    updated = sdk.update(
        oslo.id, tags=["home", "city"], importance=0.9, event_type="profile", metadata={"k": "v"}
    )
    assert (updated.id, updated.text) == (oslo.id, oslo.text)
    assert (updated.tags, updated.importance, updated.event_type) == (["home", "city"], 0.9, "profile")
    assert updated.metadata is not None and updated.metadata["k"] == "v"
    assert updated.updated_at
    assert sdk.get(oslo.id) == updated

    bergen = _add(sdk, "I moved to Bergen")
    history = sdk.history(oslo.id)
    assert history.memory_id == oslo.id
    assert [(r.revision, r.event) for r in history.revisions] == [
        (0, "created"),
        (1, "updated"),
        (2, "superseded"),
    ]
    assert history.total == 3
    created, change, superseded = history.revisions
    assert created.diff["tags"] == {"before": None, "after": ["home"]}
    assert sorted(change.changed_fields) == ["event_type", "importance", "metadata", "tags"]
    assert change.diff["importance"] == {"before": 0.5, "after": 0.9}
    assert change.diff["tags"] == {"before": ["home"], "after": ["home", "city"]}
    assert change.created_at and change.created_at >= created.created_at
    # The newer fact replaced it: recorded by the server itself, so no actor.
    assert (superseded.changed_fields, superseded.actor) == (["superseded_by"], None)
    assert superseded.diff == {"superseded_by": {"before": None, "after": f"m_{bergen.id}"}}
    assert {"tags", "importance", "event_type", "metadata", "source"} <= set(history.tracked_fields)

    page = sdk.history(oslo.id, limit=1, offset=1)
    assert ([r.event for r in page.revisions], page.total) == (["updated"], 3)
    assert [r.event for r in sdk.history(bergen.id).revisions] == ["created"]


def test_feedback_moves_importance_within_bounds_and_reorders_results(sdk: Sdk) -> None:
    green = _add(sdk, "I like green tea", importance=0.5)
    jasmine = _add(sdk, "I like jasmine tea", importance=0.5)
    before = [m.id for m in sdk.query("which tea does the user like", k=2).memories]

    up = sdk.feedback(before[1], "positive", comment="exactly right")
    assert (up.memory_id, up.signal) == (before[1], "positive")
    assert up.importance_before == 0.5
    assert up.importance_after > up.importance_before
    assert up.adjustment == pytest.approx(up.importance_after - up.importance_before)
    assert up.summary.total_signals == 1
    assert up.summary.signal_counts == {"positive": 1}
    assert sdk.get(before[1]).importance == pytest.approx(up.importance_after)

    for _ in range(30):
        down = sdk.feedback(before[0], "negative")
    assert down.importance_after == pytest.approx(0.05)
    assert down.summary.signal_counts == {"negative": 30}
    for _ in range(30):
        top = sdk.feedback(before[1], "positive")
    assert top.importance_after == pytest.approx(1.0)

    after = [m.id for m in sdk.query("which tea does the user like", k=2).memories]
    assert after == [before[1], before[0]]
    assert sorted(after) == sorted([green.id, jasmine.id])


def test_query_and_retrieve_rank_filter_and_agree(sdk: Sdk) -> None:
    peanuts = _add(sdk, "I am allergic to peanuts", tags=["health"], source="intake")
    _add(sdk, "I am learning to play the cello", tags=["hobby"], source="chat")
    _add(sdk, "I have a dog called Biscuit", tags=["pets", "home"], source="chat")

    found = sdk.query("What food could make the user ill?", k=3)
    assert isinstance(found, memorysync.QueryResponse)
    assert found.memories[0].id == peanuts.id
    assert found.memories[0].text == "User is allergic to peanuts"
    assert found.memories[0].tags == ["health"]
    scores = [m.score for m in found.memories]
    assert all(s is not None for s in scores) and scores == sorted(scores, reverse=True)

    assert found.context is not None
    assert undated(found.context).splitlines() == [f"- {m.text}" for m in found.memories]
    assert found.latency_ms is not None and found.latency_ms >= 0

    same = sdk.retrieve("What food could make the user ill?", k=3)
    assert [(m.id, m.score) for m in same.memories] == [(m.id, m.score) for m in found.memories]

    assert [m.id for m in sdk.query("user", k=1).memories] != []
    assert len(sdk.query("user", k=1).memories) == 1
    by_tag = sdk.query("animals", k=10, filters={"tags": ["pets"]})
    assert [m.text for m in by_tag.memories] == ["User has a dog called Biscuit"]
    by_source = sdk.retrieve("anything about the user", k=10, filters={"source": "intake"})
    assert [m.id for m in by_source.memories] == [peanuts.id]
    sdk.update(peanuts.id, event_type="profile")
    by_type = sdk.query("anything about the user", k=10, filters={"memory_type": "profile"})
    assert [m.id for m in by_type.memories] == [peanuts.id]
    later = sdk.query("anything about the user", k=10, filters={"since": "2999-01-01T00:00:00Z"})
    assert later.memories == []
    everything = sdk.query("anything about the user", k=10, filters={"until": "2999-01-01T00:00:00Z"})
    assert len(everything.memories) == 3


def test_bulk_add_answers_per_item_and_replays_client_refs(sdk: Sdk) -> None:
    items = [
        BulkAddItem(text="I work as a nurse in Leeds", tags=["work"], importance=0.7, client_ref="r-1"),
        BulkAddItem(text="ok thanks", client_ref="r-2"),
        BulkAddItem(text="I speak Portuguese", event_type="skill", source="import", metadata={"row": 3}),
        # The header (the client's end user) wins over a per-item end_user_id.
        BulkAddItem(text="I have two children", end_user_id="bob"),
    ]
    first = sdk.bulk_add(items)
    assert sdk.exchanges("/memory/bulk-add")[-1].status == 207
    assert (first.total, first.created, first.skipped, first.rejected, first.unreported) == (4, 3, 1, 0, 0)
    assert [r.index for r in first.results] == [0, 1, 2, 3]
    assert [r.status for r in first.results] == ["created", "skipped", "created", "created"]
    assert first.results[1].reason == "no_high_value_content"
    nurse, _, portuguese, children = (r.memory_ids for r in first.results)
    assert len(nurse) == 1 and len(portuguese) == 1 and len(children) == 1

    got = sdk.get(portuguese[0])
    assert (got.text, got.event_type, got.source) == ("User speaks Portuguese", "skill", "import")
    assert got.metadata is not None and got.metadata["row"] == 3
    assert (sdk.get(nurse[0]).tags, sdk.get(nurse[0]).importance) == (["work"], 0.7)
    assert sdk.get(children[0]).text == "User has two children"
    with pytest.raises(memorysync.NotFoundError):
        sdk.as_user("bob").get(children[0])

    replay = sdk.bulk_add([items[0], BulkAddItem(text="I live in York", client_ref="r-5")], deduplicate=True)
    assert [(r.status, r.reason, r.memory_ids) for r in replay.results[:1]] == [
        ("skipped", "already_ingested", nurse)
    ]
    assert replay.results[1].status == "created"
    assert (replay.created, replay.skipped) == (1, 1)
    assert sdk.list_memories(tenant_id=sdk.tenant_id, user_id="alice")["total"] == 4


def test_without_an_end_user_each_bulk_item_names_its_own_or_is_rejected(sdk_factory: SdkFactory) -> None:
    anonymous = sdk_factory.client(None)
    answer = anonymous.bulk_add(
        [
            BulkAddItem(text="I live in Rome", end_user_id="carol"),
            BulkAddItem(text="I live in Paris"),
            BulkAddItem(text="I live in Lima", end_user_id="dave"),
        ]
    )
    assert [(r.status, r.reason) for r in answer.results] == [
        ("created", None),
        ("rejected", "missing_end_user"),
        ("created", None),
    ]
    assert (answer.created, answer.rejected) == (2, 1)
    carol, dave = sdk_factory.client("carol"), sdk_factory.client("dave")
    assert carol.get(answer.results[0].memory_ids[0]).text == "User lives in Rome"
    assert dave.get(answer.results[2].memory_ids[0]).text == "User lives in Lima"
    with pytest.raises(memorysync.NotFoundError):
        carol.get(answer.results[2].memory_ids[0])
    # A route with no end user at all says how to name one.
    with pytest.raises(memorysync.ValidationError, match="X-End-User-ID"):
        anonymous.get(answer.results[0].memory_ids[0])
    with pytest.raises(memorysync.ValidationError, match="X-End-User-ID"):
        anonymous.export_all()
    with pytest.raises(memorysync.ValidationError, match="X-End-User-ID"):
        anonymous.status(answer.results[0].memory_ids[0])


def test_batch_update_applies_what_it_can_see_and_reports_the_rest(sdk: Sdk) -> None:
    a = _add(sdk, "I play chess on Sundays")
    b = _add(sdk, "I collect vinyl records")
    bobs = _add(sdk.as_user("bob"), "I grow tomatoes")

    answer = sdk.batch_update(
        [
            {"memory_id": a.id, "tags": ["hobby"], "importance": 0.6},
            memorysync.BatchUpdateItem(memory_id=b.id, event_type="hobby", source="survey"),
            {"memory_id": bobs.id, "tags": ["mine-now"]},
            {"memory_id": 987654, "importance": 0.1},
        ]
    )
    assert sdk.exchanges("/memory/batch-update")[-1].status == 207
    assert (answer.total, answer.updated, answer.not_found) == (4, 2, 2)
    assert [(r.index, r.memory_id, r.status) for r in answer.results] == [
        (0, a.id, "updated"),
        (1, b.id, "updated"),
        (2, bobs.id, "not_found"),
        (3, 987654, "not_found"),
    ]
    assert sorted(answer.results[0].changed_fields) == ["importance", "tags"]
    assert sorted(answer.results[1].changed_fields) == ["event_type", "source"]
    assert (sdk.get(a.id).tags, sdk.get(a.id).importance) == (["hobby"], 0.6)
    assert (sdk.get(b.id).event_type, sdk.get(b.id).source) == ("hobby", "survey")
    assert sdk.as_user("bob").get(bobs.id).tags in (None, [])
    assert [r.event for r in sdk.history(a.id).revisions] == ["created", "updated"]


def test_export_gives_every_memory_of_the_end_user_and_only_theirs(sdk: Sdk) -> None:
    ids = {_add(sdk, text).id for text in ("I live in Leeds", "I am vegan", "I work as a nurse")}
    _add(sdk.as_user("bob"), "I live in York")
    exported = sdk.export_all()
    assert isinstance(exported, memorysync.ExportResponse)
    assert {m["id"] for m in exported.memories} == ids
    assert {m["text"] for m in exported.memories} == {
        "User lives in Leeds",
        "User is vegan",
        "User works as a nurse",
    }
    assert exported.generated_at
    # The SDK reads user_id as an integer: a stable number per end user.
    assert exported.user_id > 0
    assert sdk.export_all().user_id == exported.user_id
    assert sdk.as_user("bob").export_all().user_id != exported.user_id
    assert sdk.as_user("nobody").export_all().memories == []


def test_forget_by_ids_and_by_filters_with_a_dry_run_first(sdk: Sdk) -> None:
    keep = _add(sdk, "I live in Leeds", tags=["home"], source="chat")
    tea = _add(sdk, "I like green tea", tags=["food", "drink"], source="chat")
    vegan = _add(sdk, "I am vegan", tags=["food"], source="chat")
    imported = _add(sdk, "I speak Portuguese", tags=["food", "drink"], source="import")
    bobs = _add(sdk.as_user("bob"), "I like black coffee", tags=["food", "drink"], source="chat")

    preview = sdk.forget(filters={"tags": ["food", "drink"], "source": "chat"}, dry_run=True)
    assert preview == [tea.id]  # every listed tag must match; bob's memory is never reached
    assert sdk.get(tea.id).id == tea.id  # a dry run removes nothing

    gone = sdk.forget(filters=memorysync.ForgetFilters(tags=["food"]), reason="user asked")
    assert sorted(gone) == sorted([tea.id, vegan.id, imported.id])
    assert sdk.as_user("bob").get(bobs.id).id == bobs.id

    assert sdk.forget([keep.id, 424242]) == [keep.id]
    assert sdk.forget([keep.id]) == []  # idempotent
    assert sdk.list_memories(tenant_id=sdk.tenant_id, user_id="alice")["total"] == 0

    with pytest.raises(memorysync.ValidationError):
        sdk.forget(filters={"before": "not a date"})


def test_the_sdk_sends_dry_run_only_with_filters_so_a_dry_run_by_ids_deletes(sdk: Sdk) -> None:
    memory = _add(sdk, "I live in Leeds")
    # The SDK drops dry_run when it forgets by ids (survey 5.6): this really deletes.
    assert sdk.forget([memory.id], dry_run=True) == [memory.id]
    assert sdk.exchanges("/memory/forget")[-1].body == {"memory_ids": [memory.id]}
    with pytest.raises(memorysync.NotFoundError):
        sdk.get(memory.id)
    with pytest.raises(memorysync.ValidationError, match="not both"):
        sdk.forget([1], filters={"tags": ["x"]})
    with pytest.raises(memorysync.ValidationError, match="at least one criterion"):
        sdk.forget(filters={})
