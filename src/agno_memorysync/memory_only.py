"""The non-memory half of agno's db interface: every such method raises, naming the right wiring.

The raisers are generated from the installed agno's ``__abstractmethods__`` rather than written
out, so a method a later agno release adds is covered (and visible in the abstract-method walk
test) instead of making the class abstract or silently doing nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

MEMORY_METHODS = frozenset(
    {
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
)

SYNC_WIRING = 'Agent(db=SqliteDb(db_file="agent.db"), memory_manager=MemoryManager(db=MemorySyncDb()), ...)'
ASYNC_WIRING = (
    'Agent(db=AsyncSqliteDb(db_file="agent.db"), memory_manager=MemoryManager(db=AsyncMemorySyncDb()), ...)'
    " and call agent.arun()"
)


class MemorySyncMemoryOnlyError(NotImplementedError):
    """A non-memory agno db method (sessions, evals, knowledge, ...) was called on a memory-only db."""


class MemorySyncClearAllError(RuntimeError):
    """``clear_memories()`` would delete every user's memories: refused, always."""


def clear_all_refusal(class_name: str) -> MemorySyncClearAllError:
    return MemorySyncClearAllError(
        f"{class_name}.clear_memories() is refused: it would delete the memories of every user at once, "
        "and one call that does that is how accounts get destroyed. To forget one user, call "
        f"{class_name}.forget_user_memories(user_id) (or delete_user_memories(ids, user_id=...) for "
        "chosen memories). MemoryManager(clear_memories=...) should stay False with this db."
    )


def memory_only_methods(base: type, *, class_name: str, wiring: str) -> dict[str, Callable[..., Any]]:
    """A raiser for every abstract method of ``base`` that is not a memory method."""
    return {
        name: _raiser(name, class_name, wiring)
        for name in sorted(getattr(base, "__abstractmethods__", frozenset()) - MEMORY_METHODS)
    }


def _raiser(name: str, class_name: str, wiring: str) -> Callable[..., Any]:
    # Raises at call time, before any await: a misuse fails on the line that made it, in sync and
    # async callers alike, instead of inside a coroutine nobody awaits.
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise MemorySyncMemoryOnlyError(
            f"{class_name}.{name}() is not available: {class_name} stores agno *memories* only. Keep "
            "sessions, runs, evals, knowledge, metrics and traces in a regular agno db and give MemorySync "
            f"only the memories: {wiring}"
        )

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"Not available on a memory-only db: raises MemorySyncMemoryOnlyError. Use {wiring}."
    return method
