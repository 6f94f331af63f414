"""Which AG2 line an agent belongs to, without importing either one.

AG2-classic (``autogen`` 0.14) agents have ``register_hook``; the ``ag2`` 1.x ``Agent`` takes
middleware instead. A 1.x agent can only exist once ``ag2`` has been imported, so looking it up
in ``sys.modules`` answers exactly and never triggers the import.
"""

from __future__ import annotations

import sys
from typing import Any


def is_v1_agent(agent: Any) -> bool:
    """True for an ``ag2`` 1.x ``Agent`` (or a subclass)."""
    ag2 = sys.modules.get("ag2")
    agent_class = getattr(ag2, "Agent", None)
    return isinstance(agent_class, type) and isinstance(agent, agent_class)
