"""Plumbing shared by the MemorySync adapters: settings, the generated client, tenancy, errors,
the idempotency seed, the background loop, backoff and the circuit breaker, and exit handling.
Adapters import from here, never from httpx."""

from . import exits
from .backoff import Backoff, retryable
from .breaker import CircuitBreaker
from .bridge import LoopThread, shared_loop
from .client import acall, ainvoke, build_client, call, invoke, tls_context, user_agent
from .connection import Connection
from .errors import MemorySyncError
from .seed import MAX_TEXT_CHARS, fnv1a64, prepare_text, turn_seed
from .settings import DEFAULT_BASE_URL, Settings, resolve_settings
from .tenancy import EVALUATION_TENANT, TenantResolver

__all__ = [
    "DEFAULT_BASE_URL",
    "EVALUATION_TENANT",
    "MAX_TEXT_CHARS",
    "Backoff",
    "CircuitBreaker",
    "Connection",
    "LoopThread",
    "MemorySyncError",
    "Settings",
    "TenantResolver",
    "acall",
    "ainvoke",
    "build_client",
    "call",
    "exits",
    "fnv1a64",
    "invoke",
    "prepare_text",
    "resolve_settings",
    "retryable",
    "shared_loop",
    "tls_context",
    "turn_seed",
    "user_agent",
]
