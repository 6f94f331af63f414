"""The memory inspector page, ``/openapi.json`` and ``/docs`` of the local server."""

from .routes import Inspector

__all__ = ["Inspector"]
