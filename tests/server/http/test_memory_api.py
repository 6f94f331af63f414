"""The legacy /memory/* data plane over real HTTP, on both engines: Memory objects, edits and their
revisions, bulk writes (207), forget by filter, feedback moving importance, end-user isolation."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from memorysync_server import LocalServer, Quota
from memorysync_server.http.wire import export_user_number
from tests.support.blocks import undated

from ..api import Api

DATA = Path(__file__).parents[1] / "data"
MEMORY_FIELDS = {
    "id",
    "text",
    "summary",
    "tags",
    "source",
    "event_type",
    "importance",
    "metadata",
    "is_summary",
    "created_at",
    "updated_at",
}


class Legacy:
    """The /memory/* routes as one end user calls them (X-End-User-ID)."""

    def __init__(self, api: Api, user: str) -> None:
        self.api, self.user = api, user

    def call(self, method: str, path: str, body: Any = None, *, expect: int = 200, **params: Any) -> Any:
        response = self.api.http.request(
            method, path, json=body, params=params or None, headers={"X-End-User-ID": self.user}
        )
        assert response.status_code == expect, (method, path, response.status_code, response.text)
        return response.json()

    def add(self, text: str, **body: Any) -> Any:
        return self.call("POST", "/memory/add", {"text": text, **body})

    def get(self, memory_id: int, expect: int = 200) -> Any:
        return self.call("GET", f"/memory/{memory_id}", expect=expect)

    def patch(self, memory_id: int, expect: int = 200, **body: Any) -> Any:
        return self.call("PATCH", f"/memory/{memory_id}", body, expect=expect)

    def history(self, memory_id: int, expect: int = 200, **params: Any) -> Any:
        return self.call("GET", f"/memory/{memory_id}/history", expect=expect, **params)

    def feedback(self, memory_id: int, signal: str, expect: int = 200, **body: Any) -> Any:
        return self.call("POST", f"/memory/{memory_id}/feedback", {"signal": signal, **body}, expect=expect)

    def query(self, query: str, path: str = "/memory/query", expect: int = 200, **body: Any) -> Any:
        return self.call("POST", path, {"query": query, **body}, expect=expect)

    def forget(self, body: dict[str, Any], expect: int = 200) -> Any:
        return self.call("DELETE", "/memory/forget", body, expect=expect)

    def ids(self) -> list[int]:
        return sorted(m["id"] for m in self.call("GET", "/memory/export")["memories"])


@pytest.fixture
def alice(api: Api) -> Legacy:
    return Legacy(api, "alice")


@pytest.fixture
def bob(api: Api) -> Legacy:
    return Legacy(api, "bob")


# ---- add and the Memory object -----------------------------------------------------------------
def test_add_stores_tags_importance_event_type_and_answers_a_memory(alice: Legacy) -> None:
    stored = alice.add(
        "The user is allergic to peanuts",
        tags=["health", "food", "health"],
        importance=0.9,
        event_type="preference",
        metadata={"origin": "tool"},
        session_id="s1",
    )
    assert set(stored) == MEMORY_FIELDS
    assert stored["text"] == "User is allergic to peanuts"
    assert stored["tags"] == ["health", "food"]  # a repeat is stored once
    assert (stored["importance"], stored["event_type"], stored["source"]) == (0.9, "preference", "api")
    assert stored["metadata"] == {"origin": "tool", "session_id": "s1", "write_origin": "explicit"}
    assert (stored["summary"], stored["is_summary"]) == (None, False)
    assert stored["updated_at"] == stored["created_at"]
    assert alice.get(stored["id"]) == stored
    plain = alice.add("I always take the window seat")
    assert (plain["tags"], plain["importance"], plain["event_type"]) == ([], None, "fact")


def test_end_user_from_header_else_body_and_neither_is_400(api: Api) -> None:
    by_body = api.post("/memory/add", {"text": "I play the cello", "end_user_id": "carol"})
    assert Legacy(api, "carol").get(by_body["id"])["text"] == "User plays the cello"
    # The header wins over the body.
    by_header = api.post(
        "/memory/add",
        {"text": "I play the drums", "end_user_id": "carol"},
        headers={"X-End-User-ID": "dave"},
    )
    Legacy(api, "dave").get(by_header["id"])
    Legacy(api, "carol").get(by_header["id"], expect=404)
    missing = api.http.post("/memory/add", json={"text": "I play the harp"})
    assert missing.status_code == 400 and "X-End-User-ID" in missing.json()["detail"]


def test_near_duplicates_answer_the_stored_memory_unless_deduplicate_is_off(alice: Legacy) -> None:
    first = alice.add("I play the cello")
    assert alice.add("I play the cello") == first  # the same text: stored once, always
    assert alice.add("I play cello")["id"] == first["id"]  # the same meaning
    assert alice.ids() == [first["id"]]
    second = alice.add("I play cello", deduplicate=False)
    assert second["text"] == "User plays cello" and second["id"] != first["id"]
    assert alice.ids() == [first["id"], second["id"]]


def test_out_of_range_values_are_refused_with_where(alice: Legacy) -> None:
    for body in (
        {"text": "I ski", "importance": 1.5},
        {"text": "I ski", "tags": ["x" * 65]},
        {"text": "I ski", "tags": [f"t{i}" for i in range(21)]},
        {"text": "I ski", "event_type": "bad\ntype"},
    ):
        detail = alice.call("POST", "/memory/add", body, expect=422)["detail"]
        assert detail[0]["loc"][:2] == ["body", next(k for k in body if k != "text")]
    assert alice.ids() == []


# ---- get, patch, history -------------------------------------------------------------------------
def test_another_users_memory_is_not_visible_anywhere(alice: Legacy, bob: Legacy) -> None:
    mine = alice.add("I live in Oslo", tags=["home"])["id"]
    assert "not visible" in bob.get(mine, expect=404)["detail"]
    bob.patch(mine, expect=404, tags=["stolen"])
    bob.history(mine, expect=404)
    bob.feedback(mine, "negative", expect=404)
    batch = bob.call(
        "POST", "/memory/batch-update", {"items": [{"memory_id": mine, "importance": 0.1}]}, expect=207
    )
    assert batch["results"] == [{"index": 0, "memory_id": mine, "status": "not_found", "changed_fields": []}]
    assert bob.forget({"memory_ids": [mine]}) == []
    assert bob.forget({"filters": {"tags": ["home"]}}) == []
    assert bob.query("where do I live")["memories"] == []
    assert bob.call("GET", "/memory/export")["memories"] == []
    untouched = alice.get(mine)
    assert (untouched["tags"], untouched["importance"]) == (["home"], None)
    assert alice.get(10**12, expect=404)["detail"].startswith("memory 1000000000000 is not visible")


def test_a_search_after_an_edit_answers_the_memory_as_edited(alice: Legacy) -> None:
    # Searches keep the memories they decoded (retrieval.fact_cache): an edit must reach them.
    memory = alice.add("I play the cello in an orchestra", metadata={"origin": "tool"})
    (found,) = [m for m in alice.query("What instrument do I play?")["memories"] if m["id"] == memory["id"]]
    assert (found["tags"], found["event_type"], found["metadata"]["origin"]) == ([], "fact", "tool")
    alice.patch(memory["id"], tags=["music"], event_type="hobby", metadata={"origin": "chat"})
    (found,) = [m for m in alice.query("What instrument do I play?")["memories"] if m["id"] == memory["id"]]
    assert (found["tags"], found["event_type"], found["metadata"]["origin"]) == (["music"], "hobby", "chat")


def test_patch_edits_fields_records_revisions_and_refuses_text(alice: Legacy) -> None:
    memory = alice.add("I live in Oslo", metadata={"origin": "tool", "mood": "calm"})
    patched = alice.patch(
        memory["id"], tags=["home"], importance=0.8, metadata={"mood": None, "floor": 3, "write_origin": "x"}
    )
    assert (patched["tags"], patched["importance"]) == (["home"], 0.8)
    # Metadata merges; null removes a key; the server's own keys stay as they are.
    assert patched["metadata"] == {"origin": "tool", "floor": 3, "write_origin": "explicit"}
    assert patched["updated_at"] > memory["updated_at"]
    assert alice.patch(memory["id"], tags=["home"]) == patched  # no change, no revision
    refused = alice.patch(memory["id"], expect=422, text="I live in Bergen", tags=["x"])
    assert refused["detail"][0]["loc"] == ["body", "text"] and "not editable" in refused["detail"][0]["msg"]
    assert alice.patch(memory["id"], expect=422, importance=-0.1)["detail"][0]["loc"] == [
        "body",
        "importance",
    ]
    assert alice.get(memory["id"])["tags"] == ["home"]

    history = alice.history(memory["id"])
    assert history["memory_id"] == memory["id"] and history["total"] == 2
    assert set(history["tracked_fields"]) >= {"tags", "importance", "metadata", "source", "event_type"}
    created, updated = history["revisions"]
    assert (created["revision"], created["event"], created["actor"]) == (0, "created", "api")
    assert created["diff"]["metadata"]["after"]["origin"] == "tool"
    assert (updated["revision"], updated["event"], updated["actor"]) == (1, "updated", "api")
    assert updated["changed_fields"] == ["tags", "importance", "metadata"]
    assert updated["diff"]["tags"] == {"before": [], "after": ["home"]}
    assert updated["diff"]["importance"] == {"before": None, "after": 0.8}
    assert alice.history(memory["id"], limit=1, offset=1)["revisions"] == [updated]


def test_a_superseded_memory_gets_a_superseded_revision(api: Api, alice: Legacy) -> None:
    api.turn("alice", "I live in Oslo")
    api.turn("alice", "I moved to Bergen")
    by_text = {m["text"]: int(m["memory_id"][2:]) for m in api.facts("alice")["memories"]}
    oslo, bergen = by_text["User lives in Oslo"], by_text["User moved to Bergen"]
    revisions = alice.history(oslo)["revisions"]
    assert [r["event"] for r in revisions] == ["created", "superseded"]
    assert revisions[1]["diff"] == {"superseded_by": {"before": None, "after": f"m_{bergen}"}}
    assert revisions[1]["actor"] is None  # the server's own doing
    assert revisions[0]["actor"] is None  # extracted from a turn


def test_batch_update_reports_per_item_in_one_transaction(alice: Legacy, bob: Legacy) -> None:
    a, b = alice.add("I live in Oslo")["id"], alice.add("I play the cello")["id"]
    theirs = bob.add("I play the drums")["id"]
    answer = alice.call(
        "POST",
        "/memory/batch-update",
        {
            "items": [
                {"memory_id": a, "tags": ["home"], "event_type": "profile"},
                {"memory_id": theirs, "importance": 0.2},
                {"memory_id": b, "source": "import"},
            ]
        },
        expect=207,
    )
    assert answer == {
        "total": 3,
        "updated": 2,
        "not_found": 1,
        "results": [
            {"index": 0, "memory_id": a, "status": "updated", "changed_fields": ["tags", "event_type"]},
            {"index": 1, "memory_id": theirs, "status": "not_found", "changed_fields": []},
            {"index": 2, "memory_id": b, "status": "updated", "changed_fields": ["source"]},
        ],
    }
    assert alice.get(b)["source"] == "import"
    # One bad item refuses the whole batch: nothing of it is applied.
    refused = alice.call(
        "POST",
        "/memory/batch-update",
        {"items": [{"memory_id": a, "tags": ["changed"]}, {"memory_id": b, "text": "new text"}]},
        expect=422,
    )
    assert refused["detail"][0]["loc"] == ["body", "items", 1, "text"]
    assert alice.get(a)["tags"] == ["home"]
    twice = alice.call(
        "POST",
        "/memory/batch-update",
        {"items": [{"memory_id": a, "tags": ["x"]}, {"memory_id": a, "tags": ["y"]}]},
        expect=409,
    )
    assert f"memory_id {a} is both item 0 and item 1" in twice["detail"]
    assert alice.get(a)["tags"] == ["home"]
    too_many = [{"memory_id": i + 1, "tags": ["x"]} for i in range(101)]
    alice.call("POST", "/memory/batch-update", {"items": too_many}, expect=422)


# ---- bulk add ----------------------------------------------------------------------------------
def test_bulk_add_answers_207_per_item_and_replays_client_refs(api: Api) -> None:
    items = [
        {"text": "I am vegan", "tags": ["food"], "client_ref": "r1"},
        {"text": "Can you book me a flight?", "client_ref": "r2"},
        {"text": "I live in Oslo", "importance": 0.7, "event_type": "profile", "client_ref": "r3"},
    ]
    first = api.post("/memory/bulk-add", {"items": items}, expect=207, headers={"X-End-User-ID": "alice"})
    assert (first["total"], first["created"], first["skipped"], first["rejected"]) == (3, 2, 1, 0)
    assert [r["status"] for r in first["results"]] == ["created", "skipped", "created"]
    assert first["results"][1] == {
        "index": 1,
        "status": "skipped",
        "memory_ids": [],
        "reason": "no_high_value_content",
    }
    alice = Legacy(api, "alice")
    oslo = alice.get(first["results"][2]["memory_ids"][0])
    assert (oslo["importance"], oslo["event_type"]) == (0.7, "profile")

    again = api.post("/memory/bulk-add", {"items": items}, expect=207, headers={"X-End-User-ID": "alice"})
    assert [(r["status"], r["reason"]) for r in again["results"]] == [
        ("skipped", "already_ingested"),
        ("skipped", "no_high_value_content"),
        ("skipped", "already_ingested"),
    ]
    assert [r["memory_ids"] for r in again["results"]][::2] == [r["memory_ids"] for r in first["results"]][
        ::2
    ]
    assert len(alice.ids()) == 2
    restated = api.post(
        "/memory/bulk-add", {"items": [{"text": "I'm vegan"}]}, expect=207, headers={"X-End-User-ID": "alice"}
    )
    assert restated["results"] == [
        {
            "index": 0,
            "status": "skipped",
            "memory_ids": first["results"][0]["memory_ids"],
            "reason": "duplicate",
        }
    ]


def test_bulk_add_end_user_per_item_header_wins_and_missing_is_rejected(api: Api) -> None:
    items = [
        {"text": "I play the cello", "end_user_id": "carol"},
        {"text": "I play the drums"},
    ]
    per_item = api.post("/memory/bulk-add", {"items": items}, expect=207)
    assert [r["status"] for r in per_item["results"]] == ["created", "rejected"]
    assert per_item["results"][1]["reason"] == "missing_end_user"
    assert len(Legacy(api, "carol").ids()) == 1
    headed = api.post("/memory/bulk-add", {"items": items}, expect=207, headers={"X-End-User-ID": "dave"})
    assert headed["created"] == 2 and len(Legacy(api, "dave").ids()) == 2
    assert len(Legacy(api, "carol").ids()) == 1
    api.post(
        "/memory/bulk-add", {"items": [{"text": "I ski"}] * 51}, expect=422, headers={"X-End-User-ID": "d"}
    )


# ---- query / retrieve -----------------------------------------------------------------------------
def test_query_and_retrieve_rank_memories_and_filters_narrow(alice: Legacy, bob: Legacy) -> None:
    alice.add("I drink green tea every morning", tags=["drink", "morning"], event_type="preference")
    alice.add("I drink black coffee at work", tags=["drink"], source="import")
    alice.add("I live in Oslo")
    bob.add("I drink oolong tea")
    found = alice.query("what does the user drink", k=5, session_id="s9")
    texts = [m["text"] for m in found["memories"]]
    assert set(texts[:2]) == {"User drinks green tea every morning", "User drinks black coffee at work"}
    assert "oolong" not in " ".join(texts)
    assert all(0 < m["score"] <= 1 and set(m) == MEMORY_FIELDS | {"score"} for m in found["memories"])
    assert undated(found["context"]).splitlines()[0] == f"- {texts[0]}"
    assert (found["session_id"], found["query_intent"]) == ("s9", None) and found["latency_ms"] >= 0
    assert (
        alice.query("what does the user drink", path="/memory/retrieve", k=5)["memories"] == found["memories"]
    )

    def narrowed(**filters: Any) -> list[str]:
        return [m["text"] for m in alice.query("what does the user drink", filters=filters)["memories"]]

    assert narrowed(tags=["drink", "morning"]) == ["User drinks green tea every morning"]
    assert narrowed(source="import") == ["User drinks black coffee at work"]
    assert narrowed(memory_type="preference") == ["User drinks green tea every morning"]
    assert narrowed(until="2000-01-01T00:00:00Z") == []
    assert len(narrowed(since="2000-01-01T00:00:00Z")) == len(texts)


def test_types_narrow_recall_and_query_and_unknown_names_are_dropped(api: Api, alice: Legacy) -> None:
    alice.add("I drink green tea every morning", event_type="preference")
    alice.add("I drink black coffee at work")
    alice.add("I drink jasmine tea at night", event_type="ritual")

    def v1(route: str, types: list[str]) -> tuple[list[str], str | None]:
        response = api.http.post(
            route,
            json={"tenant_id": api.tenant, "user_id": "alice", "prompt": "which drinks", "types": types},
        )
        assert response.status_code == 200, response.text
        return [m["text"] for m in response.json()["memories"]], response.headers.get(
            "X-MemorySync-Dropped-Types"
        )

    everything = v1("/v1/memory/query", [])[0]
    assert len(everything) == 3
    for route in ("/v1/memory/query", "/v1/memory/recall"):
        assert v1(route, ["preference"]) == (["User drinks green tea every morning"], None)
        # A type a memory of the tenant carries is in the vocabulary; made-up names are dropped.
        assert v1(route, ["ritual", "bogus"]) == (["User drinks jasmine tea at night"], "bogus")
        # Every name dropped: nothing is narrowed.
        assert sorted(v1(route, ["bogus", "fake type"])[0]) == sorted(v1(route, [])[0])
        assert v1(route, ["bogus", "fake type"])[1] == "bogus, fake%20type"
    assert v1("/v1/memory/query", ["fact"]) == (["User drinks black coffee at work"], None)
    assert v1("/v1/memory/query", ["decision"]) == ([], None)  # built in, held by nothing


# ---- importance and feedback --------------------------------------------------------------------
def test_feedback_moves_importance_within_bounds_and_summarises(alice: Legacy) -> None:
    memory = alice.add("I live in Oslo")["id"]
    first = alice.feedback(memory, "positive", comment="spot on")
    assert (first["importance_before"], first["importance_after"]) == (0.5, 0.6)
    assert first["adjustment"] == pytest.approx(0.1) and first["influenced_ranking"] is True
    assert first["summary"]["total_signals"] == 1 and first["summary"]["signal_counts"] == {"positive": 1}
    for _ in range(6):
        last = alice.feedback(memory, "positive")
    assert (
        last["importance_after"] == 1.0 and last["adjustment"] == 0.0 and last["influenced_ranking"] is False
    )
    assert last["summary"]["trend"] == {
        "momentum": "rising",
        "consistency": 1.0,
        "trend_multiplier": 1.1,
        "recent_count": 7,
    }
    for _ in range(12):
        last = alice.feedback(memory, "negative")
    assert last["importance_after"] == 0.05  # the floor
    assert last["summary"]["signal_counts"] == {"positive": 7, "negative": 12}
    assert (
        last["summary"]["trend"]["momentum"] == "falling" and last["summary"]["trend"]["recent_count"] == 10
    )
    assert alice.get(memory)["importance"] == 0.05
    events = alice.history(memory, limit=1000)["revisions"]
    # Signals that could not move importance any further changed nothing, so recorded nothing.
    assert [r["event"] for r in events].count("updated") == 5 + 10
    assert events[1]["diff"] == {"importance": {"before": None, "after": 0.6}}
    alice.feedback(memory, "liked", expect=422)
    alice.feedback(memory, "positive", expect=422, comment="x" * 2001)


def test_importance_feeds_ranking(alice: Legacy, api: Api) -> None:
    # Two teas not alike enough for the near-repeat charge (ranking.REDUNDANT_FROM), which
    # would take from the second score what importance gave it.
    green = alice.add("I like green tea")["id"]
    black = alice.add("I drink chamomile tea before bed")["id"]

    def ranked() -> dict[int, float]:
        return {m["id"]: m["score"] for m in alice.query("tea", k=2)["memories"]}

    before = ranked()
    low, high = sorted(before, key=before.__getitem__)
    alice.patch(low, importance=1.0)
    alice.patch(high, importance=0.0)
    after = ranked()
    assert after[low] == pytest.approx(min(1.0, before[low] * 1.1), abs=1e-5)
    assert after[high] == pytest.approx(before[high] * 0.9, abs=1e-5)
    assert max(after, key=after.__getitem__) == low
    v1 = api.v1("/v1/memory/query", "alice", prompt="tea", k=2)["memories"]
    assert v1[0]["memory_id"] == f"m_{low}"
    # Neutral importance is the same as none.
    alice.patch(low, importance=0.5)
    alice.patch(high, importance=0.5)
    assert ranked() == pytest.approx(before, abs=1e-5)
    assert {green, black} == set(before)


# ---- forget ------------------------------------------------------------------------------------
def test_forget_by_filter_matches_all_criteria_and_dry_run_keeps(alice: Legacy, bob: Legacy) -> None:
    tea = alice.add("I drink green tea", tags=["drink", "morning"], source="import")["id"]
    coffee = alice.add("I drink black coffee", tags=["drink"], event_type="preference")["id"]
    oslo = alice.add("I live in Oslo", tags=["home"], source="import")["id"]
    bob_tea = bob.add("I drink green tea", tags=["drink", "morning"], source="import")["id"]

    assert alice.forget({"filters": {"tags": ["drink"]}, "dry_run": True}) == [tea, coffee]
    assert alice.ids() == sorted([tea, coffee, oslo])
    assert alice.forget({"filters": {"tags": ["drink", "morning"]}, "dry_run": True}) == [tea]
    assert alice.forget({"filters": {"source": "import", "tags": ["home"]}, "dry_run": True}) == [oslo]
    assert alice.forget({"filters": {"event_type": "preference"}, "dry_run": True}) == [coffee]
    assert alice.forget({"filters": {"before": "2000-01-01T00:00:00Z"}}) == []
    assert alice.forget({"filters": {"after": "2000-01-01T00:00:00+02:00", "source": "import"}}) == [
        tea,
        oslo,
    ]
    assert alice.ids() == [coffee]
    # The same filter never reached bob's memories.
    assert bob.ids() == [bob_tea]
    assert alice.forget({"filters": {"before": "9999-12-31T23:59:59-05:00"}}) == [coffee]
    assert alice.ids() == []


def test_forget_refuses_empty_or_ambiguous_selectors(alice: Legacy) -> None:
    kept = alice.add("I live in Oslo")["id"]
    for body in (
        {"filters": {}},
        {"filters": {"tags": []}},
        {"memory_ids": []},
        {"memory_ids": [kept], "filters": {"source": "api"}},
        {"reason": "nothing selected"},
        {"memory_ids": list(range(1, 102))},
    ):
        alice.forget(body, expect=422)
    only_unknown = alice.forget({"filters": {"tier": "hot"}}, expect=422)
    assert "empty filter" in only_unknown["detail"][0]["msg"]
    both = alice.forget({"memory_ids": [kept], "filters": {"source": "api"}}, expect=422)
    assert both["detail"][0]["msg"] == "give exactly one of 'memory_ids' or 'filters', not both"
    assert alice.ids() == [kept]
    assert alice.forget({"memory_ids": [f"m_{kept}", kept], "reason": "asked"}) == [kept]


# ---- export and quota --------------------------------------------------------------------------
def test_export_lists_everything_with_a_stable_int_user_id(alice: Legacy, bob: Legacy, api: Api) -> None:
    ids = [alice.add(text)["id"] for text in ("I live in Oslo", "I play the cello", "I am vegan")]
    exported = alice.call("GET", "/memory/export")
    assert [m["id"] for m in exported["memories"]] == ids[::-1]  # newest first
    assert exported["user_id"] == alice.call("GET", "/memory/export")["user_id"]
    assert (
        exported["user_id"]
        == export_user_number(api.tenant, "alice")
        != bob.call("GET", "/memory/export")["user_id"]
    )
    assert isinstance(exported["user_id"], int) and 1 <= exported["user_id"] < 2**53
    assert exported["generated_at"].endswith("Z")


def test_silent_quota_stores_nothing_and_reads_come_back_empty(server: LocalServer) -> None:
    Legacy(Api(server), "alice").add("I live in Oslo")
    server.add_key("ms_test_spent", quota=Quota(adds=0, reads=0))
    spent = Legacy(Api(server, key="ms_test_spent"), "alice")
    bulk = spent.call("POST", "/memory/bulk-add", {"items": [{"text": "I am vegan"}]}, expect=207)
    assert bulk == {"total": 1, "created": 0, "skipped": 0, "rejected": 0}
    assert spent.add("I play the cello") == {"status": "ok"}  # what the hosted service answers
    assert spent.query("where do I live")["memories"] == []
    assert spent.call("GET", "/memory/export")["memories"] == []
    assert [m["text"] for m in Legacy(Api(server), "alice").call("GET", "/memory/export")["memories"]] == [
        "User lives in Oslo"
    ]


def test_evaluation_keys_over_quota_get_429_on_the_new_routes(server: LocalServer) -> None:
    server.add_key("ms_eval_spent", evaluation=True, quota=Quota(adds=0, reads=0))
    spent = Legacy(Api(server, key="ms_eval_spent", tenant="default"), "alice")
    for method, path, body in (
        ("POST", "/memory/bulk-add", {"items": [{"text": "I am vegan"}]}),
        ("POST", "/memory/query", {"query": "vegan"}),
        ("POST", "/memory/retrieve", {"query": "vegan"}),
        ("GET", "/memory/export", None),
    ):
        assert spent.call(method, path, body, expect=429)["detail"]["error"] == "limit_exceeded"


# ---- an older database ---------------------------------------------------------------------------
def test_memories_of_an_older_release_answer_as_memory_objects_and_take_edits(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    shutil.copy(DATA / "v3-c80cb34.db", path)
    with LocalServer(path, keys={"ms_test_a": "t_a"}, search="lexical") as srv:
        alice = Legacy(Api(srv, key="ms_test_a"), "alice")
        old = alice.get(5)
        assert old["text"] == "User's dog is called Rex"
        assert (old["tags"], old["importance"], old["event_type"]) == ([], None, "fact")
        assert old["updated_at"] == old["created_at"] == "2026-11-30T05:16:36.543345Z"
        assert alice.history(5)["revisions"] == [
            {
                "revision": 0,
                "event": "created",
                "changed_fields": [],
                "diff": {},
                "actor": None,
                "created_at": "2026-11-30T05:16:36.543345Z",
            }
        ]
        alice.patch(5, tags=["pet"])
        assert [(r["revision"], r["event"]) for r in alice.history(5)["revisions"]] == [
            (0, "created"),
            (1, "updated"),
        ]


# ---- the kit's AG2 capability over the same routes -----------------------------------------------
def test_ag2_save_over_a_silent_plan_limit_is_accepted_and_stores_nothing(server: LocalServer) -> None:
    from ag2_memorysync import MemorySyncCapability
    from ag2_memorysync.tools import save_answer

    server.add_key("ms_test_nosave", quota=Quota(adds=0))
    memory = MemorySyncCapability(user_id="erin", api_key="ms_test_nosave", base_url=server.base_url)
    try:
        result = memory.save("I am allergic to peanuts.")
    finally:
        memory.close(timeout=0.5)
    assert (result.status, result.memory_ids) == ("accepted", [])
    assert save_answer(result) == "Accepted."
    assert Legacy(Api(server), "erin").ids() == []
