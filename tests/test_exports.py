"""Each package's public surface, pinned: a name added to or dropped from an ``__all__`` is a
decision made here on purpose, not a side effect of a refactor (httpx pins its exports the same way).
Every name listed must also exist."""

from __future__ import annotations

import importlib

import pytest

EXPORTS = {
    "memorysync_core": {
        "Backoff", "CircuitBreaker", "Connection", "DEFAULT_BASE_URL", "EVALUATION_TENANT", "LoopThread",
        "MAX_TEXT_CHARS", "MemorySyncError", "Settings", "TenantResolver", "acall", "ainvoke", "build_client",
        "call", "exits", "fnv1a64", "invoke", "prepare_text", "resolve_settings", "retryable", "shared_loop",
        "tls_context", "turn_seed", "user_agent",
    },
    "ag2_memorysync": {
        "DEFAULT_CONTEXT_TEMPLATE", "MemoryHit", "MemorySyncCapability", "MemorySyncMiddleware", "RecallOptions",
        "RetryPolicy", "SaveResult", "WriteOptions", "memory_tools", "register_memory_tools",
    },
    "agno_memorysync": {
        "AsyncMemorySyncDb", "MemoryNotFoundError", "MemorySyncClearAllError", "MemorySyncDb", "MemorySyncError",
        "MemorySyncMemoryOnlyError", "MiswiredAsyncDbError",
    },
    "memorysync_server": {
        "Embedder", "Extractor", "Faults", "HashingEmbedder", "KeyRing", "LocalServer", "MiniLMEmbedder", "Quota",
        "RuleExtractor", "SEARCH_MODES", "create_app",
    },
    "memorysync_server.domain": {
        "ASKED", "Clock", "EDITABLE_FIELDS", "Fact", "FactFilter", "FactsChange", "FactsListener", "Feedback", "Forgotten",
        "IndexRows", "KEPT_TURN", "NamespaceSummary", "NewFact", "NewState", "NewTurn", "Origin", "Revision",
        "SAID_IN", "SessionSummary", "StateRow", "StorageConflict", "StorageFull", "TRACKED_FIELDS", "Turn",
        "TurnMark", "UserDetail", "UserSummary", "encode_json", "read_time", "read_with", "said_day", "searched_by", "utc_now",
    },
    "memorysync_server.extraction": {
        "EMPTY_WORDS", "Extractor", "RuleExtractor", "day", "is_low_value", "question_asked", "resolve", "resolve_referents", "stands_alone", "tells",
        "unnamed",
    },
    "memorysync_server.http.inspector": {"Inspector"},
    "memorysync_server.http.routes": {"ROUTES"},
    "memorysync_server.language": {
        "STOPWORDS", "about_someone", "asked_days", "content_words", "retell_first_person", "searched_text", "stem",
        "third_person",
    },
    "memorysync_server.model": {
        "DEFAULT_SEARCH", "Embedder", "HashingEmbedder", "MiniLMEmbedder", "SEARCH_MODES", "check_mode",
        "embedder_for", "single_threaded_blas",
    },
    "memorysync_server.retrieval": {
        "Backfill", "FactSearch", "PENDING", "STATE_FLOOR", "STATE_RELATIVE", "cosine_rank", "warm_up",
    },
    "memorysync_server.services": {"Services", "build_services"},
    "memorysync_server.storage": {
        "DirectoryStore", "FactStore", "LexicalIndex", "ReceiptStore", "SettingStore", "StateStore", "Storage",
        "TurnStore", "is_postgres", "open_storage", "postgres_schema_current",
    },
    "memorysync_server.storage.postgres": {"PostgresStorage"},
    "memorysync_server.storage.sqlite": {"SqliteStorage"},
}  # fmt: skip


@pytest.mark.parametrize("package", list(EXPORTS))
def test_the_public_surface_is_the_one_pinned(package: str) -> None:
    module = importlib.import_module(package)
    assert set(module.__all__) == EXPORTS[package]
    assert len(module.__all__) == len(set(module.__all__)), "a name listed twice"
    missing = [name for name in module.__all__ if not hasattr(module, name)]
    assert missing == []
