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
    "memory_status": ("get", "/v1/memory/status/{memory_id}", "memory"),
    "add_memory": ("post", "/memory/add", "memory"),
    "forget_memories": ("delete", "/memory/forget", "memory"),
    "bulk_add_memories": ("post", "/memory/bulk-add", "memory"),
    "search_memories": ("post", "/memory/query", "memory"),
    "retrieve_memories": ("post", "/memory/retrieve", "memory"),
    "batch_update_memories": ("post", "/memory/batch-update", "memory"),
    "export_memories": ("get", "/memory/export", "memory"),
    "get_memory": ("get", "/memory/{memory_id}", "memory"),
    "update_memory": ("patch", "/memory/{memory_id}", "memory"),
    "get_memory_history": ("get", "/memory/{memory_id}/history", "memory"),
    "give_memory_feedback": ("post", "/memory/{memory_id}/feedback", "memory"),
    "append_history": ("post", "/v1/history/append", "history"),
    "list_history": ("post", "/v1/history/list", "history"),
    "delete_history": ("post", "/v1/history/delete", "history"),
    "put_state": ("post", "/v1/state/put", "state"),
    "put_state_many": ("post", "/v1/state/put_many", "state"),
    "get_state": ("post", "/v1/state/get", "state"),
    "list_state": ("post", "/v1/state/list", "state"),
    "search_state": ("post", "/v1/state/search", "state"),
    "list_state_namespaces": ("post", "/v1/state/namespaces", "state"),
    "delete_state": ("post", "/v1/state/delete", "state"),
    "health": ("get", "/health", "health"),
    "ready": ("get", "/ready", "health"),
    "metrics": ("get", "/metrics", "health"),
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
    if op.get("security") == []:  # keyless (health, readiness): no key to refuse, no quota to spend
        assert not {"401", "403", "429"} & codes and not op.get("parameters") and "requestBody" not in op
        return
    if op["tags"] == ["health"]:  # an operator's route (metrics): a key, but no tenant and no quota
        assert "401" in codes and not {"403", "429"} & codes and "requestBody" not in op
        return
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


# ---- unknown request fields: accepted, ignored, reported ---------------------------------------
def _schemas_under(node, seen=None):
    """Every schema object reachable from ``node`` (following refs), each once."""
    seen = set() if seen is None else seen
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            if ref not in seen:
                seen.add(ref)
                target = SPEC
                for part in ref[2:].split("/"):
                    target = target[part]
                yield from _schemas_under(target, seen)
            return
        yield node
        for value in node.values():
            yield from _schemas_under(value, seen)
    elif isinstance(node, list):
        for value in node:
            yield from _schemas_under(value, seen)


def _request_schemas():
    for _path, _method, op in _operations():
        if "requestBody" in op:
            yield op, op["requestBody"]["content"]["application/json"]["schema"]


def test_unknown_fields_policy_is_written_down():
    assert SPEC["x-unknown-fields"] == "ignore-and-report"
    assert "X-MemorySync-Ignored-Fields" in SPEC["info"]["description"]
    header = SPEC["components"]["headers"]["IgnoredFields"]
    assert header["schema"]["maxLength"] == 1024


def test_no_request_schema_refuses_unknown_fields():
    for op, schema in _request_schemas():
        for node in _schemas_under(schema):
            assert node.get("additionalProperties") is not False, (
                f"{op['operationId']}: request schemas accept unknown fields (x-unknown-fields); "
                "drop `additionalProperties: false`"
            )


def test_every_answer_to_a_body_declares_the_ignored_fields_header():
    ref = {"$ref": "#/components/headers/IgnoredFields"}
    for op, _schema in _request_schemas():
        for code, response in op["responses"].items():
            if code.startswith("2"):
                assert response.get("headers", {}).get("X-MemorySync-Ignored-Fields") == ref, (
                    op["operationId"],
                    code,
                )
    assert (
        SPEC["components"]["responses"]["ValidationFailed"]["headers"]["X-MemorySync-Ignored-Fields"] == ref
    )


def _resolved(node):
    while "$ref" in node:
        target = SPEC
        for part in node["$ref"][2:].split("/"):
            target = target[part]
        node = target
    return node


def test_union_branches_exclude_the_fields_only_their_siblings_declare():
    """A field declared by any branch of a oneOf/anyOf is "known", so the server keeps it; each
    branch must then refuse the fields that only its siblings declare, or a body matching one
    branch could carry a sibling's field (of any type) to the route."""
    for op, schema in _request_schemas():
        for node in _schemas_under(schema):
            for key in ("oneOf", "anyOf"):
                branches = [_resolved(b) for b in node.get(key, [])]
                objects = [b for b in branches if "properties" in b]
                for branch in objects:
                    others = set().union(*(set(b["properties"]) for b in objects if b is not branch))
                    foreign = others - set(branch["properties"])
                    excluded = set()
                    negated = branch.get("not", {})
                    for part in [negated, *negated.get("anyOf", [])]:
                        excluded |= set(part.get("required", []))
                    assert foreign <= excluded, (op["operationId"], key, sorted(foreign - excluded))


@pytest.mark.parametrize(
    "component,instance,valid",
    [
        ("DeleteHistoryRequest", {"tenant_id": "t", "user_id": "u", "ids": [7, "h_8"]}, True),
        ("DeleteHistoryRequest", {"tenant_id": "t", "user_id": "u", "ids": [0]}, False),
        ("DeleteHistoryRequest", {"tenant_id": "t", "user_id": "u", "session_id": "s", "ids": "x"}, False),
        ("DeleteHistoryRequest", {"tenant_id": "t", "user_id": "u", "session_id": "s", "other": 1}, True),
        ("ListStateRequest", {"tenant_id": "t", "user_id": "u", "namespace_prefix": []}, True),
        ("ListStateRequest", {"tenant_id": "t", "user_id": "u", "namespace_prefix": ["a"] * 21}, False),
        (
            "SearchStateRequest",
            {"tenant_id": "t", "user_id": "u", "query": "q", "namespace_prefix": []},
            True,
        ),
        ("RecallRequest", {"tenant_id": "t", "user_id": "u", "prompt": "p", "tgas": [1]}, True),
    ],
)
def test_sdk_inputs_and_unknown_fields_are_valid(component, instance, valid):
    assert _component(component).is_valid(instance) is valid
