"""Turn agno's async-db misconfiguration into an error that names the fix.

agno picks its sync or async memory path from the *agent's* ``db``, not the memory manager's
(``agno.agent._init.has_async_db``). With ``AsyncMemorySyncDb`` as the memory db and a sync or missing agent
db, agno calls the async methods without ``await``: iterating the result fails with
"'coroutine' object is not iterable", and writes silently do nothing. Each async memory method
therefore returns a :class:`GuardedCall`: awaiting it is exactly awaiting the coroutine, while
iterating it, or dropping it un-awaited, raises or logs a message that says how to wire it.
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable, Coroutine, Generator
from typing import Any, TypeVar

logger = logging.getLogger("agno_memorysync")
T = TypeVar("T")

FIX = (
    "AsyncMemorySyncDb is an async db, but agno called it from its sync path. agno chooses sync or async "
    "memory calls from the *agent's* db: give the agent an async db too and use arun(), e.g. "
    'Agent(db=AsyncSqliteDb(db_file="agent.db"), memory_manager=MemoryManager(db=AsyncMemorySyncDb())) '
    "with `await agent.arun(...)` (and MemoryManager's a* methods); or use the sync MemorySyncDb with "
    "agent.run()."
)


class MiswiredAsyncDbError(TypeError):
    """An ``AsyncMemorySyncDb`` method was used without ``await`` (agno's sync path)."""


class GuardedCall:
    __slots__ = ("_coro", "_name", "_used")

    def __init__(self, coro: Coroutine[Any, Any, Any], name: str) -> None:
        self._coro = coro
        self._name = name
        self._used = False

    def __await__(self) -> Generator[Any, None, Any]:
        self._used = True
        return self._coro.__await__()

    # send/throw/close make this a collections.abc.Coroutine, so asyncio.create_task() accepts it.
    def send(self, value: Any) -> Any:
        self._used = True
        return self._coro.send(value)

    def throw(self, *args: Any) -> Any:
        self._used = True
        return self._coro.throw(*args)

    def close(self) -> None:
        self._used = True
        self._coro.close()

    def __iter__(self) -> Any:
        self._used = True
        self._coro.close()
        raise MiswiredAsyncDbError(f"{self._name}() was iterated instead of awaited. {FIX}")

    def __del__(self) -> None:
        if not self._used:
            self._coro.close()  # also silences Python's bare "coroutine was never awaited"
            logger.error(
                "AsyncMemorySyncDb.%s() was called but never awaited, so it did nothing. %s", self._name, FIX
            )


def guarded(method: Callable[..., Coroutine[Any, Any, T]]) -> Callable[..., Any]:
    @functools.wraps(method)
    def call(*args: Any, **kwargs: Any) -> Any:
        return GuardedCall(method(*args, **kwargs), method.__name__)

    if hasattr(inspect, "markcoroutinefunction"):  # Python 3.12+: still reports as a coroutine function
        inspect.markcoroutinefunction(call)
    return call
