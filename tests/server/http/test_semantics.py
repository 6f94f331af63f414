"""Contract semantics over real HTTP: auth, tenancy, isolation, replays, state rules, restart."""

from __future__ import annotations

from datetime import datetime, timezone
from urllib.parse import quote

import httpx
import pytest

from memorysync_server import LocalServer
from tests.support.blocks import undated

from ..api import JSON, Api

# ---- auth and tenancy -----------------------------------------------------------------------
V1_ROUTES = {
    "/v1/memory/add_turn": {"text": "I'm vegan"},
    "/v1/memory/recall": {"prompt": "food"},
    "/v1/memory/query": {"prompt": "food"},
    "/v1/history/append": {"session_id": "s", "turns": [{"role": "user", "content": "hi there you"}]},
    "/v1/history/list": {"session_id": "s"},
    "/v1/history/delete": {"session_id": "s"},
    "/v1/state/put": {"namespace": ["n"], "key": "k", "value": {}},
    "/v1/state/get": {"namespace": ["n"], "key": "k"},
    "/v1/state/list": {},
    "/v1/state/search": {"query": "q"},
    "/v1/state/delete": {"namespace": ["n"]},
}


def test_missing_and_wrong_key_are_401(server: LocalServer) -> None:
    for headers in ({}, {"X-API-Key": "ms_test_nope"}):
        response = httpx.get(f"{server.base_url}/org/projects", headers=headers)
        assert response.status_code == 401
        assert "X-API-Key" in response.json()["detail"] or "Unknown API key" in response.json()["detail"]
        for path, body in V1_ROUTES.items():
            r = httpx.post(
                f"{server.base_url}{path}",
                json={"tenant_id": server.tenant_id, "user_id": "u", **body},
                headers=headers,
            )
            assert r.status_code == 401, path


def test_another_tenant_is_403_on_every_v1_route(server: LocalServer, api: Api) -> None:
    api.turn("u", "I'm vegan")
    for path, body in V1_ROUTES.items():
        r = api.post(path, {"tenant_id": "t_someone_else", "user_id": "u", **body}, expect=403)
        assert "t_someone_else" in r["detail"]
    listed = api.http.get("/v1/memory/t_someone_else/u/list")
    assert listed.status_code == 403
    assert api.texts("u") == ["User is vegan"]  # nothing was touched


def test_unknown_project_header_is_404(api: Api, server: LocalServer) -> None:
    assert api.http.get("/org/projects", headers={"X-Project-ID": "proj_other"}).status_code == 404
    own = api.http.get("/org/projects", headers={"X-Project-ID": f"proj_{server.tenant_id}"})
    assert own.status_code == 200


def test_keys_of_two_tenants_never_share_rows(server: LocalServer) -> None:
    server.add_key("ms_test_other", "t_other")
    mine, theirs = Api(server), Api(server, key="ms_test_other", tenant="t_other")
    mine.turn("same-user", "I'm vegan")
    theirs.turn("same-user", "I live in Rome")
    assert mine.texts("same-user") == ["User is vegan"]
    assert theirs.texts("same-user") == ["User lives in Rome"]
    assert theirs.add("same-user", "I love jazz")["text"] == "User loves jazz"
    assert mine.texts("same-user") == ["User is vegan"]


# ---- isolation: user A never sees user B's rows on any route ----------------------------------
def test_user_b_never_sees_or_deletes_user_a_rows(api: Api) -> None:
    a, b = "alice", "bob"
    api.turn(a, "I'm vegan, and I moved to Oslo")
    stored = api.add(a, "I always take the window seat", client_ref="ref-1")
    api.v1("/v1/history/append", a, session_id="s1", turns=[{"role": "user", "content": "I play the cello"}])
    api.put(a, "k1", {"memory": "User is vegan"}, text="User is vegan")

    assert api.facts(b) == {"memories": [], "total": 0}
    assert api.v1("/v1/memory/recall", b, prompt="vegan Oslo window seat cello") == {
        "context": "",
        "memories": [],
    }
    assert api.v1("/v1/memory/query", b, prompt="vegan Oslo window seat cello") == {"memories": []}
    assert api.v1("/v1/history/list", b, session_id="s1") == {"items": [], "total": 0}
    assert api.v1("/v1/state/get", b, namespace=["agno"], key="k1") == {"item": None}
    assert api.v1("/v1/state/list", b) == {"items": [], "total": 0}
    assert api.v1("/v1/state/search", b, query="vegan") == {"items": [], "total": 0}
    # client_ref is per user too: the same ref for B is a fresh write.
    assert "id" in api.add(b, "I like tea", client_ref="ref-1")

    a_ids = [m["memory_id"] for m in api.facts(a)["memories"]]
    history_ids = [t["id"] for t in api.v1("/v1/history/list", a, session_id="s1")["items"]]
    assert api.forget(b, [*a_ids, stored["id"]]) == []
    assert api.v1("/v1/history/delete", b, ids=history_ids, delete_derived_facts=True) == {
        "deleted_ids": [],
        "deleted_fact_ids": [],
    }
    assert api.v1("/v1/history/delete", b, session_id="s1") == {"deleted_ids": [], "deleted_fact_ids": []}
    assert api.v1("/v1/state/delete", b, namespace=["agno"]) == {"deleted_ids": [], "deleted_fact_ids": []}
    assert len(api.facts(a)["memories"]) == len(a_ids) == 4
    assert api.v1("/v1/history/list", a, session_id="s1")["total"] == 1
    assert api.v1("/v1/state/get", a, namespace=["agno"], key="k1")["item"]["key"] == "k1"


def test_user_ids_with_slashes_and_spaces_route_on_the_raw_path(api: Api) -> None:
    odd = "team/alpha user 7"
    api.turn(odd, "I'm vegan")
    api.turn("team", "I live in Rome")
    assert api.texts(odd) == ["User is vegan"]
    raw = api.http.get(f"/v1/memory/{api.tenant}/{quote(odd, safe='')}/list")
    assert raw.json()["total"] == 1
    # A non-ASCII id is the same user whether it comes in the path or (UTF-8) in X-End-User-ID.
    api.post("/memory/add", {"text": "I like tea"}, headers={b"X-End-User-ID": "zoë".encode()})
    assert api.texts("zoë") == ["User likes tea"]


# ---- the add_turn pipeline -------------------------------------------------------------------
def test_add_turn_extracts_facts_with_tags_and_scalar_metadata(api: Api) -> None:
    answer = api.turn(
        "u",
        "I'm vegan, and I moved to Oslo",
        source="ag2",
        metadata={"channel": "web", "write_origin": "forged", "episodic": True, "nested": {"x": 1}, "n": 3},
    )
    assert answer["memory_id"] is None and answer["processing_status"] == "completed"
    listed = api.facts("u")["memories"]
    assert [m["text"] for m in listed] == ["User moved to Oslo", "User is vegan"]  # newest first
    # One sentence whose facts hold its words: the turn is not kept beside them (no distilled_from).
    assert api.v1("/v1/memory/query", "u", prompt="vegan in Oslo", types=["conversation"])["memories"] == []
    for memory in listed:
        assert memory["source"] == "ag2"
        said = datetime.fromisoformat(memory["metadata"].pop("occurred_at").replace("Z", "+00:00"))
        assert abs((datetime.now(timezone.utc) - said).total_seconds()) < 600  # no occurred_at: arrival
        assert memory["metadata"] == {
            "channel": "web",
            "n": 3,
            "write_origin": "turn-extraction",
            "turn_role": "user",
        }


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"text": "I'm vegan", "role": "assistant"}, "skipped_non_user_turn"),
        ({"text": "assistant: I'm vegan"}, "skipped_non_user_turn"),
        ({"text": "I'm vegan", "speaker": "ai@ag2::s#h1"}, "skipped_non_user_turn"),
        ({"text": "I'm vegan", "metadata": {"role": "tool"}}, "skipped_non_user_turn"),
        ({"text": "Human: I'm vegan", "speaker": "ai@x#h1"}, "completed"),
        ({"text": "I'm vegan", "role": "user", "speaker": "ai@x#h1"}, "completed"),
        ({"text": "thanks you"}, "skipped_low_value"),
        ({"text": "ok"}, "skipped_low_value"),
        ({"text": "1234 !!"}, "skipped_low_value"),
        ({"text": "user: hello"}, "skipped_low_value"),
    ],
)
def test_role_resolution_and_low_value_filter(api: Api, body: dict, status: str) -> None:
    assert api.turn("u", **body)["processing_status"] == status
    assert (api.facts("u")["total"] > 0) == (status == "completed")


def test_a_role_prefix_is_stripped_before_extraction(api: Api) -> None:
    api.turn("u", "Customer: I always take the window seat")
    assert api.texts("u") == ["User always takes the window seat"]


def test_replayed_turn_stores_nothing_twice(api: Api) -> None:
    body = {"speaker": "human@ag2::s#habc", "occurred_at": "2026-01-01T10:00:00Z"}
    first = api.turn("u", "I'm vegan", **body)
    again = api.turn("u", "I'm vegan", **body)
    assert (first["already_exists"], again["already_exists"]) == (False, True)
    assert again["processing_status"] == "skipped_replay" and again["status"] == "ok"
    assert api.facts("u")["total"] == 1
    # A different speaker is a different turn; the fact itself is still stored once per user.
    assert api.turn("u", "I'm vegan", speaker="human@ag2::other#habc")["processing_status"] == "completed"
    assert api.facts("u")["total"] == 1


def test_replay_window_is_thirty_days(tmp_path) -> None:
    from datetime import datetime, timedelta, timezone

    now = [datetime(2026, 1, 1, tzinfo=timezone.utc)]
    with LocalServer(tmp_path / "clock.db", clock=lambda: now[0]) as srv:
        api = Api(srv)
        assert api.turn("u", "I'm vegan", speaker="human@s#h1")["processing_status"] == "completed"
        now[0] += timedelta(days=29)
        assert api.turn("u", "I'm vegan", speaker="human@s#h1")["processing_status"] == "skipped_replay"
        now[0] += timedelta(days=31)
        assert api.turn("u", "I'm vegan", speaker="human@s#h1")["processing_status"] == "completed"
        assert api.facts("u")["total"] == 1
        api.close()


def test_turn_sent_by_add_turn_and_history_with_same_seed_is_extracted_once(api: Api) -> None:
    seed = "human@ag2::chat-42#h30f269bc6ced778d"
    text = "I always take the window seat"
    api.turn("u", text, speaker=seed)
    appended = api.v1(
        "/v1/history/append",
        "u",
        session_id="ag2::chat-42",
        turns=[{"role": "human", "content": text, "idempotency_key": seed}],
    )
    assert appended["items"][0]["created"] is True and appended["items"][0]["role"] == "user"
    assert api.texts("u") == ["User always takes the window seat"]


# ---- recall / query / list -------------------------------------------------------------------
def test_recall_context_has_related_facts_and_is_empty_for_unrelated_prompts(api: Api) -> None:
    api.turn("u", "I'm vegan, and I moved to Oslo")
    api.turn("u", "I always take the window seat")
    related = api.v1("/v1/memory/recall", "u", prompt="Book me a flight to Oslo")
    lines = undated(related["context"]).splitlines()
    assert lines[0] == "- User moved to Oslo"
    assert all(line.startswith("- ") for line in lines)
    assert [m["text"] for m in related["memories"]] == [line[2:] for line in lines]
    food = api.v1("/v1/memory/recall", "u", prompt="What should I cook for dinner?")
    assert undated(food["context"]).splitlines()[0] == "- User is vegan"
    for prompt in ("What's the weather like?", "Tell me a joke", "hello"):
        assert api.v1("/v1/memory/recall", "u", prompt=prompt) == {"context": "", "memories": []}, prompt


def test_query_ranks_best_first_with_scores_in_unit_range(api: Api) -> None:
    api.turn("u", "I'm vegan, and I moved to Oslo")
    api.turn("u", "I always take the window seat")
    found = api.v1("/v1/memory/query", "u", prompt="window seat", k=2)["memories"]
    assert found[0]["text"] == "User always takes the window seat"
    scores = [m["score"] for m in found]
    assert scores == sorted(scores, reverse=True) and all(0 <= s <= 1 for s in scores)
    assert len(api.v1("/v1/memory/query", "u", prompt="window seat Oslo vegan", k=1)["memories"]) == 1


def test_list_is_newest_first_with_paging(api: Api) -> None:
    for city in ("Oslo", "Rome", "Lima", "Kyiv", "Pune"):
        api.turn("u", f"I visited {city} last year")
    everything = api.facts("u")
    assert everything["total"] == 5
    assert [m["text"].split()[2] for m in everything["memories"]] == ["Pune", "Kyiv", "Lima", "Rome", "Oslo"]
    page = api.facts("u", limit=2, offset=1)
    assert page["total"] == 5 and [m["text"].split()[2] for m in page["memories"]] == ["Kyiv", "Lima"]
    assert api.facts("u", limit=0)["memories"] == everything["memories"]


# ---- /memory/add and forget ------------------------------------------------------------------
def test_add_memory_client_ref_replay_and_no_high_value_content(api: Api) -> None:
    stored = api.add("u", "The user is allergic to peanuts", client_ref="save-1", metadata={"origin": "tool"})
    assert stored["text"] == "User is allergic to peanuts" and stored["metadata"]["origin"] == "tool"
    again = api.add("u", "The user is allergic to peanuts", client_ref="save-1")
    assert again == {"status": "skipped", "reason": "already_ingested", "memory_ids": [stored["id"]]}
    assert api.add("u", "Can you book me a flight?") == {
        "status": "skipped",
        "reason": "no_high_value_content",
        "memory_ids": [],
    }
    assert api.facts("u")["total"] == 1
    missing = api.http.post("/memory/add", json={"text": "I'm vegan"})
    assert missing.status_code == 400 and "X-End-User-ID" in missing.json()["detail"]


def test_forget_deletes_by_either_id_form_idempotently_and_dry_run_keeps(api: Api) -> None:
    api.turn("u", "I'm vegan, and I moved to Oslo")
    ids = [m["memory_id"] for m in api.facts("u")["memories"]]
    assert api.forget("u", ids, dry_run=True) == sorted(int(i[2:]) for i in ids)
    assert api.facts("u")["total"] == 2
    numeric = int(ids[0][2:])
    assert api.forget("u", [numeric, "m_999999"]) == [numeric]
    assert api.forget("u", [numeric]) == []
    assert api.texts("u") == ["User is vegan"]


# ---- history ---------------------------------------------------------------------------------
def test_history_replays_are_not_stored_twice_and_list_orders_by_seq(api: Api) -> None:
    turns = [
        {"role": "AI", "content": "Hello! How can I help?", "seq": 2},
        {"role": "Human", "content": "I'm vegan", "seq": 1, "idempotency_key": "human@s#h1"},
    ]
    first = api.v1("/v1/history/append", "u", session_id="s", source="ag2", turns=turns)
    assert [t["created"] for t in first["items"]] == [True, True]
    assert [t["role"] for t in first["items"]] == ["assistant", "user"]
    again = api.v1("/v1/history/append", "u", session_id="s", source="ag2", turns=turns)
    assert [t["created"] for t in again["items"]] == [False, False]
    assert [t["id"] for t in again["items"]] == [t["id"] for t in first["items"]]
    listed = api.v1("/v1/history/list", "u", session_id="s")
    assert listed["total"] == 2 and [t["seq"] for t in listed["items"]] == [1, 2]
    # A transcript is not memory: only the extracted fact is, with the session on it.
    assert api.facts("u")["memories"][0]["metadata"]["session_id"] == "s"
    assert api.texts("u") == ["User is vegan"]
    assert api.v1("/v1/history/list", "u", session_id="s", source="other")["total"] == 0


def test_history_delete_by_ids_and_session_with_derived_facts(api: Api) -> None:
    first = api.v1(
        "/v1/history/append",
        "u",
        session_id="s",
        turns=[{"role": "user", "content": "I'm vegan"}, {"role": "user", "content": "I live in Oslo"}],
    )
    ids = [t["id"] for t in first["items"]]
    gone = api.v1("/v1/history/delete", "u", ids=[ids[0]], delete_derived_facts=True)
    assert gone["deleted_ids"] == [ids[0]] and len(gone["deleted_fact_ids"]) == 1
    assert api.texts("u") == ["User lives in Oslo"]
    rest = api.v1("/v1/history/delete", "u", session_id="s")
    assert rest == {"deleted_ids": [ids[1]], "deleted_fact_ids": []}
    assert api.texts("u") == ["User lives in Oslo"]
    both = api.post(
        "/v1/history/delete",
        {"tenant_id": api.tenant, "user_id": "u", "session_id": "s", "ids": ids},
        expect=422,
    )
    assert isinstance(both["detail"], list)


def test_history_append_without_extract_stores_no_facts(api: Api) -> None:
    api.v1(
        "/v1/history/append",
        "u",
        session_id="s",
        extract=False,
        turns=[{"role": "user", "content": "I'm vegan"}],
    )
    assert api.facts("u")["total"] == 0


# ---- state -----------------------------------------------------------------------------------
def test_identical_put_is_created_false_and_nothing_else(api: Api) -> None:
    first = api.put("u", "k", {"memory": "User is vegan"}, text="User is vegan", extract=True)
    assert first["created"] is True and first["status"] == "ok"
    facts = api.facts("u")
    again = api.put("u", "k", {"memory": "User is vegan"}, text="User is vegan", extract=True)
    assert again["created"] is False and again["deleted_fact_ids"] == []
    assert again["item"] == first["item"]  # same id, same updated_at: nothing was rewritten
    assert api.facts("u") == facts  # no re-extraction


def test_put_replaces_and_replace_derived_facts_removes_old_facts(api: Api) -> None:
    first = api.put("u", "k", {"memory": "User is vegan"}, text="User is vegan", extract=True)
    fact = api.facts("u")["memories"][0]
    assert fact["metadata"]["distilled_from"] == first["item"]["id"]
    replaced = api.put(
        "u",
        "k",
        {"memory": "User eats fish"},
        text="User eats fish",
        extract=True,
        replace_derived_facts=True,
    )
    assert replaced["created"] is False and replaced["item"]["id"] == first["item"]["id"]
    assert replaced["deleted_fact_ids"] == [fact["memory_id"]]
    assert api.texts("u") == ["User eats fish"]
    kept = api.put("u", "k", {"memory": "User eats eggs"}, text="User eats eggs", extract=True)
    assert kept["deleted_fact_ids"] == [] and set(api.texts("u")) == {"User eats fish", "User eats eggs"}


def test_state_delete_keys_absent_null_and_empty(api: Api) -> None:
    for key in ("a", "b", "c"):
        api.put("u", key, {"v": key}, namespace=["agno", "memories"])
    api.put("u", "z", {"v": "z"}, namespace=["agno"])
    nothing = api.v1("/v1/state/delete", "u", namespace=["agno", "memories"], keys=[])
    assert nothing == {"deleted_ids": [], "deleted_fact_ids": []}
    one = api.v1("/v1/state/delete", "u", namespace=["agno", "memories"], keys=["a", "missing"])
    assert len(one["deleted_ids"]) == 1
    null = api.v1("/v1/state/delete", "u", namespace=["agno", "memories"], keys=None)
    assert len(null["deleted_ids"]) == 2
    api.put("u", "d", {"v": "d"}, namespace=["agno", "memories"])
    absent = api.v1("/v1/state/delete", "u", namespace=["agno", "memories"])
    assert len(absent["deleted_ids"]) == 1
    # The parent namespace was never part of it.
    assert [i["key"] for i in api.v1("/v1/state/list", "u", namespace_prefix=["agno"])["items"]] == ["z"]


def test_state_delete_derived_facts(api: Api) -> None:
    api.put("u", "k", {"m": 1}, text="User is vegan", extract=True)
    api.put("u", "j", {"m": 2}, text="User lives in Oslo", extract=False)
    gone = api.v1("/v1/state/delete", "u", namespace=["agno"], delete_derived_facts=True)
    assert len(gone["deleted_ids"]) == 2 and len(gone["deleted_fact_ids"]) == 1
    assert api.facts("u")["total"] == 0


def test_state_scoping_by_source_and_segmentwise_prefix(api: Api) -> None:
    api.put("u", "k", {"v": 1}, namespace=["agno"], source="agno")
    api.put("u", "k", {"v": 2}, namespace=["agno", "x"], source="agno")
    api.put("u", "k", {"v": 3}, namespace=["agnostic"], source="agno")
    api.put("u", "k", {"v": 4}, namespace=["agno"])  # source "api"
    listed = api.v1("/v1/state/list", "u", namespace_prefix=["agno"], source="agno")
    assert listed["total"] == 2 and {i["value"]["v"] for i in listed["items"]} == {1, 2}
    assert listed["items"][0]["value"]["v"] == 2  # newest first
    assert api.v1("/v1/state/get", "u", namespace=["agno"], key="k")["item"]["value"] == {"v": 4}
    page = api.v1("/v1/state/list", "u", source="agno", limit=1, offset=1)
    assert page["total"] == 3 and len(page["items"]) == 1


def test_state_search_best_first_with_scores(api: Api) -> None:
    api.put("u", "a", {"memory": "User is vegan"}, text="User is vegan")
    api.put("u", "b", {"memory": "User lives in Oslo"}, text="User lives in Oslo")
    api.put("u", "c", {"memory": "User plays cello"}, text="User plays cello", index=False)
    found = api.v1("/v1/state/search", "u", query="what does the user like to eat? vegan food")
    assert found["items"][0]["key"] == "a" and 0 < found["items"][0]["score"] <= 1
    # Semantic scores: the unrelated record is either left out or ranked far below.
    assert all(i["score"] < found["items"][0]["score"] / 2 for i in found["items"] if i["key"] == "b")
    assert [i["key"] for i in api.v1("/v1/state/search", "u", query="cello")["items"]] == ["c"]


# ---- errors ----------------------------------------------------------------------------------
def test_error_bodies_follow_the_contract(api: Api) -> None:
    bad_json = api.http.post(
        "/v1/memory/add_turn", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert bad_json.status_code == 422 and bad_json.json()["detail"][0]["type"] == "json_invalid"
    assert api.http.get("/v2/nothing").status_code == 404
    wrong = api.http.get("/v1/memory/add_turn")
    assert wrong.status_code == 405 and wrong.headers["allow"] == "POST" and "detail" in wrong.json()
    empty = api.post(
        "/v1/memory/add_turn", {"tenant_id": api.tenant, "user_id": "u", "text": "   "}, expect=422
    )
    assert empty == {"detail": "'text' must be a non-empty string"}
    invalid = api.http.post(
        "/v1/memory/recall", json={"tenant_id": api.tenant, "user_id": "u", "prompt": "x", "k": 0, "extra": 1}
    )
    assert invalid.status_code == 422
    # An unknown field is not an error (openapi.yaml: x-unknown-fields); the answer names it.
    assert invalid.headers["X-MemorySync-Ignored-Fields"] == "extra"
    kinds = {(tuple(i["loc"]), i["type"]) for i in invalid.json()["detail"]}
    assert kinds == {(("body", "k"), "greater_than_equal")}
    missing = api.post(
        "/v1/state/put", {"tenant_id": api.tenant, "user_id": "u", "namespace": [], "key": "k"}, expect=422
    )
    assert {tuple(i["loc"]) for i in missing["detail"]} == {("body", "namespace"), ("body", "value")}


def test_bad_input_never_corrupts_stored_rows(api: Api) -> None:
    api.turn("u", "I'm vegan")
    before = api.facts("u")
    garbage = api.http.post("/v1/memory/add_turn", content=b"\xff\xfe garbage", headers=JSON)
    assert garbage.status_code == 422
    api.post(
        "/v1/state/put",
        {"tenant_id": api.tenant, "user_id": "u", "namespace": ["a"], "key": "k", "value": "x"},
        expect=422,
    )
    turn = '{"role": "user", "content": "I am \\ud800"}'
    lone_surrogate = f'{{"tenant_id": "{api.tenant}", "user_id": "u", "session_id": "s", "turns": [{turn}]}}'
    answer = api.http.post("/v1/history/append", content=lone_surrogate.encode(), headers=JSON)
    assert answer.status_code == 422 and answer.json()["detail"][0]["type"] == "string_unicode"
    assert api.facts("u") == before


def test_a_segment_holding_the_separator_is_not_two_segments(api: Api) -> None:
    api.put("u", "k", {"v": "joined"}, namespace=["a\x1fb"])
    api.put("u", "k", {"v": "split"}, namespace=["a", "b"])
    api.put("u", "k", {"v": "percent"}, namespace=["a%1Fb"])
    assert api.v1("/v1/state/get", "u", namespace=["a\x1fb"], key="k")["item"]["value"] == {"v": "joined"}
    assert api.v1("/v1/state/get", "u", namespace=["a", "b"], key="k")["item"]["value"] == {"v": "split"}
    assert api.v1("/v1/state/list", "u", namespace_prefix=["a"])["total"] == 1
    assert len(api.v1("/v1/state/delete", "u", namespace=["a%1Fb"])["deleted_ids"]) == 1
    assert api.v1("/v1/state/list", "u")["total"] == 2


def test_deeply_nested_json_is_a_422_not_a_500(api: Api) -> None:
    for depth in (101, 50_000):
        nested = "[" * depth + "]" * depth
        body = f'{{"tenant_id": "{api.tenant}", "user_id": "u", "text": "I am vegan", "metadata": {{"a": {nested}}}}}'
        answer = api.http.post("/v1/memory/add_turn", content=body.encode(), headers=JSON)
        assert answer.status_code == 422 and "nested deeper" in answer.json()["detail"][0]["msg"]
    assert api.facts("u")["total"] == 0
