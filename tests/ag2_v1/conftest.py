"""Fixtures for the ag2 1.x tests: real ``ag2.Agent`` s with ag2's own scripted model, memory
bound to the local server, and what the server stored (read with a separate client)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from ag2_memorysync import MemorySyncMiddleware
from tests.ag2.conftest import Stored
from tests.support.load import give_functional_budget


@pytest.fixture
def uid() -> str:
    # A fresh person per test: the dedup registry is process-wide by design.
    return f"person-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def make_memory(server, uid, request) -> Iterator[Callable[..., MemorySyncMiddleware]]:
    made: list[MemorySyncMiddleware] = []

    def make(**kwargs: Any) -> MemorySyncMiddleware:
        kwargs.setdefault("user_id", uid)
        kwargs.setdefault("api_key", server.api_key)
        kwargs.setdefault("base_url", server.base_url)
        give_functional_budget(request, kwargs)
        memory = MemorySyncMiddleware(**kwargs)
        made.append(memory)
        return memory

    yield make
    for memory in made:
        memory.close(timeout=0.5)


@pytest.fixture
def stored(server) -> Stored:
    return Stored(server)
