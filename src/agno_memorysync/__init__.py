"""MemorySync as agno's memory store: a memory-only ``BaseDb`` / ``AsyncBaseDb`` for ``MemoryManager``.

    from agno.agent import Agent
    from agno.db.sqlite import SqliteDb
    from agno.memory import MemoryManager
    from agno_memorysync import MemorySyncDb

    agent = Agent(
        db=SqliteDb(db_file="agent.db"),                  # sessions: local
        memory_manager=MemoryManager(db=MemorySyncDb()),  # memories: MemorySync
        update_memory_on_run=True,
    )

With ``Agent.arun`` use ``AsyncMemorySyncDb`` *and* an async agent db (``AsyncSqliteDb``): agno
chooses its sync or async memory path from the agent's db.
"""

from .versions import INSTALL_HINT, SUPPORTED, check_installed

try:
    import agno.db.base  # noqa: F401
except ImportError as exc:  # say which extra brings it instead of a bare ModuleNotFoundError
    raise ImportError(f"agno_memorysync needs agno {SUPPORTED}: {INSTALL_HINT}") from exc

from memorysync_core import MemorySyncError

from .async_db import AsyncMemorySyncDb
from .db import MemorySyncDb
from .memory_only import MemorySyncClearAllError, MemorySyncMemoryOnlyError
from .miswiring import MiswiredAsyncDbError
from .ops import MemoryNotFoundError

__all__ = [
    "AsyncMemorySyncDb",
    "MemoryNotFoundError",
    "MemorySyncClearAllError",
    "MemorySyncDb",
    "MemorySyncError",
    "MemorySyncMemoryOnlyError",
    "MiswiredAsyncDbError",
]

check_installed()
