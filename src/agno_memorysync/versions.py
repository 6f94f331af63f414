"""The agno releases this adapter is proven on (``make matrix``), and what to tell users of others."""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from importlib import metadata

OLDEST = (3, 0)
BEYOND = (3, 2)  # first release line not run
SUPPORTED = "3.0 to 3.1"

INSTALL_HINT = "pip install 'memorysync-kit[agno]' (installs agno>=3.0,<3.2)"


def _release(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version.split("+")[0])[:3])


def check_installed(version_of: Callable[[str], str] = metadata.version) -> None:
    """Warn about an agno outside the tested range; agno 2.x gets the reason it matters.

    ``version_of`` is ``importlib.metadata.version`` (raising ``PackageNotFoundError`` when absent).
    """
    try:
        version = version_of("agno")
    except metadata.PackageNotFoundError:  # agno importable from a path, not installed: nothing to check
        return
    release = _release(version)
    if release < OLDEST:
        warnings.warn(
            f"agno_memorysync supports agno {SUPPORTED}; you have agno {version}. agno 2.x swallows "
            "session-storage errors, so MemorySyncDb passed as Agent(db=...) loses every session with only a "
            "logged warning instead of raising. Pass it only as MemoryManager(db=MemorySyncDb()), or upgrade: "
            f"{INSTALL_HINT}.",
            RuntimeWarning,
            stacklevel=3,
        )
    elif release >= BEYOND:
        warnings.warn(
            f"agno_memorysync is tested on agno {SUPPORTED}; agno {version} is newer. If something breaks: "
            f"{INSTALL_HINT}.",
            RuntimeWarning,
            stacklevel=3,
        )
