"""Error bodies in the contract's FastAPI style, and the exceptions handlers raise to send them."""

from __future__ import annotations

from typing import Any

from jsonschema import ValidationError

EMPTY_TEXT_DETAIL = "'text' must be a non-empty string"


class ApiError(Exception):
    """An answer other than success: ``status`` with ``{"detail": detail}``."""

    def __init__(self, status: int, detail: Any, headers: dict[str, str] | None = None) -> None:
        super().__init__(f"{status}: {detail}")
        self.status = status
        self.detail = detail
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        return {"detail": self.detail}


def unauthorized(detail: str) -> ApiError:
    return ApiError(401, detail)


def forbidden(detail: str) -> ApiError:
    return ApiError(403, detail)


def not_found(detail: str) -> ApiError:
    return ApiError(404, detail)


def limit_exceeded(message: str) -> ApiError:
    return ApiError(429, {"error": "limit_exceeded", "message": message})


def invalid(loc: list[str | int], msg: str, kind: str) -> ApiError:
    return ApiError(422, [{"loc": loc, "msg": msg, "type": kind}])


# jsonschema keyword -> the pydantic-style `type` FastAPI users know.
_KINDS = {
    "required": "missing",
    "additionalProperties": "extra_forbidden",
    "minLength": "string_too_short",
    "maxLength": "string_too_long",
    "pattern": "string_pattern_mismatch",
    "minimum": "greater_than_equal",
    "maximum": "less_than_equal",
    "minItems": "too_short",
    "maxItems": "too_long",
    "enum": "enum",
    "format": "value_error",
    "oneOf": "union_tag_invalid",
    "anyOf": "union_tag_invalid",
    "maxProperties": "too_long",
    "propertyNames": "string_too_long",
    "x-max-json-bytes": "too_long",
}
_TYPE_KINDS = {
    "string": "string_type",
    "integer": "int_type",
    "number": "float_type",
    "boolean": "bool_type",
    "object": "dict_type",
    "array": "list_type",
    "null": "none_required",
}


def _kind(error: ValidationError) -> str:
    if error.validator == "type":
        expected = error.validator_value
        first = expected[0] if isinstance(expected, list) else expected
        return _TYPE_KINDS.get(str(first), "type_error")
    return _KINDS.get(str(error.validator), "value_error")


def _message(error: ValidationError) -> str:
    v, value = error.validator, error.validator_value
    if v == "required":
        return error.message.replace("is a required property", "is required")
    if v == "additionalProperties":
        return f"{error.message}; remove the unknown field(s)"
    if v == "pattern" and value == "\\S":
        return "must contain a non-whitespace character"
    if (
        v == "oneOf"
        and isinstance(error.instance, dict)
        and "ids" in error.instance
        and "session_id" in error.instance
    ):
        return "give exactly one of 'session_id' or 'ids', not both"
    selector = _forget_selector(error.instance) if v == "oneOf" and isinstance(error.instance, dict) else None
    if selector is not None:
        return selector
    if v == "not" and isinstance(error.schema, dict) and isinstance(error.schema.get("description"), str):
        # A field openapi.yaml declares only to refuse it (e.g. a memory's text on an edit).
        return error.schema["description"]
    return error.message if len(error.message) <= 300 else error.message[:297] + "..."


def _forget_selector(body: dict[str, Any]) -> str | None:
    """What is wrong with the selector of a forget (memory_ids or filters), if that is the problem."""
    if {"memory_ids", "filters"} <= body.keys():
        return "give exactly one of 'memory_ids' or 'filters', not both"
    if body.get("filters") == {}:
        return (
            "An empty filter would delete every memory; name at least one of source, event_type, tags, "
            'before, after (to clear everything, use a wide one such as {"before": "<now>"}).'
        )
    if "memory_ids" not in body and "filters" not in body and body.keys() <= {"reason", "dry_run"}:
        return "give one of 'memory_ids' (the ids to delete) or 'filters' (what the memories to delete match)"
    return None


def _chosen(error: ValidationError) -> list[ValidationError]:
    """A oneOf/anyOf the body plainly chose a branch of (it has that branch's required fields and
    none that the branch excludes) reports that branch's own problems ("filters.before is not a
    date-time") instead of "not valid under any of the given schemas"."""
    if error.validator not in ("oneOf", "anyOf") or not error.context or not isinstance(error.instance, dict):
        return [error]
    if _forget_selector(error.instance) is not None:
        return [error]
    by_branch: dict[Any, list[ValidationError]] = {}
    for sub in error.context:
        by_branch.setdefault(sub.relative_schema_path[0], []).append(sub)

    def selects(problems: list[ValidationError]) -> bool:
        # Problems of presence on the object itself mean the body did not choose this branch.
        return not any(p.validator in ("required", "not") and p.path == error.path for p in problems)

    chosen = [problems for problems in by_branch.values() if selects(problems)]
    if len(chosen) != 1:
        return [error]
    return [leaf for sub in chosen[0] for leaf in _chosen(sub)]


def validation_items(errors: list[ValidationError], prefix: list[str | int]) -> list[dict[str, Any]]:
    """FastAPI-style ``detail`` items, one per problem, located from ``prefix`` (e.g. ``["body"]``)."""
    items = []
    for error in (leaf for top in errors for leaf in _chosen(top)):
        loc: list[str | int] = [*prefix, *error.absolute_path]
        if error.validator == "required":
            # jsonschema reports a missing field on its parent; FastAPI reports it on the field.
            missing = error.message.split("'")[1] if error.message.count("'") >= 2 else None
            if missing is not None:
                loc.append(missing)
        items.append({"loc": loc, "msg": _message(error), "type": _kind(error)})
    return items
