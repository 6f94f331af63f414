"""``/v1/state/put`` with ``as_fact``: a record's text kept as its one fact, as written (a memory
another framework distilled), replaced with the record and deleted with it; never together with
``extract``. Over real HTTP, on both engines."""

from __future__ import annotations

from ..api import Api


def _put(api: Api, text: str, **body: object) -> dict:
    return api.v1(
        "/v1/state/put",
        "u",
        namespace=["agno"],
        key="mem-1",
        value={"memory": text},
        text=text,
        replace_derived_facts=True,
        metadata={"topics": "work"},
        **body,
    )


def test_the_text_is_one_fact_as_written_replaced_and_deleted_with_its_record(api: Api) -> None:
    put = _put(api, "Prefers morning meetings", as_fact=True)
    (fact,) = api.facts("u")["memories"]
    assert fact["text"] == "Prefers morning meetings"
    assert fact["metadata"]["distilled_from"] == put["item"]["id"] and fact["metadata"]["topics"] == "work"
    found = api.v1("/v1/memory/query", "u", prompt="When does the user like meetings?", k=3)["memories"]
    assert found[0]["text"] == "Prefers morning meetings"

    replaced = _put(api, "Prefers afternoon meetings", as_fact=True)
    assert replaced["deleted_fact_ids"] == [fact["memory_id"]]
    assert [f["text"] for f in api.facts("u")["memories"]] == ["Prefers afternoon meetings"]

    deleted = api.v1("/v1/state/delete", "u", namespace=["agno"], keys=["mem-1"], delete_derived_facts=True)
    assert len(deleted["deleted_fact_ids"]) == 1 and api.facts("u")["memories"] == []


def test_as_fact_with_extract_is_refused_and_stores_nothing(api: Api) -> None:
    answer = api.v1(
        "/v1/state/put",
        "u",
        expect=422,
        namespace=["agno"],
        key="mem-2",
        value={"memory": "I like tea"},
        text="I like tea",
        extract=True,
        as_fact=True,
    )
    assert "as_fact and extract" in answer["detail"][0]["msg"]
    got = api.v1("/v1/state/get", "u", namespace=["agno"], key="mem-2")
    assert got["item"] is None and api.facts("u")["memories"] == []
