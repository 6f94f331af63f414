"""The installed memorysync-kit release, read from package metadata (never written twice)."""

from __future__ import annotations

from importlib import metadata


def version() -> str:
    try:
        return metadata.version("memorysync-kit")
    except metadata.PackageNotFoundError:  # a source tree that was never installed
        return "0+unknown"
