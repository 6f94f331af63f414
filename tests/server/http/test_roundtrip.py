"""The generated client, sync and async, calls every operation against the running server over
loopback, and every answer parses into the generated models with no field the spec lacks."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import attrs
import pytest
from memorysync_client import AuthenticatedClient
from memorysync_client.api.history import append_history, delete_history, list_history
from memorysync_client.api.memory import (
    add_memory,
    add_turn,
    batch_update_memories,
    bulk_add_memories,
    export_memories,
    forget_memories,
    get_memory,
    get_memory_history,
    give_memory_feedback,
    list_memories,
    memory_status,
    query_memories,
    recall,
    retrieve_memories,
    search_memories,
    update_memory,
)
from memorysync_client.api.org import list_projects
from memorysync_client.api.state import (
    delete_state,
    get_state,
    list_state,
    list_state_namespaces,
    put_state,
    search_state,
)
from memorysync_client.models import (
    AddMemoryRequest,
    AddMemorySkipped,
    AddTurnRequest,
    AddTurnResponse,
    AppendHistoryRequest,
    AppendHistoryResponse,
    DeleteHistoryBySession,
    DeleteHistoryResponse,
    DeleteStateRequest,
    DeleteStateResponse,
    FeedbackRequest,
    FeedbackResponse,
    FeedbackSummarySignalCounts,
    ForgetByFilter,
    ForgetByIds,
    GetStateRequest,
    GetStateResponse,
    ListHistoryRequest,
    ListHistoryResponse,
    ListStateNamespacesRequest,
    ListStateRequest,
    Memory,
    MemoryExport,
    MemoryHistory,
    MemoryList,
    MemoryQueryRequest,
    MemoryQueryResponse,
    MemoryRevisionDiff,
    MemoryStatus,
    MemoryUpdate,
    Metadata,
    Project,
    PutStateRequest,
    PutStateResponse,
    QueryRequest,
    QueryResponse,
    RecallRequest,
    RecallResponse,
    SearchStateRequest,
    StateItem,
    StateItemValue,
    StateList,
    StateNamespaces,
    StoredMetadata,
)
from memorysync_client.models import (
    BatchUpdateRequest as BatchUpdate,
)
from memorysync_client.models import (
    BatchUpdateResponse as BatchUpdated,
)
from memorysync_client.models import (
    BulkAddRequest as BulkAdd,
)
from memorysync_client.models import (
    BulkAddResponse as BulkAdded,
)

from memorysync_server import LocalServer
from tests.support.blocks import undated

# Maps whose keys are data, not field names.
FREE_FORM = (Metadata, StoredMetadata, StateItemValue, FeedbackSummarySignalCounts, MemoryRevisionDiff)
Call = Callable[..., Awaitable[Any]]


def _no_unknown_fields(value: Any, where: str) -> None:
    """Every field the server sent is one the spec names (free-form objects aside)."""
    if isinstance(value, FREE_FORM):
        return
    if attrs.has(type(value)):
        extra = getattr(value, "additional_properties", {})
        assert not extra, f"{where}: fields not in openapi.yaml: {sorted(extra)}"
        for field in attrs.fields(type(value)):
            if field.name != "additional_properties":
                _no_unknown_fields(getattr(value, field.name), f"{where}.{field.name}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _no_unknown_fields(item, f"{where}[{i}]")


async def _every_operation(call: Call, tenant: str) -> set[str]:
    """One pass over all 26 operations; returns the operation names it exercised."""
    seen: set[str] = set()
    user = {"tenant_id": tenant, "user_id": "round/trip user"}

    async def run(op: Any, expected: type | tuple[type, ...], **kwargs: Any) -> Any:
        parsed = await call(op, **kwargs)
        assert isinstance(parsed, expected), (op.__name__, parsed)
        _no_unknown_fields(parsed, op.__name__.rsplit(".", 1)[-1])
        seen.add(op.__name__.rsplit(".", 1)[-1])
        return parsed

    projects = await run(list_projects, list)
    assert isinstance(projects[0], Project) and projects[0].tenant_id == tenant
    turn = await run(
        add_turn,
        AddTurnResponse,
        body=AddTurnRequest.from_dict(
            {**user, "text": "I'm vegan, and I moved to Oslo", "metadata": {"k": "v"}}
        ),
    )
    assert turn.memory_id is None
    recalled = await run(
        recall, RecallResponse, body=RecallRequest.from_dict({**user, "prompt": "Oslo flight", "k": 3})
    )
    assert undated(recalled.context).startswith("- User moved to Oslo")
    await run(query_memories, QueryResponse, body=QueryRequest.from_dict({**user, "prompt": "vegan"}))
    listed = await run(list_memories, MemoryList, tenant_id=tenant, user_id=user["user_id"], limit=10)
    assert listed.total == 2
    end_user = {"x_end_user_id": user["user_id"]}
    stored = await run(
        add_memory,
        (Memory, AddMemorySkipped),
        body=AddMemoryRequest.from_dict(
            {
                "text": "I always take the window seat",
                "client_ref": "rt-1",
                "tags": ["travel"],
                "importance": 0.7,
            }
        ),
        **end_user,
    )
    assert isinstance(stored, Memory) and stored.tags == ["travel"] and stored.importance == 0.7
    again = await run(
        add_memory,
        (Memory, AddMemorySkipped),
        body=AddMemoryRequest.from_dict({"text": "I always take the window seat", "client_ref": "rt-1"}),
        **end_user,
    )
    assert isinstance(again, AddMemorySkipped) and again.memory_ids == [stored.id]
    bulk = await run(
        bulk_add_memories,
        BulkAdded,
        body=BulkAdd.from_dict({"items": [{"text": "I play the violin", "event_type": "preference"}]}),
        **end_user,
    )
    assert bulk.created == 1 and bulk.results and bulk.results[0].status == "created"
    for op in (search_memories, retrieve_memories):
        found = await run(
            op, MemoryQueryResponse, body=MemoryQueryRequest.from_dict({"query": "window seat"}), **end_user
        )
        assert found.memories[0].id == stored.id and found.memories[0].score
    status = await run(memory_status, MemoryStatus, memory_id=stored.id, **end_user)
    assert status.searchable is True
    got = await run(get_memory, Memory, memory_id=stored.id, **end_user)
    assert got.text == stored.text
    patched = await run(
        update_memory,
        Memory,
        memory_id=stored.id,
        body=MemoryUpdate.from_dict({"tags": ["seat"]}),
        **end_user,
    )
    assert patched.tags == ["seat"]
    batch = await run(
        batch_update_memories,
        BatchUpdated,
        body=BatchUpdate.from_dict({"items": [{"memory_id": stored.id, "event_type": "preference"}]}),
        **end_user,
    )
    assert batch.updated == 1 and batch.results[0].changed_fields == ["event_type"]
    feedback = await run(
        give_memory_feedback,
        FeedbackResponse,
        memory_id=stored.id,
        body=FeedbackRequest.from_dict({"signal": "positive"}),
        **end_user,
    )
    assert feedback.importance_after == 0.8
    history = await run(get_memory_history, MemoryHistory, memory_id=stored.id, **end_user)
    assert [r.event for r in history.revisions] == ["created", "updated", "updated", "updated"]
    exported = await run(export_memories, MemoryExport, **end_user)
    assert len(exported.memories) == 4
    forgot = await run(
        forget_memories, list, body=ForgetByIds.from_dict({"memory_ids": [stored.id]}), **end_user
    )
    assert forgot == [stored.id]
    by_filter = await run(
        forget_memories,
        list,
        body=ForgetByFilter.from_dict({"filters": {"event_type": "preference"}, "dry_run": True}),
        **end_user,
    )
    assert by_filter == [bulk.results[0].memory_ids[0]]
    appended = await run(
        append_history,
        AppendHistoryResponse,
        body=AppendHistoryRequest.from_dict(
            {
                **user,
                "session_id": "rt",
                "turns": [
                    {"role": "user", "content": "I play the cello", "seq": 0, "payload": {"a": [1]}},
                    {
                        "role": "assistant",
                        "content": "Nice!",
                        "seq": 1,
                        "occurred_at": "2026-01-01T00:00:00Z",
                    },
                ],
            }
        ),
    )
    assert [t.created for t in appended.items] == [True, True]
    history = await run(
        list_history, ListHistoryResponse, body=ListHistoryRequest.from_dict({**user, "session_id": "rt"})
    )
    assert history.total == 2
    put = await run(
        put_state,
        PutStateResponse,
        body=PutStateRequest.from_dict(
            {
                **user,
                "namespace": ["agno"],
                "key": "m1",
                "value": {"memory": "User is vegan"},
                "text": "User is vegan",
            }
        ),
    )
    assert isinstance(put.item, StateItem) and put.created is True
    got = await run(
        get_state,
        GetStateResponse,
        body=GetStateRequest.from_dict({**user, "namespace": ["agno"], "key": "m1"}),
    )
    assert isinstance(got.item, StateItem) and got.item.id == put.item.id
    await run(list_state, StateList, body=ListStateRequest.from_dict({**user, "namespace_prefix": ["agno"]}))
    spaces = await run(
        list_state_namespaces, StateNamespaces, body=ListStateNamespacesRequest.from_dict(user)
    )
    assert spaces.to_dict()["namespaces"] == [["agno"]]
    found = await run(search_state, StateList, body=SearchStateRequest.from_dict({**user, "query": "vegan"}))
    assert found.items[0].score is not None and 0 < found.items[0].score <= 1
    deleted = await run(
        delete_state,
        DeleteStateResponse,
        body=DeleteStateRequest.from_dict({**user, "namespace": ["agno"], "keys": None}),
    )
    assert deleted.deleted_ids == [put.item.id]
    gone = await run(
        delete_history,
        DeleteHistoryResponse,
        body=DeleteHistoryBySession.from_dict({**user, "session_id": "rt", "delete_derived_facts": True}),
    )
    assert len(gone.deleted_ids) == 2 and len(gone.deleted_fact_ids) == 1
    return seen


@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_generated_client_round_trips_every_operation(server: LocalServer, mode: str) -> None:
    client = AuthenticatedClient(
        base_url=server.base_url, token=server.api_key, prefix="", auth_header_name="X-API-Key"
    )

    async def call(op: Any, **kwargs: Any) -> Any:
        if mode == "sync":
            response = op.sync_detailed(client=client, **kwargs)
        else:
            response = await op.asyncio_detailed(client=client, **kwargs)
        assert 200 <= response.status_code < 300, (op.__name__, response.status_code, response.content)
        return response.parsed

    async with client:
        with client:
            seen = await _every_operation(call, server.tenant_id)
    assert len(seen) == 26, sorted(seen)
