"""What the SDK puts on the wire for each in-scope method, pinned against the API survey.

Both clients run the same table, so this also shows the async client sends exactly what the sync
one does. Where the SDK and the survey disagree, the SDK's behaviour is asserted and the line says so.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import memorysync
import pytest
from memorysync import BulkAddItem

from memorysync_server.launcher import LocalServer
from tests.compat.driver import Sdk


@pytest.fixture(scope="module")
def server(module_server: LocalServer) -> LocalServer:
    return module_server


T = "t_local"  # LocalServer's default tenant
Case = tuple[Callable[[Sdk], Any], str, str, dict[str, str], Any]

CASES: dict[str, Case] = {
    # name: (call, method, path, query, body)
    "add_turn defaults": (
        lambda s: s.add_turn(tenant_id=T, user_id="alice", text="I live in Leeds"),
        "POST", "/v1/memory/add_turn", {},
        {"tenant_id": T, "user_id": "alice", "source": "chat", "text": "I live in Leeds"},
    ),
    "add_turn session_id folds into metadata, sync_embed only when true": (
        lambda s: s.add_turn(
            tenant_id=T, user_id="alice", text="I live in Leeds", session_id="s", metadata={"a": 1}, sync_embed=True
        ),
        "POST", "/v1/memory/add_turn", {},
        {"tenant_id": T, "user_id": "alice", "source": "chat", "text": "I live in Leeds",
         "metadata": {"a": 1, "session_id": "s"}, "sync_embed": True},
    ),
    "recall types": (
        lambda s: s.recall(tenant_id=T, user_id="alice", prompt="p", k=3, types=["preference"]),
        "POST", "/v1/memory/recall", {},
        {"tenant_id": T, "user_id": "alice", "prompt": "p", "k": 3, "types": ["preference"]},
    ),
    "list_memories sends no limit unless given": (
        lambda s: s.list_memories(tenant_id=T, user_id="alice"),
        "GET", f"/v1/memory/{T}/alice/list", {}, None,
    ),
    "list_memories limit 0": (
        lambda s: s.list_memories(tenant_id=T, user_id="alice", limit=0, offset=2),
        "GET", f"/v1/memory/{T}/alice/list", {"limit": "0", "offset": "2"}, None,
    ),
    "list_memories does not encode the user id (survey 4.4)": (
        lambda s: s.list_memories(tenant_id=T, user_id="a/b"),
        "GET", f"/v1/memory/{T}/a/b/list", {}, None,
    ),
    "status": (lambda s: s.status(7), "GET", "/v1/memory/status/7", {}, None),
    "append_history strips None from turns": (
        lambda s: s.append_history(
            tenant_id=T, user_id="alice", session_id="s", turns=[{"role": "user", "content": "hi you", "seq": None}]
        ),
        "POST", "/v1/history/append", {},
        {"tenant_id": T, "user_id": "alice", "session_id": "s", "source": "api",
         "turns": [{"role": "user", "content": "hi you"}], "extract": True},
    ),
    "list_history limit 0 always sent": (
        lambda s: s.list_history(tenant_id=T, user_id="alice", session_id="s"),
        "POST", "/v1/history/list", {}, {"tenant_id": T, "user_id": "alice", "session_id": "s", "limit": 0},
    ),
    "delete_history int ids, delete_derived_facts always sent": (
        lambda s: s.delete_history(tenant_id=T, user_id="alice", ids=[7, "h_8"]),
        "POST", "/v1/history/delete", {},
        {"tenant_id": T, "user_id": "alice", "delete_derived_facts": False, "ids": [7, "h_8"]},
    ),
    "put_state defaults": (
        lambda s: s.put_state(tenant_id=T, user_id="alice", namespace=["a"], key="k", value={}),
        "POST", "/v1/state/put", {},
        {"tenant_id": T, "user_id": "alice", "namespace": ["a"], "key": "k", "value": {}, "source": "api",
         "index": True, "extract": False, "replace_derived_facts": False},
    ),
    "get_state omits source": (
        lambda s: s.get_state(tenant_id=T, user_id="alice", namespace=["a"], key="k"),
        "POST", "/v1/state/get", {}, {"tenant_id": T, "user_id": "alice", "namespace": ["a"], "key": "k"},
    ),
    "list_state empty prefix is sent as []": (
        lambda s: s.list_state(tenant_id=T, user_id="alice", namespace_prefix=[]),
        "POST", "/v1/state/list", {},
        {"tenant_id": T, "user_id": "alice", "namespace_prefix": [], "limit": 100, "offset": 0},
    ),
    "search_state": (
        lambda s: s.search_state(tenant_id=T, user_id="alice", query="q"),
        "POST", "/v1/state/search", {}, {"tenant_id": T, "user_id": "alice", "query": "q", "limit": 10},
    ),
    "delete_state omits keys for the whole namespace": (
        lambda s: s.delete_state(tenant_id=T, user_id="alice", namespace=["a"]),
        "POST", "/v1/state/delete", {},
        {"tenant_id": T, "user_id": "alice", "namespace": ["a"], "delete_derived_facts": False},
    ),
    "list_state_namespaces": (
        lambda s: s.list_state_namespaces(tenant_id=T, user_id="alice", prefix=["a"], max_depth=2),
        "POST", "/v1/state/namespaces", {},
        {"tenant_id": T, "user_id": "alice", "prefix": ["a"], "max_depth": 2, "limit": 100, "offset": 0},
    ),
    "add with a per-call end user": (
        lambda s: s.add("I live in York", tags=["home"], importance=0.5, end_user_id="alice", client_ref="r"),
        "POST", "/memory/add", {},
        {"text": "I live in York", "tags": ["home"], "importance": 0.5, "end_user_id": "alice", "client_ref": "r"},
    ),
    "bulk_add always sends deduplicate": (
        lambda s: s.bulk_add([BulkAddItem(text="I live in Rome", client_ref="r1")]),
        "POST", "/memory/bulk-add", {}, {"items": [{"text": "I live in Rome", "client_ref": "r1"}], "deduplicate": True},
    ),
    "query drops empty filters": (
        lambda s: s.query("q", filters={}), "POST", "/memory/query", {}, {"query": "q"},
    ),
    "retrieve with everything": (
        lambda s: s.retrieve("q", k=2, filters={"tags": ["a"]}, session_id="s", traversal_depth=1),
        "POST", "/memory/retrieve", {},
        {"query": "q", "k": 2, "filters": {"tags": ["a"]}, "session_id": "s", "traversal_depth": 1},
    ),
    "get": (lambda s: s.get(7), "GET", "/memory/7", {}, None),
    "update": (lambda s: s.update(7, event_type="note"), "PATCH", "/memory/7", {}, {"event_type": "note"}),
    "batch_update": (
        lambda s: s.batch_update([memorysync.BatchUpdateItem(memory_id=7, importance=0.2)]),
        "POST", "/memory/batch-update", {}, {"items": [{"memory_id": 7, "importance": 0.2}]},
    ),
    "history always sends limit and offset": (
        lambda s: s.history(7), "GET", "/memory/7/history", {"limit": "100", "offset": "0"}, None,
    ),
    "feedback": (
        lambda s: s.feedback(7, "ignored", comment="stale"), "POST", "/memory/7/feedback", {},
        {"signal": "ignored", "comment": "stale"},
    ),
    "export_all": (lambda s: s.export_all(), "GET", "/memory/export", {}, None),
    "forget by ids drops dry_run": (
        lambda s: s.forget([7], dry_run=True, reason="asked"), "DELETE", "/memory/forget", {},
        {"memory_ids": [7], "reason": "asked"},
    ),
    "forget by filters keeps dry_run": (
        lambda s: s.forget(filters={"tags": ["a"]}, dry_run=True), "DELETE", "/memory/forget", {},
        {"filters": {"tags": ["a"]}, "dry_run": True},
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", list(CASES))
def test_the_request_the_sdk_sends(sdk: Sdk, name: str) -> None:
    call, method, path, query, body = CASES[name]
    assert sdk.tenant_id == T
    try:
        call(sdk)
    except memorysync.MemorySyncError as error:
        # Calls on ids that don't exist answer 404 here; only the request matters.
        assert isinstance(error, memorysync.NotFoundError), error
    [sent] = sdk.exchanges()
    assert (sent.method, sent.path, sent.query, sent.body) == (method, path, query, body)
    assert sent.headers["x-api-key"]
    assert sent.headers["x-end-user-id"] == "alice"
    assert sent.headers["user-agent"] == "memorysync-sdk-py/1.10.1"
    assert sent.headers["accept"] == "application/json"
