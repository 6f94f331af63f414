"""One validated request as a route sees it: the key, the body and parameters, the end user."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..services import Services
from .auth import Key, check_tenant
from .errors import ApiError
from .quota import Quota, QuotaMeter


@dataclass
class Call:
    key: Key
    body: Any
    path: dict[str, str]
    query: dict[str, Any]
    headers: dict[str, str]
    meter: QuotaMeter = field(default_factory=QuotaMeter)
    # Headers the route wants on its answer (e.g. what it dropped from the request).
    reply_headers: dict[str, str] = field(default_factory=dict)

    def tenant_user(self) -> tuple[str, str]:
        tenant = self.body["tenant_id"] if isinstance(self.body, dict) else self.path["tenant_id"]
        check_tenant(self.key, tenant)
        user = self.body["user_id"] if isinstance(self.body, dict) else self.path["user_id"]
        return tenant, user

    def end_user(self, body: Any = None) -> tuple[str, str]:
        """(tenant, end user) of a legacy call: the ``X-End-User-ID`` header, else the
        ``end_user_id`` of ``body`` (default: the request body); the header wins."""
        user = self.headers.get("x-end-user-id")
        body = self.body if body is None else body
        if user is None and isinstance(body, dict) and isinstance(body.get("end_user_id"), str):
            user = body["end_user_id"]
        if user is None:
            raise ApiError(
                400,
                "No end user: send the X-End-User-ID header naming the end user this call acts for "
                "(or end_user_id in the body, where the route takes one).",
            )
        return self.key.tenant, user

    def admit(self, kind: str) -> bool:
        """Whether the key's plan allows one more ``adds`` or ``reads`` (False: answer as skipped)."""
        quota = self.key.quota
        if quota is not None and self.key.evaluation and not quota.strict:
            # Evaluation keys get a strict 429 where live keys are silently skipped (openapi.yaml, TooManyRequests).
            quota = Quota(adds=quota.adds, reads=quota.reads, strict=True)
        return self.meter.admit(self.key.key, quota, kind)


Route = Callable[[Services, Call], tuple[int, Any]]


def request_id() -> str:
    return "req_" + uuid.uuid4().hex


def routes(*functions: Route) -> dict[str, Route]:
    """The route table of an area: operationId (openapi.yaml) -> the function of that name."""
    return {fn.__name__: fn for fn in functions}
