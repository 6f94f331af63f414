"""Where the API key, base URL and project come from: explicit argument, else environment."""

from __future__ import annotations

import os
from urllib.parse import urlparse

from attrs import frozen

DEFAULT_BASE_URL = "https://api.memorysync.io"
ENV_API_KEY = "MEMORYSYNC_API_KEY"
ENV_BASE_URL = "MEMORYSYNC_BASE_URL"


@frozen(repr=False)
class Settings:
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
    """Resolve the connection settings; an explicit argument always wins over the environment."""
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
