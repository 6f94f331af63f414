"""The route table: operationId (openapi.yaml) -> the function that answers it, one module per area.

A route parses what validation left to it (ids, moments, defaults), calls one service, and
encodes the answer in its wire form; the quota check (``call.admit``) is the route's too.
"""

from __future__ import annotations

from .. import health, metrics
from ..call import Route
from . import history, memories, org, recall, state

ROUTES: dict[str, Route] = {
    **org.ROUTES,
    **recall.ROUTES,
    **history.ROUTES,
    **state.ROUTES,
    **memories.ROUTES,
    # Served in front of the app (health.HealthRoutes, metrics.MetricsRoute); listed so the spec's
    # every operation has one.
    **health.HANDLERS,
    **metrics.HANDLERS,
}

__all__ = ["ROUTES"]
