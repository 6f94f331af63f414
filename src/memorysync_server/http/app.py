"""The ASGI app: routes come from openapi.yaml's paths, dispatched by operationId.

Order per request: a hosted-only route (404, openapi.yaml x-not-offered) -> route (404) ->
method (405) -> auth (401) -> validation against openapi.yaml (422; unknown body fields are
removed and reported, never refused) -> X-Project-ID (404) -> the route (``routes/``), which
checks the tenant (403), calls one service and encodes its answer.
Anything unexpected answers a contract error body; a 500 means a bug and is logged.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from pathlib import Path
from typing import Any

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

from ..defaults import DEFAULT_BODY_TIMEOUT, DEFAULT_MAX_BODY_BYTES, DEFAULT_METRICS, DEFAULT_RECALL_CHARS
from ..domain import Clock, StorageConflict, StorageFull, utc_now
from ..extraction import Extractor
from ..model import DEFAULT_SEARCH, Embedder
from ..model.loading import start_loading
from ..services import Services, build_services
from ..services.errors import ServiceError
from . import health
from .auth import KeyRing, check_project
from .call import Call
from .deadline import BodyDeadline
from .errors import (
    EMPTY_TEXT_DETAIL,
    IDENTITY,
    ApiError,
    from_service,
    identity_error,
    validation_items,
)
from .faults import FaultMiddleware, Faults
from .inspector import Inspector
from .metrics import Metrics, MetricsRoute
from .not_offered import NotOfferedRoutes
from .observe import Observed
from .quota import QuotaMeter
from .request_checks import (
    header_text,
    path_segment,
    query_params,
    refuse_conflicting_identity,
    require_json,
    too_large,
)
from .routes import ROUTES
from .spec import Operation, Spec, is_blank, load_spec
from .unknown_fields import FieldPath, hint_misspelt, report, strip_unknown
from .workers import WorkerPool

log = logging.getLogger("memorysync_server")

# Where a client that asked for a path that does not exist learns which do: both are served by
# this server itself (pip users have no openapi.yaml file to read).
ROUTES_ARE_LISTED = "This server's routes are listed at /docs (interactive) and /openapi.json."
_TEXT_OPS = frozenset({"add_turn", "add_memory"})


class MemorySyncApp:
    """The bare app (no fault injection); :func:`create_app` wraps it."""

    def __init__(
        self,
        spec: Spec,
        keys: KeyRing,
        services: Services,
        *,
        meter: QuotaMeter | None = None,
        max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
        workers: WorkerPool | None = None,
    ) -> None:
        if max_body_bytes < 1:
            raise ValueError(f"max_body_bytes must be a positive number of bytes, got {max_body_bytes}.")
        self.max_body_bytes = max_body_bytes
        self.spec = spec
        self.keys = keys
        self.services = services
        self.meter = meter or QuotaMeter()
        self.workers = workers or WorkerPool()
        self.not_offered = NotOfferedRoutes(spec.document)
        missing = {op.operation_id for op in spec.operations} - set(ROUTES)
        if missing:
            raise RuntimeError(f"openapi.yaml has operations without a route: {sorted(missing)}")

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] != "http":
            return
        request = Request(scope, receive)
        try:
            response = await self._dispatch(request)
        except ApiError as error:
            response = JSONResponse(error.body(), status_code=error.status, headers=error.headers)
        except StorageFull:
            log.error("storage full on %s %s: the write was rolled back", request.method, request.url.path)
            response = _nothing_stored(507, _FULL)
        except StorageConflict:
            # Only after the unit of work was retried (Storage.atomic) and lost every time.
            log.warning("storage conflict on %s %s after retries", request.method, request.url.path)
            response = _nothing_stored(503, _BUSY, {"Retry-After": "1"})
        except ClientDisconnect:  # the client gave up (e.g. a recall past its budget): nobody to answer
            return
        except Exception as error:  # a bug: keep the contract's body shape, and say so in the log
            log.exception("unhandled error on %s %s", request.method, request.url.path)
            response = JSONResponse(
                {
                    "detail": f"Internal server error ({type(error).__name__}). This is a memorysync-server bug."
                },
                status_code=500,
            )
        await response(scope, receive, send)

    async def _dispatch(self, request: Request) -> Response:
        raw = request.scope.get("raw_path") or request.scope["path"].encode()
        raw_path = raw.decode("latin-1").split("?", 1)[0]
        self.not_offered.refuse(request.method, raw_path)
        matches = list(self.spec.match(raw_path))
        if not matches:
            raise ApiError(404, f"Not Found: no route {request.url.path!r}. {ROUTES_ARE_LISTED}")
        for op, path_params in matches:
            if op.method == request.method:
                return await self._run(op, path_params, request)
        allowed = ", ".join(sorted({op.method for op, _ in matches}))
        raise ApiError(
            405,
            f"Method Not Allowed: {request.method} {request.url.path}; use {allowed}.",
            {"Allow": allowed},
        )

    async def _run(self, op: Operation, raw_params: dict[str, str], request: Request) -> Response:
        refuse_conflicting_identity(request.headers.raw)
        key = self.keys.authenticate(request.headers.get("x-api-key"))
        headers = {k.decode("latin-1").lower(): v for k, v in request.headers.raw}
        path = {name: path_segment(name, value) for name, value in raw_params.items()}
        query = query_params(request.scope.get("query_string", b""))
        errors: list[dict[str, Any]] = []
        values: dict[str, dict[str, Any]] = {"header": {}, "path": {}, "query": {}}
        for param in op.params:
            sources: dict[str, dict[str, Any]] = {"header": headers, "path": path, "query": query}
            source = sources[param.location]
            lookup = param.name.lower() if param.location == "header" else param.name
            loc: list[str | int] = [param.location, param.name]
            if lookup not in source:
                if param.required:
                    errors.append({"loc": loc, "msg": f"{param.name} is required", "type": "missing"})
                continue
            value: Any = (
                header_text(param.name, source[lookup]) if param.location == "header" else source[lookup]
            )
            number = _INTEGER.fullmatch(value.strip())
            if number and (param.schema.get("type") == "integer" or _may_be_integer(param.schema)):
                # `7`, `+7` and `7.0` are the integer 7 (JSON Schema counts 7.0 as an integer).
                value = int(number.group(1))
            elif param.schema.get("type") == "integer":
                errors.append({"loc": loc, "msg": f"{param.name} must be an integer", "type": "int_parsing"})
                continue
            found = validation_items(list(param.validator.iter_errors(value)), loc)
            if param.name == "X-Project-ID":
                # Any project id other than the key's own is "not visible" (404), even a malformed
                # one; only an ambiguous one (x-identity) is refused first, as everywhere.
                found = [item for item in found if item["type"] == IDENTITY]
            errors.extend(found)
            values[param.location][lookup] = value
        # Unknown body fields are removed before anything acts on the body; every answer from
        # here on, success or error, names them (openapi.yaml: x-unknown-fields).
        ignored: list[FieldPath] = []
        try:
            body = await self._body(op, request, errors, ignored)
            ambiguous = identity_error(errors)
            if ambiguous is not None:  # who the request acts for is unclear: nothing else matters
                raise ambiguous
            if errors:
                hint_misspelt(errors, ignored)
                raise ApiError(422, errors)
            if "x-project-id" in headers:
                check_project(key, header_text("X-Project-ID", headers["x-project-id"]))
            call = Call(
                key=key,
                body=_integral(body),
                path={**path, **values["path"]},
                query=values["query"],
                headers=values["header"],
                meter=self.meter,
            )
            # The handler and the encoding of its answer run on a worker thread: the event loop,
            # which every request shares, never waits for one request's work.
            response = await self.workers.run(self._answer, op.operation_id, call)
        except ApiError as error:
            error.headers.update(report(op, ignored))
            raise
        response.headers.update(report(op, ignored))
        return response

    def _answer(self, operation_id: str, call: Call) -> Response:
        try:
            status, payload = ROUTES[operation_id](self.services, call)
        except ServiceError as error:
            raise from_service(error) from None
        return JSONResponse(payload, status_code=status, headers=call.reply_headers or None)

    async def _body(
        self, op: Operation, request: Request, errors: list[dict[str, Any]], ignored: list[FieldPath]
    ) -> Any:
        if op.body is None:
            return None
        require_json(request.headers.get("content-type"))
        raw = await self._read_capped(request)
        if len(raw) < _PARSE_INLINE_BYTES:
            return self._parse(op, raw, errors, ignored)
        # Parsing and validating a large body takes milliseconds: off the shared event loop.
        return await self.workers.run(self._parse, op, raw, errors, ignored)

    def _parse(
        self, op: Operation, raw: bytes, errors: list[dict[str, Any]], ignored: list[FieldPath]
    ) -> Any:
        assert op.body is not None
        if not raw.strip():
            errors.append({"loc": ["body"], "msg": "A JSON request body is required", "type": "missing"})
            return None
        try:
            body = json.loads(raw, parse_constant=_reject_constant, object_pairs_hook=_unique_keys)
            too_deep = _depth(body) > MAX_DEPTH
        except RecursionError:
            too_deep = True
        except (ValueError, UnicodeDecodeError) as error:
            position = getattr(error, "pos", 0)
            errors.append(
                {
                    "loc": ["body", position],
                    "msg": f"Malformed JSON: {error}. Send a JSON object.",
                    "type": "json_invalid",
                }
            )
            return None
        if too_deep:
            errors.append(
                {
                    "loc": ["body"],
                    "msg": f"JSON nested deeper than {MAX_DEPTH} levels; flatten the payload or metadata.",
                    "type": "json_invalid",
                }
            )
            return None
        bad = _unencodable(body, ["body"])
        if bad is not None:
            errors.append(
                {"loc": bad, "msg": "String contains an unpaired UTF-16 surrogate", "type": "string_unicode"}
            )
            return None
        if op.body_fields is not None:
            body, unknown = strip_unknown(op.body_fields, body)
            ignored.extend(unknown)
        if op.operation_id in _TEXT_OPS and isinstance(body, dict):
            text = body.get("text")
            if isinstance(text, str) and is_blank(text):
                raise ApiError(422, EMPTY_TEXT_DETAIL)
        errors.extend(
            validation_items(
                sorted(op.body.iter_errors(body), key=lambda e: list(map(str, e.path))), ["body"]
            )
        )
        return body

    async def _read_capped(self, request: Request) -> bytes:
        """The body, refused with 413 as soon as it is known to exceed the cap (from its declared
        length before reading anything, else while streaming), so a huge body is never buffered."""
        declared = request.headers.get("content-length")
        if declared is not None and declared.strip().isdigit() and int(declared) > self.max_body_bytes:
            raise too_large(self.max_body_bytes, int(declared))
        chunks, total = [], 0
        async for chunk in request.stream():
            total += len(chunk)
            if total > self.max_body_bytes:
                raise too_large(self.max_body_bytes, None)
            chunks.append(chunk)
        return b"".join(chunks)


_FULL = (
    "Insufficient storage: the server's database has no room for this write, so nothing of it was stored "
    "(everything stored before is intact). Free space where the database lives, then retry the same request"
)
_BUSY = (
    "Service busy: concurrent writes to the same records kept conflicting, so nothing of this request was "
    "stored. Retry it after a moment"
)


def _nothing_stored(status: int, why: str, headers: dict[str, str] | None = None) -> Response:
    return JSONResponse(
        {"detail": f"{why}; its idempotency fields make the retry safe."}, status_code=status, headers=headers
    )


SWITCH_INTERVAL = 0.001
_FREE_FORM = frozenset({"metadata", "value", "payload"})
_PARSE_INLINE_BYTES = 16 * 1024
# Free-form fields may nest; past this the recursive steps after parsing (validation, storage,
# the JSON answer) would hit Python's recursion limit, so such a body is a 422, never a 500.
MAX_DEPTH = 100


def _depth(value: Any) -> int:
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, (dict, list)):
            deepest = max(deepest, level)
            if level > MAX_DEPTH:
                break
            stack.extend((child, level + 1) for child in (node.values() if isinstance(node, dict) else node))
    return deepest


def _integral(value: Any) -> Any:
    """JSON ``5.0`` is a valid ``integer`` for jsonschema; handlers get ``5`` (free-form fields untouched)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: v if k in _FREE_FORM else _integral(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_integral(v) for v in value]
    return value


_INTEGER = re.compile(r"([+-]?[0-9]+)(?:\.0+)?", re.ASCII)


def _may_be_integer(schema: dict[str, Any]) -> bool:
    return "type" not in schema and any(b.get("type") == "integer" for b in schema.get("oneOf", ()))


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all different; a repeated key is a 400. Parsers disagree about
    which of two values counts (Python's and most others keep the last, some the first), so
    ``{"user_id": "bob", "user_id": "alice"}`` could act for either."""
    obj = dict(pairs)
    if len(obj) == len(pairs):
        return obj
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise ApiError(
                400,
                f"The JSON body names the key {key!r} more than once in one object, so it could mean "
                "either value (parsers disagree about which counts). Send each key once.",
            )
        seen.add(key)
    raise AssertionError("unreachable: a shorter dict means a repeated key")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _unencodable(value: Any, loc: list[str | int]) -> list[str | int] | None:
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return loc
    elif isinstance(value, dict):
        for k, v in value.items():
            found = _unencodable(k, [*loc, "<key>"]) or _unencodable(v, [*loc, k])
            if found:
                return found
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found = _unencodable(v, [*loc, i])
            if found:
                return found
    return None


def create_app(
    db: str | Path,
    *,
    keys: KeyRing,
    faults: Faults | None = None,
    clock: Clock = utc_now,
    extractor: Extractor | None = None,
    embedder: Embedder | None = None,
    meter: QuotaMeter | None = None,
    spec_path: str | None = None,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    body_timeout: float = DEFAULT_BODY_TIMEOUT,
    metrics: str = DEFAULT_METRICS,
    search: str = DEFAULT_SEARCH,
    encoder: str = "auto",
    defer_model: bool = False,
    recall_chars: int = DEFAULT_RECALL_CHARS,
) -> Any:
    """The ASGI app of a MemorySync server: the API, the inspector (``/``), its docs (``/docs``),
    ``/health``, ``/ready`` and ``/metrics``. Serve it with any ASGI server; ``app.services.close()``
    releases the database.

    Args:
        db: A SQLite file path, or a ``postgresql://`` URL.
        keys: The API keys it accepts (`KeyRing`).
        faults: Faults to inject on every request (`LocalServer` passes its own).
        clock: The current UTC time (injected by tests).
        extractor: What turns a turn into facts (default: `RuleExtractor`).
        embedder: Replaces the search mode's embedder (any object with ``dim`` and ``embed``).
        meter: Counts each key's use against its `Quota` (kept across restarts by `LocalServer`).
        spec_path: Another openapi.yaml to serve (default: the packaged one).
        max_body_bytes: The largest request body accepted; larger ones are answered 413.
        body_timeout: Seconds a request body may make no progress before it is answered 408.
        metrics: Who may read ``GET /metrics``: ``key`` (any accepted API key), ``open`` or ``off``.
        search: How facts are ranked: ``hybrid``, ``semantic``, ``lexical`` or ``bm25``
            (`SEARCH_MODES`).
        encoder: Which graph of the model encodes: ``auto`` (measured on this machine), ``int8``
            or ``published``.
        defer_model: Start loading the model at the first request instead of now (processes
            starting side by side on the same cores, ``serve --workers N``, answer sooner).
        recall_chars: The recall block's size in characters per end user.

    Returns:
        The ASGI application, with ``.services`` (what it serves from) and ``.metrics``.

    Raises:
        ValueError: A setting out of range, an unknown search mode, or a database that cannot be opened.
    """
    # Requests share one interpreter lock. A thread computing (embedding a large value) keeps it
    # for the whole switch interval each time it gets it; 1 ms instead of Python's 5 ms bounds how
    # long a quick request (a recall) waits at each of its hand-offs.
    sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))
    services = build_services(
        db,
        clock=clock,
        extractor=extractor,
        embedder=embedder,
        search=search,
        encoder=encoder,
        defer_model=defer_model,
        recall_chars=recall_chars,
    )
    # One pool for the API and the health routes: at most DEFAULT_WORKERS calls at once between them.
    workers = WorkerPool()
    api = MemorySyncApp(
        load_spec(spec_path), keys, services, meter=meter, max_body_bytes=max_body_bytes, workers=workers
    )
    # The inspector page, /openapi.json and /docs answer their own paths; the rest reaches the API.
    first = (lambda: start_loading(services.search.embedder)) if defer_model else None
    app: Any = health.HealthRoutes(
        Inspector(api, api.spec, keys, services), services, workers, first_request=first
    )
    figures = Metrics(services)
    app = MetricsRoute(app, figures, keys, workers, mode=metrics)
    app = Observed(BodyDeadline(app, body_timeout), api.spec, keys, figures)
    app.services, app.metrics = services, figures
    if faults is not None:
        wrapped = FaultMiddleware(app, faults)
        wrapped.services = services  # type: ignore[attr-defined]
        wrapped.inner = app  # type: ignore[attr-defined]
        wrapped.metrics = figures  # type: ignore[attr-defined]
        return wrapped
    return app
