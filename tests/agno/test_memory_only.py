"""The memory-only contract, walked over the INSTALLED agno's abstract methods (no server needed).

The walk does not reuse the implementation's list of raisers: it asks agno which methods are
abstract today, and for each one requires either a real memory method (behaviour tested against
the server elsewhere) or the memory-only error with the right wiring in its message.
"""

from __future__ import annotations

import asyncio
import inspect

import pytest
from agno.db.base import AsyncBaseDb, BaseDb
from agno.memory import MemoryManager

from agno_memorysync import (
    AsyncMemorySyncDb,
    MemorySyncClearAllError,
    MemorySyncDb,
    MemorySyncMemoryOnlyError,
)

# agno's memory API as documented in the frameworks survey (2.1): written out here on purpose.
AGNO_MEMORY_METHODS = {
    "clear_memories",
    "delete_user_memory",
    "delete_user_memories",
    "get_all_memory_topics",
    "get_user_memory",
    "get_user_memories",
    "get_user_memory_stats",
    "upsert_user_memory",
    "upsert_memories",
}
KEY = {"api_key": "ms_test_unused", "base_url": "http://127.0.0.1:9", "tenant_id": "t"}


def _dummy_args(func) -> list[object]:
    """One placeholder per required positional parameter (after self)."""
    params = list(inspect.signature(func).parameters.values())[1:]
    return [
        "x"
        for p in params
        if p.default is inspect.Parameter.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]


@pytest.mark.parametrize(
    ("cls", "base", "agent_db"),
    [(MemorySyncDb, BaseDb, "SqliteDb"), (AsyncMemorySyncDb, AsyncBaseDb, "AsyncSqliteDb")],
)
def test_every_installed_abstract_is_a_memory_method_or_raises_with_wiring(cls, base, agent_db):
    abstracts = set(base.__abstractmethods__)
    assert len(abstracts) >= 30, "agno's abstract method set looks wrong; is agno installed?"
    db = cls(**KEY)  # instantiable: no abstract left unimplemented
    assert isinstance(db, base)
    assert not getattr(cls, "__abstractmethods__", frozenset())

    memory, others = abstracts & AGNO_MEMORY_METHODS, abstracts - AGNO_MEMORY_METHODS
    assert {"get_user_memories", "upsert_user_memory", "delete_user_memory"} <= memory
    assert {"get_session", "upsert_session"} <= others  # the walk really covers non-memory methods
    for name in sorted(others):
        method = getattr(db, name)
        with pytest.raises(MemorySyncMemoryOnlyError) as info:
            result = method(*_dummy_args(getattr(base, name)))
            if inspect.isawaitable(result):  # a raiser must not hide inside an un-awaited coroutine
                asyncio.run(result)
        message = str(info.value)
        assert isinstance(info.value, NotImplementedError)
        assert name in message
        assert f"Agent(db={agent_db}(" in message and f"MemoryManager(db={cls.__name__}())" in message
    for name in sorted(memory):
        assert getattr(cls, name) is not getattr(base, name), f"{name} is not implemented"
    # A memory abstract added by a later agno must be implemented for real, not raise: trip here.
    unknown_memory = {n for n in others if "memor" in n}
    assert not unknown_memory, f"agno added memory abstracts this adapter does not know: {unknown_memory}"


@pytest.mark.parametrize("cls", [MemorySyncDb, AsyncMemorySyncDb])
def test_clear_memories_always_refuses_and_names_the_per_user_wipe(cls):
    db = cls(**KEY)
    with pytest.raises(MemorySyncClearAllError, match=r"forget_user_memories\(user_id\)"):
        db.clear_memories()


def test_memory_manager_clear_cannot_wipe_everyone():
    manager = MemoryManager(db=MemorySyncDb(**KEY))
    with pytest.raises(MemorySyncClearAllError):
        manager.clear()


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"recall_timeout": 0}, ValueError, "recall_timeout"),
        ({"write_timeout": -1}, ValueError, "write_timeout"),
        ({"default_user_id": " "}, ValueError, "default_user_id"),
        ({"source": ""}, ValueError, "source"),
        ({"tenant_id": ""}, ValueError, "tenant_id"),
        ({"fail_open_writes": "yes"}, TypeError, "fail_open_writes"),
        ({"base_url": "ftp://x"}, ValueError, "http"),
    ],
)
def test_bad_configuration_fails_at_construction_with_the_fix(kwargs, error, match):
    for cls in (MemorySyncDb, AsyncMemorySyncDb):
        with pytest.raises(error, match=match):
            cls(**{**KEY, **kwargs})


def test_missing_api_key_says_how_to_set_it():
    with pytest.raises(ValueError, match="MEMORYSYNC_API_KEY"):
        MemorySyncDb(api_key="", base_url="http://127.0.0.1:9")


def test_a_sync_transport_is_refused_with_the_fix():
    import httpx

    with pytest.raises(TypeError, match="AsyncBaseTransport"):
        MemorySyncDb(**KEY, transport=httpx.HTTPTransport())


@pytest.mark.parametrize("cls", [MemorySyncDb, AsyncMemorySyncDb])
def test_bad_arguments_raise_before_any_request(cls):
    # The base URL is unreachable: reaching the network would fail open silently instead.
    db = cls(**KEY)

    def run(result):
        return asyncio.run(result) if inspect.isawaitable(result) else result

    with pytest.raises(ValueError, match="page"):
        run(db.get_user_memories(page=2))
    with pytest.raises(ValueError, match="limit"):
        run(db.get_user_memories(limit=0))
    with pytest.raises(TypeError, match="forget_user_memories"):
        run(db.delete_user_memories(None))
    with pytest.raises(ValueError, match="explicit user_id"):
        run(db.forget_user_memories(None))
    with pytest.raises(TypeError, match="UserMemory"):
        run(db.upsert_user_memory({"memory": "x"}))
