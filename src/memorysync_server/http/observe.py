"""Every request, as operators see it: counted and timed by route (``GET /metrics``) and, when the
access log is on (``serve --log-format json``), one log record with its request id, tenant,
route, status and duration. Nothing a request carries is recorded: no memory text, no key, no
path as sent (a path can hold a user id), only the route template it matched.
"""

from __future__ import annotations

import logging
import re
import secrets
import time
from collections import OrderedDict
from typing import Any

from .auth import KeyRing
from .metrics import Metrics
from .spec import Spec

ACCESS_LOG = logging.getLogger("memorysync_server.access")
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
# An id a proxy or client sent that is safe to log as it is.
_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
# Paths answered outside openapi.yaml's operations, each its own route label.
_FIXED = {
    "/": "/",
    "/inspector": "/inspector",
    "/inspector/": "/inspector",
    "/inspector/api/users": "/inspector/api/users",
    "/inspector/api/user": "/inspector/api/user",
    "/openapi.json": "/openapi.json",
    "/docs": "/docs",
    "/docs/": "/docs",
    "/metrics": "/metrics",
}
_PREFIXES = (("/inspector/static/", "/inspector/static"), ("/docs/static/", "/docs/static"))
UNMATCHED = "unmatched"
_LABELS_KEPT = 4096


class Observed:
    """ASGI middleware in front of the whole server (see the module's docstring)."""

    def __init__(self, app: Any, spec: Spec, keys: KeyRing, metrics: Metrics) -> None:
        self.app = app
        self.spec = spec
        self.keys = keys
        self.metrics = metrics
        self._labels: OrderedDict[str, str] = OrderedDict()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500  # an app that raised sent nothing; uvicorn answers 500
        method = scope["method"] if scope["method"] in _METHODS else "OTHER"

        async def send_seen(message: Any) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        in_progress = self.metrics.in_progress
        in_progress.inc()
        try:
            await self.app(scope, receive, send_seen)
        finally:
            in_progress.dec()
            seconds = time.perf_counter() - started
            route = self.route(scope)
            self.metrics.observe(route, method, status, seconds)
            if ACCESS_LOG.isEnabledFor(logging.INFO):
                self._log(scope, route, method, status, seconds)

    def route(self, scope: Any) -> str:
        """The route template ``scope``'s path matched (bounded: never the path as sent)."""
        raw = (scope.get("raw_path") or scope["path"].encode()).decode("latin-1").split("?", 1)[0]
        label = self._labels.get(raw)
        if label is None:
            label = _FIXED.get(raw) or next((op.path for op, _ in self.spec.match(raw)), None)
            if label is None:
                label = next((name for prefix, name in _PREFIXES if raw.startswith(prefix)), UNMATCHED)
            self._labels[raw] = label
            if len(self._labels) > _LABELS_KEPT:
                self._labels.popitem(last=False)
        return label

    def _log(self, scope: Any, route: str, method: str, status: int, seconds: float) -> None:
        sent_id = key = None
        for name, value in scope["headers"]:
            if name == b"x-request-id":
                sent_id = value.decode("latin-1")
            elif name == b"x-api-key":
                key = value.decode("latin-1")
        found = self.keys.find(key) if key else None
        request_id = sent_id if sent_id and _REQUEST_ID.fullmatch(sent_id) else secrets.token_hex(8)
        ACCESS_LOG.info(
            "%s %s %d",
            method,
            route,
            status,
            extra={
                "request_id": request_id,
                "tenant": found.tenant if found else None,
                "route": route,
                "method": method,
                "status": status,
                "duration_ms": round(seconds * 1000, 3),
            },
        )
