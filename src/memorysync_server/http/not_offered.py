"""Routes of the hosted MemorySync service that the local server does not offer (openapi.yaml's
``x-not-offered``).

Each answers ``404`` with a ``detail`` naming the route as not offered by the local server, and
what to use instead where there is an equivalent, whatever the method and with or without a key:
the answer says nothing about any tenant. They are matched before the spec's own routes, so a
literal such as ``/memory/graph`` never reaches the integer ``/memory/{memory_id}``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .errors import ApiError

# A path shown back in a detail is cut to this many characters.
_SHOWN_PATH = 200


@dataclass(frozen=True)
class NotOffered:
    """One entry of ``x-not-offered``: ``route`` uses ``{id}`` for one path segment and ends in
    ``/**`` to cover the route itself and everything below it."""

    route: str
    what: str
    instead: str | None = None
    note: str | None = None

    def pattern(self) -> re.Pattern[str]:
        route, below = (self.route[:-3], True) if self.route.endswith("/**") else (self.route, False)
        body = re.escape(route).replace(re.escape("{id}"), "[^/]+")
        return re.compile(f"^{body}{'(?:/.*)?' if below else ''}/?$", re.DOTALL)


class NotOfferedRoutes:
    def __init__(self, document: dict[str, Any]) -> None:
        entries = document.get("x-not-offered", {}).get("routes", [])
        self.routes = tuple(
            NotOffered(e["route"], e["what"], e.get("instead"), e.get("note")) for e in entries
        )
        self._compiled = tuple((route, route.pattern()) for route in self.routes)

    def find(self, raw_path: str) -> NotOffered | None:
        for route, pattern in self._compiled:
            if pattern.fullmatch(raw_path):
                return route
        return None

    def refuse(self, method: str, raw_path: str) -> None:
        """Raises the 404 of a route the local server does not offer; returns for any other path."""
        route = self.find(raw_path)
        if route is None:
            return
        shown = raw_path if len(raw_path) <= _SHOWN_PATH else raw_path[: _SHOWN_PATH - 3] + "..."
        instead = f" Use {route.instead} instead." if route.instead else ""
        note = f" {route.note}" if route.note else ""
        raise ApiError(
            404,
            f"{method} {shown} is not offered by the local server (memorysync-server): {route.what} "
            f"is a feature of the hosted MemorySync service only.{instead}{note}",
        )
