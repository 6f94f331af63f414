"""openapi.yaml, loaded once at start-up: the routes and the request validators come from it.

There is no hand-written copy of any schema: each operation's body, header, path and query
rules are jsonschema validators over the spec's own ``components``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator, FormatChecker, ValidationError, validators
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from ..services.blank import ECMA_WHITESPACE, is_blank
from ..services.limits import json_size

__all__ = [
    "SPEC_PATH",
    "Operation",
    "Spec",
    "ecma_regex",
    "identity_pattern",
    "is_blank",
    "json_size",
    "load_spec",
    "request_fields",
]

SPEC_PATH = Path(__file__).parents[1] / "openapi.yaml"
_SPEC_URI = "urn:memorysync:openapi"

# RFC 3339 date-time, the `format: date-time` of the spec (FastAPI/pydantic reject others too).
_DATE_TIME = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$", re.ASCII
)
_FORMATS = FormatChecker(formats=())


# What ECMA-262 means by the pattern tokens where Python's re means something else: `$` is the
# end of the text (Python's also matches before a final newline, so "m_1\n" would pass
# '^m_[0-9]+$'), `.` stops at every line terminator, and \s is ECMA's own whitespace.
_ECMA_OUTSIDE_CLASS = {
    "$": r"\Z",
    ".": "[^\n\r\u2028\u2029]",
    "\\s": f"[{ECMA_WHITESPACE}]",
    "\\S": f"[^{ECMA_WHITESPACE}]",
}


@lru_cache(maxsize=256)
def ecma_regex(pattern: str) -> re.Pattern[str]:
    """A JSON Schema (ECMA-262) ``pattern`` as a Python regex with the same meaning (``re.ASCII``:
    ECMA's digit, word and word-boundary escapes are ASCII-only)."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        token = pattern[i : i + 2] if pattern[i] == "\\" else pattern[i]
        i += len(token)
        if in_class:
            in_class = token != "]"
            out.append(ECMA_WHITESPACE if token == "\\s" else token)
            continue
        in_class = token == "["
        out.append(_ECMA_OUTSIDE_CLASS.get(token, token))
    return re.compile("".join(out), re.ASCII)


def identity_pattern(document: Mapping[str, Any]) -> re.Pattern[str]:
    """What every identity (``x-identity``) must match: openapi.yaml's ``x-identity-pattern``, for
    the routes outside the contract (the inspector's) that take an id too."""
    return ecma_regex(str(document["x-identity-pattern"]))


def _pattern(
    validator: Any, pattern: str, instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    if isinstance(instance, str) and not ecma_regex(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _max_json_bytes(
    validator: Any, limit: int, instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    # openapi.yaml's `x-max-json-bytes`: free-form values (metadata, state values, payloads) have
    # no schema that bounds their size, yet metadata is copied onto every extracted fact.
    size = json_size(instance)
    if size > limit:
        yield ValidationError(
            f"Value is {size} bytes as JSON; the limit is {limit} bytes. Store less here, or keep large "
            "data elsewhere and put a reference in this field."
        )


_Validator = validators.extend(
    Draft202012Validator, {"pattern": _pattern, "x-max-json-bytes": _max_json_bytes}
)


@_FORMATS.checks("date-time")  # type: ignore[untyped-decorator]  # jsonschema's decorator is unannotated
def _is_date_time(value: object) -> bool:
    # Checked field by field rather than with datetime.fromisoformat, whose accepted syntax
    # differs between Python versions (3.10 rejects fractions that are not 3 or 6 digits).
    if not isinstance(value, str):
        return True
    match = _DATE_TIME.fullmatch(value)
    if not match:
        return False
    year, month, day, hour, minute, second, off_h, off_m = (
        int(g or 0) for g in match.group(1, 2, 3, 4, 5, 6, 7, 8)
    )
    try:
        datetime(year, month, day, hour, minute, second)
    except ValueError:
        return False
    return off_h <= 23 and off_m <= 59


@dataclass(frozen=True)
class Fields:
    """The field names a request body's schema declares, at every level.

    ``closed`` is True for an object schema that lists its ``properties`` (any other key is
    unknown), False for a free-form object (``additionalProperties`` given: metadata, values,
    payloads), None where the schema says nothing about objects. ``items`` describes the
    elements of an array."""

    closed: bool | None = None
    names: Mapping[str, Fields] = field(default_factory=dict)
    items: Fields | None = None

    def merged(self, other: Fields) -> Fields:
        """Both schemas' names: a field declared by any branch of a oneOf/anyOf/allOf is known."""
        if self.closed is False or other.closed is False:
            closed: bool | None = False
        else:
            closed = self.closed or other.closed
        names = dict(self.names)
        for name, sub in other.names.items():
            names[name] = names[name].merged(sub) if name in names else sub
        items = (
            other.items
            if self.items is None
            else (self.items if other.items is None else self.items.merged(other.items))
        )
        return Fields(closed=closed, names=names, items=items)


def request_fields(document: dict[str, Any], node: Any, seen: frozenset[str] = frozenset()) -> Fields:
    """What ``node`` (a schema of ``document``) declares, following ``$ref``s and combinators."""
    if not isinstance(node, dict):
        return Fields()
    ref = node.get("$ref")
    if isinstance(ref, str):
        if ref in seen:  # a recursive schema: treat the inner level as free-form
            return Fields(closed=False)
        return request_fields(document, _resolve(document, {"$ref": ref}), seen | {ref})
    extra = node.get("additionalProperties", False)
    if extra is not False or "patternProperties" in node:
        result = Fields(closed=False)
    elif "properties" in node:
        result = Fields(
            closed=True,
            names={name: request_fields(document, sub, seen) for name, sub in node["properties"].items()},
        )
    elif node.get("type") == "object" or (isinstance(node.get("type"), list) and "object" in node["type"]):
        result = Fields(closed=False)
    else:
        result = Fields()
    if "items" in node:
        result = result.merged(Fields(items=request_fields(document, node["items"], seen)))
    for combinator in ("allOf", "oneOf", "anyOf"):
        for branch in node.get(combinator, ()):
            result = result.merged(request_fields(document, branch, seen))
    return result


@dataclass(frozen=True)
class Param:
    name: str
    location: str  # header | path | query
    required: bool
    validator: Draft202012Validator
    schema: dict[str, Any]


@dataclass(frozen=True)
class Operation:
    operation_id: str
    method: str
    path: str
    pattern: re.Pattern[str]
    path_names: tuple[str, ...]
    params: tuple[Param, ...]
    body: Draft202012Validator | None
    body_required: bool
    body_fields: Fields | None
    success_status: int
    responses: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Spec:
    document: dict[str, Any]
    operations: tuple[Operation, ...]

    def by_id(self, operation_id: str) -> Operation:
        for op in self.operations:
            if op.operation_id == operation_id:
                return op
        raise KeyError(operation_id)

    def match(self, raw_path: str) -> Iterator[tuple[Operation, dict[str, str]]]:
        """Operations whose path matches the raw (still percent-encoded) request path."""
        for op in self.operations:
            m = op.pattern.fullmatch(raw_path)
            if m:
                yield op, dict(zip(op.path_names, m.groups(), strict=True))


def _validator(registry: Registry, rebased: dict[str, Any], schema: dict[str, Any]) -> Draft202012Validator:
    """A validator of ``schema`` (a schema of the spec, its refs still relative) with its refs
    already followed: see :func:`_inlined`. ``rebased`` is the spec with absolute refs."""
    return _Validator(_inlined(rebased, _rebase(schema)), registry=registry, format_checker=_FORMATS)


def _inlined(rebased: dict[str, Any], node: Any, chain: frozenset[str] = frozenset()) -> Any:
    """``node`` with every ``{"$ref": ...}`` replaced by the schema it names, once at start-up.

    Resolving a ``$ref`` while validating (referencing's lookup, a new validator per hop) took
    three quarters of a request body's validation (120 of 160 us for a recall). A node that is
    only a ``$ref`` validates exactly as its target (same keywords in the same order, same
    errors: jsonschema adds nothing of the ``$ref`` to an error), so it is replaced by it. A ref
    already being followed (a recursive schema) stays a ref, resolved through the registry as
    before (its absolute ``urn:`` form needs no base)."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and len(node) == 1 and ref.startswith(_SPEC_URI + "#/") and ref not in chain:
            target: Any = rebased
            for part in ref[len(_SPEC_URI) + 2 :].split("/"):
                target = target[part.replace("~1", "/").replace("~0", "~")]
            return _inlined(rebased, target, chain | {ref})
        return {k: _inlined(rebased, v, chain) for k, v in node.items()}
    if isinstance(node, list):
        return [_inlined(rebased, v, chain) for v in node]
    return node


def _resolve(document: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        ref = node["$ref"]
        assert ref.startswith("#/"), ref
        target: Any = document
        for part in ref[2:].split("/"):
            target = target[part]
        node = target
    return node


def _rebase(node: Any) -> Any:
    if isinstance(node, dict):
        return {
            k: (_SPEC_URI + v if k == "$ref" and isinstance(v, str) and v.startswith("#") else _rebase(v))
            for k, v in node.items()
        }
    if isinstance(node, list):
        return [_rebase(v) for v in node]
    return node


def _path_regex(template: str, digits: set[str]) -> str:
    """The raw-path regex of a path template; the ``digits`` parameters match digits only."""

    def segment(m: re.Match[str]) -> str:
        return "([0-9]+)" if m.group(1) in digits else "([^/]+)"

    return "^" + re.sub(r"\\{([^}\\]+)\\}", segment, re.escape(template)) + "$"


@lru_cache(maxsize=4)
def load_spec(path: str | None = None) -> Spec:
    # libyaml's loader when PyYAML has it: the pure-Python one took most of the server's start-up.
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    document = yaml.load(Path(path or SPEC_PATH).read_text(encoding="utf-8"), Loader=loader)
    rebased = _rebase(document)
    resource = Resource.from_contents(rebased, default_specification=DRAFT202012)
    registry: Registry = Registry().with_resource(_SPEC_URI, resource)
    operations = []
    for path_template, item in document["paths"].items():
        for method, raw in item.items():
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            names = tuple(re.findall(r"{([^}]+)}", path_template))
            # An integer path segment matches digits only, so /memory/export or PATCH /memory/forget
            # reach their own route (or 404/405) instead of /memory/{memory_id}.
            digits = {
                p["name"]
                for p in (_resolve(document, p) for p in raw.get("parameters", []))
                if p["in"] == "path" and _resolve(document, p["schema"]).get("type") == "integer"
            }
            regex = _path_regex(path_template, digits)
            params = []
            for p in raw.get("parameters", []):
                p = _resolve(document, p)
                params.append(
                    Param(
                        name=p["name"],
                        location=p["in"],
                        required=bool(p.get("required", False)),
                        validator=_validator(registry, rebased, p["schema"]),
                        schema=_resolve(document, p["schema"]),
                    )
                )
            body = None
            body_required = False
            body_fields = None
            if "requestBody" in raw:
                rb = _resolve(document, raw["requestBody"])
                body_schema = rb["content"]["application/json"]["schema"]
                body = _validator(registry, rebased, body_schema)
                body_required = bool(rb.get("required", False))
                body_fields = request_fields(document, body_schema)
            success = min(int(code) for code in raw["responses"] if code.startswith("2"))
            operations.append(
                Operation(
                    operation_id=raw["operationId"],
                    method=method.upper(),
                    path=path_template,
                    pattern=re.compile(regex),
                    path_names=names,
                    params=tuple(params),
                    body=body,
                    body_required=body_required,
                    body_fields=body_fields,
                    success_status=success,
                    responses=raw["responses"],
                )
            )
    return Spec(document=document, operations=tuple(operations))
