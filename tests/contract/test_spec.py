"""openapi.yaml is a valid OpenAPI 3.1 document, complete, and its examples obey its schemas."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest
import yaml
from openapi_spec_validator import validate
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"
SPEC = yaml.safe_load(SPEC_PATH.read_text())

OPERATIONS = {
    "list_projects": ("get", "/org/projects", "org"),
    "add_turn": ("post", "/v1/memory/add_turn", "memory"),
    "recall": ("post", "/v1/memory/recall", "memory"),
    "query_memories": ("post", "/v1/memory/query", "memory"),
    "list_memories": ("get", "/v1/memory/{tenant_id}/{user_id}/list", "memory"),
    "add_memory": ("post", "/memory/add", "memory"),
    "forget_memories": ("delete", "/memory/forget", "memory"),
    "append_history": ("post", "/v1/history/append", "history"),
    "list_history": ("post", "/v1/history/list", "history"),
    "delete_history": ("post", "/v1/history/delete", "history"),
    "put_state": ("post", "/v1/state/put", "state"),
    "get_state": ("post", "/v1/state/get", "state"),
    "list_state": ("post", "/v1/state/list", "state"),
    "search_state": ("post", "/v1/state/search", "state"),
    "delete_state": ("post", "/v1/state/delete", "state"),
}


def _operations():
    for path, item in SPEC["paths"].items():
        for method, op in item.items():
            yield path, method, op


def _validator(schema: dict) -> jsonschema.Draft202012Validator:
    """A validator that resolves ``#/components/...`` refs against the whole spec."""
    registry = Registry().with_resource(
        "urn:spec", Resource.from_contents(SPEC, default_specification=DRAFT202012)
    )
    wrapped = (
        {"$ref": "urn:spec#/" + "/".join(schema["$ref"].lstrip("#/").split("/"))}
        if "$ref" in schema
        else schema
    )
    return jsonschema.Draft202012Validator(
        wrapped, registry=registry, format_checker=jsonschema.FormatChecker()
    )


def _component(name: str) -> jsonschema.Draft202012Validator:
    return _validator({"$ref": f"#/components/schemas/{name}"})


def test_spec_is_valid_openapi_31():
    assert SPEC["openapi"] == "3.1.0"
    validate(SPEC)  # raises OpenAPIValidationError with the path of the problem


def test_every_contract_route_has_its_operation_id_method_and_tag():
    found = {op["operationId"]: (method, path, op["tags"][0]) for path, method, op in _operations()}
    assert found == {name: (m, p, t) for name, (m, p, t) in OPERATIONS.items()}


@pytest.mark.parametrize("path,method,op", list(_operations()), ids=lambda v: v if isinstance(v, str) else "")
def test_operation_is_documented_and_declares_its_errors(path, method, op):
    assert op.get("summary") and op.get("description"), (
        f"{op['operationId']} needs a summary and a description"
    )
    codes = set(op["responses"])
    assert {"401", "403", "429"} <= codes, f"{op['operationId']} must declare 401, 403 and 429"
    if "requestBody" in op or any(p.get("$ref", "").endswith("EndUserId") for p in op.get("parameters", [])):
        assert "422" in codes, f"{op['operationId']} takes input and must declare 422"
    assert any(c.startswith("2") for c in codes)


@pytest.mark.parametrize("path,method,op", list(_operations()), ids=lambda v: v if isinstance(v, str) else "")
def test_request_body_example_matches_its_schema(path, method, op):
    if "requestBody" not in op:
        pytest.skip("no request body")
    media = op["requestBody"]["content"]["application/json"]
    assert "example" in media, f"{op['operationId']} needs a request example"
    _validator(media["schema"]).validate(media["example"])


def test_every_request_body_is_a_named_component():
    for _path, _method, op in _operations():
        if "requestBody" in op:
            assert "$ref" in op["requestBody"]["content"]["application/json"]["schema"]


def test_security_is_the_api_key_header_applied_globally():
    assert SPEC["security"] == [{"ApiKeyAuth": []}]
    scheme = dict(SPEC["components"]["securitySchemes"]["ApiKeyAuth"])
    description = scheme.pop("description")
    assert scheme == {"type": "apiKey", "in": "header", "name": "X-API-Key"}
    # The description is what a reader learns about keys: every kind a client may hold is named.
    assert all(f"`{kind}…`" in description for kind in ("ms_live_", "ms_test_", "ms_eval_")), description


# The size limits and the nullability rules of openapi.yaml, checked on the schemas themselves.
@pytest.mark.parametrize(
    "component,instance,valid",
    [
        ("AddTurnRequest", {"tenant_id": "t", "user_id": "u", "text": "x" * 16_000}, True),
        ("AddTurnRequest", {"tenant_id": "t", "user_id": "u", "text": "x" * 16_001}, False),
        ("AddTurnRequest", {"tenant_id": "t", "user_id": "u", "text": "   "}, False),
        ("AddTurnRequest", {"tenant_id": "t", "user_id": "u", "text": "hi", "role": "wizard"}, False),
        ("AddTurnRequest", {"tenant_id": "t", "user_id": "u", "text": "hi", "occurred_at": None}, False),
        ("RecallRequest", {"tenant_id": "t", "user_id": "u", "prompt": "p", "k": 100}, True),
        ("RecallRequest", {"tenant_id": "t", "user_id": "u", "prompt": "p", "k": 101}, False),
        ("RecallRequest", {"tenant_id": "t", "user_id": "u", "prompt": "p", "k": 0}, False),
        ("SearchStateRequest", {"tenant_id": "t", "user_id": "u", "query": "q" * 4001}, False),
        ("AppendHistoryRequest", {"tenant_id": "t", "user_id": "u", "session_id": "s", "turns": []}, False),
        (
            "AppendHistoryRequest",
            {
                "tenant_id": "t",
                "user_id": "u",
                "session_id": "s",
                "turns": [{"role": "user", "content": "c"}] * 101,
            },
            False,
        ),
        (
            "PutStateRequest",
            {"tenant_id": "t", "user_id": "u", "namespace": ["a"] * 21, "key": "k", "value": {}},
            False,
        ),
        (
            "PutStateRequest",
            {"tenant_id": "t", "user_id": "u", "namespace": [""], "key": "k", "value": {}},
            False,
        ),
        ("DeleteStateRequest", {"tenant_id": "t", "user_id": "u", "namespace": ["a"], "keys": None}, True),
        ("DeleteStateRequest", {"tenant_id": "t", "user_id": "u", "namespace": ["a"], "keys": []}, True),
        (
            "DeleteStateRequest",
            {"tenant_id": "t", "user_id": "u", "namespace": ["a"], "keys": ["k"] * 1001},
            False,
        ),
        ("ListStateRequest", {"tenant_id": "t", "user_id": "u", "limit": 5001}, False),
        ("ForgetRequest", {"memory_ids": []}, False),
        ("ForgetRequest", {"memory_ids": ["m_1", 2]}, True),
        ("ForgetRequest", {"memory_ids": ["h_1"]}, False),
        (
            "DeleteHistoryRequest",
            {"tenant_id": "t", "user_id": "u", "session_id": "s", "ids": ["h_1"]},
            False,
        ),
        ("DeleteHistoryRequest", {"tenant_id": "t", "user_id": "u"}, False),
        ("AddMemoryRequest", {"text": "t", "client_ref": "r" * 129}, False),
        ("TooManyRequestsBody", {"detail": {"error": "limit_exceeded", "message": "over plan"}}, True),
        (
            "AddTurnResponse",
            {
                "memory_id": None,
                "status": "ok",
                "processing_status": "skipped_replay",
                "already_exists": True,
                "request_id": None,
            },
            True,
        ),
        ("GetStateResponse", {"item": None}, True),
    ],
)
def test_contract_limits_and_nullability(component, instance, valid):
    assert _component(component).is_valid(instance) is valid
