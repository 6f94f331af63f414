"""Fixtures for the agno adapter tests: dbs wired to the real local server, and a raw view of it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from agno.agent import Agent
from agno.memory import MemoryManager

from agno_memorysync import MemorySyncDb
from tests.support.load import FUNCTIONAL_BUDGET


def memory_agent(model: Any, sessions_db: Any, memory_db: Any, *, user_id: str = "u", **kwargs: Any) -> Agent:
    """The wiring under test: agno sessions in ``sessions_db``, memories in ``memory_db``; the
    scripted ``model`` answers for both the agent and its MemoryManager."""
    kwargs.setdefault("update_memory_on_run", True)
    return Agent(
        model=model,
        db=sessions_db,
        memory_manager=MemoryManager(model=model, db=memory_db),
        user_id=user_id,
        telemetry=False,
        **kwargs,
    )


class Raw:
    """The server's own view, read over HTTP without the adapter (to check what it stored)."""

    def __init__(self, server: Any, api_key: str | None = None) -> None:
        self.server = server
        self.api_key = api_key or server.api_key
        self.tenant = server.tenant_id

    def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        answer = httpx.post(
            f"{self.server.base_url}{path}",
            json={"tenant_id": self.tenant, **body},
            headers={"X-API-Key": self.api_key},
            timeout=10,
        )
        answer.raise_for_status()
        return answer.json()

    def state(self, user: str, key: str, source: str = "agno") -> dict[str, Any] | None:
        return self._post(
            "/v1/state/get", {"user_id": user, "namespace": ["agno"], "key": key, "source": source}
        )["item"]

    def states(self, user: str, source: str = "agno") -> list[dict[str, Any]]:
        return self._post("/v1/state/list", {"user_id": user, "source": source, "limit": 5000})["items"]

    def put(self, user: str, key: str, value: dict[str, Any], source: str = "agno") -> dict[str, Any]:
        body = {"user_id": user, "namespace": ["agno"], "key": key, "value": value, "source": source}
        return self._post("/v1/state/put", body)

    def recall(self, user: str, prompt: str) -> str:
        return self._post("/v1/memory/recall", {"user_id": user, "prompt": prompt})["context"]

    def facts(self, user: str) -> list[dict[str, Any]]:
        answer = httpx.get(
            f"{self.server.base_url}/v1/memory/{self.tenant}/{user}/list",
            headers={"X-API-Key": self.api_key},
            timeout=10,
        )
        answer.raise_for_status()
        return answer.json()["memories"]


@pytest.fixture
def raw(server) -> Raw:
    return Raw(server)


@pytest.fixture
def db(server) -> Iterator[MemorySyncDb]:
    memory_db = MemorySyncDb(
        api_key=server.api_key, base_url=server.base_url, recall_timeout=FUNCTIONAL_BUDGET
    )
    yield memory_db
    memory_db.close()
