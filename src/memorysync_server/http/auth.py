"""API keys -> tenants, evaluation keys, and the 401/403/404 rules openapi.yaml gives."""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .quota import Quota

# The error helpers are imported where a request is refused: this module is also the CLI's (a key
# is checked before anything starts), and .errors brings the services and the extractor with it.

EVALUATION_TENANT = "default"


@dataclass(frozen=True)
class Key:
    key: str
    tenant: str
    evaluation: bool = False
    quota: Quota | None = None

    @property
    def project_id(self) -> str:
        return f"proj_{self.tenant}"


def new_key(kind: str = "test") -> str:
    return f"ms_{kind}_{secrets.token_hex(12)}"


class KeyRing:
    """The keys a server accepts and the tenant each acts in; keys may be added while it runs."""

    def __init__(self) -> None:
        self._keys: dict[str, Key] = {}
        self._lock = threading.Lock()

    def add(
        self, key: str, tenant: str | None = None, *, evaluation: bool = False, quota: Quota | None = None
    ) -> Key:
        """Accept ``key``.

        Args:
            key: The API key, as clients send it in ``X-API-Key``.
            tenant: The tenant it acts in (ignored for evaluation keys, which act in ``default``).
            evaluation: An evaluation key: tenant ``default``, 403 on ``/org/projects``, strict quotas.
            quota: The key's plan limits (None: unlimited).

        Returns:
            The key's entry.

        Raises:
            ValueError: An empty key, or no tenant for a live key.
        """
        if not key or not key.strip():
            raise ValueError("An API key must be a non-empty string, e.g. ms_test_abc123.")
        if evaluation:
            tenant = EVALUATION_TENANT
        if not tenant:
            raise ValueError(f"Key {key[:12]}...: give the tenant it acts in (KEY=TENANT).")
        entry = Key(key=key, tenant=tenant, evaluation=evaluation, quota=quota)
        with self._lock:
            self._keys[key] = entry
        return entry

    def __len__(self) -> int:
        return len(self._keys)

    def export(self) -> list[list[object]]:
        """``[key, tenant, evaluation]`` rows (quotas are not kept), for `imported`."""
        with self._lock:
            return [[k.key, k.tenant, k.evaluation] for k in self._keys.values()]

    @classmethod
    def imported(cls, rows: list[list[object]]) -> KeyRing:
        """A ring of the rows `export` gave (another process's keys: ``serve --workers``)."""
        ring = cls()
        for key, tenant, evaluation in rows:
            ring.add(str(key), str(tenant), evaluation=bool(evaluation))
        return ring

    def find(self, key: str) -> Key | None:
        """The entry of ``key``, or None when this server does not accept it."""
        with self._lock:
            return self._keys.get(key)

    def authenticate(self, header: str | None) -> Key:
        """The entry of the key a request sent.

        Args:
            header: The request's ``X-API-Key`` value.

        Raises:
            ApiError: 401: no key, or one this server does not accept.
        """
        if not header:
            from .errors import unauthorized

            raise unauthorized(
                "Missing X-API-Key header. Send your MemorySync API key as 'X-API-Key: <key>'."
            )
        with self._lock:
            entry = self._keys.get(header)
        if entry is None:
            from .errors import unauthorized

            raise unauthorized(
                "Unknown API key. Check MEMORYSYNC_API_KEY (or the key the server printed at start-up)."
            )
        return entry


def check_project(key: Key, project_header: str | None) -> None:
    if project_header is not None and project_header != key.project_id:
        from .errors import not_found

        raise not_found(
            f"Project {project_header!r} is not visible to this API key; omit X-Project-ID or use {key.project_id!r}."
        )


def check_tenant(key: Key, tenant_id: str) -> None:
    if tenant_id != key.tenant:
        from .errors import forbidden

        raise forbidden(
            f"This API key acts in tenant {key.tenant!r}, not {tenant_id!r}. Use the tenant_id from GET /org/projects."
        )
