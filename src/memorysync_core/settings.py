"""Where the API key, base URL and project come from: explicit argument, else environment."""

from __future__ import annotations

import os
from urllib.parse import urlparse

from attrs import frozen

DEFAULT_BASE_URL = "https://api.memorysync.io"
"""Hosted MemorySync: where the kit connects when neither ``base_url`` nor ``MEMORYSYNC_BASE_URL`` says."""
ENV_API_KEY = "MEMORYSYNC_API_KEY"
ENV_BASE_URL = "MEMORYSYNC_BASE_URL"


@frozen(repr=False)
class Settings:
    """Where and as whom to connect, once resolved (see `resolve_settings`). Its ``repr`` shows
    only the key's first characters.

    Attributes:
        api_key: The MemorySync API key (``X-API-Key``).
        base_url: The server's URL, without a trailing slash.
        project_id: The project to pin (``X-Project-ID``), or None for the key's default project.
    """

    api_key: str
    base_url: str
    project_id: str | None = None

    def __repr__(self) -> str:  # never print a whole key into a log
        return f"Settings(base_url={self.base_url!r}, api_key='{self.api_key[:8]}…', project_id={self.project_id!r})"


def resolve_settings(
    api_key: str | None = None,
    base_url: str | None = None,
    project_id: str | None = None,
    *,
    environ: dict[str, str] | None = None,
) -> Settings:
    """Resolve the connection settings; an explicit argument always wins over the environment.

    Args:
        api_key: The key; None reads ``MEMORYSYNC_API_KEY``.
        base_url: The server; None reads ``MEMORYSYNC_BASE_URL``, else hosted MemorySync.
        project_id: The project to pin, or None for the key's default project.
        environ: The environment to read (default: ``os.environ``).

    Returns:
        The settings, the key stripped of surrounding whitespace and the URL of a trailing slash.

    Raises:
        ValueError: No key anywhere, a URL that is not http(s), or an empty ``project_id``; the
            message says where the value came from and what to do.
    """
    env = os.environ if environ is None else environ
    key = api_key if api_key is not None else env.get(ENV_API_KEY)
    if not key or not key.strip():
        raise ValueError(
            "MemorySync needs an API key: pass api_key=... or set the MEMORYSYNC_API_KEY environment "
            "variable. For offline work, `memorysync-server serve` starts a local server and prints a key "
            "and the MEMORYSYNC_BASE_URL to use with it."
        )
    url = (base_url if base_url is not None else env.get(ENV_BASE_URL)) or DEFAULT_BASE_URL
    parsed = urlparse(url)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise ValueError(
            f"MemorySync base_url must be an http(s) URL such as {DEFAULT_BASE_URL!r} or "
            f"'http://127.0.0.1:8787', got {url!r} (from {'base_url=' if base_url else ENV_BASE_URL})."
        )
    if project_id is not None and not project_id.strip():
        raise ValueError("project_id must be a non-empty string, or None to use the key's default project.")
    return Settings(api_key=key.strip(), base_url=url.rstrip("/"), project_id=project_id)
