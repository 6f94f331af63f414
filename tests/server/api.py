"""A thin httpx helper for the server tests: one key, one tenant, JSON in and out."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import httpx

from memorysync_server import LocalServer

# For tests that send raw bytes: the server takes bodies declared as JSON only.
JSON = {"Content-Type": "application/json"}


class Api:
    def __init__(self, server: LocalServer, key: str | None = None, tenant: str | None = None) -> None:
        self.tenant = tenant or server.tenant_id
        self.http = httpx.Client(
            base_url=server.base_url, headers={"X-API-Key": key or server.api_key}, timeout=30
        )

    def post(self, path: str, body: dict[str, Any], *, expect: int | None = 200, **kw: Any) -> Any:
        response = self.http.post(path, json=body, **kw)
        if expect is not None:
            assert response.status_code == expect, (path, response.status_code, response.text)
        return response.json()

    def v1(self, path: str, user: str, expect: int | None = 200, **body: Any) -> Any:
        return self.post(path, {"tenant_id": self.tenant, "user_id": user, **body}, expect=expect)

    def turn(self, user: str, text: str, **body: Any) -> Any:
        return self.v1("/v1/memory/add_turn", user, expect=201, text=text, **body)

    def facts(self, user: str, **params: Any) -> Any:
        path = f"/v1/memory/{quote(self.tenant, safe='')}/{quote(user, safe='')}/list"
        response = self.http.get(path, params=params)
        assert response.status_code == 200, response.text
        return response.json()

    def texts(self, user: str) -> list[str]:
        return [m["text"] for m in self.facts(user)["memories"]]

    def add(self, user: str, text: str, **body: Any) -> Any:
        return self.post("/memory/add", {"text": text, **body}, headers={"X-End-User-ID": user})

    def forget(self, user: str, ids: list[Any], **body: Any) -> Any:
        response = self.http.request(
            "DELETE", "/memory/forget", json={"memory_ids": ids, **body}, headers={"X-End-User-ID": user}
        )
        assert response.status_code == 200, response.text
        return response.json()

    def put(
        self, user: str, key: str, value: dict[str, Any], namespace: list[str] | None = None, **body: Any
    ) -> Any:
        return self.v1("/v1/state/put", user, namespace=namespace or ["agno"], key=key, value=value, **body)

    def close(self) -> None:
        self.http.close()
