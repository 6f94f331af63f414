"""Error bodies in the contract's FastAPI style, and the exceptions handlers raise to send them."""

from __future__ import annotations

from typing import Any

from jsonschema import ValidationError

from ..services.errors import Conflicting, Invalid, NotVisible, ServiceError

EMPTY_TEXT_DETAIL = "'text' must be a non-empty string"
# The `type` of a validation item about an identity (openapi.yaml `x-identity`): such a request is
# answered 400 as ambiguous (see identity_error), not 422 with the other validation problems.
IDENTITY = "identity_ambiguous"


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


_TYPE_NAMES = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "object": "a JSON object",
    "array": "a list",
    "null": "null",
}
_SHOWN = 40


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    for name, kind in (
        ("string", str),
        ("integer", int),
        ("number", float),
        ("object", dict),
        ("array", list),
    ):
        if isinstance(value, kind):
            return name
    return "null"


def _field(path: list[str | int]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _reason(error: ValidationError) -> str | None:
    """What is wrong, in words that need no schema; None for jsonschema's own message."""
    v, limit, value = error.validator, error.validator_value, error.instance
    count = len(value) if isinstance(value, (str, list, dict)) else None
    if v == "maximum":
        return f"must be at most {limit} (got {_shown(value)})"
    if v == "minimum":
        return f"must be at least {limit} (got {_shown(value)})"
    if v == "maxLength":
        return f"must be at most {limit} characters long (got {count})"
    if v == "minLength":
        return (
            "must not be empty" if limit == 1 else f"must be at least {limit} characters long (got {count})"
        )
    if v == "maxItems":
        return f"must have at most {limit} items (got {count})"
    if v == "minItems":
        return (
            "must not be an empty list" if limit == 1 else f"must have at least {limit} items (got {count})"
        )
    if v == "maxProperties":
        return f"must have at most {limit} keys (got {count})"
    if v == "type":
        wanted = limit if isinstance(limit, list) else [limit]
        names = " or ".join(_TYPE_NAMES.get(str(t), str(t)) for t in wanted)
        return f"must be {names} (got {_TYPE_NAMES.get(_json_type(value), 'null')})"
    if v == "enum":
        return f"must be one of {', '.join(map(str, limit))} (got {_shown(value)})"
    if v == "format" and limit == "date-time":
        return f"must be an RFC 3339 date-time such as 2024-05-01T12:00:00Z (got {_shown(value)})"
    if v == "pattern":
        if limit == "\\S":
            return "must contain a non-whitespace character"
        return f"must match {limit} (got {_shown(value)})"
    return None


def _message(error: ValidationError, prefix: list[str | int]) -> str:
    v = error.validator
    if v == "required":
        return str(error.message).replace("is a required property", "is required")
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
        return str(error.schema["description"])
    reason = _reason(error) if v not in ("oneOf", "anyOf") else _alternatives(error)
    # The field as the client wrote it: the body path, or the parameter's name.
    name = _field([*prefix[1:], *error.absolute_path])
    if reason is not None:
        # Clients that show only `msg` (the official SDK) still learn which field it is.
        return f"'{name}' {reason}" if name else f"the {prefix[0] if prefix else 'value'} {reason}"
    message = error.message if len(error.message) <= 300 else error.message[:297] + "..."
    return f"'{name}': {message}" if name else message


def _alternatives(error: ValidationError) -> str | None:
    """Why no branch of a oneOf/anyOf accepted the value: the fields one of them needs, or each
    branch's reason when they are about the value itself."""
    subs = list(error.context or ())
    branches = {sub.relative_schema_path[0] for sub in subs}
    missing = [
        sub.message.split("'")[1]
        for sub in subs
        if sub.validator == "required" and not sub.relative_path and sub.message.count("'") >= 2
    ]
    if missing and len({sub.relative_schema_path[0] for sub in subs if sub.validator == "required"}) == len(
        branches
    ):
        return "needs one of " + " or ".join(f"'{m}'" for m in dict.fromkeys(missing))
    if subs and all(not sub.relative_path for sub in subs):
        reasons = [r for r in (_reason(sub) for sub in subs) if r is not None]
        if len(reasons) == len(subs):
            return ", or ".join(dict.fromkeys(reasons))
    return None


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


def _is_identity(error: ValidationError) -> bool:
    return (
        error.validator == "pattern"
        and isinstance(error.schema, dict)
        and bool(error.schema.get("x-identity"))
    )


def identity_error(items: list[dict[str, Any]]) -> ApiError | None:
    """The 400 for the identity items among ``items`` (validation items), or None if there are none."""
    found = [item for item in items if item["type"] == IDENTITY]
    return ApiError(400, " ".join(item["msg"] for item in found)) if found else None


def identity_message(name: str, value: Any) -> str:
    return (
        f"{name!r} must not begin or end with whitespace or hold a control character (got {_shown(value)}). "
        "Ids are compared exactly, so this one would name someone other than the id without them; "
        "send the id as stored, without surrounding whitespace or control characters."
    )


def validation_items(errors: list[ValidationError], prefix: list[str | int]) -> list[dict[str, Any]]:
    """FastAPI-style ``detail`` items, one per problem, located from ``prefix`` (e.g. ``["body"]``)."""
    items = []
    for error in (leaf for top in errors for leaf in _chosen(top)):
        loc: list[str | int] = [*prefix, *error.absolute_path]
        if _is_identity(error):
            name = _field([*prefix[1:], *error.absolute_path]) or str(prefix[-1])
            items.append({"loc": loc, "msg": identity_message(name, error.instance), "type": IDENTITY})
            continue
        if error.validator == "required":
            # jsonschema reports a missing field on its parent; FastAPI reports it on the field.
            missing = error.message.split("'")[1] if error.message.count("'") >= 2 else None
            if missing is not None:
                loc.append(missing)
        items.append({"loc": loc, "msg": _message(error, prefix), "type": _kind(error)})
    return items


def from_service(error: ServiceError) -> ApiError:
    """The HTTP answer to what a service refused."""
    if isinstance(error, Invalid):
        return invalid(error.loc, error.detail, error.kind)
    if isinstance(error, Conflicting):
        return ApiError(409, error.detail)
    if isinstance(error, NotVisible):
        return ApiError(404, error.detail)
    return ApiError(400, error.detail)
