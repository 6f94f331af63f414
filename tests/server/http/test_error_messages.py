"""422 messages name the field inside ``msg``: the official SDK shows only ``detail[0].msg``, never
``loc``, so "1.5 is greater than the maximum of 1" alone would not say which field."""

from __future__ import annotations

from typing import Any

from ..api import Api


def _problems(api: Api, path: str, body: dict[str, Any], **kw: Any) -> list[tuple[list[Any], str]]:
    response = api.http.post(path, json=body, **kw)
    assert response.status_code == 422, response.text
    return [(item["loc"], item["msg"]) for item in response.json()["detail"]]


def test_each_message_names_its_field_and_the_allowed_values(api: Api) -> None:
    v1 = {"tenant_id": api.tenant, "user_id": "u"}
    assert _problems(api, "/v1/memory/recall", {**v1, "prompt": "x", "k": 0}) == [
        (["body", "k"], "'k' must be at least 1 (got 0)")
    ]
    assert _problems(api, "/v1/memory/query", {**v1, "prompt": "x", "k": "5"}) == [
        (["body", "k"], "'k' must be an integer (got a string)")
    ]
    assert _problems(
        api, "/memory/add", {"text": "hi there", "client_ref": "r" * 129}, headers={"X-End-User-ID": "u"}
    ) == [(["body", "client_ref"], "'client_ref' must be at most 128 characters long (got 129)")]
    assert _problems(
        api, "/v1/memory/add_turn", {**v1, "text": "hi", "role": "wizard" * 20, "occurred_at": "yesterday"}
    ) == [
        (
            ["body", "occurred_at"],
            "'occurred_at' must be an RFC 3339 date-time such as 2024-05-01T12:00:00Z (got 'yesterday')",
        ),
        # A long value is cut, never echoed whole.
        (
            ["body", "role"],
            "'role' must be one of user, assistant, system, tool (got 'wizardwizardwizardwizardwizardwizard...)",
        ),
    ]
    nested = {
        **v1,
        "session_id": "s",
        "turns": [{"role": "user", "content": "x"}, {"role": "", "content": "y"}],
    }
    assert _problems(api, "/v1/history/append", nested) == [
        (["body", "turns", 1, "role"], "'turns[1].role' must not be empty")
    ]
    assert _problems(api, "/v1/state/put", {**v1, "namespace": [], "key": "k", "value": {}}) == [
        (["body", "namespace"], "'namespace' must not be an empty list")
    ]


def test_alternatives_say_what_either_branch_needs(api: Api) -> None:
    v1 = {"tenant_id": api.tenant, "user_id": "u"}
    assert _problems(api, "/v1/history/delete", v1) == [
        (["body"], "the body needs one of 'session_id' or 'ids'")
    ]
    assert _problems(api, "/v1/history/delete", {**v1, "session_id": "s", "ids": [1]}) == [
        (["body"], "give exactly one of 'session_id' or 'ids', not both")
    ]
    assert _problems(api, "/v1/history/delete", {**v1, "ids": ["x7"]}) == [
        (
            ["body", "ids", 0],
            "'ids[0]' must match ^h_[0-9]+$ (got 'x7'), or must be an integer (got a string)",
        )
    ]
    # The body picked the `ids` branch (it has ids, no session): that branch's own problem is reported.
    assert _problems(api, "/v1/history/delete", {**v1, "ids": []}) == [
        (["body", "ids"], "'ids' must not be an empty list")
    ]


def test_parameters_are_named_too(api: Api) -> None:
    response = api.http.get(f"/v1/memory/{api.tenant}/u/list", params={"limit": 9999})
    assert response.status_code == 422
    assert response.json()["detail"] == [
        {
            "loc": ["query", "limit"],
            "msg": "'limit' must be at most 5000 (got 9999)",
            "type": "less_than_equal",
        }
    ]
