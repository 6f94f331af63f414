"""Whose memories a call without ``user_id`` is about: the user of the agno run making it.

agno's ``MemoryTools`` toolkit reads, updates and deletes a memory by id without passing the
user (``db.get_user_memory(memory_id)``, ``db.delete_user_memory(memory_id)``), although agno
hands every tool the run's ``RunContext`` as its ``run_context`` argument and the toolkit adds
memories for ``run_context.user_id``. Looking under ``default_user_id`` instead would make the
user's own memories "not found". So when ``user_id`` is ``None`` the db looks a few frames up
its caller's stack for that ``RunContext`` and uses its user: the same identity agno itself
scopes the run to, so the lookup can narrow a call to the running user and never widen it to
another one. Outside an agno run nothing is found and ``default_user_id`` applies.
"""

from __future__ import annotations

import sys
from types import FrameType

from agno.run.base import RunContext

# Frames between a db method and the toolkit method that called it: the db method, its shell
# helpers and agno's sync/async wrappers. Enough for both twins, small enough to stay cheap.
_MAX_FRAMES = 12
_NAMES = ("run_context", "_agno_run_context")  # the two names agno injects a RunContext under


def run_user() -> str | None:
    """The ``user_id`` of the nearest agno ``RunContext`` on the calling stack, if any."""
    frame: FrameType | None = sys._getframe(1)
    for _ in range(_MAX_FRAMES):
        if frame is None:
            return None
        code_names = frame.f_code.co_varnames
        for name in _NAMES:
            if name in code_names:
                context = frame.f_locals.get(name)
                if isinstance(context, RunContext):
                    user = context.user_id
                    return user if isinstance(user, str) and user.strip() else None
        frame = frame.f_back
    return None


def scoped(user_id: str | None) -> str | None:
    """``user_id`` if given, else the running agno user, else ``None`` (the db's default user)."""
    return user_id if user_id is not None else run_user()
