"""``GET /health`` (liveness) and ``GET /ready`` (readiness) for load balancers and supervisors.

Both answer without an API key, in front of the API app (openapi.yaml lists them with
``security: []``). ``/health`` says the process answers HTTP; ``/ready`` says it can serve
every route now: the database answers, and the search model (when the mode uses one) is loaded.
"""

from __future__ import annotations

import threading
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.responses import JSONResponse

from .model_loading import FAILED, LOADING, model_state
from .version import version

DATABASE_TIMEOUT_S = 2.0
_PROBE_SETTING = "readiness_probe"  # never written: reading it touches the database and nothing else


def health(services: Any, call: object = None) -> tuple[int, dict[str, Any]]:
    return 200, {"status": "ok", "version": version()}


def ready(services: Any, call: object = None) -> tuple[int, dict[str, Any]]:
    database = _database(services)
    model, model_error = model_state(services.search.embedder)
    body: dict[str, Any] = {"status": "ready", "database": database, "model": model}
    problems = []
    if database != "ok":
        problems.append(f"the database does not answer ({database})")
    if model == LOADING:
        problems.append("the search model is still loading")
    elif model == FAILED:
        problems.append(f"the search model could not be loaded: {model_error}")
    if not problems:
        return 200, body
    body["status"] = "starting" if model == LOADING and database == "ok" else "unavailable"
    body["detail"] = "; ".join(problems) + "."
    return 503, body


def _database(services: Any) -> str:
    outcome: list[str] = []

    def probe() -> None:
        try:
            services.store.settings.get(_PROBE_SETTING)
            outcome.append("ok")
        except Exception as error:  # any driver error means "not reachable", whatever its type
            outcome.append(f"{type(error).__name__}: {error}".strip())

    # A database that hangs (a PostgreSQL host gone silent) must not hang the readiness answer.
    thread = threading.Thread(target=probe, name="memorysync-ready-probe", daemon=True)
    thread.start()
    thread.join(DATABASE_TIMEOUT_S)
    return outcome[0] if outcome else f"no answer within {DATABASE_TIMEOUT_S:g} s"


# operationId (openapi.yaml) -> handler, as in handlers.HANDLERS; HealthRoutes serves them keyless.
HANDLERS = {"health": health, "ready": ready}
_PATHS = {"/health": health, "/ready": ready}


class HealthRoutes:
    """ASGI app: ``GET``/``HEAD`` ``/health`` and ``/ready``, before any key check; every other
    request goes to ``app``."""

    def __init__(self, app: Any, services: Any) -> None:
        self.app = app
        self.services = services

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        handler = _PATHS.get(scope["path"]) if scope["type"] == "http" else None
        if handler is None or scope["method"] not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        status, body = await run_in_threadpool(handler, self.services)
        response = JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})
        await response(scope, receive, send)
