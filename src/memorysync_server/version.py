"""The installed memorysync-kit release, read from package metadata (never written twice)."""

from __future__ import annotations

from functools import cache
from importlib import metadata


# Read once per process: the lookup scans every installed distribution (~0.3-0.5 ms), and
# `GET /health` names the version on every call. The installed release cannot change under a
# running process (an upgrade takes effect at the restart that loads its code).
@cache
def version() -> str:
    try:
        return metadata.version("memorysync-kit")
    except metadata.PackageNotFoundError:  # a source tree that was never installed
        return "0+unknown"
