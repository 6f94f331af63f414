"""upsert_memories: openapi.yaml has no batch state route, so a batch is at most one write per
memory, run side by side (at most 8 requests in flight), no write at all for a memory that did not
change, and one list request per user with 8+ memories in the batch instead of one get each."""

from __future__ import annotations

import httpx
from agno.db.schemas.memory import UserMemory

from agno_memorysync import AsyncMemorySyncDb, MemorySyncDb


class CountingTransport(httpx.AsyncHTTPTransport):
    """Real sockets; counts requests by path and the most that were in flight at once."""

    def __init__(self) -> None:
        super().__init__()
        self.paths: list[str] = []
        self.in_flight = 0
        self.most_in_flight = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.paths.append(request.url.path)
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            return await super().handle_async_request(request)
        finally:
            self.in_flight -= 1


def batch(n: int, text: str = "User fact") -> list[UserMemory]:
    return [UserMemory(memory=f"{text} {i}", memory_id=f"m{i:02}", user_id="u") for i in range(n)]


def test_a_batch_runs_side_by_side_and_skips_unchanged_writes(server, raw):
    server.faults.set(delay=0.05, route="/v1/state/")  # a round trip long enough to overlap
    transport = CountingTransport()
    db = MemorySyncDb(
        api_key=server.api_key, base_url=server.base_url, tenant_id=server.tenant_id, transport=transport
    )
    stored = db.upsert_memories(batch(20))
    assert [m.memory_id for m in stored] == [f"m{i:02}" for i in range(20)]  # the caller's order
    assert transport.paths.count("/v1/state/list") == 1 and "/v1/state/get" not in transport.paths
    assert transport.paths.count("/v1/state/put") == 20
    assert 1 < transport.most_in_flight <= 8
    # read back in the order of the batch, although the writes ran side by side
    assert [m.memory_id for m in db.get_user_memories(user_id="u")] == [f"m{i:02}" for i in range(20)]

    transport.paths.clear()
    again = db.upsert_memories(batch(20))
    assert again == stored
    assert transport.paths == ["/v1/state/list"]  # one read, no write
    transport.paths.clear()
    changed = db.upsert_memories(batch(3, "User changed fact"))  # few: one get each
    assert [m.memory for m in changed] == [f"User changed fact {i}" for i in range(3)]
    assert sorted(transport.paths) == ["/v1/state/get"] * 3 + ["/v1/state/put"] * 3
    assert len(raw.states("u")) == 20
    server.faults.clear()


def test_one_failed_memory_fails_the_batch_loudly_when_writes_must_not_fail_open(server):
    db = MemorySyncDb(api_key=server.api_key, base_url=server.base_url, fail_open_writes=False)
    server.faults.set(status=503, route="/v1/state/put", count=1)
    try:
        db.upsert_memories(batch(5))
    except Exception as exc:  # the one that failed surfaces, after every other one finished
        assert getattr(exc, "status_code", None) == 503
    else:
        raise AssertionError("a batch with a failed write returned as if stored")
    assert len(db.get_user_memories(user_id="u")) == 4
    db.upsert_memories(batch(5))  # the retry converges: every memory once
    assert sorted(m.memory_id for m in db.get_user_memories(user_id="u")) == [f"m{i:02}" for i in range(5)]


async def test_the_async_twin_batches_the_same_way(server):
    transport = CountingTransport()
    db = AsyncMemorySyncDb(
        api_key=server.api_key, base_url=server.base_url, tenant_id=server.tenant_id, transport=transport
    )
    server.faults.set(delay=0.05, route="/v1/state/")
    stored = await db.upsert_memories(batch(12))
    server.faults.clear()
    assert len(stored) == 12 and 1 < transport.most_in_flight <= 8
    found = await db.get_user_memories(user_id="u")
    assert [m.memory_id for m in found] == [f"m{i:02}" for i in range(12)]
    await db.close()
