"""The non-memory half of agno's db interface: every such method raises, naming the right wiring.

agno's ``BaseDb`` / ``AsyncBaseDb`` have about two hundred public methods. Only the memory ones
are abstract; the rest (runs, schedules, approvals, authz, ...) have defaults that answer
quietly: ``get_runs()`` returns ``[]``, ``get_run()`` ``None``, ``delete_run()`` does nothing.
A memory store that inherited them would claim to have stored or found nothing where it simply
stores nothing. So every public method of the installed agno's base class is classified:

* ``MEMORY_METHODS``: implemented for real by the db classes;
* ``HARMLESS``: the inherited default is correct for this db (or the db overrides it itself);
* everything else: replaced by a raiser of :class:`MemorySyncMemoryOnlyError` whose message
  shows the wiring that keeps that data in a regular agno db.

Unknown names (a method a later agno adds) fall in the last group: they raise rather than
inherit a silent default.
"""

from __future__ import annotations

import inspect
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

# Inherited or overridden on purpose, never replaced by a raiser:
#   close                   overridden: closes the HTTP client;
#   to_dict                 agno's default serialises the id and table names, no data;
#   default_schema_version  a class attribute, not a method.
HARMLESS = frozenset({"close", "to_dict", "default_schema_version"})

SYNC_WIRING = 'Agent(db=SqliteDb(db_file="agent.db"), memory_manager=MemoryManager(db=MemorySyncDb()), ...)'
ASYNC_WIRING = (
    'Agent(db=AsyncSqliteDb(db_file="agent.db"), memory_manager=MemoryManager(db=AsyncMemorySyncDb()), ...)'
    " and call agent.arun()"
)


class MemorySyncMemoryOnlyError(NotImplementedError):
    """A non-memory agno db method (sessions, runs, evals, knowledge, ...) was called on a memory-only db."""


class MemorySyncClearAllError(RuntimeError):
    """``clear_memories()`` would delete every user's memories: refused, always."""


def clear_all_refusal(class_name: str) -> MemorySyncClearAllError:
    return MemorySyncClearAllError(
        f"{class_name}.clear_memories() is refused: it would delete the memories of every user at once, "
        "and one call that does that is how accounts get destroyed. To forget one user, call "
        f"{class_name}.forget_user_memories(user_id) (or delete_user_memories(ids, user_id=...) for "
        "chosen memories). MemoryManager(clear_memories=...) should stay False with this db."
    )


def public_names(base: type) -> list[str]:
    """Every public attribute of ``base`` and its bases, as agno ships them."""
    return sorted(name for name in dir(base) if not name.startswith("_"))


def memory_only_methods(base: type, *, class_name: str, wiring: str) -> dict[str, Any]:
    """A raiser for every public method of ``base`` that is neither a memory method nor harmless."""
    methods: dict[str, Any] = {}
    for name in public_names(base):
        if name in MEMORY_METHODS or name in HARMLESS:
            continue
        raw = inspect.getattr_static(base, name)
        if isinstance(raw, classmethod):
            methods[name] = classmethod(_raiser(name, class_name, wiring))
        elif isinstance(raw, staticmethod):
            methods[name] = staticmethod(_raiser(name, class_name, wiring, bound=False))
        elif callable(raw):
            methods[name] = _raiser(name, class_name, wiring)
    return methods


def _raiser(name: str, class_name: str, wiring: str, *, bound: bool = True) -> Callable[..., Any]:
    if name == "from_dict":
        message = (
            f"{class_name}.from_dict() is not available: {class_name} is rebuilt from code, never from a "
            f"serialised config (its API key is not serialised). Construct it directly: {class_name}(api_key=..., "
            "base_url=...) or from MEMORYSYNC_API_KEY / MEMORYSYNC_BASE_URL."
        )
    else:
        message = (
            f"{class_name}.{name}() is not available: {class_name} stores agno *memories* only. Keep "
            "sessions, runs, evals, knowledge, metrics, traces, schedules and the rest in a regular agno db "
            f"and give MemorySync only the memories: {wiring}"
        )

    # Raises at call time, before any await: a misuse fails on the line that made it, in sync and
    # async callers alike, instead of inside a coroutine nobody awaits.
    def method(*args: Any, **kwargs: Any) -> Any:
        raise MemorySyncMemoryOnlyError(message)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"Not available on a memory-only db: raises MemorySyncMemoryOnlyError. Use {wiring}."
    return method
