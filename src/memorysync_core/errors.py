"""One error type for every failed MemorySync call, carrying what the server said."""

from __future__ import annotations

import json
from typing import Any

import httpx

from .settings import DEFAULT_BASE_URL, ENV_BASE_URL


class MemorySyncError(Exception):
    """A MemorySync call failed.

    Args:
        message: What failed and what to do about it.
        status_code: The HTTP status, or None when no answer arrived (connection refused, timeout).
        detail: The server's ``detail`` value as sent: a string, a list of validation items, or
            the ``{"error": "limit_exceeded", "message": ...}`` object of a plan limit.
    """

    def __init__(self, message: str, *, status_code: int | None = None, detail: Any = None) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.detail = detail

    @property
    def limit_exceeded(self) -> bool:
        """True for the plan-limit 429 (``detail.error == "limit_exceeded"``)."""
        return isinstance(self.detail, dict) and self.detail.get("error") == "limit_exceeded"

    @property
    def transient(self) -> bool:
        """Worth retrying with the same idempotency key: no answer, a 5xx, a 429, or a 408 (the
        server stopped waiting for a body that stalled on the way)."""
        return self.status_code is None or self.status_code >= 500 or self.status_code in (408, 429)

    @classmethod
    def from_http(cls, status_code: int, content: bytes, operation: str) -> MemorySyncError:
        """The error of a non-2xx answer, its ``detail`` read from the body.

        Args:
            status_code: The answer's status.
            content: The answer's body.
            operation: The operation's name, for the message.
        """
        detail: Any
        try:
            detail = json.loads(content).get("detail")
        except (ValueError, AttributeError):
            detail = content.decode("utf-8", "replace")[:500] or None
        return cls(
            f"{operation}: HTTP {status_code}: {_describe(detail)}", status_code=status_code, detail=detail
        )

    @classmethod
    def unparsable(
        cls, status_code: int, content: bytes, operation: str, exc: BaseException
    ) -> MemorySyncError:
        """An answer that does not parse as openapi.yaml describes it. Not transient for a 2xx or
        4xx: sending the same request again gets the same answer.

        Args:
            status_code: The answer's status.
            content: The answer's body (its first 500 characters become ``detail``).
            operation: The operation's name, for the message.
            exc: What the parser raised.
        """
        body = content.decode("utf-8", "replace")[:500] or None
        return cls(
            f"{operation}: the server's HTTP {status_code} answer does not match openapi.yaml "
            f"({type(exc).__name__}: {exc}); check that base_url points at a MemorySync server of this "
            f"API version",
            status_code=status_code,
            detail=body,
        )

    @classmethod
    def from_transport(
        cls, exc: httpx.HTTPError, operation: str, base_url: str | None = None
    ) -> MemorySyncError:
        """The error of a call that got no answer (transient: ``status_code`` is None).

        Args:
            exc: What httpx raised.
            operation: The operation's name, for the message.
            base_url: The server asked; for hosted MemorySync the message says how to use a
                local server instead.
        """
        kind = "timed out" if isinstance(exc, httpx.TimeoutException) else "could not reach the server"
        base_url = base_url.rstrip("/") if base_url else None
        where = f" at {base_url}" if base_url else ""
        return cls(f"{operation}: {kind}{where} ({type(exc).__name__}: {exc}){_local_hint(base_url)}")


def _local_hint(base_url: str | None) -> str:
    """For the hosted default: how to point the kit at a local server instead."""
    if base_url is None or base_url != DEFAULT_BASE_URL:
        return ""
    return (
        f". That is the hosted service, used because {ENV_BASE_URL} is not set; for a local server "
        f"(memorysync-server serve prints both lines): export {ENV_BASE_URL}=http://127.0.0.1:8787"
    )


def _describe(detail: Any) -> str:
    if isinstance(detail, dict):
        return str(detail.get("message") or detail)
    if isinstance(detail, list):
        parts = []
        for item in detail[:5]:
            if isinstance(item, dict):
                loc = ".".join(str(p) for p in item.get("loc", []))
                parts.append(f"{loc}: {item.get('msg')}")
            else:
                parts.append(str(item))
        return "; ".join(parts)
    return str(detail)
