"""Fixtures for the AG2 adapter tests: capabilities bound to the local server, and what it stored."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from memorysync_client.api.history import list_history
from memorysync_client.api.memory import list_memories
from memorysync_client.models import ListHistoryRequest

from ag2_memorysync import MemorySyncCapability
from memorysync_core import Connection, call
from tests.support.load import give_functional_budget


@pytest.fixture
def uid() -> str:
    # A fresh person per test: the dedup registry is process-wide by design.
    return f"person-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def make_memory(server, uid, request) -> Iterator[Callable[..., MemorySyncCapability]]:
    made: list[MemorySyncCapability] = []

    def make(**kwargs: Any) -> MemorySyncCapability:
        kwargs.setdefault("user_id", uid)
        kwargs.setdefault("api_key", server.api_key)
        kwargs.setdefault("base_url", server.base_url)
        give_functional_budget(request, kwargs)
        memory = MemorySyncCapability(**kwargs)
        made.append(memory)
        return memory

    yield make
    for memory in made:
        memory.close(timeout=0.5)


class Stored:
    """Reads what the server holds, with its own client (not the capability's)."""

    def __init__(self, server) -> None:
        self.server = server

    def _conn(self) -> Connection:
        return Connection(
            api_key=self.server.api_key, base_url=self.server.base_url, tenant_id=self.server.tenant_id
        )

    def transcript(self, user_id: str, session: str) -> list[tuple[str, str]]:
        conn = self._conn()
        try:
            body = ListHistoryRequest(
                tenant_id=self.server.tenant_id, user_id=user_id, session_id=f"ag2::{session}", limit=0
            )
            answer = call(list_history.sync_detailed, client=conn.client, body=body)
            return [(t.role, t.content) for t in answer.items]
        finally:
            conn.close()

    def facts(self, user_id: str) -> list[str]:
        conn = self._conn()
        try:
            answer = call(
                list_memories.sync_detailed,
                tenant_id=self.server.tenant_id,
                user_id=user_id,
                client=conn.client,
                limit=0,
            )
            return [m.text for m in answer.memories]
        finally:
            conn.close()


@pytest.fixture
def stored(server) -> Stored:
    return Stored(server)
