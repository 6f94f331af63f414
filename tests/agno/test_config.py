"""Every configuration option reaches the wire (against the real server)."""

from __future__ import annotations

import logging

import httpx
from agno.db.schemas.memory import UserMemory

from agno_memorysync import AsyncMemorySyncDb, MemorySyncDb


class RecordingTransport(httpx.AsyncHTTPTransport):
    """A real transport (real sockets) that also remembers what it sent."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[httpx.Request] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.sent.append(request)
        return await super().handle_async_request(request)


def test_transport_project_id_and_id(server):
    project = httpx.get(f"{server.base_url}/org/projects", headers={"X-API-Key": server.api_key}).json()[0][
        "id"
    ]
    transport = RecordingTransport()
    db = MemorySyncDb(
        api_key=server.api_key,
        base_url=server.base_url,
        project_id=project,
        transport=transport,
        id="memories",
    )
    assert db.id == "memories"
    db.upsert_user_memory(UserMemory(memory="User likes tea", user_id="u"))
    assert [m.memory for m in db.get_user_memories(user_id="u")] == ["User likes tea"]
    paths = [r.url.path for r in transport.sent]
    assert paths[0] == "/org/projects" and paths.count("/org/projects") == 1  # discovered once
    assert {"/v1/state/get", "/v1/state/put", "/v1/state/list"} <= set(paths)
    assert all(r.headers["X-Project-ID"] == project for r in transport.sent)
    assert all(r.headers["User-Agent"].startswith("memorysync-kit/") for r in transport.sent)


def test_a_wrong_project_is_logged_as_an_error(server, caplog):
    db = MemorySyncDb(api_key=server.api_key, base_url=server.base_url, project_id="p_not_mine")
    with caplog.at_level(logging.WARNING, logger="agno_memorysync"):
        assert db.get_user_memories(user_id="u") == []
    assert [r.levelno for r in caplog.records] == [logging.ERROR] and "p_not_mine" in caplog.text


async def test_async_twin_takes_the_same_options(server):
    transport = RecordingTransport()
    db = AsyncMemorySyncDb(
        api_key=server.api_key,
        base_url=server.base_url,
        tenant_id=server.tenant_id,
        default_user_id="alice",
        source="agno-async",
        transport=transport,
        id="amem",
    )
    stored = await db.upsert_user_memory(UserMemory(memory="User likes tea"))
    assert stored.user_id == "alice" and db.id == "amem"
    assert "/org/projects" not in [r.url.path for r in transport.sent]  # tenant_id skips discovery
    assert [m.memory for m in await db.get_user_memories()] == ["User likes tea"]
    default_source = AsyncMemorySyncDb(api_key=server.api_key, base_url=server.base_url)
    assert await default_source.get_user_memories(user_id="alice") == []  # source scopes the rows


def test_an_evaluation_key_works_in_the_default_tenant(server):
    db = MemorySyncDb(api_key=server.eval_key, base_url=server.base_url)  # 403 on /org/projects
    assert db.upsert_user_memory(UserMemory(memory="User likes tea", user_id="u")) is not None
    assert [m.memory for m in db.get_user_memories(user_id="u")] == ["User likes tea"]
    own_tenant = MemorySyncDb(api_key=server.api_key, base_url=server.base_url)
    assert own_tenant.get_user_memories(user_id="u") == []  # another tenant's rows are invisible
