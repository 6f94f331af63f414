"""``GET /health`` (liveness) and ``GET /ready`` (readiness) for load balancers and supervisors.

Both answer without an API key, in front of the API app (openapi.yaml lists them with
``security: []``). ``/health`` says the process answers HTTP; ``/ready`` says it can serve
every route now: the database answers, and the search model (when the mode uses one) is loaded.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.responses import JSONResponse

from ..services.readiness import readiness
from ..version import version
from .workers import WorkerPool


def health(services: Any, call: object = None) -> tuple[int, dict[str, Any]]:
    return 200, {"status": "ok", "version": version()}


def ready(services: Any, call: object = None) -> tuple[int, dict[str, Any]]:
    body = readiness(services)
    return (200 if body["status"] == "ready" else 503), body


# operationId (openapi.yaml) -> handler, as in routes.ROUTES; HealthRoutes serves them keyless.
HANDLERS = {"health": health, "ready": ready}
_PATHS = {"/health": health, "/ready": ready}


class HealthRoutes:
    """ASGI app: ``GET``/``HEAD`` ``/health`` and ``/ready``, before any key check; every other
    request goes to ``app``. ``first_request`` runs (once) when the first request arrives."""

    def __init__(
        self,
        app: Any,
        services: Any,
        workers: WorkerPool | None = None,
        *,
        first_request: Callable[[], None] | None = None,
    ) -> None:
        self.app = app
        self.services = services
        self.workers = workers or WorkerPool()
        self._first_request = first_request

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if self._first_request is not None:
            first, self._first_request = self._first_request, None
            first()
        handler = _PATHS.get(scope["path"]) if scope["type"] == "http" else None
        if handler is None or scope["method"] not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        status, body = await self.workers.run(handler, self.services)
        response = JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})
        await response(scope, receive, send)
