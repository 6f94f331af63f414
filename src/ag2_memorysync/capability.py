"""MemorySyncCapability: recall before every reply, capture every turn, for AG2 agents.

The name AG2-classic users attach (``memory.add_to_agent(assistant)``); everything it does is
:class:`~ag2_memorysync.front.MemoryFront`'s: hooks in :mod:`ag2_memorysync.classic`, the
session behind them in :mod:`ag2_memorysync.session`.
"""

from __future__ import annotations

from .front import MemoryFront


class MemorySyncCapability(MemoryFront):
    __doc__ = MemoryFront.__doc__
