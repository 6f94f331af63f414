"""Plumbing shared by the MemorySync adapters: settings, the generated client, tenancy, errors,
the idempotency seed and the background loop. Adapters import from here, never from httpx."""

from .bridge import LoopThread, shared_loop
from .client import acall, ainvoke, build_client, call, invoke, user_agent
from .connection import Connection
from .errors import MemorySyncError
from .seed import MAX_TEXT_CHARS, fnv1a64, prepare_text, turn_seed
from .settings import DEFAULT_BASE_URL, Settings, resolve_settings
from .tenancy import EVALUATION_TENANT, TenantResolver

__all__ = [
    "DEFAULT_BASE_URL",
    "EVALUATION_TENANT",
    "MAX_TEXT_CHARS",
    "Connection",
    "LoopThread",
    "MemorySyncError",
    "Settings",
    "TenantResolver",
    "acall",
    "ainvoke",
    "build_client",
    "call",
    "fnv1a64",
    "invoke",
    "prepare_text",
    "resolve_settings",
    "shared_loop",
    "turn_seed",
    "user_agent",
]
