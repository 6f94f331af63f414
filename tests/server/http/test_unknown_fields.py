"""Unknown request fields over real HTTP (openapi.yaml ``x-unknown-fields: ignore-and-report``):
accepted, never acted on, named in ``X-MemorySync-Ignored-Fields`` and in one log line. Plus the
looser inputs the official SDK sends: integer history ids and ``namespace_prefix: []``."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
import yaml

from memorysync_server import LocalServer
from memorysync_server.http.spec import SPEC_PATH, load_spec, request_fields
from memorysync_server.http.unknown_fields import MAX_REPORT_CHARS, render, strip_unknown

from ..api import Api

HEADER = "X-MemorySync-Ignored-Fields"


def _ignored(response: Any) -> str | None:
    return response.headers.get(HEADER)


def test_unknown_top_level_and_nested_fields_are_accepted_and_named(
    api: Api, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="memorysync_server")
    appended = api.http.post(
        "/v1/history/append",
        json={
            "tenant_id": api.tenant,
            "user_id": "u",
            "session_id": "s",
            "sesion": "typo",
            "turns": [
                {"role": "user", "content": "I'm vegan", "payload": {"free": {"form": 1}}},
                {"role": "assistant", "content": "Noted", "tgas": ["x"], "speakr": "y"},
            ],
            "metadata": {"anything": "goes"},
        },
    )
    assert appended.status_code == 200, appended.text
    # Free-form objects (metadata, payload) have no unknown fields; the order is the body's.
    assert _ignored(appended) == "sesion, turns[1].tgas, turns[1].speakr"
    items = appended.json()["items"]
    assert [(i["role"], i["content"], i["payload"]) for i in items] == [
        ("user", "I'm vegan", {"free": {"form": 1}}),
        ("assistant", "Noted", None),
    ]
    lines = [r.getMessage() for r in caplog.records if "ignored unknown request field" in r.getMessage()]
    assert lines == [
        "POST /v1/history/append (append_history): ignored unknown request field(s): "
        "sesion, turns[1].tgas, turns[1].speakr"
    ]
    assert all(r.levelno == logging.WARNING for r in caplog.records if r.getMessage() in lines)


def test_a_request_without_unknown_fields_carries_no_header(api: Api) -> None:
    response = api.http.post("/v1/state/list", json={"tenant_id": api.tenant, "user_id": "u"})
    assert response.status_code == 200 and HEADER not in response.headers


def test_every_kind_of_answer_after_the_body_names_the_ignored_fields(api: Api) -> None:
    # A validation error: the misspelt required field is pointed out next to what was ignored.
    missing = api.http.post(
        "/v1/state/get", json={"tenant_id": api.tenant, "usr_id": "u", "namespace": ["a"], "key": "k"}
    )
    assert missing.status_code == 422 and _ignored(missing) == "usr_id"
    (item,) = missing.json()["detail"]
    assert item["loc"] == ["body", "user_id"] and item["type"] == "missing"
    assert "'usr_id'" in item["msg"] and "misspelling" in item["msg"]
    # Another tenant: 403, still reported.
    other = api.http.post("/v1/state/list", json={"tenant_id": "t_other", "user_id": "u", "lmit": 5})
    assert other.status_code == 403 and _ignored(other) == "lmit"
    # The legacy route with a header-scoped user.
    added = api.http.post(
        "/memory/add", json={"text": "I'm allergic to peanuts", "sourec": "x"}, headers={"X-End-User-ID": "u"}
    )
    assert added.status_code == 200 and _ignored(added) == "sourec"
    assert added.json()["source"] == "api"  # the misspelt source had no effect


def test_an_unknown_field_never_reaches_the_route(tmp_path: Path, db: Any) -> None:
    """Drop `k` from the recall schema in a copy of openapi.yaml: a `k` sent then must be ignored
    (the route's default of 10 applies), not read by the handler as before."""
    spec = yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8"))
    del spec["components"]["schemas"]["RecallRequest"]["properties"]["k"]
    changed = tmp_path / "openapi.yaml"
    changed.write_text(yaml.safe_dump(spec), encoding="utf-8")
    with LocalServer(db, spec_path=str(changed)) as server:
        api = Api(server)
        try:
            for food in ("peanuts", "shellfish", "gluten"):
                api.add("u", f"I am allergic to {food}")
            full = api.http.post(
                "/v1/memory/query",
                json={"tenant_id": api.tenant, "user_id": "u", "prompt": "allergies", "k": 1},
            )
            assert full.status_code == 200 and _ignored(full) is None
            assert len(full.json()["memories"]) == 1  # still declared on query
            recalled = api.http.post(
                "/v1/memory/recall",
                json={"tenant_id": api.tenant, "user_id": "u", "prompt": "allergies", "k": 1},
            )
            assert recalled.status_code == 200 and _ignored(recalled) == "k"
            assert len(recalled.json()["memories"]) == 3
        finally:
            api.close()


def test_unusual_names_stay_one_ascii_header_line_and_the_report_is_capped(api: Api) -> None:
    odd = {"a,b": 1, "x.y[0]": 2, "ünï code": 3, "new\nline": 4, "": 5}
    response = api.http.post("/v1/state/list", json={"tenant_id": api.tenant, "user_id": "u", **odd})
    assert response.status_code == 200
    assert _ignored(response) == 'a%2Cb, x%2Ey%5B0%5D, %C3%BCn%C3%AF%20code, new%0Aline, ""'
    many = {f"unknown_field_{i:04d}": i for i in range(500)}
    response = api.http.post("/v1/state/list", json={"tenant_id": api.tenant, "user_id": "u", **many})
    assert response.status_code == 200
    report = _ignored(response)
    assert report is not None and len(report) <= MAX_REPORT_CHARS
    names = report.split(", ")
    shown = len(names) - 1
    assert names[:shown] == [f"unknown_field_{i:04d}" for i in range(shown)]
    assert names[-1] == f"+{500 - shown} more" and shown > 40


def test_history_delete_takes_integer_ids(api: Api) -> None:
    turns = [{"role": "user", "content": f"turn {i}"} for i in range(3)]
    stored = api.v1("/v1/history/append", "u", session_id="s", turns=turns, extract=False)["items"]
    first, second, third = (int(t["id"][2:]) for t in stored)
    deleted = api.v1("/v1/history/delete", "u", ids=[first, f"h_{second}", 10**12])
    assert deleted == {"deleted_ids": [f"h_{first}", f"h_{second}"], "deleted_fact_ids": []}
    left = api.v1("/v1/history/list", "u", session_id="s")["items"]
    assert [t["id"] for t in left] == [f"h_{third}"]
    # Another user's turn is not reachable by number either.
    assert api.v1("/v1/history/delete", "someone-else", ids=[third])["deleted_ids"] == []
    for bad in ([0], [-3], [2**63], [1.5], [True]):
        api.v1("/v1/history/delete", "u", expect=422, ids=bad)
    assert api.v1("/v1/history/delete", "u", ids=[third]) == {
        "deleted_ids": [f"h_{third}"],
        "deleted_fact_ids": [],
    }


def test_both_session_and_ids_stay_refused_whatever_the_ids_look_like(api: Api) -> None:
    api.v1(
        "/v1/history/append",
        "u",
        session_id="s",
        turns=[{"role": "user", "content": "keep me"}],
        extract=False,
    )
    for ids in (["h_1"], [1], "junk", 5):
        refused = api.v1("/v1/history/delete", "u", expect=422, session_id="s", ids=ids)
        assert refused["detail"][0]["loc"] == ["body"]
    assert len(api.v1("/v1/history/list", "u", session_id="s")["items"]) == 1


def test_state_list_and_search_with_an_empty_prefix_cover_every_namespace(api: Api) -> None:
    api.put("u", "k1", {"v": 1}, namespace=["agno"], text="the user likes tea")
    api.put("u", "k2", {"v": 2}, namespace=["other", "deep"], text="the user likes coffee")
    api.put("u", "k3", {"v": 3}, namespace=["agno"], text="tea again", source="elsewhere")
    everything = api.v1("/v1/state/list", "u", namespace_prefix=[])
    assert sorted(i["key"] for i in everything["items"]) == ["k1", "k2"] and everything["total"] == 2
    assert everything == api.v1("/v1/state/list", "u")
    narrowed = api.v1("/v1/state/list", "u", namespace_prefix=["other"])
    assert [i["key"] for i in narrowed["items"]] == ["k2"]
    found = api.v1(
        "/v1/state/search", "u", query="what does the user like to drink, tea", namespace_prefix=[]
    )
    assert {i["key"] for i in found["items"]} >= {"k1"}
    api.v1("/v1/state/list", "u", expect=422, namespace_prefix=[""])
    api.v1("/v1/state/list", "u", expect=422, namespace_prefix=["a"] * 21)


# ---- the derivation itself, over the shipped openapi.yaml --------------------------------------
def test_every_operation_with_a_body_knows_its_fields_from_the_spec() -> None:
    spec = load_spec()
    for op in spec.operations:
        if op.body is None:
            assert op.body_fields is None
            continue
        assert op.body_fields is not None and op.body_fields.closed is True, op.operation_id
        schema = op_schema(spec.document, op.path, op.method.lower())
        declared = _top_level(spec.document, schema)
        assert set(op.body_fields.names) == declared, op.operation_id


def op_schema(document: dict[str, Any], path: str, method: str) -> dict[str, Any]:
    return document["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]


def _top_level(document: dict[str, Any], node: dict[str, Any]) -> set[str]:
    while "$ref" in node:
        node = document["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    names = set(node.get("properties", {}))
    for key in ("allOf", "oneOf", "anyOf"):
        for branch in node.get(key, ()):
            names |= _top_level(document, branch)
    return names


def test_strip_unknown_keeps_free_form_values_whole() -> None:
    document = yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8"))
    fields = request_fields(document, {"$ref": "#/components/schemas/PutStateRequest"})
    body = {
        "tenant_id": "t",
        "user_id": "u",
        "namespace": ["a"],
        "key": "k",
        "value": {"anything": {"nested": [1, {"x": 2}]}},
        "metadata": {"agent_id": "a"},
        "indx": False,
    }
    clean, ignored = strip_unknown(fields, body)
    assert ignored == [("indx",)]
    assert clean == {k: v for k, v in body.items() if k != "indx"}
    assert render([("turns", 3, "a b")]) == "turns[3].a%20b"
