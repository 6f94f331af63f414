"""``GET /org/projects``: the key's one local project."""

from __future__ import annotations

from typing import Any

from ...services import Services
from .. import wire
from ..call import Call, routes
from ..errors import ApiError


def list_projects(s: Services, call: Call) -> tuple[int, Any]:
    if call.key.evaluation:
        raise ApiError(403, "Evaluation keys lack the projects:read scope; they act in the tenant 'default'.")
    now = wire.timestamp(s.now())
    return 200, [
        {
            "id": call.key.project_id,
            "name": f"Local project ({call.key.tenant})",
            "tenant_id": call.key.tenant,
            "is_default": True,
            "memory_count": s.memories.count(call.key.tenant),
            "created_at": now,
            "updated_at": now,
        }
    ]


ROUTES = routes(list_projects)
