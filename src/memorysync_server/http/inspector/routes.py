"""The inspector page, its JSON routes, ``/openapi.json`` and ``/docs``, in front of the API app.

Requests for ``/``, ``/inspector/...``, ``/openapi.json`` and ``/docs...`` are answered here;
every other request goes to the MemorySync API app untouched. The inspector's JSON routes
authenticate with ``X-API-Key`` through the same key ring as the API and act only in that
key's tenant. They are not part of the hosted MemorySync API, so openapi.yaml does not list them.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ...services import Services
from ...services.directory import MAX_USERS
from ..auth import Key, KeyRing
from ..errors import ApiError, identity_message, invalid
from ..request_checks import query_params, refuse_conflicting_identity
from ..spec import Spec, identity_pattern
from .directory import user_body, users_body

STATIC = Path(__file__).with_name("static")
_OURS = re.compile(r"^/(?:$|inspector(?:/|$)|openapi\.json$|docs(?:/|$))")
_IMPORT_MAP = re.compile(r"<script type=\"importmap\">(.*?)</script>", re.DOTALL)
_MAX_USER_ID = 256


def _swagger_ui_path() -> Path | None:
    try:
        from swagger_ui_bundle import swagger_ui_path
    except ImportError:
        return None
    return Path(str(swagger_ui_path))


def _csp(html: str) -> str:
    # Everything comes from this server; the one inline script (the import map) is allowed by its hash.
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(m.encode()).digest()).decode() + "'"
        for m in _IMPORT_MAP.findall(html)
    )
    return (
        f"default-src 'self'; script-src 'self' {hashes}; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    )


class Inspector:
    """ASGI app: the inspector and docs routes, falling through to ``api`` for everything else."""

    def __init__(self, api: Any, spec: Spec, keys: KeyRing, services: Services) -> None:
        self.api = api
        self.spec = spec
        self.keys = keys
        self.services = services
        self.directory = services.directory
        self._identity = identity_pattern(spec.document)
        self._index = (STATIC / "index.html").read_text(encoding="utf-8")
        self._docs = (STATIC / "docs.html").read_text(encoding="utf-8")
        routes: list[Any] = [
            Route("/", self.index, methods=["GET", "HEAD"]),
            Route("/inspector", self.index, methods=["GET", "HEAD"]),
            Route("/inspector/", self.index, methods=["GET", "HEAD"]),
            Route("/inspector/api/users", self.users, methods=["GET"]),
            Route("/inspector/api/user", self.user, methods=["GET", "DELETE"]),
            Mount("/inspector/static", StaticFiles(directory=STATIC), name="static"),
            Route("/openapi.json", self.openapi, methods=["GET", "HEAD"]),
            Route("/docs", self.docs, methods=["GET", "HEAD"]),
            Route("/docs/", self.docs, methods=["GET", "HEAD"]),
        ]
        swagger = _swagger_ui_path()
        if swagger is not None:
            routes.append(Mount("/docs/static", StaticFiles(directory=swagger), name="swagger"))
        self.router = Starlette(routes=routes, exception_handlers={HTTPException: _http_error})

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and _OURS.match(scope["path"]):
            await self.router(scope, receive, send)
        else:
            await self.api(scope, receive, send)

    # ---- pages ------------------------------------------------------------------------
    async def index(self, request: Request) -> Response:
        return HTMLResponse(
            self._index,
            headers={"Content-Security-Policy": _csp(self._index), "Cache-Control": "no-cache"},
        )

    async def docs(self, request: Request) -> Response:
        if _swagger_ui_path() is None:
            return HTMLResponse(
                "<p>The interactive docs need the swagger-ui-bundle-v2 package: "
                "pip install 'memorysync-kit[server]'. The spec itself is at <a href='/openapi.json'>/openapi.json</a>.</p>",
                status_code=503,
            )
        return HTMLResponse(self._docs, headers={"Content-Security-Policy": _csp(self._docs)})

    async def openapi(self, request: Request) -> Response:
        """openapi.yaml as loaded by the validator, with this server listed first so "Try it out" reaches it."""
        here = str(request.base_url).rstrip("/")
        document = dict(self.spec.document)
        document["servers"] = [{"url": here, "description": "This memorysync-server"}] + [
            s for s in document.get("servers", []) if s.get("url") != here
        ]
        return JSONResponse(document)

    # ---- JSON -------------------------------------------------------------------------
    def _key(self, request: Request) -> Key:
        # As the API: two different X-API-Key headers could act for either key.
        refuse_conflicting_identity(request.headers.raw)
        return self.keys.authenticate(request.headers.get("x-api-key"))

    async def users(self, request: Request) -> Response:
        try:
            key = self._key(request)
            limit = _int_param(request, "limit", 200, 1, MAX_USERS)
            offset = _int_param(request, "offset", 0, 0, 2**62)
        except ApiError as error:
            return _error(error)
        users, total = await run_in_threadpool(self.directory.users, key.tenant, limit, offset)
        return JSONResponse({"tenant_id": key.tenant, "users": users_body(users), "total": total})

    async def user(self, request: Request) -> Response:
        """GET: one user's counts, sessions and state namespaces; DELETE: forget that user."""
        try:
            key = self._key(request)
            user_id = _user_param(request)
            if not self._identity.search(user_id):
                raise ApiError(400, identity_message("user_id", user_id))
        except ApiError as error:
            return _error(error)
        if request.method == "GET":
            detail = await run_in_threadpool(self.directory.user, key.tenant, user_id)
            return JSONResponse(user_body(key.tenant, user_id, detail))
        gone = await run_in_threadpool(self.directory.forget_user, key.tenant, user_id)
        return JSONResponse(
            {
                "tenant_id": key.tenant,
                "user_id": user_id,
                "deleted": {"memories": gone.memories, "turns": gone.turns, "state_items": gone.state_items},
            }
        )


async def _http_error(request: Request, error: Exception) -> Response:
    # 404/405 in the API's own error shape, naming what exists here.
    assert isinstance(error, HTTPException)
    detail = (
        f"Not Found: no inspector route {request.url.path!r}. The inspector is at /; the API's routes are "
        "listed at /docs (interactive) and /openapi.json."
        if error.status_code == 404
        else f"{error.detail}: {request.method} {request.url.path}"
    )
    return JSONResponse({"detail": detail}, status_code=error.status_code, headers=error.headers)


def _error(error: ApiError) -> Response:
    return JSONResponse(error.body(), status_code=error.status, headers=error.headers)


def _query(request: Request) -> dict[str, str]:
    # The API's strict decoding (starlette's would turn %C3 into U+FFFD, another user's id).
    return query_params(request.scope.get("query_string", b""))


def _int_param(request: Request, name: str, default: int, low: int, high: int) -> int:
    raw = _query(request).get(name)
    if raw is None:
        return default
    if not raw.strip().isdigit() or not low <= int(raw) <= high:
        raise invalid(["query", name], f"{name} must be an integer from {low} to {high}", "int_parsing")
    return int(raw)


def _user_param(request: Request) -> str:
    user_id = _query(request).get("user_id")
    if user_id is None:
        raise invalid(["query", "user_id"], "user_id is required: ?user_id=<the end user>", "missing")
    if not 1 <= len(user_id) <= _MAX_USER_ID:
        raise invalid(
            ["query", "user_id"], f"user_id must be 1 to {_MAX_USER_ID} characters", "string_too_long"
        )
    return user_id
