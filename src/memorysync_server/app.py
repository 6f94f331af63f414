"""The entry point tests, the CLI and embedders import: the app itself lives in :mod:`.http.app`."""

from .http.app import MemorySyncApp, create_app

__all__ = ["MemorySyncApp", "create_app"]
