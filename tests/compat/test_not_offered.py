"""SDK methods whose routes the local server does not offer: a clear 404 the SDK raises as
``NotFoundError``, whose message is the server's detail naming the route; nothing is stored."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import memorysync
import pytest

from memorysync_server.launcher import LocalServer
from tests.compat.driver import Sdk
from tests.compat.sdk_methods import METHODS, NAMESPACES, NOT_OFFERED


@pytest.fixture(scope="module")
def server(module_server: LocalServer) -> LocalServer:
    """Nothing here is stored, so one server serves the module."""
    return module_server


NOT_OFFERED_DETAIL = "not offered by the local server"

CALLS: dict[str, Callable[[Sdk], Any]] = {
    "summarize": lambda sdk: sdk.summarize([1, 2], lossless=True),
    "compose": lambda sdk: sdk.compose("Answer using {memories}", recall_k=3, max_tokens=200),
    "create_relation": lambda sdk: sdk.create_relation(1, to_memory_id=2, relationship_type="supports"),
    "upload": lambda sdk: sdk.upload(b"I live in Leeds", filename="notes.txt", content_type="text/plain"),
    "get_ontology": lambda sdk: sdk.get_ontology(),
    "update_ontology": lambda sdk: sdk.update_ontology(content_types=["recipe"]),
    "search_routed": lambda sdk: sdk.search_routed("where does the user live", k=3, include_reasoning=True),
    "synthesize": lambda sdk: sdk.synthesize(query="what do we know", max_memories=5),
    "refresh": lambda sdk: sdk.refresh(),
    "graph": lambda sdk: sdk.graph(limit=10, memory_id=1, depth=2),
    "clusters": lambda sdk: sdk.clusters(limit=5),
    "decisions": lambda sdk: sdk.decisions(limit=5),
    "resolve_decision": lambda sdk: sdk.resolve_decision(decision_id="d1", winning_memory_id=1),
    "intelligence": lambda sdk: sdk.intelligence(limit=5, scope="user"),
    "knowledge_stats": lambda sdk: sdk.knowledge_stats(),
    "create_import": lambda sdk: sdk.create_import(
        b'{"text": "I live in Leeds"}\n', filename="memories.jsonl"
    ),
    "list_imports": lambda sdk: sdk.list_imports(status="completed", limit=5),
    "get_import": lambda sdk: sdk.get_import("job-1"),
    "cancel_import": lambda sdk: sdk.cancel_import("job-1"),
}

NAMESPACE_CALLS: dict[str, Callable[[Sdk], Any]] = {
    "connections": lambda sdk: sdk.connections.list(),
    "objects": lambda sdk: sdk.objects.get("obj-1"),
    "providers": lambda sdk: sdk.providers.list(),
    "sync_jobs": lambda sdk: sdk.sync_jobs.get("job-1"),
    "integrations": lambda sdk: sdk.integrations.catalog(),
}


def _run(sdk: Sdk, call: Any) -> Any:
    """Namespace methods are reached through an attribute, so the async ones come back unawaited."""
    return sdk._run(call) if sdk.mode == "async" and hasattr(call, "__await__") else call


def test_the_calls_below_are_the_classified_not_offered_methods() -> None:
    assert set(CALLS) == {name for name, (_, outcome) in METHODS.items() if outcome == NOT_OFFERED}
    assert set(NAMESPACE_CALLS) == set(NAMESPACES)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_a_not_offered_method_gets_the_servers_clear_404(sdk: Sdk, name: str) -> None:
    route = METHODS[name][0]
    with pytest.raises(memorysync.NotFoundError) as caught:
        CALLS[name](sdk)
    assert caught.value.status_code == 404
    method, template = route.split(" ")
    [exchange] = sdk.exchanges()
    assert exchange.method == method
    assert re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", template), exchange.path)
    assert exchange.status == 404
    # The server's own words, naming the route the SDK called.
    assert str(caught.value).startswith(f"{method} {exchange.path} is {NOT_OFFERED_DETAIL}")


@pytest.mark.parametrize("name", sorted(NAMESPACE_CALLS))
def test_a_connector_namespace_gets_the_servers_clear_404(sdk: Sdk, name: str) -> None:
    with pytest.raises(memorysync.NotFoundError) as caught:
        _run(sdk, NAMESPACE_CALLS[name](sdk))
    assert caught.value.status_code == 404
    [exchange] = sdk.exchanges()
    assert exchange.path.startswith(NAMESPACES[name][0].removesuffix("/..."))
    assert str(caught.value).startswith(f"{exchange.method} {exchange.path} is {NOT_OFFERED_DETAIL}")


def test_nothing_not_offered_leaves_a_trace_in_the_users_memories(sdk: Sdk) -> None:
    for call in CALLS.values():
        with pytest.raises(memorysync.NotFoundError):
            call(sdk)
    assert sdk.list_memories(tenant_id=sdk.tenant_id, user_id="alice") == {"memories": [], "total": 0}
    assert sdk.export_all().memories == []


def test_purge_user_is_refused_by_the_sdk_without_a_request(sdk: Sdk) -> None:
    with pytest.raises(memorysync.ValidationError, match="forget"):
        sdk.purge_user()
    assert sdk.exchanges() == []
