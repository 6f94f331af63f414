"""openapi.yaml's ``$ref``s are followed once, at start-up (spec._inlined): what a request is
checked against must stay exactly what the spec says, recursive schemas included."""

from __future__ import annotations

from pathlib import Path

import yaml

from memorysync_server.http.errors import validation_items
from memorysync_server.http.spec import SPEC_PATH, load_spec


def _items(op_body: object, body: object) -> list[dict[str, object]]:
    return validation_items(list(op_body.iter_errors(body)), ["body"])  # type: ignore[attr-defined]


def test_a_recursive_schema_is_checked_at_every_depth(tmp_path: Path) -> None:
    spec = yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8"))
    spec["components"]["schemas"]["Outline"] = {
        "type": "object",
        "properties": {
            "title": {"$ref": "#/components/schemas/TenantId"},
            "children": {"type": "array", "items": {"$ref": "#/components/schemas/Outline"}},
        },
    }
    spec["components"]["schemas"]["RecallRequest"]["properties"]["outline"] = {
        "$ref": "#/components/schemas/Outline"
    }
    changed = tmp_path / "openapi.yaml"
    changed.write_text(yaml.safe_dump(spec), encoding="utf-8")
    body = load_spec(str(changed)).by_id("recall").body
    ok = {"tenant_id": "t", "user_id": "u", "prompt": "p"}
    deep = {
        "title": "a",
        "children": [{"title": "b", "children": [{"title": "c", "children": [{"title": 7}]}]}],
    }
    assert _items(body, {**ok, "outline": {"title": "a", "children": [{"title": "b"}]}}) == []
    (item,) = _items(body, {**ok, "outline": deep})
    assert item["loc"] == ["body", "outline", "children", 0, "children", 0, "children", 0, "title"]
    assert item["type"] == "string_type"
